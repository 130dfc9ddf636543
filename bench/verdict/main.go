// Command verdict reads the files bench/hostcheck.sh wrote into DIR and
// prints each must-show of issues 38 and 39 that they measure: the figure,
// the bar and "met" or "NOT MET", so that a session on another CPU reads
// its host's standing in one screen. It judges only what the files hold;
// what they cannot say (the 30-minute soak, the arithmetic on the slowest
// kernel's speed) is left to the notes.
//
//	go run ./verdict DIR     (from bench/; hostcheck.sh runs it last)
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: verdict DIR (the directory bench/hostcheck.sh wrote)")
		os.Exit(2)
	}
	if err := report(os.Stdout, os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "verdict:", err)
		os.Exit(1)
	}
}

// A line is one must-show's standing; one with no bar that is met is a
// figure to read beside them, judged neither way.
type line struct {
	what, figure, bar string
	met               bool
}

func (l line) String() string {
	v := "met"
	switch {
	case l.bar == "" && l.met:
		v = ""
	case !l.met:
		v = "NOT MET"
	}
	return fmt.Sprintf("  %-52s %-34s %-12s %s", l.what, l.figure, l.bar, v)
}

// report prints the verdicts of the files in dir; a file that is missing
// or does not parse is named, and the others are still judged.
func report(w io.Writer, dir string) error {
	host, err := os.ReadFile(filepath.Join(dir, "host.txt"))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s", host)
	for _, s := range []struct {
		issue, file string
		judge       func(string) ([]line, error)
	}{
		{"38", "largerr.txt", func(t string) ([]line, error) { return large("8 x 64 MiB", t) }},
		{"38", "largerr-1g.txt", func(t string) ([]line, error) { return large("one 1 GiB file", t) }},
		{"38", "filesrr.txt", small},
		{"38", "calltime.txt", calls},
		{"38", "abrr.txt", abrr},
		{"38", "pauses.txt", pauses},
		{"38", "jcap.txt", jcap},
		{"39", "mutable.txt", mutable},
		{"39", "writeahead.txt", writeAhead},
		{"39", "tiers.txt", tiers},
	} {
		text, err := os.ReadFile(filepath.Join(dir, s.file))
		if err != nil {
			fmt.Fprintf(w, "issue %s, %s: missing (%v)\n", s.issue, s.file, err)
			continue
		}
		ls, err := s.judge(string(text))
		if err != nil {
			fmt.Fprintf(w, "issue %s, %s: %v\n", s.issue, s.file, err)
			continue
		}
		fmt.Fprintf(w, "issue %s, %s\n", s.issue, s.file)
		for _, l := range ls {
			fmt.Fprintln(w, l)
		}
	}
	return nil
}

// ratioRE matches procrr's and rr_report's ratio lines: the median of one
// command's time over another's, round by round.
var ratioRE = regexp.MustCompile(`^(.+?)\s+/ (.+?)\s+median ([0-9.]+)`)

// ratios returns the median ratios of text by "P / Q", labels trimmed.
func ratios(text string) map[string]float64 {
	m := map[string]float64{}
	for _, l := range strings.Split(text, "\n") {
		if r := ratioRE.FindStringSubmatch(l); r != nil {
			v, _ := strconv.ParseFloat(r[3], 64)
			m[strings.TrimSpace(r[1])+" / "+strings.TrimSpace(r[2])] = v
		}
	}
	return m
}

func need(m map[string]float64, keys ...string) error {
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return fmt.Errorf("no line %q", k)
		}
	}
	return nil
}

// large: the default no slower than the faster of mapped and read, within
// 3%, and at least 2.5x openssl.
func large(what, text string) ([]line, error) {
	m := ratios(text)
	rd, mp, ossl := "sum, read (SHA256X_MMAP=off) / sum", "sum, mapped (SHA256X_MMAP=on) / sum", "openssl / sum"
	if err := need(m, rd, mp, ossl); err != nil {
		return nil, err
	}
	faster := min(m[rd], m[mp]) // the faster way's time over the default's
	return []line{
		{what + ": default / faster of mapped, read", fmt.Sprintf("%.3f (read %.2f, mapped %.2f)", 1/faster, m[rd], m[mp]), "<= 1.03", 1/faster <= 1.03},
		{what + ": openssl / default", fmt.Sprintf("%.2fx", m[ossl]), ">= 2.5x", m[ossl] >= 2.5},
	}, nil
}

// small: 10,000 small files no slower than the old command ("today").
func small(text string) ([]line, error) {
	m := ratios(text)
	tree, list := "old sum -r / sum -r", "old sum FILE... / sum FILE..."
	if err := need(m, tree, list); err != nil {
		return nil, err
	}
	ls := []line{
		{"10,000 small files, sum -r: old / new", fmt.Sprintf("%.3f", m[tree]), ">= 1.00", m[tree] >= 1},
		{"10,000 small files, sum FILE...: old / new", fmt.Sprintf("%.3f", m[list]), ">= 1.00", m[list] >= 1},
	}
	// Not a must-show but a decision's check on this host (BENCHMARKS.md,
	// "Files: names of unknown type"): the list form's default no slower
	// than the faster of the ring and the plain way, within 3%.
	t := medians(text)
	def, ring, plain := t["sum FILE..."], t["sum FILE..., io_uring on"], t["sum FILE..., io_uring refused"]
	if def > 0 && ring > 0 && plain > 0 {
		r := def / min(ring, plain)
		ls = append(ls, line{"(decision) sum FILE...: default / faster way", fmt.Sprintf("%.3f (ring %.2f, plain %.2f ms)", r, ring, plain), "<= 1.03", r <= 1.03})
	}
	return ls, nil
}

// medianRE matches a command's median time in procrr's and rr_report's
// tables.
var medianRE = regexp.MustCompile(`^(.+?)\s+median\s+([0-9.]+) ms`)

// medians returns the median times of text's commands, in ms.
func medians(text string) map[string]float64 {
	m := map[string]float64{}
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, " / ") {
			continue
		}
		if r := medianRE.FindStringSubmatch(l); r != nil {
			m[strings.TrimSpace(r[1])], _ = strconv.ParseFloat(r[2], 64)
		}
	}
	return m
}

// callRE matches a row of calltime.sh's tables: entry point, kernel,
// blocks, steps, calls, large calls, their median, the longest, its wall.
var callRE = regexp.MustCompile(`^(.+?)\s{2,}(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(\S+)\s+(\S+)$`)

// calls: the largest calls' median time of every entry point, each table
// (the dispatched plan, and each kernel forced) at most 100 µs. The
// longest single call is shown beside it: it holds the host's
// interruptions too, as crypto/sha256's control row shows.
func calls(text string) ([]line, error) {
	var ls []line
	section := ""
	worst, longest, control := time.Duration(0), time.Duration(0), time.Duration(0)
	who := ""
	flush := func() {
		if section != "" && who != "" {
			f := fmt.Sprintf("%v (%s; longest %v", worst, who, longest)
			if control > 0 {
				f += fmt.Sprintf(", crypto/sha256's %v", control)
			}
			ls = append(ls, line{"largest calls' median, " + section, f + ")", "<= 100µs", worst <= 100*time.Microsecond})
		}
		worst, longest, control, who = 0, 0, 0, ""
	}
	for _, l := range strings.Split(text, "\n") {
		if s, ok := strings.CutPrefix(l, "== "); ok {
			flush()
			section = s
			continue
		}
		r := callRE.FindStringSubmatch(l)
		if r == nil {
			continue
		}
		med, err1 := time.ParseDuration(r[7])
		lng, err2 := time.ParseDuration(r[8])
		if err1 != nil || err2 != nil {
			continue
		}
		if r[2] == "(control)" {
			control = lng
			continue
		}
		if med > worst {
			worst, who = med, strings.TrimSpace(r[1])
		}
		longest = max(longest, lng)
	}
	flush()
	if len(ls) == 0 {
		return nil, fmt.Errorf("no table")
	}
	return ls, nil
}

// abrrRE matches a row of abrr.sh: name, old and new ns, the medians' change.
var abrrRE = regexp.MustCompile(`^(\S+)\s+([0-9.]+)\s+([0-9.]+)\s+([+-][0-9.]+)%`)

// abrr: no row slower than OLD by more than 1%, by the median of the
// processes' medians.
func abrr(text string) ([]line, error) {
	rows := map[string][]float64{}
	var order []string
	for _, l := range strings.Split(text, "\n") {
		r := abrrRE.FindStringSubmatch(l)
		if r == nil {
			continue
		}
		v, _ := strconv.ParseFloat(r[4], 64)
		if _, ok := rows[r[1]]; !ok {
			order = append(order, r[1])
		}
		rows[r[1]] = append(rows[r[1]], v)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("no rows")
	}
	var over []string
	for _, name := range order {
		if m := median(rows[name]); m > 1 {
			over = append(over, fmt.Sprintf("%s %+.1f%% (%s)", name, m, pct(rows[name])))
		}
	}
	// How far a row's processes disagree, the median over the rows: where
	// it passes 1%, the host, or where the rows' code fell in each
	// process's link layout, moved them more than the bar.
	var spread []float64
	for _, v := range rows {
		spread = append(spread, slices.Max(v)-slices.Min(v))
	}
	ls := []line{
		{"(noise) abrr: a row's processes apart, median", fmt.Sprintf("%.1f%%", median(spread)), "<= 1.0%", median(spread) <= 1},
		{fmt.Sprintf("abrr: %d rows, slower than OLD by > 1%%", len(rows)), strconv.Itoa(len(over)), "0", len(over) == 0},
	}
	for _, o := range over {
		ls = append(ls, line{"    " + o, "", "", false})
	}
	return ls, nil
}

func pct(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprintf("%+.1f", x)
	}
	return strings.Join(s, ", ")
}

// pauseRE matches a run of the pause probe: its worst GC stop and its
// worst oversleep (how late a sleeping goroutine woke).
var pauseRE = regexp.MustCompile(`^(\s*)(.+?)\s+run (\d+): worst GC stop (\S+) \((\d+) of (\d+) stops long.*\), worst oversleep (\S+)$`)

// pauses: for each entry point, the runs whose worst GC stop passed 1 ms
// no more than crypto/sha256's in the same runs plus one, and no run whose
// worst oversleep passed crypto/sha256's in the same run by 5 ms.
func pauses(text string) ([]line, error) {
	type tally struct{ runs, slow, cslow, stalls int }
	t := map[string]*tally{}
	// Every entry point's runs together: the per-entry counts of runs over
	// 1 ms are a few draws each of the host's stalls; pooled, the two
	// sides' counts and their long stops say more.
	var all struct {
		tally
		long, stops, clong, cstops int
	}
	var order []string
	var entry string
	var stop, sleep time.Duration
	for _, l := range strings.Split(text, "\n") {
		r := pauseRE.FindStringSubmatch(l)
		if r == nil {
			continue
		}
		s, err1 := time.ParseDuration(r[4])
		o, err2 := time.ParseDuration(r[7])
		long, _ := strconv.Atoi(r[5])
		stops, _ := strconv.Atoi(r[6])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("line %q: %v %v", l, err1, err2)
		}
		if r[1] == "" { // sha256x's run; crypto/sha256's follows, indented
			entry, stop, sleep = strings.TrimSpace(r[2]), s, o
			all.long, all.stops = all.long+long, all.stops+stops
			continue
		}
		if entry == "" {
			continue
		}
		all.clong, all.cstops = all.clong+long, all.cstops+stops
		if t[entry] == nil {
			t[entry] = &tally{}
			order = append(order, entry)
		}
		e := t[entry]
		e.runs++
		if stop > time.Millisecond {
			e.slow++
		}
		if s > time.Millisecond {
			e.cslow++
		}
		if sleep > o+5*time.Millisecond {
			e.stalls++
		}
		entry = ""
	}
	if len(t) == 0 {
		return nil, fmt.Errorf("no runs")
	}
	var ls []line
	for _, e := range t {
		all.runs, all.slow, all.cslow = all.runs+e.runs, all.slow+e.slow, all.cslow+e.cslow
	}
	ls = append(ls,
		line{"(pooled) runs with a stop > 1 ms", fmt.Sprintf("%d against crypto's %d (%d runs)", all.slow, all.cslow, all.runs), "", true},
		line{"(pooled) GC stops long", fmt.Sprintf("%d of %d against crypto's %d of %d", all.long, all.stops, all.clong, all.cstops), "", true})
	for _, name := range order {
		e := t[name]
		ls = append(ls,
			line{name + ": runs with a stop > 1 ms", fmt.Sprintf("%d against crypto's %d (%d runs)", e.slow, e.cslow, e.runs), "<= crypto+1", e.slow <= e.cslow+1},
			line{name + ": stalls > crypto's + 5 ms", strconv.Itoa(e.stalls), "0", e.stalls == 0})
	}
	return ls, nil
}

var jcapRE = regexp.MustCompile(`-j 1000000 / default: time ([0-9.]+), memory ([0-9.]+)`)

// jcap: sum -j 1000000 -r within 10% of the default's time and memory.
func jcap(text string) ([]line, error) {
	r := jcapRE.FindStringSubmatch(text)
	if r == nil {
		return nil, fmt.Errorf("no ratio line")
	}
	tm, _ := strconv.ParseFloat(r[1], 64)
	mem, _ := strconv.ParseFloat(r[2], 64)
	return []line{
		{"sum -j 1000000 -r: time / default's", r[1], "<= 1.10", tm <= 1.10},
		{"sum -j 1000000 -r: memory / default's", r[2], "<= 1.10", mem <= 1.10},
	}, nil
}

var (
	kRowRE = regexp.MustCompile(`^(\d+)\s+(\d+)\s+(\d+|-)\s+(\d+)\s+(\d+)\s+([0-9.]+|-)\s+([0-9.]+)\s+([0-9.]+)$`)
	slotRE = regexp.MustCompile(`slot: sha256x (\d+) ns, fastssz\+gohashtree (\d+) ns \((\d+)x\); after a Copy (\d+) ns \(([0-9.]+)x the slot alone\);(?: on a copy of the last slot's state(?: \(a chain of (\d+) slots\))? (\d+) ns \(([0-9.]+)x\);)? Copy (\d+) ns`)
)

// mutable: issue 39's speed bars from mutable.sh's summary.
func mutable(text string) ([]line, error) {
	var ls []line
	seen := 0
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		r := kRowRE.FindStringSubmatch(sc.Text())
		if r == nil {
			continue
		}
		seen++
		k, _ := strconv.Atoi(r[1])
		xp, _ := strconv.ParseFloat(r[6], 64)
		xr, _ := strconv.ParseFloat(r[7], 64)
		switch k {
		case 1:
			ls = append(ls, line{"k = 1: Prysm's port / sha256x", r[6] + "x", ">= 2x", xp >= 2})
		case 512, 8192:
			ls = append(ls, line{fmt.Sprintf("k = %d: Prysm's port / sha256x", k), r[6] + "x", ">= 10x", xp >= 10})
		case 1 << 20:
			ls = append(ls, line{"k = all: sha256x / rebuild", fmt.Sprintf("%.3f", 1/xr), "<= 1.05", 1/xr <= 1.05})
		}
		if k != 1<<20 && xr < 1/1.05 {
			ls = append(ls, line{fmt.Sprintf("k = %d: sha256x / rebuild", k), fmt.Sprintf("%.3f", 1/xr), "<= 1.05", false})
		}
	}
	if seen == 0 {
		return nil, fmt.Errorf("no summary table")
	}
	s := slotRE.FindStringSubmatch(text)
	if s == nil {
		return nil, fmt.Errorf("no slot line")
	}
	x, _ := strconv.Atoi(s[3])
	after, _ := strconv.ParseFloat(s[5], 64)
	cp, _ := strconv.Atoi(s[9])
	ls = append(ls,
		line{"slot: fastssz / sha256x", s[3] + "x", ">= 1000x", x >= 1000},
		line{"Copy", fmt.Sprintf("%.1f µs", float64(cp)/1e3), "< 1 ms", cp < 1e6},
		line{"first root after a Copy / without one", s[5] + "x", "<= 1x", after <= 1},
	)
	if s[8] != "" { // mutable.sh since the chain of copies (2026-12-05, eighth session)
		what := "the same on a copy of the last slot's state"
		if s[6] != "" { // since the chain's mean slot (ninth session)
			what += ", a chain of " + s[6] + " slots"
		}
		chained, _ := strconv.ParseFloat(s[8], 64)
		ls = append(ls, line{what, s[8] + "x", "<= 1x", chained <= 1})
	}
	return ls, nil
}

// waRE matches a row of writeahead.sh's summary: B's time over A's, its
// median and the rounds B was faster in.
var waRE = regexp.MustCompile(`^BenchmarkMutable(List/k=(\d+)|Slot/impl=sha256x(-after-Copy)?)\S*\s+([0-9.]+)\s+(\d+ of \d+)`)

// writeAhead: hashtree's writes asked for ahead (plan.WriteAhead) against
// none, row by row, and whether they pay on this CPU as they did where a
// route turns them on: k = 512 and 8,192 at most 0.97, no row past 1.03
// (BENCHMARKS.md, "Writes asked for ahead"). A figure for a route's
// choice, not a must-show.
func writeAhead(text string) ([]line, error) {
	var ls []line
	pays, worst := 0, 0.0
	for _, l := range strings.Split(text, "\n") {
		r := waRE.FindStringSubmatch(l)
		if r == nil {
			continue
		}
		x, _ := strconv.ParseFloat(r[4], 64)
		what := "the slot"
		switch {
		case r[2] != "":
			what = "k = " + r[2]
			if (r[2] == "512" || r[2] == "8192") && x <= 0.97 {
				pays++
			}
		case r[3] != "":
			what = "the slot after a Copy"
		}
		worst = max(worst, x)
		ls = append(ls, line{"write-ahead over none, " + what, fmt.Sprintf("%.3f (faster in %s)", x, r[5]), "", true})
	}
	if len(ls) == 0 {
		return nil, fmt.Errorf("no summary")
	}
	v := "none (keep 0)"
	if pays == 2 && worst <= 1.03 {
		v = "pays (16 a call, as on Zen 4 and the Xeon of model 207)"
	}
	return append(ls, line{"(decision) write-ahead on this CPU", v, "", true}), nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// abRE matches a row of lib.sh's ab_summary: a benchmark, its unit where
// not ns/op, B's figure over A's (the median) and the rounds B's was lower.
var abRE = regexp.MustCompile(`^(Benchmark\S+)(?: (\S+))?\s+([0-9.]+)\s+(\d+ of \d+)`)

// tiers: the tiers of overlays (bench/data/zen3-2026-12-07i/tiers2.patch)
// against the pages copied of main, by patchab.sh: the slot of a chain of
// copies (what a beacon node pays), the slot on a fresh copy, the slot
// without one and the memory the chain holds. Whether they pay on this CPU
// as on the Zen 3 they were measured on: a chain's slot at most 0.95, a
// fresh copy's no slower, the slot without a copy at most 1.02. A figure
// for the default's choice, not a must-show.
func tiers(text string) ([]line, error) {
	rows := map[string][2]string{}
	for _, l := range strings.Split(text, "\n") {
		if r := abRE.FindStringSubmatch(l); r != nil {
			k := r[1]
			if r[2] != "" {
				k += " " + r[2]
			}
			rows[k] = [2]string{r[3], r[4]}
		}
	}
	var ls []line
	x := map[string]float64{}
	for _, c := range []struct{ key, what string }{
		{"BenchmarkMutableChain ms-slot", "a chain's slot"},
		{"BenchmarkMutableSlot/impl=sha256x-after-Copy", "the slot on a fresh copy"},
		{"BenchmarkMutableSlot/impl=sha256x", "the slot without a copy"},
		{"BenchmarkMutableChain MB-held", "the memory a chain holds"},
		{"BenchmarkMutableChain faults/op", "page faults a chain's slot"},
	} {
		r, ok := rows[c.key]
		if !ok {
			return nil, fmt.Errorf("no row %s", c.key)
		}
		x[c.key], _ = strconv.ParseFloat(r[0], 64)
		ls = append(ls, line{"tiers over pages, " + c.what, fmt.Sprintf("%s (lower in %s)", r[0], r[1]), "", true})
	}
	v := "no (keep the pages copied)"
	if x["BenchmarkMutableChain ms-slot"] <= 0.95 && x["BenchmarkMutableSlot/impl=sha256x-after-Copy"] <= 1 && x["BenchmarkMutableSlot/impl=sha256x"] <= 1.02 {
		v = "pay (as on Zen 3)"
	}
	return append(ls, line{"(decision) tiers on this CPU", v, "", true}), nil
}
