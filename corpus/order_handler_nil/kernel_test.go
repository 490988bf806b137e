package order_handler_nil

import "testing"

func TestBug(t *testing.T) {
	s := NewServer()
	s.Start(Upper)
	if got := s.Do("/health"); got != "/HEALTH" {
		t.Errorf("Do = %q", got)
	}
	s.Stop()
}

func TestFixed(t *testing.T) {
	s := NewServerFixed()
	s.Start(Upper)
	if got := s.Do("/health"); got != "/HEALTH" {
		t.Errorf("Do = %q", got)
	}
	s.Stop()
}
