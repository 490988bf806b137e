// Command latency measures how late a goroutine runs after its timer fired
// when the machine is oversubscribed. It is the evidence behind gopct's
// default -max-delay (docs/DESIGN.md): run it as
//
//	go run ./bench/latency 16
//
// beside other CPU-bound processes. Its argument is the number of busy,
// allocating goroutines competing for the Ps (GC work included).
package main

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"time"
)

var sink [][]byte

func main() {
	busy, _ := strconv.Atoi(os.Args[1])
	for i := 0; i < busy; i++ {
		go func() {
			for {
				sink = append(sink[:0], make([]byte, 1<<16)) // allocation: GC work too
			}
		}()
	}
	runtime.Gosched()
	var lates []time.Duration
	for i := 0; i < 2000; i++ {
		t0 := time.Now()
		time.Sleep(time.Millisecond)
		lates = append(lates, time.Since(t0)-time.Millisecond)
	}
	sort.Slice(lates, func(i, j int) bool { return lates[i] < lates[j] })
	fmt.Printf("busy=%d p50=%v p99=%v p99.9=%v max=%v\n", busy, lates[len(lates)/2], lates[len(lates)*99/100], lates[len(lates)*999/1000], lates[len(lates)-1])
}
