package precision

import "testing"

func TestP(t *testing.T) { P() }
