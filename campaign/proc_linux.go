package campaign

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the kernel kill a worker process when gopct dies
// (SIGKILL included), so a killed campaign leaves no worker running. The
// worker gets a process group of its own, which reapGroup empties.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
}

// reapGroup kills what an exited worker left in its process group: the
// processes the test started and an aborted execution never stopped
// (groupcache's TestHTTPPool kills its four HTTP peers in a deferred
// function, which a failing execution does not run: they were left
// running, 8 of them after one sweep).
func reapGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
