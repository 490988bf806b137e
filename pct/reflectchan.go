package pct

import (
	"reflect"
	"slices"
)

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
// receive synchronise). reflect.Select is a select statement whose cases
// come in a slice (fan-in helpers merge a dynamic set of channels with it):
// ReflectSelect tries its cases in the strategy's order, like Select.

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

// ReflectSelect is reflect.Select(cases): the cases other than the
// default (and those whose Chan is the zero Value, which reflect.Select
// ignores) are tried without blocking in the order the strategy picks;
// when none is ready and there is no default, the goroutine blocks in the
// real reflect.Select, which the scheduler sees as a blocked select.
func ReflectSelect(site int, cases []reflect.SelectCase) (chosen int, recv reflect.Value, recvOK bool) {
	live, def := reflectCases(cases)
	if e, _ := self(); e == nil || len(live) == 0 {
		return reflect.Select(cases)
	}
	try := func(j int) bool {
		c := cases[live[j]]
		if c.Dir == reflect.SelectSend {
			return c.Chan.TrySend(c.Send)
		}
		// The zero Value when the receive would block; a closed channel
		// gives its element type's zero value and ok false.
		x, ok := c.Chan.TryRecv()
		recv, recvOK = x, ok
		return x.IsValid()
	}
	block := func() int { // only without a default case; reflect.Select takes a live one
		chosen, recv, recvOK = reflect.Select(cases)
		return slices.Index(live, chosen)
	}
	chans := func(j int) (uintptr, bool) {
		c := cases[live[j]]
		return uintptr(c.Chan.UnsafePointer()), c.Dir == reflect.SelectSend
	}
	if j := selectOp(site, len(live), def >= 0, try, block, chans); j >= 0 {
		return live[j], recv, recvOK
	}
	return def, reflect.Value{}, false
}

// reflectCases lists the indexes of the cases that can be taken by a
// channel operation, and the index of the default case (-1: none).
func reflectCases(cases []reflect.SelectCase) (live []int, def int) {
	def = -1
	for i, c := range cases {
		switch {
		case c.Dir == reflect.SelectDefault:
			def = i
		case c.Chan.IsValid():
			live = append(live, i)
		}
	}
	return live, def
}
