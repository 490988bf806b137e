// Package race_map_writes: a websocket hub registers clients in a plain map
// from the goroutine of each connection. Two connections registering at the
// same time write the map concurrently: "fatal error: concurrent map writes".
package race_map_writes

import "sync"

type Client struct {
	ID   string
	Send chan []byte
}

type Hub struct {
	clients map[string]*Client // BUG: written from many goroutines without a lock
}

func NewHub() *Hub { return &Hub{clients: make(map[string]*Client)} }

func (h *Hub) Register(c *Client) {
	h.clients[c.ID] = c
}

func (h *Hub) Len() int { return len(h.clients) }

// Serve is the per-connection goroutine.
func Serve(h *Hub, id string, wg *sync.WaitGroup) {
	defer wg.Done()
	h.Register(&Client{ID: id, Send: make(chan []byte, 1)})
}
