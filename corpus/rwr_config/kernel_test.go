package rwr_config

import "testing"

var initial = map[string]string{"timeout": "", "default.timeout": "5s", "retries": "3"}

func TestBug(t *testing.T) {
	s := NewStore(initial)
	done := make(chan struct{})
	go func() { // config file changed
		s.Reload(map[string]string{"retries": "4"})
		close(done)
	}()
	eff := Effective(s)
	<-done
	if eff["timeout"] != "5s" {
		t.Errorf("timeout = %q, want 5s", eff["timeout"])
	}
}

func TestFixed(t *testing.T) {
	s := NewStoreFixed(initial)
	done := make(chan struct{})
	go func() {
		s.Reload(map[string]string{"retries": "4"})
		close(done)
	}()
	eff := EffectiveFixed(s)
	<-done
	if eff["timeout"] != "5s" {
		t.Errorf("timeout = %q, want 5s", eff["timeout"])
	}
}
