package p

var X int

//line generated.y:100
func Inc() { X++ }

// Slice has a core type; Any has none.
func Slice[S ~[]E, E any](s S) S { return s }
func Any[T any](t T) T           { return t }
