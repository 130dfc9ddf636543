// Command chart measures, in one run, the throughput of sha256x's plan
// (HashMany), crypto/sha256 and minio/sha256-simd (one message after
// another), and gohashtree and hashtree (OffchainLabs', through
// pk910/hashtree-bindings; pairs only: 64-byte messages, a batch is a level)
// against message size and against batch size, on one core, and draws them
// as an SVG chart with the CPU in its title.
//
//   - against message size: a batch of 64 messages of 32 B to 1 MiB (powers
//     of 2); the pair libraries at 64 B only;
//   - against batch size: 1 to 1024 messages (powers of 2) of 64 B.
//
// Each point is the median of -rounds measurements of -time each, the
// implementations taking turns at every point. It writes the numbers as
// CSV (-csv) and the chart (-svg); -from redraws a chart from a CSV without
// measuring. bench/chart.sh runs it with the files named after the CPU:
//
//	bash bench/chart.sh                  (about 100 s)
//	cd bench && go run ./chart -time 20ms -rounds 1 -svg /tmp/s.svg -csv /tmp/s.csv
package main

import (
	"crypto/sha256"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/klauspost/cpuid/v2"
	simd "github.com/minio/sha256-simd"
	hashtree "github.com/pk910/hashtree-bindings"
	"github.com/prysmaticlabs/gohashtree"
	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/bench"
)

// The implementations, in the order of the chart's legend.
var impls = []string{"sha256x", "crypto/sha256", "minio/sha256-simd", "gohashtree", bench.HashtreeName}

// pairsOnly reports whether impl hashes 64-byte pairs only.
func pairsOnly(impl string) bool { return impl == "gohashtree" || impl == bench.HashtreeName }

const sizeBatch = 64 // messages in a batch, on the message-size panel

// A point is one measured throughput.
type point struct {
	Panel string // "size" or "batch"
	Impl  string
	Bytes int // bytes a message
	Batch int // messages a call (or a batch of calls, one message each)
	GBps  float64
	All   []float64 // every round's GB/s
}

func main() {
	rounds := flag.Int("rounds", 3, "measurements of each point; the chart shows medians")
	each := flag.Duration("time", 250*time.Millisecond, "time per measurement")
	svgPath := flag.String("svg", "", "write the chart here")
	csvPath := flag.String("csv", "", "write the numbers here")
	from := flag.String("from", "", "draw from this CSV (as -csv writes it) instead of measuring")
	note := flag.String("note", "", "a line to print under the title (say, that the machine was busy)")
	cpuFlag := flag.Bool("cpu", false, "print the CPU's short name (zen5, ...) and exit")
	flag.Parse()
	if *cpuFlag {
		fmt.Println(shortCPU())
		return
	}
	if *svgPath == "" && *csvPath == "" {
		fmt.Fprintln(os.Stderr, "chart: -svg or -csv (or both)")
		os.Exit(2)
	}
	var meta map[string]string
	var pts []point
	if *from != "" {
		f, err := os.Open(*from)
		check(err)
		meta, pts, err = readCSV(f)
		f.Close()
		check(err)
	} else {
		meta = map[string]string{
			"cpu":    cpuLine(),
			"kernel": sha256x.Kernel(),
			"go":     runtime.Version(),
			"method": fmt.Sprintf("one core; medians of %d measurements of %v, interleaved", *rounds, *each),
			"date":   time.Now().UTC().Format("2006-01-02"),
		}
		pts = measureAll(max(*rounds, 1), *each)
	}
	if *note != "" {
		meta["note"] = *note
	}
	if *csvPath != "" {
		f, err := os.Create(*csvPath)
		check(err)
		check(writeCSV(f, meta, pts))
		check(f.Close())
	}
	if *svgPath != "" {
		check(os.WriteFile(*svgPath, drawChart(meta, pts), 0o644))
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "chart:", err)
		os.Exit(1)
	}
}

// cpuLine names the CPU: brand, vendor, family and model.
func cpuLine() string {
	c := cpuid.CPU
	name := strings.TrimSpace(c.BrandName)
	if name == "" {
		name = runtime.GOARCH
	}
	return fmt.Sprintf("%s (%s, family %d, model %d)", name, c.VendorString, c.Family, c.Model)
}

// shortCPU names the CPU in a word for file names: the AMD Zen generation
// from family and model where it is known, else the brand's words.
func shortCPU() string {
	c := cpuid.CPU
	if c.VendorID == cpuid.AMD {
		switch {
		case c.Family == 26:
			return "zen5"
		case c.Family == 25 && (c.Model >= 0x10 && c.Model <= 0x1f || c.Model >= 0x60 && c.Model <= 0x7f || c.Model >= 0xa0 && c.Model <= 0xaf):
			return "zen4"
		case c.Family == 25:
			return "zen3"
		case c.Family == 23 && c.Model >= 0x30:
			return "zen2"
		}
	}
	s := strings.ToLower(c.BrandName)
	for _, junk := range []string{"(r)", "(tm)", "cpu", "processor", "intel", "amd", "@"} {
		s = strings.ReplaceAll(s, junk, " ")
	}
	s = strings.Join(strings.Fields(regexp.MustCompile(`[^a-z0-9.]+`).ReplaceAllString(s, " ")), "-")
	s = strings.TrimSuffix(regexp.MustCompile(`-[0-9.]+ghz$`).ReplaceAllString(s, ""), "-")
	if s == "" {
		return runtime.GOARCH
	}
	return s
}

// measureAll measures every point of both panels.
func measureAll(rounds int, each time.Duration) []point {
	var pts []point
	for size := 32; size <= 1<<20; size *= 2 {
		pts = append(pts, measurePoint("size", size, sizeBatch, rounds, each)...)
	}
	for n := 1; n <= 1024; n *= 2 {
		pts = append(pts, measurePoint("batch", 64, n, rounds, each)...)
	}
	return pts
}

// measurePoint measures every implementation that applies on a batch of n
// messages of size bytes, the implementations taking turns round by round.
func measurePoint(panel string, size, n, rounds int, each time.Duration) []point {
	// The messages lie end to end in one buffer of [32]byte nodes, so that
	// 64-byte messages are also a level of pairs.
	nodes := make([][32]byte, n*size/32)
	for i := range nodes {
		for j := range nodes[i] {
			nodes[i][j] = byte(i*131 + j*7 + i>>8)
		}
	}
	buf := unsafe.Slice(&nodes[0][0], n*size)
	msgs := make([][]byte, n)
	for i := range msgs {
		msgs[i] = buf[i*size : (i+1)*size]
	}
	out := make([][32]byte, n)
	ops := map[string]func(){
		"sha256x": func() { sha256x.HashMany(out, msgs) },
		"crypto/sha256": func() {
			for i, m := range msgs {
				out[i] = sha256.Sum256(m)
			}
		},
		"minio/sha256-simd": func() {
			for i, m := range msgs {
				out[i] = simd.Sum256(m)
			}
		},
		"gohashtree": func() {
			if err := gohashtree.Hash(out, nodes); err != nil {
				panic("chart: gohashtree: " + err.Error())
			}
		},
		bench.HashtreeName: func() {
			if err := hashtree.Hash(out, nodes); err != nil {
				panic("chart: hashtree: " + err.Error())
			}
		},
	}
	var pts []point
	for _, im := range impls {
		if !pairsOnly(im) || size == 64 {
			pts = append(pts, point{Panel: panel, Impl: im, Bytes: size, Batch: n})
		}
	}
	for range rounds {
		for i := range pts {
			op := ops[pts[i].Impl]
			op()
			if !verify(out, msgs) {
				panic("chart: " + pts[i].Impl + " does not agree with crypto/sha256")
			}
			pts[i].All = append(pts[i].All, float64(n*size)*timeOp(op, each)/1e9)
		}
	}
	for i := range pts {
		s := slices.Clone(pts[i].All)
		slices.Sort(s)
		pts[i].GBps = s[len(s)/2]
		fmt.Fprintf(os.Stderr, "%-6s %-18s %8d B x %5d  %7.3f GB/s\n", panel, pts[i].Impl, size, n, pts[i].GBps)
	}
	return pts
}

// verify reports whether out holds the digests of msgs, checked at the
// first and last message.
func verify(out [][32]byte, msgs [][]byte) bool {
	last := len(msgs) - 1
	return out[0] == sha256.Sum256(msgs[0]) && out[last] == sha256.Sum256(msgs[last])
}

// timeOp returns how many times a second op runs, timed for about d.
// It reads the clock once a batch of calls; batches double until they take
// a sixteenth of d.
func timeOp(op func(), d time.Duration) float64 {
	n, batch := 0, 1
	start := time.Now()
	for {
		for range batch {
			op()
		}
		n += batch
		took := time.Since(start)
		if took >= d {
			return float64(n) / took.Seconds()
		}
		if took < d/16 {
			batch *= 2
		}
	}
}

// writeCSV writes the metadata as "# key: value" lines, then a header and
// a row per point.
func writeCSV(w io.Writer, meta map[string]string, pts []point) error {
	for _, k := range slices.Sorted(maps.Keys(meta)) {
		if _, err := fmt.Fprintf(w, "# %s: %s\n", k, meta[k]); err != nil {
			return err
		}
	}
	cw := csv.NewWriter(w)
	cw.Write([]string{"panel", "impl", "msg_bytes", "batch", "gbps_median", "gbps_rounds"})
	for _, p := range pts {
		var all []string
		for _, v := range p.All {
			all = append(all, strconv.FormatFloat(v, 'f', 4, 64))
		}
		cw.Write([]string{p.Panel, p.Impl, strconv.Itoa(p.Bytes), strconv.Itoa(p.Batch),
			strconv.FormatFloat(p.GBps, 'f', 4, 64), strings.Join(all, " ")})
	}
	cw.Flush()
	return cw.Error()
}

// readCSV reads what writeCSV wrote.
func readCSV(r io.Reader) (map[string]string, []point, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, err
	}
	meta := map[string]string{}
	var body []string
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "# "); ok {
			k, v, _ := strings.Cut(rest, ": ")
			meta[k] = v
		} else if line != "" {
			body = append(body, line)
		}
	}
	recs, err := csv.NewReader(strings.NewReader(strings.Join(body, "\n"))).ReadAll()
	if err != nil {
		return nil, nil, err
	}
	if len(recs) == 0 || len(recs[0]) != 6 || recs[0][0] != "panel" {
		return nil, nil, fmt.Errorf("not a chart CSV: no header")
	}
	var pts []point
	for _, rec := range recs[1:] {
		p := point{Panel: rec[0], Impl: rec[1]}
		var e1, e2, e3 error
		p.Bytes, e1 = strconv.Atoi(rec[2])
		p.Batch, e2 = strconv.Atoi(rec[3])
		p.GBps, e3 = strconv.ParseFloat(rec[4], 64)
		if err := cmpErr(e1, e2, e3); err != nil {
			return nil, nil, fmt.Errorf("row %q: %v", rec, err)
		}
		for _, f := range strings.Fields(rec[5]) {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, nil, fmt.Errorf("row %q: %v", rec, err)
			}
			p.All = append(p.All, v)
		}
		pts = append(pts, p)
	}
	return meta, pts, nil
}

func cmpErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
