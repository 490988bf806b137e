package pct

import "embed"

// Source holds the runtime's own source files. The instrumenter copies them
// (minus this file and tests) into the overlay as a package of the user's
// module, so that instrumented code can import it without any go.mod edit.
//
//go:embed *.go *.s
var Source embed.FS
