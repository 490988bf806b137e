package timerule

import (
	"context"
	"time"
)

func Use(ctx context.Context) {
	time.Sleep(time.Millisecond)
	<-time.After(time.Millisecond)
	t := time.NewTimer(time.Second)
	t.Reset(time.Millisecond)
	<-t.C
	tk := time.NewTicker(time.Millisecond)
	tk.Reset(2 * time.Millisecond)
	tk.Stop()
	_ = time.Tick(time.Hour)
	time.AfterFunc(time.Millisecond, func() {})
	c1, cancel1 := context.WithTimeout(ctx, time.Millisecond)
	defer cancel1()
	_, cancel2 := context.WithDeadline(c1, time.Now().Add(time.Millisecond))
	cancel2()
}

// timeNow is a clock injected for tests: a function value.
var timeNow = time.Now

func Elapsed(start time.Time, since func(time.Time) time.Duration) time.Duration {
	return since(start) + time.Until(timeNow())
}

func UseElapsed() time.Duration { return Elapsed(timeNow(), time.Since) }
