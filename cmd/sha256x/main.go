// Command sha256x hashes files and Merkle trees with SHA-256, many messages
// at once, and measures the sha256x kernels.
//
//	sha256x sum [-r] [FILE|DIR]...  like sha256sum, many files at once
//	sha256x sum -c SUMS             check digests like sha256sum -c
//	sha256x merkle -scheme S FILE.. a Merkle root over the files as leaves
//	sha256x bench                   sha256x against crypto/sha256 on eight shapes
//	sha256x -t                      a time trial, as FreeBSD's sha256 -t
//	sha256x help [COMMAND]          what the command is, or a command's usage
//	sha256x --version               the version, Go's, and the kernel this CPU runs
package main

import (
	"io"
	"os"
	"runtime/debug"
)

// commands maps a subcommand to its function, which returns the exit status.
// Each subcommand registers itself from its own file, and describes itself
// in docs (help.go).
var commands = map[string]func(args []string, stdin io.Reader, stdout, stderr io.Writer) int{}

func main() {
	// The command's heap is small and bounded (the files package's arenas,
	// a window of results): collected from Go's first goal of 4 MB, `sum
	// -r` was slower (BENCHMARKS.md, "The walk and the collector").
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
