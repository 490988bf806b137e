package closed_send_consumer

import (
	"errors"
	"strings"
	"testing"
)

type auditLog interface {
	Log(string)
	Close() error
}

func run(t *testing.T, a auditLog) {
	a.Log("user=alice action=login " + strings.Repeat("x", 64)) // oversized record
	a.Log("user=bob action=logout")
	if err := a.Close(); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Close() = %v, want ErrTooLarge", err)
	}
}

func TestBug(t *testing.T) { run(t, NewAuditLog(&Sink{MaxSize: 32})) }

func TestFixed(t *testing.T) { run(t, NewAuditLogFixed(&Sink{MaxSize: 32})) }
