// Package lost_map_rmw: a session store hands out copies of a cart under its
// lock and stores them back under its lock, but the read-modify-write as a
// whole is not atomic: two concurrent "add to cart" requests lose an item.
package lost_map_rmw

import "sync"

type Cart struct {
	Items []string
}

type Store struct {
	mu    sync.Mutex
	carts map[string]Cart
}

func NewStore() *Store { return &Store{carts: make(map[string]Cart)} }

func (s *Store) Load(session string) Cart {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.carts[session]
	return Cart{Items: append([]string(nil), c.Items...)}
}

func (s *Store) Save(session string, c Cart) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.carts[session] = c
}

// AddToCart is the handler of POST /cart.
func AddToCart(s *Store, session, item string) {
	c := s.Load(session) // BUG: Load ... Save is not atomic
	c.Items = append(c.Items, item)
	s.Save(session, c)
}
