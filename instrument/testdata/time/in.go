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
