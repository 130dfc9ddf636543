// Command sha256x hashes files and measures the sha256x kernels.
//
//	sha256x bench                   every kernel on every shape, against crypto/sha256
//	sha256x sum [-r] [FILE|DIR]...  like sha256sum, many files at once
//	sha256x sum -c SUMS             check digests like sha256sum -c
//	sha256x merkle -scheme S FILE.. a Merkle root over the files as leaves
//	sha256x -t                      a time trial, as FreeBSD's sha256 -t
package main

import (
	"fmt"
	"os"
	"sort"
	"strings"
)

// commands maps a subcommand to its function, which returns the exit status.
// Each subcommand registers itself from its own file.
var commands = map[string]func(args []string) int{}

func main() {
	if len(os.Args) < 2 || commands[os.Args[1]] == nil {
		var names []string
		for n := range commands {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Fprintf(os.Stderr, "usage: sha256x %s ...\n", strings.Join(names, "|"))
		os.Exit(2)
	}
	os.Exit(commands[os.Args[1]](os.Args[2:]))
}
