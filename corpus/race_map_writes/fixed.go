package race_map_writes

import "sync"

type HubFixed struct {
	mu      sync.Mutex
	clients map[string]*Client
}

func NewHubFixed() *HubFixed { return &HubFixed{clients: make(map[string]*Client)} }

func (h *HubFixed) Register(c *Client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.clients[c.ID] = c
}

func (h *HubFixed) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.clients)
}

func ServeFixed(h *HubFixed, id string, wg *sync.WaitGroup) {
	defer wg.Done()
	h.Register(&Client{ID: id, Send: make(chan []byte, 1)})
}
