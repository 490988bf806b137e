package rwr_router

import "testing"

func api(p string) string    { return "api" }
func health(p string) string { return "health" }

func TestBug(t *testing.T) {
	r := NewRouter()
	r.Handle("/api", api)
	done := make(chan struct{})
	go func() { // a plugin registers a route at runtime
		r.Handle("/healthz", health)
		close(done)
	}()
	if got := r.Serve("/api/v1/users"); got != "api" {
		t.Errorf("Serve = %q, want api", got)
	}
	<-done
}

func TestFixed(t *testing.T) {
	r := NewRouterFixed()
	r.Handle("/api", api)
	done := make(chan struct{})
	go func() {
		r.Handle("/healthz", health)
		close(done)
	}()
	if got := r.Serve("/api/v1/users"); got != "api" {
		t.Errorf("Serve = %q, want api", got)
	}
	<-done
}
