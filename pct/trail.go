package pct

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"io"
	"strconv"
)

// The trail of an execution is every step's goroutine and site, in order,
// recorded during the execution (the first maxTrailSteps steps) and carried
// in the schedule of a bug, with the position and operation of every site it
// names, as the recording's binary printed them. A replay compares each of
// its steps with the trail, so that a run that leaves the recorded path
// (changed code, uncontrolled nondeterminism) is reported at the first step
// that differs, with both positions, instead of at the next recorded switch
// or at the end (where only the path fingerprint tells that it differs).
// Recording costs a store per step into a buffer reused by every execution
// of the process; it is part of what Config.NoFingerprint turns off.

// trailStep is one step: the goroutine (timeID: a decision made after time
// passed or a wake-up, when nobody held the token) and the site.
type trailStep struct{ G, Site int32 }

// maxTrailSteps bounds the steps recorded per execution; maxTrailBytes
// bounds the compressed trail in a schedule (a token is one command-line
// argument): a longer trail is cut to its first steps until it fits.
// Steps of the trail enter the runtime one by one (batches open only past
// it, tally.go): 2^16 of them were ~2 ms of a sharded hash set's 26 ms per
// execution, so the trail is 2^14 since schedule format 7 (issue 11);
// maxDecodedTrailSteps still reads the 2^16 of older schedules.
//
// A random walk's trail gets maxWalkTrailBytes: its goroutines change at
// about every other step, about a bit per step compressed (5 KB for 65,536
// steps), where PCT's long runs of one goroutine compress to little, and
// the walk's seed alone makes the replay exact (Schedule.Walk). Past its
// trail (some thousands of steps), a walk's replay notices a different
// path at its end: the step count, the fingerprint, the number of draws.
const (
	maxTrailSteps        = 1 << 14
	maxDecodedTrailSteps = 1 << 16
	maxTrailBytes        = 16 << 10
	maxWalkTrailBytes    = 640
)

// trailBuf is the trail buffer (maxTrailSteps long, made once), reused by
// the executions of this process (one runs at a time, and a bug's schedule
// is encoded before the next begins).
var trailBuf []trailStep

// step records a step of the execution. Called at every scheduling point,
// inlined.
func (r *recorder) step(g, site int) {
	if r.steps < len(r.trail) {
		r.trail[r.steps] = trailStep{int32(g), int32(site)}
		r.steps++
	}
}

// recorded is the trail of the steps so far.
func (r *recorder) recorded() []trailStep { return r.trail[:r.steps] }

// checkStep compares step n of the replay with the recorded trail: the
// same goroutine at the same position and operation. Sites are compared by
// what the recording printed, not by number: changed code renumbers every
// site after it, and the step that differs is the one at changed code.
func (s *replayStrategy) checkStep(n, g, site int) {
	if s.diverged != "" || n > len(s.sched.Trail) {
		return
	}
	want := s.sched.Trail[n-1]
	if int(want.G) == g && s.sameSite(int(want.Site), site) {
		return
	}
	s.diverge("the run left the recorded path at step %d: the recording was at %s, the replay is at %s",
		n, s.sched.recordedAt(want), stepAt(g, site))
}

// sameSite says whether the recording's site rec and this run's site
// print the same.
func (s *replayStrategy) sameSite(rec, site int) bool {
	if rec < 0 || site < 0 || s.sched.Sites == nil {
		// A schedule with no site texts was not decoded from a token: this
		// process recorded it (a race's confirming rerun), so the sites'
		// numbers are the same binary's.
		return rec == site
	}
	if s.texts == nil {
		s.texts = map[int]string{}
	}
	text, ok := s.texts[site]
	if !ok {
		text = siteText(site)
		s.texts[site] = text
	}
	return s.sched.Sites[rec] == text
}

// recordedAt describes a step of the recording, with the positions its
// binary printed.
func (s Schedule) recordedAt(st trailStep) string {
	if st.G == timeID {
		return idleStep
	}
	where, ok := s.Sites[int(st.Site)]
	if !ok {
		where = "site#" + strconv.Itoa(int(st.Site))
	}
	return gname(int(st.G)) + " " + where
}

// stepAt describes a step of this run.
func stepAt(g, site int) string {
	if g == timeID {
		return idleStep
	}
	return gname(g) + " " + siteText(site)
}

// idleStep describes the step of a decision made when nobody held the token.
const idleStep = "a decision after time passed or a blocked goroutine woke"

// siteText is a site's position and operation, as a trail's dictionary keeps it.
func siteText(site int) string {
	if site < 0 {
		return sitePos(site)
	}
	return sitePos(site) + " (" + siteOp(site) + ")"
}

// encodeTrail packs the trail and its sites' texts, compressed, cut to its
// first steps until it fits limit bytes; nil when there is no trail.
func encodeTrail(trail []trailStep, limit int) []byte {
	for n := min(len(trail), maxTrailSteps); n > 0; n /= 2 {
		if b := packTrail(trail[:n]); len(b) <= limit {
			return b
		}
	}
	return nil
}

func packTrail(trail []trailStep) []byte {
	var raw []byte
	raw = binary.AppendUvarint(raw, uint64(len(trail)))
	sites := map[int32]bool{}
	var order []int32
	for _, st := range trail {
		raw = binary.AppendUvarint(raw, uint64(st.G+2))
		raw = binary.AppendUvarint(raw, uint64(st.Site+1))
		if !sites[st.Site] {
			sites[st.Site] = true
			order = append(order, st.Site)
		}
	}
	raw = binary.AppendUvarint(raw, uint64(len(order)))
	for _, site := range order {
		text := siteText(int(site))
		raw = binary.AppendUvarint(raw, uint64(site+1))
		raw = binary.AppendUvarint(raw, uint64(len(text)))
		raw = append(raw, text...)
	}
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	w.Write(raw)
	w.Close()
	return buf.Bytes()
}

// decodeTrail reverses encodeTrail into s.Trail and s.Sites.
func (s *Schedule) decodeTrail(b []byte) error {
	raw, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(b)), 64<<20))
	if err != nil {
		return errors.New("corrupt trail in schedule")
	}
	d := &uvarints{b: raw}
	n := int(d.next())
	if n > maxDecodedTrailSteps {
		return errors.New("corrupt trail in schedule")
	}
	s.Trail = make([]trailStep, 0, n)
	for i := 0; i < n && d.err == nil; i++ {
		g := int32(d.next()) - 2
		s.Trail = append(s.Trail, trailStep{G: g, Site: int32(d.next()) - 1})
	}
	m := int(d.next())
	s.Sites = make(map[int]string, m)
	for i := 0; i < m && d.err == nil; i++ {
		site := int(d.next()) - 1
		l := int(d.next())
		if l > len(d.b) {
			return errors.New("corrupt trail in schedule")
		}
		s.Sites[site] = string(d.b[:l])
		d.b = d.b[l:]
	}
	return d.err
}
