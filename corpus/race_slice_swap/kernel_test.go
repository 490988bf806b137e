package race_slice_swap

import (
	"sort"
	"strings"
	"testing"
)

func check(t *testing.T, sink *Sink) {
	got := append([]string(nil), sink.lines...)
	sort.Strings(got)
	if strings.Join(got, ",") != "a,b" {
		t.Errorf("shipped %v, want each of a, b exactly once", got)
	}
}

func TestBug(t *testing.T) {
	s := &Shipper{sink: &Sink{}}
	s.Write("a")
	flushed := make(chan struct{})
	go func() { // the periodic flusher
		s.Flush()
		close(flushed)
	}()
	s.Write("b")
	<-flushed
	s.Flush()
	check(t, s.sink)
}

func TestFixed(t *testing.T) {
	s := &ShipperFixed{sink: &Sink{}}
	s.Write("a")
	flushed := make(chan struct{})
	go func() {
		s.Flush()
		close(flushed)
	}()
	s.Write("b")
	<-flushed
	s.Flush()
	check(t, s.sink)
}
