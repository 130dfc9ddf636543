package main

// sha256x merkle: a Merkle root over files as leaves.

import (
	"bufio"
	"flag"
	"fmt"
	"io"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/merkle"
)

func init() { commands["merkle"] = merkleMain }

const merkleUsage = `usage: sha256x merkle -scheme rfc6962|bitcoin|binary|solana [-proof I] FILE...

Prints the Merkle root of the tree whose leaves are the FILEs, in order
(- is standard input), in hex. What a file becomes:

  rfc6962  leaf SHA-256(0x00 || contents): each file is a log entry
  solana   leaf SHA-256("\x00SOLANA_MERKLE_SHREDS_LEAF" || contents): each
           file is a shred's signed bytes
  bitcoin  leaf SHA-256(SHA-256(contents)): each file is a serialized
           transaction (without witness data), the leaf its txid; the root
           is printed in display byte order, as block explorers show it
  binary   leaf SHA-256(contents), the 32-byte chunk of an SSZ-style tree

With -proof I, the inclusion proof of file I (from 0) follows the root, one
sibling per line, lowest first (Solana: the 20 bytes a shred carries).

Flags may come before, between or after the FILEs; -- ends them (a FILE
named -x is "-- -x"). With no FILE the tree is empty (its root: the
scheme's empty root; solana refuses it). Exit status: 0, the root printed;
1, a FILE could not be read (no root is printed) or the output could not
be written; 2, a bad flag or value:
an unknown scheme, -proof outside 0..FILEs-1.
`

var schemes = map[string]*merkle.Scheme{
	"rfc6962": &merkle.RFC6962,
	"bitcoin": &merkle.Bitcoin,
	"binary":  &merkle.Binary,
	"solana":  &merkle.Solana,
}

func merkleMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sha256x merkle", flag.ContinueOnError)
	name := fs.String("scheme", "", "rfc6962, bitcoin, binary or solana")
	proof := intFlag(fs, "proof", -1, "print the inclusion proof of file `I`")
	files, status, ok := parseFlagsAnywhere(fs, merkleUsage, args, stdout, stderr)
	if !ok {
		return status
	}
	s := schemes[*name]
	switch {
	case s == nil && *name == "":
		return usageErrorf(stderr, merkleUsage, "sha256x merkle: -scheme is required: rfc6962, bitcoin, binary or solana")
	case s == nil:
		return usageErrorf(stderr, merkleUsage, "sha256x merkle: -scheme %s: must be rfc6962, bitcoin, binary or solana", quoteName(*name))
	case len(files) == 0 && s.NoEmpty:
		return usageErrorf(stderr, merkleUsage, "sha256x merkle: a %s tree needs at least one file", *name)
	case isSet(fs, "proof") && (*proof < 0 || *proof >= len(files)):
		return usageErrorf(stderr, merkleUsage, "sha256x merkle: -proof %d: not a file's index (0 to %d, of %d files)", *proof, len(files)-1, len(files))
	}
	// Leaves: prefixed schemes hash prefix || contents as they read; the
	// others hash the contents (and bitcoin once more).
	eng := newEngine(s.LeafPrefix, stdin)
	defer eng.close()
	jobs := make([]*job, len(files))
	for i, f := range files {
		jobs[i] = &job{path: f}
	}
	for i := 0; i < len(jobs); i += window {
		eng.hash(jobs[i:min(i+window, len(jobs))])
	}
	status = 0
	nodes := make([][32]byte, len(jobs))
	for i, j := range jobs {
		if j.err != nil {
			fmt.Fprintf(stderr, "sha256x: %s: %s\n", quoteName(j.path), errText(j.err))
			status = 1
		}
		nodes[i] = j.sum
		if s == &merkle.Bitcoin {
			nodes[i] = sha256x.Sum256(j.sum[:])
		}
	}
	if status != 0 {
		return status // no root over leaves that could not be read
	}
	w := bufio.NewWriter(stdout)
	tree := s.BuildNodes(nodes)
	root := tree.Root()
	if s == &merkle.Bitcoin {
		root = merkle.Reverse(root)
	}
	fmt.Fprintf(w, "%x\n", root)
	if *proof >= 0 {
		p := tree.Proof(*proof)
		width := s.Node.Width
		if width == 0 {
			width = 32
		}
		for _, e := range p.Path {
			if s == &merkle.Bitcoin {
				e = merkle.Reverse(e)
			}
			fmt.Fprintf(w, "%x\n", e[:width])
		}
	}
	return writeStatus(stderr, w.Flush(), status)
}
