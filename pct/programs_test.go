package pct

import (
	"sync"
	"testing"
	"time"
)

var counter int

func TestProgLostUpdate(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		counter = 0
		var wg sync.WaitGroup
		WGAdd(sWG, &wg, 2)
		for i := 0; i < 2; i++ {
			Go(sGo, func() {
				Store(sW, &counter, Load(sR, &counter)+1)
				WGDone(sWG, &wg)
			})
		}
		WGWait(sWG, &wg)
		if v := Load(sR, &counter); v != 2 {
			TError(sFail, t, "Errorf", "counter = %d, want 2", v)
		}
	})
}

func TestProgLockedCounter(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		counter = 0
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i := 0; i < 3; i++ {
			WGAdd(sWG, &wg, 1)
			Go(sGo, func() {
				defer WGDone(sWG, &wg)
				for j := 0; j < 3; j++ {
					Lock(sLock, &mu)
					Store(sW, &counter, Load(sR, &counter)+1)
					Unlock(sUnlock, &mu)
				}
			})
		}
		WGWait(sWG, &wg)
		if v := Load(sR, &counter); v != 9 {
			TError(sFail, t, "Errorf", "counter = %d, want 9", v)
		}
	})
}

func TestProgABBA(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var a, b sync.Mutex
		done := make(chan bool)
		Go(sGo, func() {
			Lock(sLock, &a)
			Lock(sLock, &b)
			Unlock(sUnlock, &b)
			Unlock(sUnlock, &a)
			Send(sSend, done, true)
		})
		Lock(sLock, &b)
		Lock(sLock, &a)
		Unlock(sUnlock, &a)
		Unlock(sUnlock, &b)
		Recv(sRecv, done)
	})
}

func TestProgRWR(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var rw sync.RWMutex
		var wg sync.WaitGroup
		WGAdd(sWG, &wg, 1)
		Go(sGo, func() {
			defer WGDone(sWG, &wg)
			WLock(sLock, &rw)
			WUnlock(sUnlock, &rw)
		})
		RLock(sLock, &rw)
		RLock(sLock, &rw) // blocks if the writer is waiting
		RUnlock(sUnlock, &rw)
		RUnlock(sUnlock, &rw)
		WGWait(sWG, &wg)
	})
}

// TestProgSleeperLeak: the test returns while a goroutine sleeps in a loop
// that nothing stops (and another is blocked sending).
func TestProgSleeperLeak(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		Go(sGo, func() {
			for {
				Sleep(sSleep, time.Second)
			}
		})
		ch := make(chan int)
		Go(sGo, func() { Send(sSend, ch, 1) })
	})
}

func TestProgTimeoutLeak(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		result := make(chan int)
		Go(sGo, func() {
			Store(sW, &counter, 1)
			Send(sSend, result, 42)
		})
		var v int
		tm := After(sOther, time.Second)
		switch Select(sSelect, 2, false, func(i int) bool {
			switch i {
			case 0:
				select {
				case v = <-result:
					return true
				default:
				}
			case 1:
				select {
				case <-tm:
					return true
				default:
				}
			}
			return false
		}, func() int {
			select {
			case v = <-result:
				return 0
			case <-tm:
				return 1
			}
		}, nil) {
		case 0:
			_ = v
		case 1:
		}
	})
}

func TestProgSendClosed(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		ch := make(chan int, 1)
		var wg sync.WaitGroup
		WGAdd(sWG, &wg, 1)
		Go(sGo, func() {
			defer WGDone(sWG, &wg)
			Send(sSend, ch, 1)
		})
		Close(sOther, ch)
		WGWait(sWG, &wg)
	})
}

func TestProgFatalInGoroutine(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		counter = 0
		var wg sync.WaitGroup
		WGAdd(sWG, &wg, 2)
		Go(sGo, func() {
			defer WGDone(sWG, &wg)
			Store(sW, &counter, 1)
		})
		Go(sGo, func() {
			defer WGDone(sWG, &wg)
			if Load(sR, &counter) == 0 {
				TError(sFail, t, "Fatal", "read before write")
			}
		})
		WGWait(sWG, &wg)
	})
}

func TestProgMapWrites(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		m := map[int]int{}
		var wg sync.WaitGroup
		WGAdd(sWG, &wg, 2)
		for i := 0; i < 2; i++ {
			Go(sGo, func() {
				defer WGDone(sWG, &wg)
				MapStore(sMap, m, i, i)
			})
		}
		WGWait(sWG, &wg)
	})
}

func TestProgDoubleLock(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var mu sync.Mutex
		Lock(sLock, &mu)
		Lock(sLock, &mu)
	})
}

func TestProgSleepers(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		order := []int{}
		for i := 0; i < 3; i++ {
			WGAdd(sWG, &wg, 1)
			Go(sGo, func() {
				defer WGDone(sWG, &wg)
				Sleep(sSleep, time.Duration(i+1)*time.Millisecond)
				Lock(sLock, &mu)
				order = append(order, i)
				Unlock(sUnlock, &mu)
			})
		}
		WGWait(sWG, &wg)
		if len(order) != 3 {
			TError(sFail, t, "Errorf", "order %v", order)
		}
	})
}

func TestProgOnceCond(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		var once sync.Once
		var mu sync.Mutex
		c := sync.NewCond(&mu)
		ready := false
		inits := 0
		var wg sync.WaitGroup
		for i := 0; i < 2; i++ {
			WGAdd(sWG, &wg, 1)
			Go(sGo, func() {
				defer WGDone(sWG, &wg)
				OnceDo(sOther, &once, func() { inits++ })
				Lock(sLock, &mu)
				for !ready {
					CondWait(sOther, c)
				}
				Unlock(sUnlock, &mu)
			})
		}
		Lock(sLock, &mu)
		ready = true
		CondBroadcast(sOther, c)
		Unlock(sUnlock, &mu)
		WGWait(sWG, &wg)
		if inits != 1 {
			TError(sFail, t, "Errorf", "once ran %d times", inits)
		}
	})
}

// TestProgMany is the load test: 8 goroutines, 10,000 shared accesses.
func TestProgMany(t *testing.T) {
	skipNative(t)
	RunTest(t, func(t *testing.T) {
		counter = 0
		var mu sync.Mutex
		var wg sync.WaitGroup
		for i := 0; i < 8; i++ {
			WGAdd(sWG, &wg, 1)
			Go(sGo, func() {
				defer WGDone(sWG, &wg)
				for j := 0; j < 625; j++ {
					Lock(sLock, &mu)
					Store(sW, &counter, Load(sR, &counter)+1)
					Unlock(sUnlock, &mu)
				}
			})
		}
		WGWait(sWG, &wg)
		if v := Load(sR, &counter); v != 5000 {
			TError(sFail, t, "Errorf", "counter = %d", v)
		}
	})
}
