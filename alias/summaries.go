package alias

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// summary applies a hand-written summary for callee, if it has one, and
// reports whether it did. Summaries replace code the analysis cannot read
// (assembly atomics) or would misread (type punning in atomic.Value), with
// the exact pointer flow of the operation.
func (a *analysis) summary(callee *ssa.Function, args []ssa.Value, res ssa.Value) bool {
	path := pkgPathOf(callee)
	if path == "runtime" && callee.Name() == "KeepAlive" || path == "internal/race" {
		return true // annotations without effect on memory
	}
	if path != "sync/atomic" {
		return false
	}
	name := callee.Name()
	if recv := callee.Signature.Recv(); recv != nil {
		if !isAtomicValue(recv.Type()) {
			return false
		}
		// (*Value).M(args...): the interface lives in the Value's only cell.
		return a.atomicOp(name, args[0], args[1:], res)
	}
	switch name {
	case "LoadPointer", "StorePointer", "SwapPointer", "CompareAndSwapPointer":
		return a.atomicOp(name[:len(name)-len("Pointer")], args[0], args[1:], res)
	}
	return false
}

func isAtomicValue(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Name() == "Value" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync/atomic"
}

// atomicOp models Load/Store/Swap/CompareAndSwap on the one-cell location
// addr points to.
func (a *analysis) atomicOp(op string, addr ssa.Value, rest []ssa.Value, res ssa.Value) bool {
	switch op {
	case "Load":
		if res != nil {
			a.load(addr, a.val(res), 0, 1)
		}
	case "Store", "Swap":
		a.store(addr, a.val(rest[0]), 0, 1)
		if op == "Swap" && res != nil {
			a.load(addr, a.val(res), 0, 1)
		}
	case "CompareAndSwap":
		a.store(addr, a.val(rest[1]), 0, 1)
	default:
		return false
	}
	return true
}
