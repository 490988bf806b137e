package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// promotedLockers renders the registration (pct.PromotedLocker) of each
// type declared at the top of the file whose Lock and Unlock are promoted
// from an embedded sync.Mutex or sync.RWMutex, with the function that
// returns that mutex. The direct call x.Lock() is rewritten to the embedded
// mutex's model (recvArg); a call through an interface (lockerMethod) finds
// the same mutex through the registration. Without it the two disagreed:
// go-sqlmock locks its expectations through an interface and unlocks them
// directly, and every execution ended in "sync: unlock of unlocked mutex".
// Generic types are left out (their instances have no single type to
// register), and so are types whose path to the mutex crosses an
// unexported field of another package.
func (r *fileRewriter) promotedLockers() string {
	var b strings.Builder
	for _, d := range r.file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, sp := range gd.Specs {
			ts := sp.(*ast.TypeSpec)
			if ts.Assign.IsValid() || ts.TypeParams != nil || ts.Name.Name == "_" {
				continue
			}
			tn, _ := r.info.Defs[ts.Name].(*types.TypeName)
			if tn == nil {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok {
				continue
			}
			if _, ok := named.Underlying().(*types.Struct); !ok {
				continue
			}
			// A value of T has the methods when the mutex is embedded
			// through pointers only; *T has them whenever T does.
			for _, recv := range []types.Type{named, types.NewPointer(named)} {
				path, ok := r.promotedMutex(named, recv)
				if !ok {
					continue
				}
				typ := ts.Name.Name
				if _, ptr := recv.(*types.Pointer); ptr {
					typ = "*" + typ
				}
				b.WriteString("\n\nfunc init() { " + r.rt("PromotedLocker") + "(func(p " + typ + ") interface{} { return " + path + " }) }\n")
			}
		}
	}
	return b.String()
}

// promotedMutex returns, as Go source on a value p of recv (named or a
// pointer to it), the pointer to the sync.Mutex or sync.RWMutex whose Lock
// and Unlock recv's method set promotes.
func (r *fileRewriter) promotedMutex(named *types.Named, recv types.Type) (string, bool) {
	ms := types.NewMethodSet(recv)
	lock, unlock := ms.Lookup(nil, "Lock"), ms.Lookup(nil, "Unlock")
	if lock == nil || unlock == nil {
		return "", false
	}
	lf, _ := lock.Obj().(*types.Func)
	uf, _ := unlock.Obj().(*types.Func)
	if lf == nil || uf == nil {
		return "", false
	}
	lk, uk := funcKey(lf), funcKey(uf)
	if !(lk == "sync.Mutex.Lock" && uk == "sync.Mutex.Unlock" || lk == "sync.RWMutex.Lock" && uk == "sync.RWMutex.Unlock") {
		return "", false
	}
	path := lock.Index()
	if len(path) < 2 || !slices.Equal(path[:len(path)-1], unlock.Index()[:len(unlock.Index())-1]) {
		return "", false
	}
	text := "p"
	var t types.Type = named
	for _, i := range path[:len(path)-1] {
		st, ok := under(deref(t)).(*types.Struct)
		if !ok {
			return "", false
		}
		f := st.Field(i)
		if !f.Exported() && f.Pkg() != r.pkg {
			return "", false
		}
		text += "." + f.Name()
		t = f.Type()
	}
	if isPtr(t) {
		return text, true
	}
	return "&" + text, true
}
