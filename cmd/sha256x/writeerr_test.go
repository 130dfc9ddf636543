package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// failWriter refuses every write, as stdout on a full disk does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestWriteErrorStatus: every command whose output cannot be written says
// so and exits 1 (merkle, chain and version exited 0 with nothing printed).
func TestWriteErrorStatus(t *testing.T) {
	f := filepath.Join(t.TempDir(), "leaf")
	if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"merkle", "-scheme", "rfc6962", f},
		{"merkle", "-scheme", "solana", "-proof", "0", f},
		{"chain", "-n", "3", "-crypto"},
		{"version"},
		{"sum", f},
	} {
		var stderr strings.Builder
		if got := run(args, strings.NewReader(""), failWriter{}, &stderr); got != 1 {
			t.Errorf("%q to a failing stdout: status %d, want 1", args, got)
		}
		if !strings.Contains(stderr.String(), "sha256x: write error: no space left on device") {
			t.Errorf("%q to a failing stdout: stderr %q", args, stderr.String())
		}
	}
}
