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
