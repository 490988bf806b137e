package instrument

import (
	"errors"
	"fmt"
)

// ErrUser is matched (errors.Is) by every error caused by the user's code or
// setup rather than by a bug in gopct: the caller maps it to exit code 2.
var ErrUser = errors.New("gopct: user error")

// Reason classifies a UserError.
type Reason int

// Reasons for a UserError.
const (
	NotInModule    Reason = iota + 1 // Dir is outside any Go module
	LoadFailed                       // the go command could not list the packages
	TypeErrors                       // a package does not compile
	CgoUnsupported                   // a package uses cgo
	NoPackages                       // the patterns matched nothing
	OldGoVersion                     // go.mod's go directive is older than 1.21
)

// UserError reports a problem in the user's code or environment. Detail holds
// the go command's or type checker's messages verbatim (file:line:col: msg).
type UserError struct {
	Reason Reason
	Detail string
}

func (e *UserError) Error() string {
	switch e.Reason {
	case CgoUnsupported:
		return "cgo is not supported: " + e.Detail
	case NotInModule:
		return "not inside a Go module: " + e.Detail
	}
	return e.Detail
}

// Is makes errors.Is(err, ErrUser) true for every UserError.
func (e *UserError) Is(target error) bool { return target == ErrUser }

func userErrorf(r Reason, format string, args ...any) error {
	return &UserError{Reason: r, Detail: fmt.Sprintf(format, args...)}
}

// BuildError is returned by Result.Build when the go command fails. Output is
// the go command's combined output, whose positions name the user's files
// thanks to the line directives of the rewritten files. Since the packages
// type-checked before rewriting, a BuildError usually means an instrumenter
// bug; it is not a UserError.
type BuildError struct {
	Args   []string
	Output string
	Err    error
}

func (e *BuildError) Error() string {
	return fmt.Sprintf("go %v: %v\n%s", e.Args, e.Err, e.Output)
}

func (e *BuildError) Unwrap() error { return e.Err }
