package tfail

import "testing"

type myT struct{ *testing.T }

func check(tb testing.TB, xs []any) {
	tb.Error(xs...)
	tb.Errorf("%d %s", 1, "a")
	tb.Fail()
}

func TestFail(t *testing.T) {
	if false {
		t.Error("a", 1)
		t.Fatalf("b %d", 2)
		t.FailNow()
		m := myT{t}
		m.Fatal("c")
		check(t, nil)
	}
	t.Log("fine")
}
