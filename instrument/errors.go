package instrument

import (
	"fmt"

	"github.com/gopct/gopct/internal/usererr"
)

// ErrUser, UserError and the reasons are gopct's one kind of user error
// (package usererr), named here for the instrumenter's callers.
var ErrUser = usererr.ErrUser

// UserError reports a problem in the user's code or environment.
type UserError = usererr.Error

// Reason classifies a UserError.
type Reason = usererr.Reason

// Reasons for a UserError.
const (
	NotInModule    = usererr.NotInModule
	LoadFailed     = usererr.LoadFailed
	TypeErrors     = usererr.TypeErrors
	CgoUnsupported = usererr.CgoUnsupported
	NoPackages     = usererr.NoPackages
)

func userErrorf(r Reason, format string, args ...any) error { return usererr.New(r, format, args...) }

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
