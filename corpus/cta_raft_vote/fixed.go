package cta_raft_vote

import "sync"

type VoterFixed struct {
	mu       sync.Mutex
	term     int
	votedFor string
	disk     []string
}

func (v *VoterFixed) RequestVote(term int, cand string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if term < v.term {
		return false
	}
	if term > v.term {
		v.term, v.votedFor = term, ""
	}
	if v.votedFor != "" && v.votedFor != cand {
		return false
	}
	v.disk = append(v.disk, cand)
	v.votedFor = cand
	return true
}

type ClusterFixed struct {
	voter   *VoterFixed
	mu      sync.Mutex
	leaders map[int][]string
}

func NewClusterFixed() *ClusterFixed {
	return &ClusterFixed{voter: &VoterFixed{}, leaders: make(map[int][]string)}
}

func (c *ClusterFixed) Campaign(term int, cand string) bool {
	if !c.voter.RequestVote(term, cand) {
		return false
	}
	c.mu.Lock()
	c.leaders[term] = append(c.leaders[term], cand)
	c.mu.Unlock()
	return true
}

func (c *ClusterFixed) Leaders(term int) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.leaders[term]...)
}
