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
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/internal/door"
	"github.com/sha256x/sha256x/internal/shapes"
)

func init() {
	commands["bench"] = runBench
}

const benchUsage = `usage: sha256x bench [-long] [-kernels] [-rounds N] [-time D] [-small | -pauses]

Measures sha256x against crypto/sha256 on eight shapes of work (Solana
shreds, Merkle joins, short and mixed messages, one long stream, single
messages; each named in a line before the table), on one core, and prints
each shape's row as soon as it is measured: MB/s of each, medians, and
sha256x's ratio to crypto/sha256 hashing the same messages one after
another in the same run. About 8 s by default.

  -long      a longer, more careful run: -rounds 7 -time 400ms (about 45 s)
  -kernels   also every kernel this CPU runs, a row each under each shape,
             each in a child process with SHA256X_KERNEL set
  -rounds N  measurements of each shape, interleaved (default 3)
  -time D    time per measurement (default 150ms)
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

// runBench measures crypto/sha256 and sha256x (and with -kernels every
// kernel this CPU can run) on every shape, and prints each shape's medians
// and ratios as soon as they are measured. A kernel is chosen once per
// process (SHA256X_KERNEL), so each other kernel runs in a child process
// that measures one shape at a time on request; rounds interleave the
// implementations so that drift hits all alike.
func runBench(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sha256x bench", flag.ContinueOnError)
	rounds := intFlag(fs, "rounds", 3, "measurements of each shape; the table shows medians")
	each := fs.Duration("time", 150*time.Millisecond, "time per measurement")
	long := fs.Bool("long", false, "a longer, more careful run: -rounds 7 -time 400ms")
	all := fs.Bool("kernels", false, "also every kernel this CPU runs")
	child := fs.Bool("child", false, "measure the shapes named on stdin with the kernel SHA256X_KERNEL names (used by bench itself)")
	small := fs.Bool("small", false, "small batches against crypto/sha256")
	pause := fs.Bool("pauses", false, "GC stops and oversleeps while 512 MiB is hashed")
	if status, ok := parseFlags(fs, benchUsage, args, stdout, stderr); !ok {
		return status
	}
	if fs.NArg() > 0 {
		return usageErrorf(stderr, benchUsage, "sha256x bench: no operands, but %s", quoteName(fs.Arg(0)))
	}
	if *long {
		set := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if !set["rounds"] {
			*rounds = 7
		}
		if !set["time"] {
			*each = 400 * time.Millisecond
		}
	}
	if *rounds < 1 {
		return usageErrorf(stderr, benchUsage, "sha256x bench: -rounds %d: at least 1", *rounds)
	}
	if *each <= 0 {
		return usageErrorf(stderr, benchUsage, "sha256x bench: -time %v: more than 0", *each)
	}
	// Like the other commands, bench exits 1 when its output could not be
	// written (the child's output is its parent's to check).
	out := &errWriter{w: stdout}
	switch {
	case *small && *pause:
		fmt.Fprint(stderr, "sha256x bench: -small or -pauses, not both\n", benchUsage)
		return 2
	case *small:
		return out.writeStatus(stderr, benchSmall(out, *rounds, *each))
	case *pause:
		return out.writeStatus(stderr, benchPauses(out, *rounds))
	case *child:
		return benchChild(stdin, stdout, *each)
	}
	stdout = out

	ss := shapes.All()
	var kids []*benchKid
	if *all {
		exe, err := os.Executable()
		if err != nil {
			fmt.Fprintln(stderr, "sha256x bench:", err)
			return 1
		}
		// The children share stderr: a file each gets as it is, anything
		// else through one lock, as each child's output is copied by a
		// goroutine of its own.
		kidErr := stderr
		if _, ok := stderr.(*os.File); !ok {
			kidErr = &lockedWriter{w: stderr}
		}
		for _, k := range sha256x.Kernels() {
			kid, err := startKid(exe, k, *each, kidErr)
			if err != nil {
				fmt.Fprintf(stderr, "sha256x bench: kernel %s: %v\n", k, err)
				return 1
			}
			defer kid.stop()
			kids = append(kids, kid)
		}
	}
	est := time.Duration(len(ss)**rounds*(2+len(kids))) * *each
	benchHeader(stdout, ss, *rounds, *each, est, *all)

	status := newBenchStatus(stderr)
	defer status.clear()
	for i, s := range ss {
		status.show(fmt.Sprintf("sha256x bench: measuring %s (%d of %d)", s.Name, i+1, len(ss)))
		var base, ours []float64
		kv := make([][]float64, len(kids))
		for range *rounds {
			base = append(base, measure(s, *each, true))
			ours = append(ours, measure(s, *each, false))
			for j, kid := range kids {
				v, err := kid.measure(s.Name)
				if err != nil {
					status.clear()
					fmt.Fprintf(stderr, "sha256x bench: kernel %s: %v\n", kid.kernel, err)
					return 1
				}
				kv[j] = append(kv[j], v)
			}
		}
		b := median(base)
		status.clear()
		fmt.Fprintf(stdout, "%-12s %10s %18s %14s %7.2fx\n", s.Name, thousands(s.Bytes()),
			thousands(int64(b)), thousands(int64(median(ours))), median(ours)/b)
		for j, kid := range kids {
			v := median(kv[j])
			fmt.Fprintf(stdout, "  %-21s %18s %14s %7.2fx\n", "kernel "+kid.kernel, "", thousands(int64(v)), v/b)
		}
	}
	return out.writeStatus(stderr, 0)
}

// benchHeader prints what the table will show: the CPU, the kernel, what
// each shape is, what the ratio compares, and the column heads. Every line
// fits in 100 columns.
func benchHeader(w io.Writer, ss []*shapes.Shape, rounds int, each, est time.Duration, all bool) {
	how := "dispatched"
	switch {
	case os.Getenv("SHA256X_KERNEL") != "":
		how = "SHA256X_KERNEL"
	case door.Pinned() != "":
		how = "build tag sha256x_" + door.Pinned()
	}
	fmt.Fprintf(w, "CPU: %s\n", cpuName())
	fmt.Fprintf(w, "     %s, %d threads, %s; one core measured\n", runtime.GOARCH, runtime.NumCPU(), runtime.Version())
	fmt.Fprintf(w, "kernel: %s (%s); this CPU runs %s\n", sha256x.Kernel(), how, strings.Join(sha256x.Kernels(), ", "))
	fmt.Fprintln(w, "sha256x: HashManyPrefixed of each shape's messages at once (Sum256 for single-*)")
	fmt.Fprintln(w, "ratio: sha256x MB/s over crypto/sha256's, crypto/sha256 hashing the same messages")
	fmt.Fprintln(w, "       one after another (Sum256 each; after a prefix, Reset, Write(prefix), Write, Sum")
	fmt.Fprintln(w, "       of one hash.Hash), measured in this run, interleaved with sha256x")
	fmt.Fprintf(w, "MB/s: medians of %d measurements of %v each; about %v in all\n", rounds, each, est.Round(100*time.Millisecond))
	if !all {
		fmt.Fprintln(w, "      (-long for a more careful run, -kernels for every kernel this CPU runs)")
	}
	fmt.Fprintln(w, "\nshapes (one operation hashes all of a shape's messages):")
	for _, s := range ss {
		fmt.Fprintf(w, "  %-12s %s\n", s.Name, s.What)
	}
	fmt.Fprintf(w, "\n%-12s %10s %18s %14s %8s\n", "shape", "bytes/op", "crypto/sha256 MB/s", "sha256x MB/s", "ratio")
}

// thousands formats n with commas between groups of three digits.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// A benchKid is a child process running one kernel, which measures the shape
// it is sent a name of and replies with its MB/s.
type benchKid struct {
	kernel string
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
}

func startKid(exe, kernel string, each time.Duration, stderr io.Writer) (*benchKid, error) {
	cmd := exec.Command(exe, "bench", "-child", "-time", each.String())
	cmd.Env = append(os.Environ(), "SHA256X_KERNEL="+kernel)
	cmd.Stderr = stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &benchKid{kernel, cmd, in, bufio.NewReader(out)}, nil
}

func (k *benchKid) measure(shape string) (float64, error) {
	if _, err := fmt.Fprintln(k.in, shape); err != nil {
		return 0, err
	}
	line, err := k.out.ReadString('\n')
	if err != nil {
		return 0, fmt.Errorf("no result for %s: %v", shape, err)
	}
	return strconv.ParseFloat(strings.TrimSpace(line), 64)
}

func (k *benchKid) stop() {
	k.in.Close()
	k.cmd.Wait()
}

// A lockedWriter serializes writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// benchChild measures each shape named on a line of in, with the kernel
// this process runs, and writes its MB/s on a line of out.
func benchChild(in io.Reader, out io.Writer, each time.Duration) int {
	byName := map[string]*shapes.Shape{}
	for _, s := range shapes.All() {
		byName[s.Name] = s
	}
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		s, ok := byName[sc.Text()]
		if !ok {
			fmt.Fprintf(os.Stderr, "sha256x bench -child: no shape %q\n", sc.Text())
			return 1
		}
		if _, err := fmt.Fprintf(out, "%f\n", measure(s, each, false)); err != nil {
			return 1
		}
	}
	return 0
}

// A benchStatus is a line on standard error, when it is a terminal, naming
// the shape being measured; nothing otherwise.
type benchStatus struct {
	w     io.Writer
	shown bool
}

func newBenchStatus(w io.Writer) *benchStatus {
	if f, ok := w.(*os.File); !ok || !term.IsTerminal(int(f.Fd())) {
		return &benchStatus{}
	}
	return &benchStatus{w: w}
}

func (s *benchStatus) show(msg string) {
	if s.w != nil {
		fmt.Fprintf(s.w, "\r%s\x1b[K", msg)
		s.shown = true
	}
}

func (s *benchStatus) clear() {
	if s.shown {
		fmt.Fprint(s.w, "\r\x1b[K")
		s.shown = false
	}
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
