package recv_pipeline_noclose

import "testing"

func TestBug(t *testing.T) {
	r, n := First(Lines("a=1", "b=2"))
	if r.Key != "a" || r.Value != "1" || n < 1 {
		t.Errorf("first = %+v (%d records)", r, n)
	}
}

func TestFixed(t *testing.T) {
	r, n := FirstFixed(Lines("a=1", "b=2"))
	if r.Key != "a" || r.Value != "1" || n < 1 {
		t.Errorf("first = %+v (%d records)", r, n)
	}
}
