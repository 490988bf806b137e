package abba_session

import "sync"

// SessionFixed.Close releases its own lock before deregistering, so no
// goroutine ever holds a session lock while waiting for the manager lock.
type SessionFixed struct {
	id     string
	mgr    *ManagerFixed
	mu     sync.Mutex
	idle   bool
	closed bool
}

type ManagerFixed struct {
	mu       sync.Mutex
	sessions map[string]*SessionFixed
	reaped   int
}

func NewManagerFixed() *ManagerFixed {
	return &ManagerFixed{sessions: make(map[string]*SessionFixed)}
}

func (m *ManagerFixed) Open(id string) *SessionFixed {
	s := &SessionFixed{id: id, mgr: m}
	m.mu.Lock()
	m.sessions[id] = s
	m.mu.Unlock()
	return s
}

func (m *ManagerFixed) ReapIdle() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, s := range m.sessions {
		s.mu.Lock()
		if s.idle && !s.closed {
			s.closed = true
			delete(m.sessions, id)
			m.reaped++
		}
		s.mu.Unlock()
	}
}

func (m *ManagerFixed) remove(id string) {
	m.mu.Lock()
	delete(m.sessions, id)
	m.mu.Unlock()
}

func (s *SessionFixed) MarkIdle() {
	s.mu.Lock()
	s.idle = true
	s.mu.Unlock()
}

func (s *SessionFixed) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.mu.Unlock()
	s.mgr.remove(s.id)
}

func (m *ManagerFixed) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.sessions)
}
