// Command procrr times whole processes round robin: in every round each
// command runs once, the order turning from round to round, so that a slow
// spell of the host lands on all of them. It starts each process itself
// (os.StartProcess, a vfork and an exec), with no shell between: bash takes
// 7-10 ms to hand a process 10,000 names and Python's fork of itself about
// 1 ms, which filesrr.sh's and other launchers' figures include
// (bench/HISTORY.md, "Where the rest of `sum -r` goes"). A run's time is from
// just before the process is started to just after it is reaped; its
// output goes to /dev/null. It prints each command's median, first
// quartile, fastest and slowest run and its median CPU time (user and
// system, all its threads), then for each pair P/Q of -pairs (commands
// numbered from 0; by default every command over the first) command P's
// time over command Q's, round by round: median, worst and best.
//
//	cd bench && go run ./procrr [-rounds 40] [-dir DIR] [-list FILE] [-pairs 'P/Q ...'] 'LABEL=PROG ARG...' ...
//
// An argument @LIST stands for the lines of -list, one argument each;
// words NAME=VALUE before PROG are added to the command's environment.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

func main() {
	rounds := flag.Int("rounds", 40, "rounds")
	dir := flag.String("dir", ".", "working directory of the commands")
	list := flag.String("list", "", "file of names, one a line, for @LIST")
	pairs := flag.String("pairs", "", "ratios to print, P/Q ... (default: each command over the first)")
	flag.Parse()
	var names []string
	if *list != "" {
		b, err := os.ReadFile(*list)
		if err != nil {
			log.Fatal(err)
		}
		names = strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	}
	type command struct {
		label string
		argv  []string
		env   []string
		times []float64 // ms, one a round
		cpu   []float64 // ms of user and system time, one a round
	}
	var cmds []*command
	for _, a := range flag.Args() {
		label, line, ok := strings.Cut(a, "=")
		if !ok {
			log.Fatalf("%q: want LABEL=PROG ARG...", a)
		}
		c := &command{label: label, env: os.Environ()}
		for _, f := range strings.Fields(line) {
			if len(c.argv) == 0 && strings.Contains(f, "=") {
				c.env = append(c.env, f)
			} else if f == "@LIST" {
				c.argv = append(c.argv, names...)
			} else {
				c.argv = append(c.argv, f)
			}
		}
		if c.argv[0], _ = exec.LookPath(c.argv[0]); c.argv[0] == "" {
			log.Fatalf("%s: no such program", line)
		}
		cmds = append(cmds, c)
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		log.Fatal(err)
	}
	run := func(c *command) (ms, cpu float64) {
		attr := &os.ProcAttr{Dir: *dir, Env: c.env, Files: []*os.File{os.Stdin, null, os.Stderr}}
		t0 := time.Now()
		p, err := os.StartProcess(c.argv[0], c.argv, attr)
		if err != nil {
			log.Fatal(err)
		}
		st, err := p.Wait()
		if err != nil || !st.Success() {
			log.Fatalf("%s: %v %v", c.label, st, err)
		}
		return float64(time.Since(t0).Nanoseconds()) / 1e6, float64((st.UserTime() + st.SystemTime()).Nanoseconds()) / 1e6
	}
	for _, c := range cmds { // warm the page cache
		run(c)
	}
	for r := range *rounds {
		for j := range cmds {
			c := cmds[(j+r)%len(cmds)]
			ms, cpu := run(c)
			c.times = append(c.times, ms)
			c.cpu = append(c.cpu, cpu)
		}
	}
	median := func(v []float64) float64 {
		s := slices.Sorted(slices.Values(v))
		return (s[(len(s)-1)/2] + s[len(s)/2]) / 2
	}
	// The first quartile is less moved than the median by the host's slow
	// spells, which lengthen some runs and shorten none.
	quartile := func(v []float64) float64 {
		s := slices.Sorted(slices.Values(v))
		return s[(len(s)-1)/4]
	}
	for _, c := range cmds {
		fmt.Printf("%-32s median %7.2f ms  quartile %7.2f  fastest %7.2f  slowest %7.2f  CPU %7.2f ms\n", c.label, median(c.times), quartile(c.times), slices.Min(c.times), slices.Max(c.times), median(c.cpu))
	}
	if *pairs == "" {
		for k := 1; k < len(cmds); k++ {
			*pairs += fmt.Sprintf(" %d/0", k)
		}
	}
	for _, pq := range strings.Fields(*pairs) {
		var p, q int
		if _, err := fmt.Sscanf(pq, "%d/%d", &p, &q); err != nil || p >= len(cmds) || q >= len(cmds) {
			log.Fatalf("-pairs: %q", pq)
		}
		var ratio []float64
		for r := range cmds[p].times {
			ratio = append(ratio, cmds[p].times[r]/cmds[q].times[r])
		}
		fmt.Printf("%-32s / %-32s median %.3f  worst %.2f  best %.2f\n", cmds[p].label, cmds[q].label, median(ratio), slices.Min(ratio), slices.Max(ratio))
	}
}
