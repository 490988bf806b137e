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
	s.done = results.Recorded(ss)
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
	return results.Append(s.Path, sum)
}
