//go:build unix

package pct

import (
	"os"
	"syscall"
)

func openCrashLog(path string) *crashLog {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o644)
	if err != nil {
		return nil
	}
	defer f.Close()
	if f.Truncate(crashSize) != nil {
		return nil
	}
	buf, err := syscall.Mmap(int(f.Fd()), 0, crashSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return nil
	}
	return &crashLog{buf: buf}
}
