package pct

import "reflect"

// Channel operations through package reflect.
//
// reflect.Value's Recv, Send and Close on a channel are the channel
// operations they name, made by code that does not know the channel's type:
// reactivex/rxgo's Just(ch) receives from the test's channel with
// reflect.Value.Recv. Left to the standard library, such a receive blocked
// where gopct could not see it (exit 2, "blocked inside code gopct does not
// instrument"). The instrumenter rewrites the three methods into these
// functions, which are scheduling points and model blocking as the typed
// operations do (the same channel identity, so a reflect send and a typed
// receive synchronise). reflect.Select is not modelled.

// ReflectRecv is v.Recv().
func ReflectRecv(site int, v reflect.Value) (x reflect.Value, ok bool) {
	e, g := self()
	if e == nil || v.Kind() != reflect.Chan {
		return v.Recv()
	}
	e.chanOp(g, site, v.UnsafePointer(), func() bool {
		// TryRecv: the zero Value when the receive would block; a closed
		// channel gives its element type's zero value.
		x, ok = v.TryRecv()
		return x.IsValid()
	}, func() { x, ok = v.Recv() })
	return
}

// ReflectSend is v.Send(x).
func ReflectSend(site int, v reflect.Value, x reflect.Value) {
	e, g := self()
	if e == nil || v.Kind() != reflect.Chan {
		v.Send(x)
		return
	}
	e.chanOp(g, site, v.UnsafePointer(), func() bool { return v.TrySend(x) }, func() { v.Send(x) })
}

// ReflectClose is v.Close().
func ReflectClose(site int, v reflect.Value) {
	if v.Kind() == reflect.Chan {
		closeOp(site, v.UnsafePointer())
	}
	v.Close()
}
