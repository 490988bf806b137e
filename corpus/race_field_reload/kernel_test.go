package race_field_reload

import "testing"

type client interface {
	Reload(Config)
	Settings() Config
}

func run(t *testing.T, c client) {
	reloaded := make(chan struct{})
	go func() { // SIGHUP: reload config version 2
		c.Reload(Config{Version: 2, Timeout: 200, Retries: 2})
		close(reloaded)
	}()
	if s := c.Settings(); !s.Consistent() { // a request in flight
		t.Errorf("handler saw a torn config: %+v", s)
	}
	<-reloaded
	if s := c.Settings(); s.Version != 2 || !s.Consistent() {
		t.Errorf("after reload: %+v", s)
	}
}

func TestBug(t *testing.T) { run(t, NewClient(Config{Version: 1, Timeout: 100, Retries: 1})) }

func TestFixed(t *testing.T) {
	run(t, NewClientFixed(Config{Version: 1, Timeout: 100, Retries: 1}))
}
