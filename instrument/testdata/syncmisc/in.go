package syncmisc

import "sync"

type Svc struct {
	sync.WaitGroup
	once sync.Once
	cond *sync.Cond
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
