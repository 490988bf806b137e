package p

import "testing"

func TestInc(t *testing.T) { Inc() }
