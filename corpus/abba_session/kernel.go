// Package abba_session: a session manager. The reaper holds the manager lock
// and then locks each session; Session.Close holds the session lock and then
// deregisters itself under the manager lock.
package abba_session

import "sync"

type Session struct {
	id     string
	mgr    *Manager
	mu     sync.Mutex
	idle   bool
	closed bool
}

type Manager struct {
	mu       sync.Mutex
	sessions map[string]*Session
	reaped   int
}

func NewManager() *Manager { return &Manager{sessions: make(map[string]*Session)} }

func (m *Manager) Open(id string) *Session {
	s := &Session{id: id, mgr: m}
	m.mu.Lock()
	m.sessions[id] = s
	m.mu.Unlock()
	return s
}

// ReapIdle closes idle sessions: manager lock, then each session lock.
func (m *Manager) ReapIdle() {
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

func (m *Manager) remove(id string) {
	m.mu.Lock()
	delete(m.sessions, id)
	m.mu.Unlock()
}

func (s *Session) MarkIdle() {
	s.mu.Lock()
	s.idle = true
	s.mu.Unlock()
}

// Close: session lock, then manager lock (BUG: the opposite order of ReapIdle).
func (s *Session) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	s.mgr.remove(s.id)
}

func (m *Manager) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.sessions)
}
