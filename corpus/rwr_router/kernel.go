// Package rwr_router: an HTTP-style route table. Lookup falls back to the
// parent prefix by calling itself recursively, read-locking the table once per
// level; a route registration waiting for the write lock stalls the recursion.
package rwr_router

import (
	"strings"
	"sync"
)

type Handler func(path string) string

type Router struct {
	mu     sync.RWMutex
	routes map[string]Handler
}

func NewRouter() *Router { return &Router{routes: make(map[string]Handler)} }

func (r *Router) Handle(prefix string, h Handler) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.routes[prefix] = h
}

// Lookup finds the handler of the longest registered prefix of path.
func (r *Router) Lookup(path string) Handler {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if h, ok := r.routes[path]; ok {
		return h
	}
	i := strings.LastIndex(path, "/")
	if i <= 0 {
		return r.routes["/"]
	}
	return r.Lookup(path[:i]) // BUG: nested RLock while holding RLock
}

func (r *Router) Serve(path string) string {
	if h := r.Lookup(path); h != nil {
		return h(path)
	}
	return "404"
}
