//go:build !linux

package campaign

import "os/exec"

// dieWithParent: only Linux can tie a child's life to its parent's.
func dieWithParent(cmd *exec.Cmd) {}

// reapGroup: elsewhere the processes a test leaves are not looked for.
func reapGroup(cmd *exec.Cmd) {}
