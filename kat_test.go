package sha256x

import (
	"bufio"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/sha256x/sha256x/internal/plan"
)

// TestKnownAnswers checks every plan against digests that OpenSSL computed
// (testdata/kat.txt, made by testdata/gen-kat.sh), batched by prefix.
func TestKnownAnswers(t *testing.T) {
	f, err := os.Open("testdata/kat.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type batch struct {
		prefix []byte
		msgs   [][]byte
		wants  [][Size]byte
	}
	var batches []*batch
	byPrefix := map[string]*batch{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) != 5 {
			t.Fatalf("bad line %q", line)
		}
		var nums [4]int
		for i := range nums {
			if nums[i], err = strconv.Atoi(fs[i]); err != nil {
				t.Fatalf("bad line %q", line)
			}
		}
		var d [Size]byte
		if _, err := hex.Decode(d[:], []byte(fs[4])); err != nil {
			t.Fatalf("bad line %q", line)
		}
		key := fs[0] + " " + fs[1]
		b := byPrefix[key]
		if b == nil {
			b = &batch{prefix: pattern(nums[0], nums[1])}
			byPrefix[key] = b
			batches = append(batches, b)
		}
		b.msgs = append(b.msgs, pattern(nums[2], nums[3]))
		b.wants = append(b.wants, d)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(batches) < 10 {
		t.Fatalf("only %d prefixes in testdata/kat.txt", len(batches))
	}
	forPlans(t, func(t *testing.T, pl *plan.Plan) {
		for _, b := range batches {
			check(t, pl, b.prefix, b.msgs, b.wants)
		}
	})
}
