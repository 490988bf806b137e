package main

import (
	"fmt"
	"os"
	"strings"
)

// replaceSection rewrites the text between "<!-- name:begin -->" and
// "<!-- name:end -->" in the document at path.
func replaceSection(path, name, body string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	begin, end := "<!-- "+name+":begin -->", "<!-- "+name+":end -->"
	s := string(data)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		return fmt.Errorf("%s: no %s ... %s section", path, begin, end)
	}
	s = s[:i+len(begin)] + "\n" + body + s[j:]
	return os.WriteFile(path, []byte(s), 0o644)
}
