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
	e.noteMessage(g, 0, "Error", []any{"semaphore must have limit = ", 1, ", but has ", 2})
	e.noteMessage(g, 0, "Fatal", []any{"got", 2, "want", 3})
	e.noteMessage(g, 0, "Errorf", []any{"%d-%d", 1, 2})
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
