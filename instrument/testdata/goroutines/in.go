package goroutines

import (
	"context"
	"os"
	"os/signal"
	"runtime"
	"syscall"
)

// Count and dump: the runtime's, which show what go test would show.
func Count() (int, int) {
	buf := make([]byte, 1<<16)
	return runtime.NumGoroutine(), runtime.Stack(buf, true)
}

// numGoroutine is a leak checker's hold of it: a function value.
var numGoroutine = runtime.NumGoroutine

// Notify registers signal handlers: an environment error in an execution.
func Notify(ctx context.Context, sigs ...os.Signal) context.Context {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGTERM)
	signal.Notify(c, sigs...)
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT)
	_ = stop
	return ctx
}
