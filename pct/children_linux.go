//go:build linux

package pct

import (
	"os"
	"strings"
	"syscall"
	"time"
)

// realNow is the real time, which time.Now inside a bubble is not.
func realNow() time.Duration {
	var tv syscall.Timeval
	if syscall.Gettimeofday(&tv) != nil {
		return 0
	}
	return time.Duration(tv.Nano())
}

// realSleep sleeps d of real time (time.Sleep inside a bubble is fake).
func realSleep(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	syscall.Nanosleep(&ts, nil)
}

// hasLiveChildren says whether a child process of this process is alive
// (zombies, killed but not waited for, do not count).
func hasLiveChildren() bool {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return false
	}
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, pid := range strings.Fields(string(b)) {
			if alive(pid) {
				return true
			}
		}
	}
	return false
}

// alive reads the state of process pid: anything but a zombie or dead.
func alive(pid string) bool {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return false
	}
	return s[i+2] != 'Z' && s[i+2] != 'X'
}
