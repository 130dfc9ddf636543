package main

import (
	"fmt"
	"html"
	"math"
	"slices"
	"strings"
)

// An svgDoc is a small SVG writer: the few elements the chart draws.
type svgDoc struct {
	b strings.Builder
}

func (s *svgDoc) printf(format string, args ...any) { fmt.Fprintf(&s.b, format, args...) }

func (s *svgDoc) begin(w, h int) {
	s.printf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif">`+"\n", w, h, w, h)
	s.printf(`<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", w, h)
}

func (s *svgDoc) end() []byte {
	s.printf("</svg>\n")
	return []byte(s.b.String())
}

// text draws str at (x, y); anchor is start, middle or end.
func (s *svgDoc) text(x, y float64, size int, anchor, style, str string) {
	s.printf(`<text x="%.1f" y="%.1f" font-size="%d" text-anchor="%s"%s>%s</text>`+"\n", x, y, size, anchor, style, html.EscapeString(str))
}

func (s *svgDoc) line(x1, y1, x2, y2 float64, stroke string, width float64) {
	s.printf(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="%.1f"/>`+"\n", x1, y1, x2, y2, stroke, width)
}

func (s *svgDoc) polyline(xy [][2]float64, stroke string, width float64) {
	var p []string
	for _, q := range xy {
		p = append(p, fmt.Sprintf("%.1f,%.1f", q[0], q[1]))
	}
	s.printf(`<polyline points="%s" fill="none" stroke="%s" stroke-width="%.1f" stroke-linejoin="round"/>`+"\n", strings.Join(p, " "), stroke, width)
}

func (s *svgDoc) circle(x, y, r float64, fill string) {
	s.printf(`<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s"/>`+"\n", x, y, r, fill)
}

func (s *svgDoc) rect(x, y, w, h float64, fill string) {
	s.printf(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>`+"\n", x, y, w, h, fill)
}

// colors and line widths of the implementations.
var colors = map[string]string{
	"sha256x":           "#d62728",
	"crypto/sha256":     "#1f77b4",
	"minio/sha256-simd": "#2ca02c",
	"gohashtree":        "#9467bd",
	"hashtree":          "#ff7f0e",
	"hashtree-purego":   "#ff7f0e",
}

const (
	chartW, chartH = 1000, 580
	panelTop       = 152.0
	panelH         = 320.0
	panelW         = 400.0
)

// drawChart draws both panels, with the CPU and the method in the title.
func drawChart(meta map[string]string, pts []point) []byte {
	var s svgDoc
	s.begin(chartW, chartH)
	s.text(chartW/2, 26, 18, "middle", ` font-weight="bold"`, "SHA-256 throughput on one core")
	s.text(chartW/2, 48, 15, "middle", ` font-weight="bold"`, meta["cpu"])
	s.text(chartW/2, 68, 12, "middle", ` fill="#444"`, fmt.Sprintf("sha256x kernel %s; %s; %s; %s",
		meta["kernel"], meta["go"], meta["method"], meta["date"]))
	if meta["note"] != "" {
		s.text(chartW/2, 86, 12, "middle", ` fill="#c00000"`, meta["note"])
	}

	// The legend: the implementations present, in one row.
	var present []string
	for _, p := range pts {
		if !slices.Contains(present, p.Impl) {
			present = append(present, p.Impl)
		}
	}
	x := 80.0
	for _, im := range present {
		name := im
		if im == "sha256x" {
			name = "sha256x (" + meta["kernel"] + ")"
		}
		s.rect(x, 102, 22, 4, colors[im])
		s.text(x+28, 109, 13, "start", "", name)
		x += 28 + 7.2*float64(len(name)) + 30
	}

	panel(&s, pts, "size", 70, "against message size (a batch of 64 messages)", "bytes a message")
	panel(&s, pts, "batch", 70+panelW+100, "against batch size (messages of 64 B)", "messages a batch")

	notes := []string{
		"sha256x: one HashMany call a batch. crypto/sha256, minio/sha256-simd: Sum256 of each message in turn.",
		"gohashtree, hashtree (OffchainLabs, via pk910/hashtree-bindings): Hash of a level of pairs, so 64-byte messages only.",
	}
	for i, n := range notes {
		s.text(chartW/2, chartH-30+16*float64(i), 12, "middle", ` fill="#444"`, n)
	}
	return s.end()
}

// panel draws one panel's axes and lines at left x0: GB/s against the
// points' Bytes (size) or Batch (batch) on a base-2 log scale.
func panel(s *svgDoc, pts []point, name string, x0 float64, title, xlabel string) {
	var ps []point
	for _, p := range pts {
		if p.Panel == name {
			ps = append(ps, p)
		}
	}
	xOf := func(p point) float64 {
		if name == "size" {
			return float64(p.Bytes)
		}
		return float64(p.Batch)
	}
	lo, hi, top := math.Inf(1), math.Inf(-1), 0.0
	for _, p := range ps {
		lo, hi, top = min(lo, xOf(p)), max(hi, xOf(p)), max(top, p.GBps)
	}
	s.text(x0+panelW/2, panelTop-12, 14, "middle", ` font-weight="bold"`, title)
	if len(ps) == 0 || top <= 0 {
		return
	}
	if hi == lo {
		hi = lo * 2
	}
	step := niceStep(top / 5)
	ymax := math.Ceil(top/step) * step
	px := func(v float64) float64 { return x0 + (math.Log2(v)-math.Log2(lo))/(math.Log2(hi)-math.Log2(lo))*panelW }
	py := func(v float64) float64 { return panelTop + panelH - v/ymax*panelH }

	// Grid and y labels.
	for v := 0.0; v <= ymax+step/2; v += step {
		s.line(x0, py(v), x0+panelW, py(v), "#e4e4e4", 1)
		s.text(x0-6, py(v)+4, 11, "end", "", trimFloat(v))
	}
	s.text(x0-44, panelTop+panelH/2, 12, "middle", fmt.Sprintf(` transform="rotate(-90 %.1f %.1f)"`, x0-44, panelTop+panelH/2), "GB/s")
	// x ticks at every power of 2, labels where they do not crowd.
	n := int(math.Round(math.Log2(hi) - math.Log2(lo)))
	for i := 0; i <= n; i++ {
		v := lo * math.Exp2(float64(i))
		s.line(px(v), panelTop+panelH, px(v), panelTop+panelH+4, "#888", 1)
		if n <= 12 || i%2 == 0 && i != n-1 || i == n {
			s.text(px(v), panelTop+panelH+17, 11, "middle", "", sizeLabel(v))
		}
	}
	s.line(x0, panelTop+panelH, x0+panelW, panelTop+panelH, "#888", 1)
	s.line(x0, panelTop, x0, panelTop+panelH, "#888", 1)
	s.text(x0+panelW/2, panelTop+panelH+36, 12, "middle", "", xlabel)

	// A line and dots per implementation, sha256x last, on top.
	order := slices.Clone(impls)
	order = append(order[1:], order[0])
	for _, im := range order {
		var xy [][2]float64
		for _, p := range ps {
			if p.Impl == im {
				xy = append(xy, [2]float64{px(xOf(p)), py(p.GBps)})
			}
		}
		width := 2.0
		if im == "sha256x" {
			width = 3
		}
		if len(xy) > 1 {
			s.polyline(xy, colors[im], width)
		}
		for _, q := range xy {
			s.circle(q[0], q[1], width+1, colors[im])
		}
	}
}

// niceStep rounds v up to 1, 2, 2.5 or 5 times a power of ten.
func niceStep(v float64) float64 {
	if v <= 0 {
		return 1
	}
	e := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*e >= v {
			return m * e
		}
	}
	return 10 * e
}

func trimFloat(v float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", v), "0"), ".")
}

// sizeLabel writes a power of two as 32, 2K, 1M.
func sizeLabel(v float64) string {
	n := int64(math.Round(v))
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dM", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dK", n>>10)
	}
	return fmt.Sprint(n)
}
