package selectrule

func Sel(a chan int, b <-chan string, c chan<- int, quit chan struct{}) (int, string) {
	var s string
	var ok bool
	select {
	case v := <-a:
		return v, ""
	case s, ok = <-b:
		if !ok {
			break
		}
		return 0, s
	case c <- len(s):
	case <-quit:
	default:
	}
loop:
	for {
		select {
		case x, ok := <-a:
			if !ok {
				break loop
			}
			_ = x
		case <-quit:
			continue loop
		}
	}
	return 0, s
}

func Terminating(a chan int) int {
	select {
	case v := <-a:
		return v
	case a <- 1:
		return 1
	}
}

func Forever() {
	select {}
}

func Labeled(a chan int) {
L:
	select {
	case <-a:
		break L
	}
}
