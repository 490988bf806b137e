//go:build !unix

package pct

func openCrashLog(path string) *crashLog { return nil }
