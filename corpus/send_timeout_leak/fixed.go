package send_timeout_leak

import "time"

type ClientFixed struct {
	backend Backend
	timeout time.Duration
}

func (c *ClientFixed) Call(req string) (string, error) {
	reply := make(chan string, 1) // the worker can always deliver and exit
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
