// Package order_handler_nil: Server.Start launches the serve loop and only
// then installs the handler. The serve loop captures the handler when it
// starts; if it starts before the assignment it serves with a nil handler.
package order_handler_nil

import "strings"

type Request struct {
	Path string
	Resp chan string
}

type Server struct {
	handler func(path string) string
	reqs    chan Request
	done    chan struct{}
}

func NewServer() *Server {
	return &Server{reqs: make(chan Request), done: make(chan struct{})}
}

func (s *Server) serve() {
	defer close(s.done)
	h := s.handler // capture the handler once
	for r := range s.reqs {
		r.Resp <- h(r.Path) // nil h: panic
	}
}

func (s *Server) Start(h func(string) string) {
	go s.serve()
	s.handler = h // BUG: must happen before the goroutine that reads it starts
}

func (s *Server) Do(path string) string {
	r := Request{Path: path, Resp: make(chan string)}
	s.reqs <- r
	return <-r.Resp
}

func (s *Server) Stop() {
	close(s.reqs)
	<-s.done
}

func Upper(path string) string { return strings.ToUpper(path) }
