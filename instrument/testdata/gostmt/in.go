package gostmt

import (
	"fmt"
	"sync"
)

type T struct{ n int }

func (t *T) Inc(d int)    { t.n += d }
func (t T) Show(s string) { fmt.Println(s, t.n) }

func Gen[X any](x X) {}

func f(a, b int)          {}
func sum(xs ...int)       {}
func pair() (int, string) { return 1, "a" }
func two(int, string)     {}

func Spawn(t *T, fn func(int), ch chan int, xs []int, wg *sync.WaitGroup) {
	go f(1, len(xs))
	go sum(xs...)
	go sum(1, 2, 3)
	go t.Inc(2)
	go t.Show("x")
	go fn(3)
	go func() { fmt.Println("hi") }()
	go func(n int) {
		fmt.Println(n)
	}(len(xs))
	go Gen(t)
	go Gen[int](4)
	go two(pair())
	go (*T).Inc(t, 1)
	go close(ch)
	go wg.Done()
	go fmt.Println("a", xs)
}
