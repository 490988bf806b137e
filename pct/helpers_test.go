package pct

import (
	"testing"
	"unsafe"
)

// The helpers behave like the operations they stand for outside control.

func TestXAppendRegistersOnlyNewArrays(t *testing.T) {
	saved := heap
	profiling = true
	defer func() { profiling, heap = false, saved }()
	heap = memMap{}
	s := make([]int, 1, 2)
	r := XAppend(sAlloc, s)(7)
	if len(r) != 2 || r[1] != 7 || unsafe.SliceData(r) != unsafe.SliceData(s) {
		t.Fatalf("append within capacity = %v, moved %v", r, unsafe.SliceData(r) != unsafe.SliceData(s))
	}
	if name := varAt(uintptr(unsafe.Pointer(&r[1]))); name != "" {
		t.Fatalf("append within capacity registered the array as %q", name)
	}
	r = XAppend(sAlloc, r)(8, 9)
	if len(r) != 4 || r[3] != 9 {
		t.Fatalf("growing append = %v", r)
	}
	if name := varAt(uintptr(unsafe.Pointer(&r[3]))); name != sitePos(sAlloc) {
		t.Errorf("grown array named %q, want the append site %q", name, sitePos(sAlloc))
	}
}

func TestXStoreSendMapStoreZero(t *testing.T) {
	var err error
	XStore(sW, &err)(errTest{}) // T inferred from the pointer: error
	if err == nil {
		t.Error("XStore did not store")
	}
	ch := make(chan any, 1)
	XSend(sSend, ch)(3)
	if v := <-ch; v != 3 {
		t.Errorf("XSend sent %v", v)
	}
	m := map[string]any{}
	XMapStore(sMap, m)("k", 1)
	if m["k"] != 1 {
		t.Errorf("XMapStore: %v", m)
	}
	if v, ok := XZero(make(<-chan string)); v != "" || ok {
		t.Errorf("XZero = %q, %v", v, ok)
	}
}

type errTest struct{}

func (errTest) Error() string { return "test" }
