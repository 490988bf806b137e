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
