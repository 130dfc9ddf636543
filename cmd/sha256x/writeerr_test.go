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

// TestWriteErrorUsage: help, every command's usage asked for with -h or
// --help, -t and bench say so when their output cannot be written and exit
// 1, as the commands above do (and as sha256sum --help >/dev/full does);
// they exited 0 with nothing printed.
func TestWriteErrorUsage(t *testing.T) {
	runs := [][]string{
		{"help"}, {"-h"}, {"--help"}, {"help", "merkle"},
		{"sum", "--help"}, {"sum", "-h"}, {"merkle", "-h"}, {"chain", "--help"},
		{"bench", "-h"}, {"version", "-h"}, {"-t", "-h"}, {"help", "-h"},
		{"bench", "-rounds", "1", "-time", "100us"},
		{"bench", "-small", "-rounds", "1", "-time", "100us"},
	}
	if !testing.Short() {
		runs = append(runs, []string{"-t"}) // a gigabyte hashed
	}
	for _, args := range runs {
		var stderr strings.Builder
		if got := run(args, strings.NewReader(""), failWriter{}, &stderr); got != 1 {
			t.Errorf("%q to a failing stdout: status %d, want 1", args, got)
		}
		if !strings.Contains(stderr.String(), "sha256x: write error: no space left on device") {
			t.Errorf("%q to a failing stdout: stderr %q", args, stderr.String())
		}
	}
}
