package main

// sha256x chain: times hash chains (SHA-256 applied to its own output, as
// in proof of history) in steps per second: one serial chain with
// sha256x.Chain, optionally a crypto/sha256.Sum256 loop beside it, and
// optionally many chains side by side with sha256x.Chains.

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/sha256x/sha256x"
)

func init() {
	commands["chain"] = func(args []string, _ io.Reader, stdout, stderr io.Writer) int { return chainMain(args, stdout, stderr) }
}

const chainUsage = `usage: sha256x chain [-n STEPS] [-seed TEXT] [-crypto] [-chains C]

Times a hash chain (SHA-256 applied to its own 32-byte output, as in proof
of history) on one core with sha256x.Chain, and prints steps per second and
nanoseconds per step.

  -n STEPS    steps of the serial chain (default 10000000)
  -seed TEXT  the chain starts at SHA-256 of TEXT (default "")
  -crypto     also time the same chain on a crypto/sha256.Sum256 loop
  -chains C   also time C chains of STEPS/C steps each (rounded down), side
              by side (sha256x.Chains); 1 <= C <= STEPS, C <= 1048576

Flags may come in any order; there are no operands. A bad flag or value
(-n 0, -chains 0, more chains than steps) is an error, exit status 2.
`

// maxChains bounds -chains: the chains' states are held at once.
const maxChains = 1 << 20

func chainMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sha256x chain", flag.ContinueOnError)
	n := uint64Flag(fs, "n", 10_000_000, "steps of the serial chain")
	seed := fs.String("seed", "", "the chain starts at SHA-256 of this text")
	crypto := fs.Bool("crypto", false, "also time the same chain on a crypto/sha256.Sum256 loop")
	chains := intFlag(fs, "chains", 0, "also time this many chains of n/chains steps each, side by side (sha256x.Chains)")
	operands, status, ok := parseFlagsAnywhere(fs, chainUsage, args, stdout, stderr)
	if !ok {
		return status
	}
	switch {
	case len(operands) > 0:
		return usageErrorf(stderr, chainUsage, "sha256x chain: no operands, but %s", quoteName(operands[0]))
	case *n == 0:
		return usageErrorf(stderr, chainUsage, "sha256x chain: -n 0: nothing to time")
	case *chains < 0 || isSet(fs, "chains") && *chains == 0:
		return usageErrorf(stderr, chainUsage, "sha256x chain: -chains %d: at least 1", *chains)
	case *chains > maxChains:
		return usageErrorf(stderr, chainUsage, "sha256x chain: -chains %d: at most %d", *chains, maxChains)
	case uint64(*chains) > *n:
		return usageErrorf(stderr, chainUsage, "sha256x chain: -chains %d needs -n %d or more: each chain runs n/C steps", *chains, *chains)
	}
	out := &errWriter{w: stdout}
	stdout = out
	start := sha256.Sum256([]byte(*seed))
	fmt.Fprintf(stdout, "CPU: %s; kernel %s; one core\n", cpuName(), sha256x.Kernel())

	t0 := time.Now()
	d := sha256x.Chain(start, *n)
	report(stdout, "sha256x.Chain", *n, time.Since(t0))
	fmt.Fprintf(stdout, "  chain of %d steps from SHA-256(%q): %x\n", *n, *seed, d)

	if *crypto {
		t0 := time.Now()
		c := start
		for range *n {
			c = sha256.Sum256(c[:])
		}
		report(stdout, "crypto/sha256 loop", *n, time.Since(t0))
		if c != d {
			fmt.Fprintf(stderr, "sha256x chain: crypto/sha256 gives %x, sha256x %x\n", c, d)
			return out.writeStatus(stderr, 1)
		}
	}

	if *chains > 0 {
		per := *n / uint64(*chains)
		states := make([][sha256x.Size]byte, *chains)
		counts := make([]uint64, *chains)
		for i := range states {
			states[i] = sha256.Sum256(fmt.Appendf(nil, "%s/%d", *seed, i))
			counts[i] = per
		}
		runtime.GC()
		t0 := time.Now()
		sha256x.Chains(states, counts)
		report(stdout, fmt.Sprintf("sha256x.Chains, %d x %d", *chains, per), per*uint64(*chains), time.Since(t0))
	}
	return out.writeStatus(stderr, 0)
}

// report prints a timing as steps per second and nanoseconds per step.
func report(w io.Writer, what string, steps uint64, d time.Duration) {
	s := d.Seconds()
	if s <= 0 || steps == 0 {
		fmt.Fprintf(w, "%-32s %d steps in %v\n", what+":", steps, d)
		return
	}
	fmt.Fprintf(w, "%-32s %d steps in %.3f s: %.2f M steps/s, %.2f ns/step\n", what+":", steps, s, float64(steps)/s/1e6, 1e9*s/float64(steps))
}
