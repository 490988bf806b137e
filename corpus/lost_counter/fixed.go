package lost_counter

import "sync"

type QuotaFixed struct {
	mu    sync.Mutex // guards the map and the counters
	usage map[string]*Usage
	Limit int
}

func NewQuotaFixed(limit int) *QuotaFixed {
	return &QuotaFixed{usage: make(map[string]*Usage), Limit: limit}
}

func (q *QuotaFixed) Record(tenant string, n int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	u, ok := q.usage[tenant]
	if !ok {
		u = &Usage{}
		q.usage[tenant] = u
	}
	u.Requests++
	u.Bytes += n
}

func (q *QuotaFixed) Requests(tenant string) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	if u, ok := q.usage[tenant]; ok {
		return u.Requests
	}
	return 0
}
