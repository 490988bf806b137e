// Package cta_lazy_init: a service dials its database lazily on first use with
// an unsynchronized nil check. Two requests arriving together both see nil
// and both dial; one connection leaks.
package cta_lazy_init

import "sync/atomic"

type DB struct {
	id     int32
	closed bool
}

type Dialer struct {
	dials atomic.Int32
	open  atomic.Int32
}

func (d *Dialer) Dial() *DB {
	d.open.Add(1)
	return &DB{id: d.dials.Add(1)}
}

type Service struct {
	dialer *Dialer
	db     *DB
}

func (s *Service) conn() *DB {
	if s.db == nil { // BUG: check-then-act without synchronization
		s.db = s.dialer.Dial()
	}
	return s.db
}

func (s *Service) HandleRequest(user string) string {
	return user + "@db" + string('0'+rune(s.conn().id))
}
