package chanlock_conn

import "testing"

func TestBug(t *testing.T) {
	c := Dial()
	delivered := make(chan bool, 1)
	go func() { delivered <- c.Deliver(Packet{Seq: 1, Body: "hello"}) }()
	c.Close()
	if ok := <-delivered; ok && c.LastSeq() != 1 {
		t.Errorf("packet delivered but lastSeq = %d", c.LastSeq())
	}
}

func TestFixed(t *testing.T) {
	c := DialFixed()
	delivered := make(chan bool, 1)
	go func() { delivered <- c.Deliver(Packet{Seq: 1, Body: "hello"}) }()
	c.Close()
	if ok := <-delivered; ok && c.LastSeq() != 1 {
		t.Errorf("packet delivered but lastSeq = %d", c.LastSeq())
	}
}
