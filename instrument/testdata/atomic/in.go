package atomicrule

import (
	"sync/atomic"
)

type C struct {
	n   atomic.Int64
	ok  atomic.Bool
	v   atomic.Value
	p   atomic.Pointer[int]
	raw int32
}

func Use(c *C) int64 {
	atomic.AddInt32(&c.raw, 1)
	c.n.Add(1)
	c.ok.Store(true)
	c.v.Store("x")
	c.p.Store(new(int))
	if atomic.LoadInt32(&c.raw) > 0 && c.ok.Load() {
		defer atomic.AddInt32(&c.raw, -1)
	}
	_ = c.v.Load()
	return c.n.Load() + int64(*c.p.Load())
}
