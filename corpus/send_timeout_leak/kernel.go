// Package send_timeout_leak: an RPC client runs the call in a goroutine and
// waits for the reply or a timeout. The reply channel is unbuffered, so when
// the timeout wins the worker blocks forever on its send.
package send_timeout_leak

import (
	"errors"
	"time"
)

var ErrTimeout = errors.New("rpc: timeout")

type Backend interface {
	Do(req string) string
}

type Client struct {
	backend Backend
	timeout time.Duration
}

func (c *Client) Call(req string) (string, error) {
	reply := make(chan string) // BUG: unbuffered; nobody receives after a timeout
	go func() {
		reply <- c.backend.Do(req)
	}()
	select {
	case r := <-reply:
		return r, nil
	case <-time.After(c.timeout):
		return "", ErrTimeout
	}
}

type echo struct{}

func (echo) Do(req string) string { return "re:" + req }
