package instrument

import (
	"os"
	"testing"
)

func TestScratch(t *testing.T) {
	dir := os.Getenv("SCRATCH")
	if dir == "" {
		t.Skip()
	}
	res, err := Instrument(Config{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range res.Files {
		b, _ := os.ReadFile(v)
		t.Logf("==== %s\n%s", k, b)
	}
	if err := res.Build("./p", dir+"/p.test"); err != nil {
		t.Fatal(err)
	}
	t.Log(res.WorkDir)
}
