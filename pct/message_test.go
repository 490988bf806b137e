package pct

import "testing"

// TestErrorMessageSpacing: a report quotes t.Error and t.Fatal as go test
// prints them, with fmt.Sprintln's spacing. marusama/semaphore's
// t.Error("semaphore must have limit = ", 1, ", but has ", 2) printed
// "limit =  1 , but has  2" under go test and "limit = 1, but has 2" in
// gopct's report (fmt.Sprint adds no space next to a string operand).
func TestErrorMessageSpacing(t *testing.T) {
	e := &execution{}
	g := &G{id: 3}
	e.noteMessage(g, 0, nil, "Error", []any{"semaphore must have limit = ", 1, ", but has ", 2})
	e.noteMessage(g, 0, nil, "Fatal", []any{"got", 2, "want", 3})
	e.noteMessage(g, 0, nil, "Errorf", []any{"%d-%d", 1, 2})
	want := []string{"semaphore must have limit =  1 , but has  2", "got 2 want 3", "1-2"}
	if len(e.messages) != len(want) {
		t.Fatalf("%d messages, want %d", len(e.messages), len(want))
	}
	for i, m := range e.messages {
		if m.text != want[i] {
			t.Errorf("message %d: %q, want %q", i, m.text, want[i])
		}
	}
}

// TestFailureQuotesTheTestsT: the failure quoted is the first message to
// the test's own T, not an earlier one to another TestingT (testify's
// TestEventuallyWithT_ConcurrencySafe fails its CollectT and a recorder
// first, then the test at Len: sweep fresh34); without one, the first.
func TestFailureQuotesTheTestsT(t *testing.T) {
	e := &execution{bodyT: t}
	g := &G{id: 1}
	mock := new(testing.T)
	e.noteMessage(g, 0, mock, "Errorf", []any{"%s", "condition fixed failure"})
	e.noteMessage(&G{id: 0}, 0, t, "Errorf", []any{"%s", "should have 2 item(s), but has 1"})
	if f := e.testFailure(); f.Message != "should have 2 item(s), but has 1" || f.Goroutine != 0 {
		t.Errorf("quoted %q of g%d, want the message to the test's T of g0", f.Message, f.Goroutine)
	}
	e = &execution{bodyT: t}
	e.noteMessage(g, 0, mock, "Errorf", []any{"%s", "only to a mock"})
	if f := e.testFailure(); f.Message != "only to a mock" {
		t.Errorf("quoted %q, want the first message when none went to the test's T", f.Message)
	}
}
