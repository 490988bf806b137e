// Package useinit uses a value before it is initialised. The service
// signals "ready" by closing a channel, but the initialising goroutine closes
// it before it writes the value, so a reader woken by the signal can read the
// zero value.
package useinit

// Service has a name that is set up in the background.
type Service struct {
	ready chan struct{}
	name  string
}

// Start returns a service whose set-up runs in the background.
func Start() *Service {
	s := &Service{ready: make(chan struct{})}
	go func() {
		close(s.ready) // BUG: signals readiness before the name is written
		s.name = "payments"
	}()
	return s
}

// Name waits until the service is ready and returns its name.
func (s *Service) Name() string {
	<-s.ready
	return s.name
}
