package results

import (
	"fmt"
	"slices"
)

// Merge combines the summaries of a results file (or several): a hunt
// recorded more than once (a resumed campaign that ran it again) counts
// once, its last record; the shards of one hunt (gopct hunt -shard i/N)
// become one summary, as a single run over all their executions would
// report it: counts added, the first bug the failing execution of
// smallest index, the time the longest shard's. Checkpoints (records of
// a hunt in progress) are left out. Summaries keep the order of their
// first appearance.
func Merge(ss []*Summary) []*Summary {
	ss = slices.DeleteFunc(slices.Clone(ss), func(s *Summary) bool { return s.Checkpoint })
	last := map[string]*Summary{}
	for _, s := range ss {
		last[Key(s)] = s
	}
	// Join the shards of each split (the same hunt cut into Shards parts).
	var splits []*Summary
	bySplit := map[string]*Summary{}
	seen := map[string]bool{}
	for _, s := range ss {
		k := Key(s)
		if seen[k] {
			continue
		}
		seen[k] = true
		s = last[k]
		sk := fmt.Sprintf("%s\x00%d", Key(unsharded(s)), s.Shards)
		if m := bySplit[sk]; m != nil {
			addShard(m, s)
			continue
		}
		m := unsharded(s)
		bySplit[sk] = m
		splits = append(splits, m)
	}
	// A hunt run both whole and split (or split two ways) is the same
	// executions: the split recorded last stands.
	latest := map[string]int{}
	for i, m := range splits {
		latest[Key(m)] = i
	}
	var out []*Summary
	for i, m := range splits {
		if latest[Key(m)] == i {
			out = append(out, m)
		}
	}
	return out
}

// unsharded is a copy of s as a run of every shard.
func unsharded(s *Summary) *Summary {
	c := *s
	c.Shard, c.Shards = 0, 0
	return &c
}

func addShard(m, s *Summary) {
	m.Executions += s.Executions
	m.Finished += s.Finished
	m.Abandoned += s.Abandoned
	m.HeldTimer = max(m.HeldTimer, s.HeldTimer)
	if m.HeldNative == "" {
		m.HeldNative = s.HeldNative
	}
	m.Workers += s.Workers
	m.Seconds = max(m.Seconds, s.Seconds)
	m.CPUSeconds += s.CPUSeconds
	m.Complete = m.Complete && s.Complete
	m.Coverage = nil // per-shard curves do not add up
	if s.Bug != nil && (m.Bug == nil || s.Bug.Execution < m.Bug.Execution) {
		m.Bug = s.Bug
	}
}
