package results

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// The results store is a JSON-lines file that every run appends to: one
// Summary per line. Appends are single writes of a whole line, so a reader
// sees whole records; a writer killed in the middle of a line leaves a
// partial last line, which Read skips.

// Append adds summaries to the results file at path, creating it.
func Append(path string, ss ...*Summary) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	for _, s := range ss {
		b, err := json.Marshal(s)
		if err != nil {
			return err
		}
		if _, err := f.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	return nil
}

// Read returns the summaries of the results file at path, skipping lines
// that do not parse (cut short by a killed writer), and how many it
// skipped.
func Read(path string) ([]*Summary, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	return read(f)
}

func read(r io.Reader) ([]*Summary, int, error) {
	var out []*Summary
	skipped := 0
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	for sc.Scan() {
		var s Summary
		if len(sc.Bytes()) == 0 {
			continue
		}
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil || s.Test == "" {
			skipped++
			continue
		}
		out = append(out, &s)
	}
	if err := sc.Err(); err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return out, skipped, fmt.Errorf("reading results: %w", err)
	}
	return out, skipped, nil
}

// Key identifies a hunt in a results file: the same key means the same
// executions (package, test, strategy and parameters, seed, execution
// range, chunking, shard), so a resumed campaign skips a hunt whose key is
// recorded.
func Key(s *Summary) string {
	spec, _ := json.Marshal(s.Spec)
	return fmt.Sprintf("%s\x00%s\x00%s\x00%d\x00%d-%d/%d\x00%d/%d", s.Package, s.Test, spec, s.Seed, s.First, s.Iters, s.Chunk, s.Shard, s.Shards)
}

// Recorded indexes the summaries by Key; a later record of the same key
// wins.
func Recorded(ss []*Summary) map[string]*Summary {
	m := make(map[string]*Summary, len(ss))
	for _, s := range ss {
		if !s.Checkpoint {
			m[Key(s)] = s
		}
	}
	return m
}

// CheckpointedChunks gathers, per Key, the chunks that checkpoints record
// as ended without a failure.
func CheckpointedChunks(ss []*Summary) map[string][]int {
	m := map[string][]int{}
	for _, s := range ss {
		if s.Checkpoint {
			k := Key(s)
			for _, c := range s.Chunks {
				if !slices.Contains(m[k], c) {
					m[k] = append(m[k], c)
				}
			}
		}
	}
	return m
}
