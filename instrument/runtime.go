package instrument

import (
	"io/fs"
	"strings"

	"github.com/gopct/gopct/pct"
)

// runtimeFiles returns the runtime's source files: pct.Source minus
// source.go and tests.
func runtimeFiles() (map[string][]byte, error) {
	files := map[string][]byte{}
	err := fs.WalkDir(pct.Source, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if path == "source.go" || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := fs.ReadFile(pct.Source, path)
		files[path] = data
		return err
	})
	return files, err
}
