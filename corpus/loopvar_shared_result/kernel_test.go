package loopvar_shared_result

import "testing"

func backend() *Backend {
	return &Backend{pages: map[string]string{"/a": " page A ", "/b": " page B "}}
}

func check(t *testing.T, out map[string]string) {
	if out["/a"] != "page A" || out["/b"] != "page B" {
		t.Errorf("out = %q", out)
	}
}

func TestBug(t *testing.T) { check(t, FetchAll(backend(), []string{"/a", "/b"})) }

func TestFixed(t *testing.T) { check(t, FetchAllFixed(backend(), []string{"/a", "/b"})) }
