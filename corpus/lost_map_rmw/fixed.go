package lost_map_rmw

import "sync"

type StoreFixed struct {
	mu    sync.Mutex
	carts map[string]Cart
}

func NewStoreFixed() *StoreFixed { return &StoreFixed{carts: make(map[string]Cart)} }

func (s *StoreFixed) Load(session string) Cart {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.carts[session]
	return Cart{Items: append([]string(nil), c.Items...)}
}

// Update applies fn to the cart atomically.
func (s *StoreFixed) Update(session string, fn func(*Cart)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.carts[session]
	c.Items = append([]string(nil), c.Items...)
	fn(&c)
	s.carts[session] = c
}

func AddToCartFixed(s *StoreFixed, session, item string) {
	s.Update(session, func(c *Cart) { c.Items = append(c.Items, item) })
}
