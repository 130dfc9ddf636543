package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sha256x/sha256x/merkle"
)

func TestMerkleCommand(t *testing.T) {
	dir := t.TempDir()
	var files []string
	var contents [][]byte
	for i := range 11 {
		c := bytes.Repeat([]byte{byte(i)}, i*i*1000) // up to 100 KB
		if i == 10 {
			c = bytes.Repeat([]byte("big"), smallMax) // streamed
		}
		p := filepath.Join(dir, fmt.Sprint(i))
		if err := os.WriteFile(p, c, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
		contents = append(contents, c)
	}
	// What each scheme's leaves are, per the command's documentation,
	// computed here with crypto/sha256.
	nodes := func(double bool) [][32]byte {
		n := make([][32]byte, len(contents))
		for i, c := range contents {
			n[i] = sha256.Sum256(c)
			if double {
				n[i] = sha256.Sum256(n[i][:])
			}
		}
		return n
	}
	for _, c := range []struct {
		scheme string
		want   [32]byte
		tree   *merkle.Tree
	}{
		{"rfc6962", merkle.RFC6962.Root(contents), merkle.RFC6962.Build(contents)},
		{"solana", merkle.Solana.Root(contents), merkle.Solana.Build(contents)},
		{"binary", merkle.Binary.RootNodes(nodes(false)), merkle.Binary.BuildNodes(nodes(false))},
		{"bitcoin", merkle.Reverse(merkle.Bitcoin.RootNodes(nodes(true))), merkle.Bitcoin.BuildNodes(nodes(true))},
	} {
		var out, errb bytes.Buffer
		code := merkleMain(append([]string{"-scheme", c.scheme, "-proof", "3"}, files...), nil, &out, &errb)
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if code != 0 || lines[0] != hex.EncodeToString(c.want[:]) {
			t.Fatalf("%s: code %d, output %q, want root %x; stderr %s", c.scheme, code, out.String(), c.want, errb.String())
		}
		p := c.tree.Proof(3)
		if len(lines) != 1+len(p.Path) {
			t.Fatalf("%s: %d proof lines, want %d", c.scheme, len(lines)-1, len(p.Path))
		}
		for k, e := range p.Path {
			if c.scheme == "bitcoin" {
				e = merkle.Reverse(e)
			}
			if !strings.HasPrefix(hex.EncodeToString(e[:]), lines[1+k]) || len(lines[1+k]) < 40 {
				t.Fatalf("%s: proof line %d %s, want %x", c.scheme, k, lines[1+k], e)
			}
		}
	}
	for _, args := range [][]string{
		{"-scheme", "nope", files[0]},
		{"-scheme", "solana"},
		{"-scheme", "rfc6962", "-proof", "2", files[0], files[1]},
		{"-scheme", "rfc6962", files[0], filepath.Join(dir, "missing")},
	} {
		var out, errb bytes.Buffer
		if code := merkleMain(args, nil, &out, &errb); code == 0 || out.Len() != 0 || errb.Len() == 0 {
			t.Errorf("merkle %q: code %d, stdout %q, stderr %q", args, code, out.String(), errb.String())
		}
	}
	var out bytes.Buffer
	if merkleMain([]string{"-scheme", "rfc6962"}, nil, &out, &out) != 0 || out.String() != fmt.Sprintf("%x\n", sha256.Sum256(nil)) {
		t.Errorf("the empty RFC 6962 tree: %q", out.String())
	}
}

func TestTrial(t *testing.T) {
	sum, secs := trial(50)
	h := sha256.New()
	block := make([]byte, trialBlockLen)
	for i := range block {
		block[i] = byte(i)
	}
	for range 50 {
		h.Write(block)
	}
	if !bytes.Equal(sum[:], h.Sum(nil)) || secs < 0 {
		t.Fatalf("trial: %x in %v s", sum, secs)
	}
	if testing.Short() {
		return
	}
	var out bytes.Buffer
	if code := trialMain(nil, &out, &out); code != 0 {
		t.Fatal(code)
	}
	// FreeBSD's format; the digest of 100,000 such blocks from Python's
	// hashlib.
	lines := strings.Split(out.String(), "\n")
	if len(lines) != 5 || lines[0] != "SHA256 time trial. Digesting 100000 10000-byte blocks ... done" ||
		lines[1] != "Digest = 3f7daf2b36997b6eb269f63176e09fee8f6daa13202d87e020da63d262c6a4ca" ||
		!strings.HasPrefix(lines[2], "Time = ") || !strings.HasSuffix(lines[2], " seconds") ||
		!strings.HasPrefix(lines[3], "Speed = ") || !strings.HasSuffix(lines[3], " MiB/second") {
		t.Fatalf("output %q", out.String())
	}
}

// TestMerkleArgs: merkle takes its flags anywhere among the files, as GNU
// getopt does, "--" ends them, and every bad value is an error with status
// 2 (a file that cannot be read: 1), nothing on stdout.
func TestMerkleArgs(t *testing.T) {
	t.Chdir(t.TempDir())
	leaves := [][]byte{[]byte("l0"), []byte("l1"), []byte("l2")}
	for i, l := range leaves {
		if err := os.WriteFile(fmt.Sprintf("l%d", i), l, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile("-x", []byte("dash"), 0o644); err != nil {
		t.Fatal(err)
	}
	tree := merkle.RFC6962.Build(leaves)
	root := fmt.Sprintf("%x\n", tree.Root())
	withProof := root
	for _, e := range tree.Proof(1).Path {
		withProof += fmt.Sprintf("%x\n", e)
	}
	dash := fmt.Sprintf("%x\n", merkle.RFC6962.Root([][]byte{[]byte("dash")}))
	for _, c := range []struct {
		args   []string
		code   int
		stdout string
		stderr string // a part of it
	}{
		{[]string{"-scheme", "rfc6962", "l0", "l1", "l2"}, 0, root, ""},
		{[]string{"l0", "l1", "l2", "-scheme", "rfc6962"}, 0, root, ""},
		{[]string{"l0", "-scheme", "rfc6962", "l1", "l2"}, 0, root, ""},
		{[]string{"l0", "-scheme=rfc6962", "l1", "-proof", "1", "l2"}, 0, withProof, ""},
		{[]string{"l0", "l1", "l2", "-proof=1", "-scheme", "rfc6962"}, 0, withProof, ""},
		{[]string{"-scheme", "rfc6962", "--", "-x"}, 0, dash, ""},
		{[]string{"-scheme", "rfc6962", "l0", "--", "-scheme"}, 1, "", "-scheme"}, // a file name now: missing
		{[]string{"-proof", "-1", "-scheme", "rfc6962", "l0", "l1"}, 2, "", "-proof -1: not a file's index"},
		{[]string{"-scheme", "rfc6962", "l0", "l1", "-proof", "-1"}, 2, "", "-proof -1: not a file's index"},
		{[]string{"-scheme", "rfc6962", "-proof", "3", "l0", "l1", "l2"}, 2, "", "-proof 3: not a file's index (0 to 2, of 3 files)"},
		{[]string{"-scheme", "rfc6962", "-proof", "0"}, 2, "", "-proof 0: not a file's index"},
		{[]string{"-scheme", "rfc6962", "-proof", "x", "l0"}, 2, "", "invalid value \"x\" for flag -proof"},
		// Decimal, as the usage says (flag.Int read 010 as 8, 0x1 as 1).
		{[]string{"-scheme", "rfc6962", "-proof", "01", "l0", "l1", "l2"}, 0, withProof, ""},
		{[]string{"-scheme", "rfc6962", "-proof", "+1", "l0", "l1", "l2"}, 0, withProof, ""},
		{[]string{"-scheme", "rfc6962", "-proof", "010", "l0", "l1", "l2"}, 2, "", "-proof 10: not a file's index"},
		{[]string{"-scheme", "rfc6962", "-proof", "0x1", "l0", "l1", "l2"}, 2, "", "invalid value \"0x1\" for flag -proof: parse error"},
		{[]string{"-scheme", "rfc6962", "-proof", "99999999999999999999", "l0"}, 2, "", "invalid value \"99999999999999999999\" for flag -proof: value out of range"},
		{[]string{"-scheme", "rfc6962", "l0", "-proof"}, 2, "", "flag needs an argument: -proof"},
		{[]string{"l0", "-scheme"}, 2, "", "flag needs an argument: -scheme"},
		{[]string{"l0", "l1"}, 2, "", "-scheme is required"},
		{[]string{"-scheme", "sha1", "l0"}, 2, "", "-scheme sha1: must be rfc6962, bitcoin, binary or solana"},
		{[]string{"-scheme", "solana"}, 2, "", "a solana tree needs at least one file"},
		{[]string{"l0", "-bogus", "-scheme", "rfc6962"}, 2, "", "flag provided but not defined: -bogus"},
		{[]string{"-scheme", "rfc6962", "l0", "missing"}, 1, "", "sha256x: missing: No such file or directory"},
	} {
		got := runCmd(append([]string{"merkle"}, c.args...)...)
		if got.code != c.code || got.stdout != c.stdout || !strings.Contains(got.stderr, c.stderr) || (c.code == 0) != (got.stderr == "") {
			t.Errorf("merkle %q: %+v; want status %d, stdout %q, stderr with %q", c.args, got, c.code, c.stdout, c.stderr)
		}
		if c.code == 2 && !strings.HasSuffix(got.stderr, merkleUsage) {
			t.Errorf("merkle %q: a usage error without the usage: %q", c.args, got.stderr)
		}
	}
}
