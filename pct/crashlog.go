package pct

import (
	"encoding/binary"
	"errors"
	"os"
)

// The crash log lets gopct report, with a replay, an execution during
// which the process died (a runtime fatal error in code gopct does not
// model, os.Exit, log.Fatal in a goroutine, a stack overflow). The runtime
// writes the execution index and every decision into a memory-mapped file
// as it goes: a plain store per event, and the kernel keeps the pages when
// the process dies. Where mapping is not available, crashes are reported
// without a schedule.

const (
	crashMagic  = "GPCL"
	crashHeader = 16 // magic, execution (int64), bytes used (uint32)
	crashSize   = 32 << 20
	tagSwitch   = 1
	tagPick     = 2
	tagEpoch    = 3 // the execution's epoch (epoch.go), first in the log
)

type crashLog struct {
	buf []byte
	off int
}

func (c *crashLog) begin(exec int, epoch int64) {
	if c == nil {
		return
	}
	copy(c.buf, crashMagic)
	binary.LittleEndian.PutUint64(c.buf[4:], uint64(exec))
	c.off = crashHeader
	binary.LittleEndian.PutUint32(c.buf[12:], 0)
	c.add(tagEpoch, 0, int(epoch))
}

func (c *crashLog) add(tag byte, seq, val int) {
	if c == nil || c.off+3*binary.MaxVarintLen64 > len(c.buf) {
		return
	}
	c.buf[c.off] = tag
	n := 1 + binary.PutUvarint(c.buf[c.off+1:], uint64(seq))
	n += binary.PutUvarint(c.buf[c.off+n:], uint64(val+1))
	c.off += n
	binary.LittleEndian.PutUint32(c.buf[12:], uint32(c.off-crashHeader))
}

// ReadCrashLog returns the execution and schedule recorded in a crash log.
func ReadCrashLog(path string) (int, Schedule, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, Schedule{}, err
	}
	if len(data) < crashHeader || string(data[:4]) != crashMagic {
		return 0, Schedule{}, errors.New("no crash log")
	}
	exec := int(binary.LittleEndian.Uint64(data[4:]))
	used := int(binary.LittleEndian.Uint32(data[12:]))
	d := &uvarints{b: data[crashHeader : crashHeader+used]}
	var s Schedule
	for len(d.b) > 0 && d.err == nil {
		tag := d.b[0]
		d.b = d.b[1:]
		seq, val := int(d.next()), int(d.next())-1
		switch tag {
		case tagEpoch:
			s.Epoch = int64(val)
		case tagSwitch:
			s.Switches = append(s.Switches, SwitchEvent{Step: seq, To: val})
		default:
			s.Picks = append(s.Picks, PickEvent{Step: seq, Value: val})
		}
	}
	return exec, s, d.err
}

// CrashLogExecution returns the execution a worker process is running (or
// ran last), read from the header of its crash log while it runs: its
// executions before that one have ended. false before its first execution,
// or where the platform keeps no crash log.
func CrashLogExecution(path string) (int, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	var h [crashHeader]byte
	if _, err := f.ReadAt(h[:], 0); err != nil || string(h[:4]) != crashMagic {
		return 0, false
	}
	return int(binary.LittleEndian.Uint64(h[4:])), true
}
