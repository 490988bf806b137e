package alias

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/gopct/gopct/internal/load"
)

// Access says whether a site reads or writes the variable.
type Access uint8

const (
	Read Access = iota + 1
	Write
)

func (a Access) String() string {
	if a == Write {
		return "write"
	}
	return "read"
}

// rawAccess is one memory-touching instruction of the module's code, before
// solving: ptr is the pointer (or map, or channel) whose pointees it touches.
type rawAccess struct {
	instr  ssa.Instruction
	ptr    ssa.Value
	access Access
	op     string
	pos    token.Pos // expression start (the shared position convention)
}

// collector gathers the accesses of the module's functions as they become
// reachable.
type collector struct {
	anchors  *anchors
	accesses []rawAccess
	noPos    int // accesses of module code without a source position
	funcs    int
	instrs   int
}

func (c *collector) onFunc(fn *ssa.Function) {
	for _, b := range fn.Blocks {
		c.instrs += len(b.Instrs)
	}
	if fn.Synthetic != "" && fn.Origin() == nil {
		return // wrappers and thunks: no source of their own
	}
	if !c.anchors.inModule(fn.Pos()) && !c.syntaxInModule(fn) {
		return
	}
	c.funcs++
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			c.instr(instr)
		}
	}
}

// syntaxInModule catches functions whose own Pos is unset but whose body is
// the module's (instances of generic functions report their origin's pos).
func (c *collector) syntaxInModule(fn *ssa.Function) bool {
	if o := fn.Origin(); o != nil {
		return c.anchors.inModule(o.Pos())
	}
	return false
}

func (c *collector) add(instr ssa.Instruction, ptr ssa.Value, acc Access, op string, pos token.Pos) {
	if !c.anchors.inModule(pos) {
		c.noPos++
		return
	}
	c.accesses = append(c.accesses, rawAccess{instr: instr, ptr: ptr, access: acc, op: op, pos: c.anchors.start(pos)})
}

func (c *collector) instr(instr ssa.Instruction) {
	switch i := instr.(type) {
	case *ssa.UnOp:
		switch i.Op {
		case token.MUL:
			c.add(i, i.X, Read, "load", loadPos(i))
		case token.ARROW:
			c.add(i, i.X, Read, "recv", i.Pos())
		}
	case *ssa.Store:
		c.add(i, i.Addr, Write, "store", i.Pos())
	case *ssa.Lookup:
		if isMap(i.X.Type()) {
			c.add(i, i.X, Read, "mapread", i.Pos())
		}
	case *ssa.MapUpdate:
		c.add(i, i.Map, Write, "mapwrite", i.Pos())
	case *ssa.Range:
		if isMap(i.X.Type()) {
			c.add(i, i.X, Read, "maprange", i.Pos())
		}
	case *ssa.Send:
		c.add(i, i.Chan, Write, "send", i.Pos())
	case *ssa.Select:
		for _, st := range i.States {
			if st.Dir == types.SendOnly {
				c.add(i, st.Chan, Write, "send", st.Pos)
			} else {
				c.add(i, st.Chan, Read, "recv", st.Pos)
			}
		}
	case ssa.CallInstruction:
		c.call(instr, i.Common())
	}
}

func isMap(t types.Type) bool {
	_, ok := load.CoreType(t).(*types.Map)
	return ok
}

func isPointerLike(t types.Type) bool {
	switch load.CoreType(t).(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan:
		return true
	}
	return false
}

// call records builtins that touch memory (delete, clear, close, copy,
// append) and calls into sync and sync/atomic, which access their receiver
// or first pointer argument.
func (c *collector) call(instr ssa.Instruction, cc *ssa.CallCommon) {
	pos := cc.Pos()
	if b, ok := cc.Value.(*ssa.Builtin); ok {
		switch b.Name() {
		case "delete", "clear", "close":
			c.add(instr, cc.Args[0], Write, b.Name(), pos)
		case "append":
			c.add(instr, cc.Args[0], Write, "append", pos)
		case "copy":
			c.add(instr, cc.Args[0], Write, "copy", pos)
			if _, ok := load.CoreType(cc.Args[1].Type()).(*types.Slice); ok {
				c.add(instr, cc.Args[1], Read, "copy", pos)
			}
		}
		return
	}
	fn := cc.StaticCallee()
	if fn == nil || len(cc.Args) == 0 || !isPointerLike(cc.Args[0].Type()) {
		return
	}
	switch path := pkgPathOf(fn); path {
	case "sync", "sync/atomic":
		name := fn.Name()
		acc := Write
		if strings.HasPrefix(name, "Load") || name == "RLock" || name == "RUnlock" || name == "Wait" && path == "sync" && isWaitGroup(cc.Args[0].Type()) {
			acc = Read
		}
		c.add(instr, cc.Args[0], acc, path+"."+name, pos)
	}
}

func isWaitGroup(t types.Type) bool {
	return strings.HasSuffix(types.TypeString(t, nil), "sync.WaitGroup")
}

// loadPos is the position of load i. A range loop's read of a slice or
// array element has none; its element address carries the range
// expression's, where the instrumenter puts the loop's read site
// (instrument/stmts.go rangeSlice).
func loadPos(i *ssa.UnOp) token.Pos {
	if ia, ok := i.X.(*ssa.IndexAddr); ok && i.Pos() == token.NoPos {
		return ia.Pos()
	}
	return i.Pos()
}
