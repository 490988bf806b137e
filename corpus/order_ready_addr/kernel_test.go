package order_ready_addr

import "testing"

type server interface {
	Run()
	Ready() <-chan struct{}
	Addr() string
	Stop()
}

func run(t *testing.T, s server) {
	nextPort = 40000
	done := make(chan struct{})
	go func() {
		s.Run()
		close(done)
	}()
	<-s.Ready()
	if addr := s.Addr(); addr != "127.0.0.1:40001" {
		t.Errorf("Addr() = %q after Ready", addr)
	}
	s.Stop()
	<-done
}

func TestBug(t *testing.T) { run(t, NewServer()) }

func TestFixed(t *testing.T) { run(t, NewServerFixed()) }
