package close_close_future

import "sync"

type FutureFixed struct {
	once sync.Once
	done chan struct{}
	val  string
	err  error
}

func NewFutureFixed() *FutureFixed { return &FutureFixed{done: make(chan struct{})} }

func (f *FutureFixed) complete(v string, err error) {
	f.once.Do(func() {
		f.val, f.err = v, err
		close(f.done)
	})
}

func (f *FutureFixed) Resolve(v string) { f.complete(v, nil) }

func (f *FutureFixed) Cancel() { f.complete("", ErrCancelled) }

func (f *FutureFixed) Wait() (string, error) {
	<-f.done
	return f.val, f.err
}
