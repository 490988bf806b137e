package rwr_chan_helper

import (
	"strings"
	"testing"
)

type catalog interface {
	Report() string
	SetPrice(string, int)
}

func run(t *testing.T, c catalog) {
	report := make(chan string, 1)
	go func() { report <- c.Report() }() // the /report endpoint
	c.SetPrice("pear", 5)                // an admin edit
	if r := <-report; !strings.HasPrefix(r, "[apple pear] total=") {
		t.Errorf("report = %q", r)
	}
}

func TestBug(t *testing.T) { run(t, NewCatalog()) }

func TestFixed(t *testing.T) { run(t, NewCatalogFixed()) }
