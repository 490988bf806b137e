package cta_lazy_init

import "sync"

type ServiceFixed struct {
	dialer *Dialer
	once   sync.Once
	db     *DB
}

func (s *ServiceFixed) conn() *DB {
	s.once.Do(func() { s.db = s.dialer.Dial() })
	return s.db
}

func (s *ServiceFixed) HandleRequest(user string) string {
	return user + "@db" + string('0'+rune(s.conn().id))
}
