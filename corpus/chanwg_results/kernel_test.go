package chanwg_results

import (
	"errors"
	"testing"
)

func newBackend() *Backend {
	return &Backend{data: map[string]string{"a": "1", "b": "2"}}
}

func TestBug(t *testing.T) {
	out, err := FetchAll(newBackend(), []string{"a", "b"})
	if err != nil && !errors.Is(err, ErrBusy) {
		t.Fatal(err)
	}
	if err == nil && len(out) != 2 {
		t.Errorf("out = %v", out)
	}
}

func TestFixed(t *testing.T) {
	out, err := FetchAllFixed(newBackend(), []string{"a", "b"})
	if err != nil && !errors.Is(err, ErrBusy) {
		t.Fatal(err)
	}
	if err == nil && len(out) != 2 {
		t.Errorf("out = %v", out)
	}
}
