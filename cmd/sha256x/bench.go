package main

import (
	"bufio"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/internal/door"
	"github.com/sha256x/sha256x/internal/shapes"
)

func init() {
	commands["bench"] = func(args []string, _ io.Reader, stdout, stderr io.Writer) int { return runBench(args, stdout, stderr) }
}

const benchUsage = `usage: sha256x bench [-rounds N] [-time D] [-small | -pauses]

Measures crypto/sha256 (one message after another) and sha256x as
dispatched and on every kernel this CPU runs, on every benchmark shape
(Solana shreds, Merkle joins, short and mixed messages, one long stream,
single messages), on one core; each kernel runs in a child process with
SHA256X_KERNEL set. Prints MB/s medians and each one's ratio to
crypto/sha256.

  -rounds N  measurements of each kernel and shape, interleaved (default 3)
  -time D    time per measurement (default 100ms)
  -small     instead, small batches: HashMany and HashManyPrefixed of 1-8
             messages of 32, 64, 200 and 1024 bytes, and Sum256 of 64
             bytes, as ratios to crypto/sha256, on the dispatched kernel
             (SHA256X_KERNEL=name picks another)
  -pauses    instead, what hashing 512 MiB through each entry point costs
             the rest of the process: the worst time a GC took to stop the
             world (/sched/pauses/stopping/gc:seconds) while a goroutine
             forces one every millisecond, and the worst oversleep of a
             goroutine sleeping 100 us at a time; crypto/sha256 beside it
`

// runBench measures crypto/sha256 and every kernel this CPU can run on every
// shape, and prints the medians and each kernel's ratio to crypto/sha256.
// A kernel is chosen once per process (SHA256X_KERNEL), so each kernel runs
// in a child process; rounds interleave them so that drift hits all alike.
func runBench(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sha256x bench", flag.ContinueOnError)
	rounds := fs.Int("rounds", 3, "measurements of each kernel and shape; the table shows medians")
	each := fs.Duration("time", 100*time.Millisecond, "time per measurement")
	child := fs.Bool("child", false, "measure the kernel SHA256X_KERNEL names and print raw results (used by bench itself)")
	small := fs.Bool("small", false, "small batches against crypto/sha256")
	pause := fs.Bool("pauses", false, "GC stops and oversleeps while 512 MiB is hashed")
	if status, ok := parseFlags(fs, benchUsage, args, stdout, stderr); !ok {
		return status
	}
	switch {
	case *small && *pause:
		fmt.Fprint(stderr, "sha256x bench: -small or -pauses, not both\n", benchUsage)
		return 2
	case *small:
		return benchSmall(stdout, *rounds, *each)
	case *pause:
		return benchPauses(stdout, *rounds)
	}

	ss := shapes.All()
	if *child {
		for _, s := range ss {
			fmt.Printf("%s %f\n", s.Name, measure(s, *each, false))
		}
		return 0
	}

	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "sha256x bench:", err)
		return 1
	}
	kernels := sha256x.Kernels()
	fmt.Printf("CPU: %s (%s, %d threads); %s\n", cpuName(), runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	fmt.Printf("dispatched: %s; kernels this CPU runs: %s\n", sha256x.Kernel(), strings.Join(kernels, ", "))
	fmt.Printf("one core; MB/s are medians of %d measurements of %v, interleaved\n\n", *rounds, *each)

	impls := append([]string{"crypto/sha256", "dispatched"}, kernels...)
	res := map[string]map[string][]float64{} // impl -> shape -> MB/s
	for _, im := range impls {
		res[im] = map[string][]float64{}
	}
	for r := 0; r < *rounds; r++ {
		for _, s := range ss {
			res["crypto/sha256"][s.Name] = append(res["crypto/sha256"][s.Name], measure(s, *each, true))
		}
		for _, im := range impls[1:] {
			cmd := exec.Command(exe, "bench", "-child", "-time", each.String())
			cmd.Env = os.Environ()
			if im != "dispatched" {
				cmd.Env = append(cmd.Env, "SHA256X_KERNEL="+im)
			}
			cmd.Stderr = os.Stderr
			out, err := cmd.Output()
			if err != nil {
				fmt.Fprintf(os.Stderr, "sha256x bench: kernel %s: %v\n", im, err)
				return 1
			}
			sc := bufio.NewScanner(strings.NewReader(string(out)))
			for sc.Scan() {
				f := strings.Fields(sc.Text())
				if len(f) == 2 {
					v, _ := strconv.ParseFloat(f[1], 64)
					res[im][f[0]] = append(res[im][f[0]], v)
				}
			}
		}
	}

	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fmt.Fprintf(w, "%-12s %9s", "shape", "bytes/op")
	for _, im := range impls {
		if im == "dispatched" {
			im = sha256x.Kernel() + " (dispatched)"
		}
		fmt.Fprintf(w, " %22s", im)
	}
	fmt.Fprintln(w)
	for _, s := range ss {
		fmt.Fprintf(w, "%-12s %9d", s.Name, s.Bytes())
		base := median(res["crypto/sha256"][s.Name])
		for _, im := range impls {
			v := median(res[im][s.Name])
			if im == "crypto/sha256" {
				fmt.Fprintf(w, " %17.0f MB/s", v)
			} else {
				fmt.Fprintf(w, " %10.0f MB/s %5.2fx", v, v/base)
			}
		}
		fmt.Fprintln(w)
	}
	return 0
}

// measure returns the MB/s of hashing shape s with sha256x (whatever kernel
// this process runs) or with crypto/sha256, one message after another.
func measure(s *shapes.Shape, d time.Duration, crypto bool) float64 {
	out := make([][sha256x.Size]byte, len(s.Msgs))
	h := sha256.New()
	op := func() {
		switch {
		case !crypto && s.Single:
			out[0] = sha256x.Sum256(s.Msgs[0])
		case !crypto:
			sha256x.HashManyPrefixed(out, s.Prefix, s.Msgs)
		default:
			s.HashCrypto(out, h)
		}
	}
	op() // warm up
	// Read the clock once a batch: it costs about as much as hashing a
	// short message. Batches double until they take a sixteenth of d.
	n, batch := 0, 1
	start := time.Now()
	for {
		for range batch {
			op()
		}
		n += batch
		took := time.Since(start)
		if took >= d {
			return float64(n) * float64(s.Bytes()) / took.Seconds() / 1e6
		}
		if took < d/16 {
			batch *= 2
		}
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// cpuName names the CPU: CPUID's brand string on amd64, /proc/cpuinfo
// elsewhere.
func cpuName() string {
	if n := door.CPUName(); n != "" {
		return n
	}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			k, v, ok := strings.Cut(line, ":")
			k = strings.TrimSpace(k)
			if ok && (k == "model name" || k == "Hardware" || k == "CPU part" || k == "cpu model") {
				return strings.TrimSpace(v)
			}
		}
	}
	return "unknown CPU"
}
