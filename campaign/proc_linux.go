package campaign

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the kernel kill a worker process when gopct dies
// (SIGKILL included), so a killed campaign leaves no worker running.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
