// Package cta_raft_vote: a raft-like voter grants at most one vote per term.
// It checks votedFor under its lock, releases the lock to persist the vote,
// and records it afterwards: two candidates of the same term can both be
// granted the vote and both become leader.
package cta_raft_vote

import "sync"

type Voter struct {
	mu       sync.Mutex
	term     int
	votedFor string
	disk     []string // persisted votes
}

func (v *Voter) canVote(term int, cand string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if term < v.term {
		return false
	}
	if term > v.term {
		v.term, v.votedFor = term, ""
	}
	return v.votedFor == "" || v.votedFor == cand
}

func (v *Voter) RequestVote(term int, cand string) bool {
	if !v.canVote(term, cand) { // BUG: check ...
		return false
	}
	v.mu.Lock()
	v.disk = append(v.disk, cand) // "fsync" the vote
	v.votedFor = cand             // ... then act, in another critical section
	v.mu.Unlock()
	return true
}

// Cluster of three: two candidates and one voter.
type Cluster struct {
	voter   *Voter
	mu      sync.Mutex
	leaders map[int][]string
}

func NewCluster() *Cluster {
	return &Cluster{voter: &Voter{}, leaders: make(map[int][]string)}
}

// Campaign: a candidate votes for itself and needs the voter's vote.
func (c *Cluster) Campaign(term int, cand string) bool {
	if !c.voter.RequestVote(term, cand) {
		return false
	}
	c.mu.Lock()
	c.leaders[term] = append(c.leaders[term], cand)
	c.mu.Unlock()
	return true
}

func (c *Cluster) Leaders(term int) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.leaders[term]...)
}
