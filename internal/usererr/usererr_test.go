package usererr

import (
	"errors"
	"fmt"
	"testing"
)

func TestIsUserError(t *testing.T) {
	err := fmt.Errorf("building: %w", New(CgoUnsupported, "package %s imports C", "p"))
	if !errors.Is(err, ErrUser) {
		t.Fatal("wrapped *Error is not ErrUser")
	}
	var e *Error
	if !errors.As(err, &e) || e.Reason != CgoUnsupported || e.Error() != "cgo is not supported: package p imports C" {
		t.Errorf("got %#v (%v)", e, err)
	}
	if errors.Is(errors.New("x"), ErrUser) {
		t.Error("a plain error is a user error")
	}
}
