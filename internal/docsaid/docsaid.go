// Package docsaid checks that documents say what the code does: a test
// computes a figure from the code (a threshold, a count) and asks that a
// README or a doc comment states it. Only tests import it.
package docsaid

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// commentStart is a line's leading comment marker, with its indentation.
var commentStart = regexp.MustCompile(`\n[ \t]*//`)

// Check reports, as errors of t, each of wants that a file of files does
// not say. A file is read as prose: comment markers at line starts dropped
// and runs of white space made one space, so that a phrase may be wrapped
// anywhere.
func Check(t testing.TB, files []string, wants ...string) {
	t.Helper()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(commentStart.ReplaceAllString(string(b), "\n")), " ")
		for _, want := range wants {
			if !strings.Contains(text, want) {
				t.Errorf("%s does not say %q", f, want)
			}
		}
	}
}
