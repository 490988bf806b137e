package order_handler_nil

type ServerFixed struct {
	handler func(path string) string
	reqs    chan Request
	done    chan struct{}
}

func NewServerFixed() *ServerFixed {
	return &ServerFixed{reqs: make(chan Request), done: make(chan struct{})}
}

func (s *ServerFixed) serve() {
	defer close(s.done)
	h := s.handler
	for r := range s.reqs {
		r.Resp <- h(r.Path)
	}
}

func (s *ServerFixed) Start(h func(string) string) {
	s.handler = h // installed before the serve loop exists
	go s.serve()
}

func (s *ServerFixed) Do(path string) string {
	r := Request{Path: path, Resp: make(chan string)}
	s.reqs <- r
	return <-r.Resp
}

func (s *ServerFixed) Stop() {
	close(s.reqs)
	<-s.done
}
