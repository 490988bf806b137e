package rwr_router

import (
	"strings"
	"sync"
)

// RouterFixed walks up the prefixes iteratively under one read lock.
type RouterFixed struct {
	mu     sync.RWMutex
	routes map[string]Handler
}

func NewRouterFixed() *RouterFixed { return &RouterFixed{routes: make(map[string]Handler)} }

func (r *RouterFixed) Handle(prefix string, h Handler) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.routes[prefix] = h
}

func (r *RouterFixed) Lookup(path string) Handler {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for {
		if h, ok := r.routes[path]; ok {
			return h
		}
		i := strings.LastIndex(path, "/")
		if i <= 0 {
			return r.routes["/"]
		}
		path = path[:i]
	}
}

func (r *RouterFixed) Serve(path string) string {
	if h := r.Lookup(path); h != nil {
		return h(path)
	}
	return "404"
}
