package pct

import (
	"fmt"
	"strings"
	"testing"
)

// A fake driver: goroutines and decisions built by hand, no child process.
// It runs a strategy over a scripted program in which each goroutine takes
// a fixed number of steps, and returns the sequence of choices.

type fakeProgram struct {
	steps []int // steps left per goroutine
	timer bool  // a timer is pending throughout
}

// drive runs one execution of p under s and returns the ids chosen at each
// decision ("t" for time), and the number of steps taken.
func drive(s Strategy, p fakeProgram, exec int, seed uint64) (string, int) {
	s.Begin(exec, NewRand(execSeed(seed, exec)))
	gs := make([]*G, len(p.steps))
	for i := range gs {
		gs[i] = &G{id: i}
	}
	left := append([]int(nil), p.steps...)
	var out []string
	cur := gs[0]
	step := 0
	for {
		var choices []*G
		for i, g := range gs {
			if left[i] > 0 {
				choices = append(choices, g)
			}
		}
		if len(choices) == 0 {
			break
		}
		step++
		d := &Decision{Step: step, Seq: step, Cur: cur, CurRuns: left[cur.id] > 0, Choices: choices,
			CanPassTime: p.timer, Access: noAccess}
		pick := s.Next(d)
		if pick == PassTime {
			out = append(out, "t")
			continue
		}
		cur = choices[pick]
		left[cur.id]--
		out = append(out, fmt.Sprint(cur.id))
	}
	s.End(ExecOutcome{Steps: step})
	return strings.Join(out, ""), step
}

func TestPCTRunsHighestPriorityWithoutChangePoints(t *testing.T) {
	// The first execution has no change points (k is not known yet): PCT
	// must run one goroutine to the end, then the next: strict priorities.
	// A random walk would interleave.
	s := newPCT(3)
	got, _ := drive(s, fakeProgram{steps: []int{5, 5, 5}}, 0, 1)
	if !isRuns(got, 5) {
		t.Fatalf("first PCT execution %q is not three runs of five", got)
	}
	if want := "000002222211111"; got != want {
		t.Errorf("seed 1: got %q, want %q", got, want)
	}
}

// isRuns says whether s is made of runs of n equal characters.
func isRuns(s string, n int) bool {
	for i := 0; i < len(s); i += n {
		if strings.Count(s[i:i+n], s[i:i+1]) != n {
			return false
		}
	}
	return true
}

func TestPCTChangePointsPreemptExactly(t *testing.T) {
	// From the second execution on, k is learned (15) and d-1 = 2 change
	// points lower the running goroutine: at most two preemptions.
	s := newPCT(3)
	drive(s, fakeProgram{steps: []int{5, 5, 5}}, 0, 1)
	got := make([]string, 4)
	for i := range got {
		got[i], _ = drive(s, fakeProgram{steps: []int{5, 5, 5}}, i+1, 1)
	}
	exp := []string{"111112222000200", "000002222111211", "000001111122222", "111112220000022"}
	for i := range got {
		if got[i] != exp[i] {
			t.Errorf("execution %d: got %q, want %q", i+1, got[i], exp[i])
		}
		if sw := switches(got[i]); sw > 2+2 {
			t.Errorf("execution %d: %q has %d switches; PCT d=3 allows 2 change points plus 2 exits", i+1, got[i], sw)
		}
	}
}

func switches(s string) int {
	n := 0
	for i := 1; i < len(s); i++ {
		if s[i] != s[i-1] {
			n++
		}
	}
	return n
}

func TestPCTTimePassesOnlyAfterAChangePointOrWhenIdle(t *testing.T) {
	// Time ranks below every goroutine's initial priority: with a timer
	// pending and no change point, it is never chosen while goroutines run.
	s := newPCT(3)
	got, _ := drive(s, fakeProgram{steps: []int{3, 3}, timer: true}, 0, 7)
	if strings.Contains(got, "t") {
		t.Errorf("time passed without a change point: %q", got)
	}
}

func TestRandomWalkExactChoices(t *testing.T) {
	s := &randomWalk{}
	got, _ := drive(s, fakeProgram{steps: []int{4, 4}}, 0, 1)
	if want := "01001011"; got != want {
		t.Errorf("seed 1: got %q, want %q", got, want)
	}
	if switches(got) < 3 {
		t.Errorf("random walk %q barely interleaves", got)
	}
}

func TestRandomWalkOffersTime(t *testing.T) {
	s := &randomWalk{}
	got, _ := drive(s, fakeProgram{steps: []int{4, 4}, timer: true}, 0, 3)
	if !strings.Contains(got, "t") {
		t.Errorf("random walk never let time pass: %q", got)
	}
}

func TestReplayFollowsAndDiverges(t *testing.T) {
	// Record a PCT execution's switches, then replay them.
	prog := fakeProgram{steps: []int{3, 3}}
	rec := &recordingStrategy{inner: &randomWalk{}}
	want, steps := drive(rec, prog, 0, 5)
	r := newReplay(Schedule{Steps: steps, Switches: rec.switches})
	got, _ := drive(r, prog, 0, 99)
	if got != want || r.diverged != "" {
		t.Fatalf("replay %q (diverged %q), recorded %q", got, r.diverged, want)
	}
	// A program that takes a different path: one step fewer for g1.
	r = newReplay(Schedule{Steps: steps, Switches: rec.switches})
	drive(r, fakeProgram{steps: []int{3, 2}}, 0, 99)
	if r.diverged == "" {
		t.Errorf("replay of a different program did not report divergence")
	}
}

// recordingStrategy records the switches of the strategy it wraps, the way
// the engine's recorder does (a decision that did not let Cur continue).
type recordingStrategy struct {
	inner    Strategy
	switches []SwitchEvent
}

func (r *recordingStrategy) Begin(exec int, rng *Rand) bool { return r.inner.Begin(exec, rng) }
func (r *recordingStrategy) Next(d *Decision) int {
	i := r.inner.Next(d)
	if i == PassTime || d.Choices[i] != d.Cur || !d.CurRuns {
		to := timeID
		if i >= 0 {
			to = d.Choices[i].id
		}
		r.switches = append(r.switches, SwitchEvent{Step: d.Seq, To: to})
	}
	return i
}
func (r *recordingStrategy) Pick(d *Decision, n int) int { return r.inner.Pick(d, n) }
func (r *recordingStrategy) End(o ExecOutcome)           { r.inner.End(o) }
func (r *recordingStrategy) Spec() Spec                  { return r.inner.Spec() }

func TestSpecRoundTrip(t *testing.T) {
	for _, sp := range []Spec{{Name: "pct", D: 3}, {Name: "random"}} {
		s, err := NewStrategy(sp)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Spec(); got.String() != sp.String() {
			t.Errorf("spec %v came back as %v", sp, got)
		}
	}
	if _, err := NewStrategy(Spec{Name: "pct"}); err == nil {
		t.Error("pct with d=0 accepted")
	}
	if _, err := NewStrategy(Spec{Name: "nope"}); err == nil {
		t.Error("unknown strategy accepted")
	}
}

func TestReplayNoticesADifferentPath(t *testing.T) {
	// The same switches, but the recorded fingerprint of the path does not
	// match the run's: the replay must say it diverged, never pass.
	prog := fakeProgram{steps: []int{3, 3}}
	rec := &recordingStrategy{inner: &randomWalk{}}
	_, steps := drive(rec, prog, 0, 5)
	tampered := append([]SwitchEvent(nil), rec.switches...)
	tampered[0].FP = 12345
	r := newReplay(Schedule{Steps: steps, Switches: tampered})
	drive(r, prog, 0, 99)
	if !strings.Contains(r.diverged, "left the recorded path") {
		t.Errorf("diverged = %q", r.diverged)
	}
}

// TestRandomWalkStaysAgreesWithNext: wherever the random walk's fast path
// keeps the holder, Next would have kept it too, leaving the walk in the
// same state (the same run left, no number drawn), so the rest of the walk
// is the same; where it does not, it changed nothing and Next is asked.
// Outside a run of commuting accesses (run 0) only a lone goroutine stays.
func TestRandomWalkStaysAgreesWithNext(t *testing.T) {
	g := []*G{{id: 0}, {id: 1}, {id: 2}}
	read := func(addr uintptr) Access { return Access{Site: 1, Kind: KindRead, Addr: addr} }
	write := func(addr uintptr) Access { return Access{Site: 1, Kind: KindWrite, Addr: addr, Write: true} }
	cases := []struct {
		name     string
		a        Access
		runnable []*G
		others   []Access // pending operations of runnable[1:]
		commutes bool
	}{
		{"alone", Access{Site: 1, Kind: KindLock}, g[:1], nil, false},
		{"alone reading", read(8), g[:1], nil, true},
		{"disjoint", write(8), g, []Access{read(16), write(24)}, true},
		{"shared reads", read(8), g[:2], []Access{read(8)}, true},
		{"read-write", read(8), g[:2], []Access{write(8)}, false},
		{"sync op", Access{Site: 1, Kind: KindLock}, g[:2], []Access{read(8)}, false},
		{"other unknown", read(8), g[:2], []Access{noAccess}, false},
		{"no address", read(0), g[:2], []Access{read(16)}, false},
	}
	for _, c := range cases {
		for i, a := range c.others {
			c.runnable[i+1].pending = a
		}
		for _, run := range []int{0, 3} {
			s := &randomWalk{rng: NewRand(5), run: run}
			want := len(c.runnable) == 1 || (run > 0 && c.commutes)
			stays := s.stays(1, c.a, c.runnable[0], c.runnable)
			if stays != want {
				t.Errorf("%s, run %d: stays = %v, want %v", c.name, run, stays, want)
			}
			if !stays {
				if s.run != run || s.draws != 0 {
					t.Errorf("%s, run %d: stays said no but changed the walk", c.name, run)
				}
				continue
			}
			n := &randomWalk{rng: NewRand(5), run: run}
			d := &Decision{Cur: c.runnable[0], CurRuns: true, Choices: c.runnable, Access: c.a}
			if pick := n.Next(d); pick != 0 || n.run != s.run || *n.rng != *s.rng || n.draws != s.draws {
				t.Errorf("%s, run %d: Next picked %d, run %d, %d draws; stays kept the holder, run %d, %d draws",
					c.name, run, pick, n.run, n.draws, s.run, s.draws)
			}
		}
	}
}
