package campaign

import (
	"errors"
	"os"

	"github.com/gopct/gopct/results"
)

// Store is the results file of a run (-results): each hunt's summary is
// appended as soon as the hunt ends, so a campaign killed in the middle
// keeps everything it finished; with Resume, a hunt the file already
// records is not run again and its recorded summary (bug and replay
// included) stands for it.
type Store struct {
	Path   string
	Resume bool
	done   map[string]*results.Summary
	chunks map[string][]int // per hunt, the chunks checkpoints record
	err    error            // the first failed checkpoint append
}

// Open reads the recorded hunts when resuming (a missing file records
// none).
func (s *Store) Open() error {
	if s == nil || !s.Resume || s.Path == "" {
		return nil
	}
	ss, _, err := results.Read(s.Path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	s.done, s.chunks = results.Recorded(ss), results.CheckpointedChunks(ss)
	return nil
}

// Recorded returns the recorded summary of the planned hunt, or nil.
func (s *Store) Recorded(planned *results.Summary) *results.Summary {
	if s == nil {
		return nil
	}
	return s.done[results.Key(planned)]
}

// Add appends a hunt's summary.
func (s *Store) Add(sum *results.Summary) error {
	if s == nil || s.Path == "" {
		return nil
	}
	if s.err != nil {
		return s.err
	}
	return results.Append(s.Path, sum)
}

// Attach sets up a plan's hunt of a test for resuming: the chunks that
// checkpoints of the same hunt record are skipped, and the chunks this
// run finishes are appended as checkpoints.
//
// A PCTVB hunt numbers its chunks per variable set (each set's executions
// are a range of their own): HuntVB attaches each set's hunt, under the
// key of that range.
func (s *Store) Attach(p *Plan, planned *results.Summary) {
	if s == nil || s.Path == "" || planned.Chunk == 0 {
		return
	}
	if planned.Spec.Name == "pctvb" {
		p.attachSet = s.attachChunks
		return
	}
	s.attachChunks(p, planned)
}

// attachChunks sets up the hunt of planned's range of executions: its
// recorded chunks are skipped, its finished ones appended as checkpoints.
func (s *Store) attachChunks(p *Plan, planned *results.Summary) {
	p.Done = s.chunks[results.Key(planned)]
	p.Checkpoint = func(chunks []int) {
		c := *planned
		c.Checkpoint, c.Chunks = true, chunks
		c.Executions = 0
		if err := results.Append(s.Path, &c); err != nil && s.err == nil {
			s.err = err
		}
	}
}
