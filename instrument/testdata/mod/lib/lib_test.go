package lib

import (
	"os"
	"testing"
)

func TestBank(t *testing.T) {
	b := NewBank()
	done := make(chan bool)
	for i := 0; i < 4; i++ {
		go func(n int) {
			b.Deposit("a", n)
			done <- true
		}(i)
	}
	for i := 0; i < 4; i++ {
		<-done
	}
	if v, ok := b.Balance("a"); !ok || v != 6 {
		t.Fatalf("balance %d %v", v, ok)
	}
	if b.Total() != 6 || b.ops.Load() != 4 || len(b.log) != 4 {
		t.Error("total")
	}
}

func TestStack(_ *testing.T) {
	var s Stack[string]
	s.Push("x")
	if v, ok := s.Pop(); !ok || v != "x" {
		panic("pop")
	}
}

func TestPipeline(t *testing.T) {
	if got := Pipeline(10); got != 55 {
		t.Errorf("pipeline = %d", got)
	}
}

func TestShared(t *testing.T) {
	if got := Shared(5); got != 5 {
		t.Errorf("shared = %d", got)
	}
}

func TestTimeout(t *testing.T) {
	ch := make(chan int, 1)
	ch <- 3
	if s, err := Timeout(ch); s != "value" || err.Error() != "3" {
		t.Errorf("got %s %v", s, err)
	}
	close(ch)
	if s, _ := Timeout(ch); s != "closed" {
		t.Errorf("got %s", s)
	}
	if s, _ := Timeout(make(chan int)); s != "ctx" {
		t.Errorf("got %s", s)
	}
}

func TestOnceCond(t *testing.T) {
	if OnceCond() != 1 {
		t.Fail()
	}
}

// TestCrash panics in util on purpose; run only by the instrument tests.
func TestCrash(t *testing.T) {
	if os.Getenv("GOPCT_TEST_CRASH") == "" {
		t.Skip("set GOPCT_TEST_CRASH to run")
	}
	Boom()
}
