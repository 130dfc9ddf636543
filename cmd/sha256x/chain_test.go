package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
)

func TestChainCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if rc := chainMain([]string{"-n", "1000", "-seed", "poh", "-crypto", "-chains", "4"}, &out, &errb); rc != 0 {
		t.Fatalf("exit status %d; stderr %s", rc, errb.String())
	}
	d := sha256.Sum256([]byte("poh"))
	for range 1000 {
		d = sha256.Sum256(d[:])
	}
	for _, want := range []string{
		fmt.Sprintf("chain of 1000 steps from SHA-256(\"poh\"): %x", d),
		"sha256x.Chain:", "crypto/sha256 loop:", "sha256x.Chains, 4 x 250:", "steps/s", "ns/step",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if rc := chainMain([]string{"extra"}, &out, &errb); rc != 2 {
		t.Errorf("an extra argument: exit status %d, want 2", rc)
	}
}

// TestChainArgs: chain's flags in any order, and every bad value an error
// with status 2 and the usage, nothing on stdout: -n 10 -chains 64 printed
// "64 x 0: 0 steps", -n 0 timed nothing, -chains 0 and operands.
func TestChainArgs(t *testing.T) {
	if got := runCmd("chain", "-chains", "4", "-seed", "poh", "-n", "1000"); got.code != 0 || !strings.Contains(got.stdout, "sha256x.Chains, 4 x 250:") {
		t.Errorf("chain -chains 4 -seed poh -n 1000: %+v", got)
	}
	if got := runCmd("chain", "-n", "10", "-chains", "10"); got.code != 0 || !strings.Contains(got.stdout, "sha256x.Chains, 10 x 1:") {
		t.Errorf("chain -n 10 -chains 10: %+v", got)
	}
	// -n 010 is ten steps (flag.Uint64 read eight, fewer than the chains).
	if got := runCmd("chain", "-n", "010", "-chains", "9"); got.code != 0 || !strings.Contains(got.stdout, "sha256x.Chains, 9 x 1:") {
		t.Errorf("chain -n 010 -chains 9: %+v", got)
	}
	for _, c := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"-n", "10", "-chains", "64"}, "-chains 64 needs -n 64 or more"},
		{[]string{"-chains", "64", "-n", "10"}, "-chains 64 needs -n 64 or more"},
		{[]string{"-n", "0"}, "-n 0: nothing to time"},
		{[]string{"-n", "-5"}, "invalid value \"-5\" for flag -n"},
		{[]string{"-n", "ten"}, "invalid value \"ten\" for flag -n"},
		// Decimal, as every integer flag of the command (flag.Uint64 read 0x10
		// as 16, 010 as 8).
		{[]string{"-n", "0x10"}, "invalid value \"0x10\" for flag -n: parse error"},
		{[]string{"-n", "99999999999999999999"}, "for flag -n: value out of range"},
		{[]string{"-n", "100", "-chains", "0x2"}, "invalid value \"0x2\" for flag -chains: parse error"},
		{[]string{"-n", "100", "-chains", "0"}, "-chains 0: at least 1"},
		{[]string{"-n", "100", "-chains", "-1"}, "-chains -1: at least 1"},
		{[]string{"-n", "100000000", "-chains", "2000000"}, "-chains 2000000: at most 1048576"},
		{[]string{"-n", "100", "extra"}, "no operands, but extra"},
		{[]string{"extra", "-n", "100"}, "no operands, but extra"},
		{[]string{"-n", "100", "-seed"}, "flag needs an argument: -seed"},
		{[]string{"-n", "100", "-crypto=maybe"}, "invalid boolean value"},
	} {
		got := runCmd(append([]string{"chain"}, c.args...)...)
		if got.code != 2 || got.stdout != "" || !strings.Contains(got.stderr, c.stderr) || !strings.HasSuffix(got.stderr, chainUsage) {
			t.Errorf("chain %q: %+v; want status 2, stderr with %q and the usage", c.args, got, c.stderr)
		}
	}
}
