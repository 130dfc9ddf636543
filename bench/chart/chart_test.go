package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"reflect"
	"strings"
	"testing"
)

// TestChartMeasureDraw: a tiny run measures every point of both panels
// (the pair libraries at 64 B only), its CSV reads back as written, and the
// SVG is well-formed XML naming the CPU, with a line per implementation on
// each panel where it has more than one point.
func TestChartMeasureDraw(t *testing.T) {
	pts := measureAll(1, 50_000) // 50 us a point
	want := 16*3 + 2 + 11*len(impls)
	if len(pts) != want {
		t.Fatalf("%d points, want %d", len(pts), want)
	}
	for _, p := range pts {
		if p.GBps <= 0 || len(p.All) != 1 || pairsOnly(p.Impl) && p.Bytes != 64 {
			t.Errorf("point %+v", p)
		}
	}
	meta := map[string]string{"cpu": "Test CPU (Vendor, family 1, model 2)", "kernel": "k", "go": "go", "method": "m", "date": "d"}
	var b bytes.Buffer
	if err := writeCSV(&b, meta, pts); err != nil {
		t.Fatal(err)
	}
	meta2, pts2, err := readCSV(&b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(meta, meta2) || len(pts2) != len(pts) {
		t.Fatalf("CSV read back: %v, %d points; wrote %v, %d", meta2, len(pts2), meta, len(pts))
	}
	for i := range pts {
		if d := pts2[i].GBps - pts[i].GBps; d > 1e-4 || d < -1e-4 || pts2[i].Impl != pts[i].Impl || pts2[i].Batch != pts[i].Batch {
			t.Errorf("point %d read back %+v, wrote %+v", i, pts2[i], pts[i])
		}
	}

	svg := drawChart(meta, pts)
	dec := xml.NewDecoder(bytes.NewReader(svg))
	lines := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG not well-formed: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "polyline" {
			lines++
		}
	}
	if want := 3 + len(impls); lines != want {
		t.Errorf("%d polylines, want %d (3 on the size panel, %d on the batch panel)", lines, want, len(impls))
	}
	if !strings.Contains(string(svg), ">"+meta["cpu"]+"</text>") {
		t.Errorf("the title does not name the CPU")
	}
	if _, _, err := readCSV(strings.NewReader("a,b\n")); err == nil {
		t.Errorf("readCSV of a CSV without the header: no error")
	}
}
