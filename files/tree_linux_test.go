package files

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortByName: sortByName orders names as a sort of the strings does,
// where names share prefixes shorter and longer than a key, where one is
// the start of another, with bytes above 0x7f, and in directories whose
// indexes take one byte, two, and more.
func TestSortByName(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte{'a', 'b', '0', '9', 0x01, 0x7f, 0x80, 0xff}
	prefixes := []string{"", "f", "file-with-a-long-name-", "\xff\xfe"}
	var r dirReader
	for round := range 2001 {
		prefix := prefixes[round%len(prefixes)]
		seen := map[string]bool{}
		var ents []dent
		size := 1 + rng.IntN(300)
		if round == 2000 {
			size = 70000 // more than an index of two bytes counts
		}
		for range size {
			b := []byte(prefix)
			for range rng.IntN(12) {
				b = append(b, alphabet[rng.IntN(len(alphabet))])
			}
			if name := string(b); name != "" && !seen[name] {
				seen[name] = true
				ents = append(ents, dent{name: name})
			}
		}
		var want []string
		for _, e := range ents {
			want = append(want, e.name)
		}
		slices.Sort(want)
		r.sortByName(ents)
		for i, e := range ents {
			if e.name != want[i] {
				t.Fatalf("round %d: entry %d is %q, want %q", round, i, e.name, want[i])
			}
		}
	}
}

// BenchmarkSortByName sorts a directory of 100 short names, as in
// bench/smallfiles.pl's tree, by sortByName and by strings.Compare.
func BenchmarkSortByName(b *testing.B) {
	var names []dent
	for i := range 100 {
		names = append(names, dent{name: fmt.Sprintf("f%02d", i)})
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	ents := make([]dent, len(names))
	var r dirReader
	b.Run("impl=sortByName", func(b *testing.B) {
		for b.Loop() {
			copy(ents, names)
			r.sortByName(ents)
		}
	})
	b.Run("impl=strings.Compare", func(b *testing.B) {
		for b.Loop() {
			copy(ents, names)
			slices.SortFunc(ents, compareNames)
		}
	})
}
