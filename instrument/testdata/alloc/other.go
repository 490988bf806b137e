package alloc

import "bytes"

// Bufs is declared in a file that imports bytes; in.go does not.
type Bufs []*bytes.Buffer
