// Package lost_counter: a per-tenant quota tracker increments usage counters
// with a plain ++ from request goroutines. Two concurrent increments read the
// same value and one request is not accounted.
package lost_counter

import "sync"

type Usage struct {
	Requests int
	Bytes    int
}

type Quota struct {
	mu     sync.Mutex // guards the map, not the counters
	usage  map[string]*Usage
	Limit  int
	denied int
}

func NewQuota(limit int) *Quota { return &Quota{usage: make(map[string]*Usage), Limit: limit} }

func (q *Quota) get(tenant string) *Usage {
	q.mu.Lock()
	defer q.mu.Unlock()
	u, ok := q.usage[tenant]
	if !ok {
		u = &Usage{}
		q.usage[tenant] = u
	}
	return u
}

// Record accounts one request of n bytes.
func (q *Quota) Record(tenant string, n int) {
	u := q.get(tenant)
	u.Requests++ // BUG: unsynchronized read-modify-write
	u.Bytes += n
}

func (q *Quota) Requests(tenant string) int { return q.get(tenant).Requests }
