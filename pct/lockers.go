package pct

import (
	"reflect"
	"runtime"
	"sync"
	"unsafe"
)

// Lock methods reached through an interface. The instrumenter rewrites a
// direct x.Lock() on a sync.Mutex or sync.RWMutex, own or promoted from an
// embedded field, to the mutex's model; a call through an interface (a
// sync.Locker, or the code's own interface with Lock and Unlock, or RLock
// and RUnlock) reaches whatever method the dynamic type has. lockTarget
// finds, from that type, the standard mutex the method is promoted from, so
// that both calls reach the same model: go-sqlmock locks its expectations
// through its expectation interface and unlocks them directly, and before
// the interface's call was modelled every execution ended in "sync: unlock
// of unlocked mutex". The type is read by reflection, so generic types,
// types declared inside functions and paths through other packages'
// unexported fields are found as well (a registration per declared type
// could name none of them).

// lockTarget returns the standard mutex whose method name ("Lock",
// "Unlock", "RLock", "RUnlock", "TryLock" or "TryRLock") v's method is, and the mode of that
// method (through an embedded interface, the embedded value's); ok is
// false when v's method is code of its own (a Lock declared by the user,
// or gopct's RLocker), which then runs as written.
func lockTarget(v any, name string) (m sync.Locker, mode lockMode, ok bool) {
	switch m := v.(type) {
	case *sync.Mutex:
		return m, mutexW, name == "Lock" || name == "Unlock" || name == "TryLock"
	case *sync.RWMutex:
		return m, methodMode(name), true
	case nil:
		return nil, 0, false
	}
	t := reflect.TypeOf(v)
	if t == syncRLockerType {
		// rw.RLocker() called where gopct did not rewrite it (through an
		// interface): its Lock is rw.RLock.
		rw := (*sync.RWMutex)(reflect.ValueOf(v).UnsafePointer())
		return rw, rwR, name == "Lock" || name == "Unlock"
	}
	path := promotedPath(t, name)
	if path == nil {
		return nil, 0, false
	}
	if path.iface {
		// struct{ sync.Locker }: the method is the embedded value's.
		if inner, ok := path.ifaceValue(reflect.ValueOf(v)); ok {
			return lockTarget(inner, name)
		}
		return nil, 0, false
	}
	p := path.follow(reflect.ValueOf(v))
	if p == nil {
		return nil, 0, false // a nil embedded pointer: the real call panics
	}
	if path.rw {
		return (*sync.RWMutex)(p), methodMode(name), true
	}
	return (*sync.Mutex)(p), mutexW, true
}

// methodMode is the mode of an RWMutex's method name.
func methodMode(name string) lockMode {
	if name == "RLock" || name == "RUnlock" || name == "TryRLock" {
		return rwR
	}
	return rwW
}

var (
	mutexType       = reflect.TypeFor[sync.Mutex]()
	rwMutexType     = reflect.TypeFor[sync.RWMutex]()
	syncRLockerType = reflect.TypeOf(new(sync.RWMutex).RLocker())
)

// mutexPath is where a type's promoted mutex lies: the indexes of the
// embedded fields that lead to it, from the value.
type mutexPath struct {
	index []int
	rw    bool // a sync.RWMutex (else a sync.Mutex)
	iface bool // an embedded interface, whose value has the method
}

// field returns the embedded field at the end of the path in v; ok is
// false when an embedded pointer on the way is nil.
func (mp *mutexPath) field(v reflect.Value) (reflect.Value, bool) {
	for _, i := range mp.index {
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return v, false
			}
			v = v.Elem()
		}
		v = v.Field(i)
	}
	return v, true
}

// ifaceValue returns the value of the embedded interface at the end of the
// path in v (an unexported field is read through its address).
func (mp *mutexPath) ifaceValue(v reflect.Value) (any, bool) {
	v, ok := mp.field(v)
	switch {
	case !ok || v.IsNil():
		return nil, false
	case v.CanInterface():
		return v.Interface(), true
	case v.CanAddr():
		return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem().Interface(), true
	}
	return nil, false
}

// follow returns the address of the mutex along the path in v, or nil when
// an embedded pointer on the way is nil.
func (mp *mutexPath) follow(v reflect.Value) unsafe.Pointer {
	v, ok := mp.field(v)
	if !ok {
		return nil
	}
	if v.Kind() == reflect.Pointer {
		return v.UnsafePointer()
	}
	if !v.CanAddr() {
		return nil
	}
	return unsafe.Pointer(v.UnsafeAddr())
}

type pathKey struct {
	t    reflect.Type
	name string
}

// promotedPaths caches promotedPath: *mutexPath, nil for a method that is
// not a standard mutex's. A sync.Map: goroutines gopct does not manage
// call through interfaces too.
var promotedPaths sync.Map

// promotedPath returns the path to the sync.Mutex or sync.RWMutex from
// which type t's method name is promoted, or nil.
func promotedPath(t reflect.Type, name string) *mutexPath {
	k := pathKey{t, name}
	if p, ok := promotedPaths.Load(k); ok {
		return p.(*mutexPath)
	}
	p := findPromoted(t, name)
	promotedPaths.Store(k, p)
	return p
}

// embedded is a type met while looking for a promoted method: the type of
// an embedded field (or the dynamic type itself) and the field indexes
// that lead to it.
type embedded struct {
	t     reflect.Type
	index []int
}

// findPromoted looks for method name as Go's promotion rules do: depth by
// depth through embedded fields, the shallowest type that declares it
// wins, and two at the same depth cancel out.
func findPromoted(t reflect.Type, name string) *mutexPath {
	level := []embedded{{t: t}}
	for depth := 0; depth < 32 && len(level) > 0; depth++ {
		var found *embedded
		var next []embedded
		for i := range level {
			et := level[i].t
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if declares(et, name) {
				if found != nil {
					return nil // ambiguous: no such method
				}
				found = &level[i]
				continue
			}
			if et.Kind() != reflect.Struct {
				continue
			}
			for f := 0; f < et.NumField(); f++ {
				if sf := et.Field(f); sf.Anonymous {
					next = append(next, embedded{sf.Type, append(level[i].index[:len(level[i].index):len(level[i].index)], f)})
				}
			}
		}
		if found != nil {
			return mutexAt(found, name)
		}
		level = next
	}
	return nil
}

// mutexAt is the path to found when it is a standard mutex that has the
// method name or an embedded interface, nil when it is a type of the
// user's.
func mutexAt(found *embedded, name string) *mutexPath {
	et := found.t
	if et.Kind() == reflect.Pointer {
		et = et.Elem()
	}
	if len(found.index) > 0 && found.t.Kind() == reflect.Interface {
		return &mutexPath{index: found.index, iface: true}
	}
	if len(found.index) == 0 || (et != mutexType && et != rwMutexType) {
		return nil
	}
	if et == mutexType && name != "Lock" && name != "Unlock" && name != "TryLock" {
		return nil
	}
	return &mutexPath{index: found.index, rw: et == rwMutexType}
}

// declares reports whether t (a type that is not a pointer) or *t declares
// method name itself, rather than by promotion: a promoted method is a
// wrapper the compiler generates, an interface's methods are the
// interface's own.
func declares(t reflect.Type, name string) bool {
	if t.Kind() == reflect.Interface {
		_, ok := methodNamed(t, name)
		return ok
	}
	for _, tt := range []reflect.Type{t, reflect.PointerTo(t)} {
		if m, ok := methodNamed(tt, name); ok && !generated(m.Func) {
			return true
		}
	}
	return false
}

// methodNamed is t.MethodByName(name) for the lock methods, each with a
// constant name: a MethodByName with a name the linker cannot see keeps
// every exported method of every type in the test binary (measured: a
// program using net/http, 5.5 MB with constant names, 10.2 MB without).
func methodNamed(t reflect.Type, name string) (reflect.Method, bool) {
	switch name {
	case "Lock":
		return t.MethodByName("Lock")
	case "Unlock":
		return t.MethodByName("Unlock")
	case "RLock":
		return t.MethodByName("RLock")
	case "RUnlock":
		return t.MethodByName("RUnlock")
	case "TryLock":
		return t.MethodByName("TryLock")
	case "TryRLock":
		return t.MethodByName("TryRLock")
	}
	return reflect.Method{}, false
}

// generated reports whether fn is a wrapper the compiler generated, for a
// promoted method or a value method called through a pointer.
func generated(fn reflect.Value) bool {
	f := runtime.FuncForPC(fn.Pointer())
	if f == nil {
		return false
	}
	file, _ := f.FileLine(f.Entry())
	return file == "<autogenerated>"
}
