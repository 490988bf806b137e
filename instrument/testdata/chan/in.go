package chanrule

type Ch chan int

func Ops(ch chan int, in <-chan int, out chan<- int, named Ch, ifc chan any) (int, bool) {
	ch <- 1
	out <- <-in
	named <- 2
	ifc <- "str"
	v := <-ch
	x, ok := <-in
	x, ok = <-named
	<-ch
	_ = <-ch + v
	close(out)
	close(named)
	n := len(ch)
	return x + n, ok
}

func Loops(ch chan int, named Ch) (s int) {
	for v := range ch {
		s += v
	}
outer:
	for range named {
		for x := range ch {
			if x == 0 {
				continue outer
			}
			break outer
		}
	}
	var v int
	for v = range ch {
	}
	for _ = range ch {
	}
	return v
}

type Signal interface{ Signal() }

type Sig int

func (Sig) Signal() {}

const (
	Term     Sig = 15
	untypedN     = 3
)

// A typed constant sent on a channel of an interface type keeps its type:
// Send's T would be inferred twice (as Signal and as Sig), so it goes
// through XSend; untyped constants still fit. So for a map's key.
var seen = map[Signal]bool{}

func Typed(sigs chan Signal, ifc chan any) bool {
	sigs <- Term
	ifc <- untypedN
	delete(seen, Term)
	return seen[Term]
}
