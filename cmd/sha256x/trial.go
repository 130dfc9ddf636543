package main

// sha256x -t: the time trial of FreeBSD's sha256 -t (sbin/md5/md5.c,
// MDTimeTrial): one digest of 100,000 blocks of 10,000 bytes, block[i] =
// i & 0xff, timed in user CPU seconds (getrusage), printed in its format.

import (
	"fmt"
	"io"

	"github.com/sha256x/sha256x"
)

const (
	trialBlockLen   = 10000
	trialBlockCount = 100000
)

func init() {
	commands["-t"] = func(args []string, _ io.Reader, stdout, stderr io.Writer) int { return trialMain(args, stdout, stderr) }
}

const trialUsage = `usage: sha256x -t

A time trial, as FreeBSD's sha256 -t: one digest of 100,000 blocks of
10,000 bytes (byte i of a block is i & 0xff) written to a sha256x.Digest,
timed in user CPU seconds, and printed in FreeBSD's format.
`

func trialMain(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		return writeUsage(stdout, stderr, trialUsage)
	}
	if len(args) > 0 {
		io.WriteString(stderr, trialUsage)
		return 2
	}
	out := &errWriter{w: stdout}
	stdout = out
	fmt.Fprintf(stdout, "SHA256 time trial. Digesting %d %d-byte blocks ...", trialBlockCount, trialBlockLen)
	sum, secs := trial(trialBlockCount)
	fmt.Fprintf(stdout, " done\n")
	fmt.Fprintf(stdout, "Digest = %x", sum)
	fmt.Fprintf(stdout, "\nTime = %f seconds\n", secs)
	fmt.Fprintf(stdout, "Speed = %f MiB/second\n", float32(trialBlockLen)*float32(trialBlockCount)/float32(secs)/(1<<20))
	return out.writeStatus(stderr, 0)
}

// trial digests count blocks and returns the digest and the user CPU
// seconds it took, as a float32 as FreeBSD computes it.
func trial(count int) ([32]byte, float32) {
	var block [trialBlockLen]byte
	for i := range block {
		block[i] = byte(i & 0xff)
	}
	start := userTime()
	var d sha256x.Digest
	for range count {
		d.Write(block[:])
	}
	sum := d.Sum256()
	secs := float32((userTime() - start).Seconds())
	return sum, secs
}
