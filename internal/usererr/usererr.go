// Package usererr is gopct's one way to report errors caused by the user's
// code, input or environment rather than by a bug in gopct. Every package
// that detects such a problem returns an *Error; the command prints it as
// one paragraph and exits 2. Anything else reaching the command is an
// internal error, reported as such.
//
// Invariant: errors.Is(err, ErrUser) holds exactly for errors that wrap an
// *Error.
package usererr

import (
	"errors"
	"fmt"
)

// ErrUser is matched (errors.Is) by every *Error.
var ErrUser = errors.New("gopct: user error")

// Reason classifies an Error, for callers that react differently and for
// tests.
type Reason int

// Reasons.
const (
	Other          Reason = iota // bad flags, a test that cannot run under gopct, ...
	NotInModule                  // the directory is outside any Go module
	LoadFailed                   // the go command could not list the packages
	TypeErrors                   // a package does not compile
	CgoUnsupported               // a package uses cgo
	NoPackages                   // the patterns matched nothing
)

// Error reports a problem in the user's code or environment. Detail holds
// the go command's or type checker's messages verbatim (file:line:col: msg)
// where there are any.
type Error struct {
	Reason Reason
	Detail string
}

func (e *Error) Error() string {
	switch e.Reason {
	case CgoUnsupported:
		return "cgo is not supported: " + e.Detail
	case NotInModule:
		return "not inside a Go module: " + e.Detail
	}
	return e.Detail
}

// Is makes errors.Is(err, ErrUser) true for every *Error.
func (e *Error) Is(target error) bool { return target == ErrUser }

// New returns an *Error with the formatted detail.
func New(r Reason, format string, args ...any) error {
	return &Error{Reason: r, Detail: fmt.Sprintf(format, args...)}
}
