package syncmisc

import "sync"

type Svc struct {
	sync.WaitGroup
	once sync.Once
	cond *sync.Cond
}

// Package-level Onces (and their fields) start what serves the process:
// OnceDoGlobal; a pointer's is the object's.
var (
	setup  sync.Once
	global Svc
	ptr    = &Svc{}
)

func Setup() {
	setup.Do(func() {})
	global.once.Do(func() {})
	ptr.once.Do(func() {})
}

func Run(s *Svc, wg *sync.WaitGroup) {
	wg.Add(2)
	go func() { defer wg.Done(); s.once.Do(func() {}) }()
	wg.Go(func() {})
	s.Add(1)
	s.Done()
	s.Wait()
	wg.Wait()
	s.cond.L.Lock()
	s.cond.Wait()
	s.cond.Signal()
	s.cond.Broadcast()
	s.cond.L.Unlock()
}
