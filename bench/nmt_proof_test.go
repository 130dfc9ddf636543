package bench

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/sha256x/sha256x/merkle/nmt"
)

// merkle/nmt's proofs against the port of celestiaorg/nmt's
// (nmtport_proof.go), both ways: on random trees of 0 to 130 leaves (every
// size for each of the six configurations up to 24 leaves, above two of
// them a size), for namespaces of 1, 2 and 29 bytes (Celestia's),
// IgnoreMaxNamespace on and off, each proof of one is compared with the
// other's (the same range, nodes and leaf hash) and verified by the
// other's verifier; then a sample of them (every 4th namespace proof,
// every 64th range) tampered with, and both verifiers must give the same
// verdict (and reject what a changed byte must break) but for the
// disagreements found (nmtKnownDisagreements; far ranges:
// TestNMTProofFarRange).
// Ranges: every one up to 24 leaves; above, a sample (nmtProofRanges).
// Namespaces: 21 of them, present, absent between present ones, below,
// above, the largest (all 0xFF, Celestia's parity) and the one below it.

type nmtProofConfig struct {
	nsLen  int
	ignore bool
}

var nmtProofConfigs = []nmtProofConfig{{1, true}, {1, false}, {2, true}, {2, false}, {29, true}, {29, false}}

// nmtProofNs returns namespace v of 0..20: v's last byte for v up to 18,
// then all 0xFF but a last 0xFE, then all 0xFF.
func nmtProofNs(nsLen, v int) []byte {
	ns := make([]byte, nsLen)
	switch {
	case v <= 18:
		ns[nsLen-1] = byte(v)
	default:
		for i := range ns {
			ns[i] = 0xFF
		}
		if v == 19 {
			ns[nsLen-1] = 0xFE
		}
	}
	return ns
}

// nmtProofLeaves returns n sorted leaves: namespaces drawn from the even
// values 0..18 and 19 (every other value absent), a tail of the largest
// namespace a third of the time, all of them the largest a tenth.
func nmtProofLeaves(r *rand.Rand, nsLen, n int) [][]byte {
	vs := make([]int, n)
	for i := range vs {
		if r.IntN(12) == 0 {
			vs[i] = 19
		} else {
			vs[i] = 2 * r.IntN(10)
		}
	}
	switch r.IntN(30) {
	case 0, 1, 2:
		for i := range vs {
			vs[i] = 20
		}
	case 3, 4, 5, 6, 7, 8, 9, 10, 11, 12:
		for i := n - r.IntN(n/2+1); i < n; i++ {
			vs[i] = 20
		}
	}
	slices.Sort(vs)
	leaves := make([][]byte, n)
	for i, v := range vs {
		data := make([]byte, r.IntN(40))
		for j := range data {
			data[j] = byte(r.Uint32())
		}
		leaves[i] = slices.Concat(nmtProofNs(nsLen, v), data)
	}
	return leaves
}

// nmtProofRanges returns the ranges a tree of n leaves is checked on:
// every one up to 24 leaves; above, every 5th leaf alone, every 3rd prefix
// and suffix of two or more leaves of a namespace's run, the prefixes and
// suffixes at powers of two (and one off), and 8 random ranges.
func nmtProofRanges(r *rand.Rand, leaves [][]byte, nsLen int) [][2]int {
	n := len(leaves)
	var out [][2]int
	if n <= 24 {
		for s := range n {
			for e := s + 1; e <= n; e++ {
				out = append(out, [2]int{s, e})
			}
		}
		return out
	}
	for s := range n {
		if s%5 == 0 {
			out = append(out, [2]int{s, s + 1})
		}
	}
	for s := 0; s < n; { // each run: its prefixes and suffixes, every 3rd
		e := s + 1
		for e < n && bytes.Equal(leaves[e][:nsLen], leaves[s][:nsLen]) {
			e++
		}
		for k := 2; k <= e-s; k += 3 {
			out = append(out, [2]int{s, s + k}, [2]int{e - k, e})
		}
		s = e
	}
	for k := 1; k < 2*n; k *= 2 {
		for _, b := range []int{k - 1, k, k + 1} {
			if b > 0 && b <= n {
				out = append(out, [2]int{0, b}, [2]int{n - b, n})
			}
		}
	}
	for range 8 {
		s := r.IntN(n)
		out = append(out, [2]int{s, s + 1 + r.IntN(n-s)})
	}
	return out
}

func toPortProof(p nmt.Proof, ignore bool) portProof {
	return portProof{start: p.Start, end: p.End, nodes: p.Nodes, leafHash: p.LeafHash, isMaxNamespaceIDIgnored: ignore}
}

func fromPortProof(p portProof) (nmt.Proof, bool) {
	return nmt.Proof{Start: p.start, End: p.end, Nodes: p.nodes, LeafHash: p.leafHash}, p.isMaxNamespaceIDIgnored
}

func sameNMTProof(a nmt.Proof, b portProof) bool {
	if a.Start != b.start || a.End != b.end || len(a.Nodes) != len(b.nodes) || !bytes.Equal(a.LeafHash, b.leafHash) {
		return false
	}
	for i := range a.Nodes {
		if !bytes.Equal(a.Nodes[i], b.nodes[i]) {
			return false
		}
	}
	return true
}

// nmtProofCounts counts the verdicts of the both-ways test.
type nmtProofCounts struct {
	trees, ranges, namespaces      int
	oursByPort, portsByOurs        int // valid proofs verified by the other side
	tampered, bothReject, bothPass int
	disagree                       map[string][]string // by the tampering's kind: the cases
}

// nmtCheck is one verification on both sides: the proof, the mode, and
// the inputs as each side takes them.
type nmtCheck struct {
	ns        bool // VerifyNamespace, else VerifyInclusion
	p         portProof
	nid       []byte
	leaves    [][]byte // namespaced (ours, and the port's VerifyNamespace)
	root      []byte
	nsLen     int
	mustBreak bool
}

// verdicts returns whether ours and the port's verifier accept c.
func (c nmtCheck) verdicts() (ours, port bool) {
	q, ign := fromPortProof(c.p)
	h := nmt.Hasher{NamespaceSize: c.nsLen, IgnoreMaxNamespace: ign}
	if c.ns {
		return h.VerifyNamespace(c.root, c.nid, c.leaves, q) == nil, c.p.verifyNamespace(c.nid, c.leaves, c.root)
	}
	raw := make([][]byte, len(c.leaves))
	for i, l := range c.leaves {
		raw[i] = l[c.nsLen:]
	}
	return h.VerifyInclusion(c.root, c.leaves, q) == nil, c.p.verifyInclusion(c.nid, raw, c.root)
}

// kind names the proof of base: empty, absence, or inclusion (of a
// namespace or a range).
func (c nmtCheck) kind(base nmtCheck) string {
	switch {
	case base.p.isEmptyProof():
		return "an empty"
	case base.p.isOfAbsence():
		return "an absence"
	case base.ns:
		return "a namespace"
	}
	return "a range"
}

func flipped(b []byte, i int) []byte {
	b = bytes.Clone(b)
	b[i] ^= 1
	return b
}

// tamper returns c changed every way the test tries, each with a name.
func (c nmtCheck) tamper(other, leaf []byte) map[string]nmtCheck {
	out := map[string]nmtCheck{}
	add := func(name string, mustBreak bool, f func(*nmtCheck)) {
		d := c
		d.p.nodes = slices.Clone(c.p.nodes)
		d.leaves = slices.Clone(c.leaves)
		d.mustBreak = mustBreak
		f(&d)
		out[name] = d
	}
	nl := 2*c.nsLen + 32
	for k := range c.p.nodes {
		add(fmt.Sprint("node ", k, " digest bit"), true, func(d *nmtCheck) { d.p.nodes[k] = flipped(d.p.nodes[k], nl-1) })
		add(fmt.Sprint("node ", k, " min ns bit"), true, func(d *nmtCheck) { d.p.nodes[k] = flipped(d.p.nodes[k], c.nsLen-1) })
		add(fmt.Sprint("node ", k, " dropped"), false, func(d *nmtCheck) { d.p.nodes = slices.Delete(d.p.nodes, k, k+1) })
		if k > 0 {
			add(fmt.Sprint("nodes ", k-1, " and ", k, " swapped"), false, func(d *nmtCheck) { d.p.nodes[k-1], d.p.nodes[k] = d.p.nodes[k], d.p.nodes[k-1] })
		}
	}
	if len(c.p.nodes) > 0 {
		add("last node twice", false, func(d *nmtCheck) { d.p.nodes = append(d.p.nodes, d.p.nodes[len(d.p.nodes)-1]) })
		add("first node twice", false, func(d *nmtCheck) { d.p.nodes = slices.Insert(d.p.nodes, 0, d.p.nodes[0]) })
		add("nodes cut short", false, func(d *nmtCheck) { d.p.nodes[0] = d.p.nodes[0][:nl-1] })
	}
	add("start-1", false, func(d *nmtCheck) { d.p.start-- })
	add("start+1", false, func(d *nmtCheck) { d.p.start++ })
	add("end-1", false, func(d *nmtCheck) { d.p.end-- })
	add("end+1", false, func(d *nmtCheck) { d.p.end++ })
	add("shifted by 1", false, func(d *nmtCheck) { d.p.start++; d.p.end++ })
	add("shifted by 64", false, func(d *nmtCheck) { d.p.start += 64; d.p.end += 64 })
	add("start=end=0, nodes kept", false, func(d *nmtCheck) { d.p.start, d.p.end = 0, 0 })
	add("the empty proof", false, func(d *nmtCheck) { d.p = portProof{isMaxNamespaceIDIgnored: c.p.isMaxNamespaceIDIgnored} })
	add("the empty proof at 1", false, func(d *nmtCheck) {
		d.p = portProof{start: 1, end: 1, isMaxNamespaceIDIgnored: c.p.isMaxNamespaceIDIgnored}
	})
	add("the empty proof, no leaves", false, func(d *nmtCheck) {
		d.p = portProof{isMaxNamespaceIDIgnored: c.p.isMaxNamespaceIDIgnored}
		d.leaves = nil
	})
	add("ignore flag flipped", false, func(d *nmtCheck) { d.p.isMaxNamespaceIDIgnored = !d.p.isMaxNamespaceIDIgnored })
	add("root digest bit", !c.p.isEmptyProof(), func(d *nmtCheck) { d.root = flipped(d.root, nl-1) })
	add("root max ns bit", false, func(d *nmtCheck) { d.root = flipped(d.root, 2*c.nsLen-1) })
	add("root cut short", true, func(d *nmtCheck) { d.root = d.root[:nl-1] })
	add("empty root", false, func(d *nmtCheck) { d.root = nmt.Hasher{NamespaceSize: c.nsLen}.EmptyRoot() })
	if len(c.leaves) > 0 {
		last := len(c.leaves) - 1
		add("first leaf dropped", false, func(d *nmtCheck) { d.leaves = d.leaves[1:] })
		add("last leaf dropped", false, func(d *nmtCheck) { d.leaves = d.leaves[:last] })
		add("a leaf twice", false, func(d *nmtCheck) { d.leaves = append(d.leaves, d.leaves[last]) })
		add("no leaves", false, func(d *nmtCheck) { d.leaves = nil })
		add("a leaf's data changed", true, func(d *nmtCheck) { d.leaves[last] = append(bytes.Clone(d.leaves[last]), 0) })
		if c.ns {
			add("a leaf's namespace changed", true, func(d *nmtCheck) { d.leaves[0] = flipped(d.leaves[0], 0) })
			add("a leaf cut short", true, func(d *nmtCheck) { d.leaves[0] = d.leaves[0][:c.nsLen-1] })
		}
	}
	if len(c.leaves) == 0 && leaf != nil {
		add("the leaf at start given", false, func(d *nmtCheck) { d.leaves = [][]byte{leaf} })
	}
	if c.p.isOfAbsence() {
		add("leaf hash digest bit", true, func(d *nmtCheck) { d.p.leafHash = flipped(d.p.leafHash, nl-1) })
		add("leaf hash min ns bit", false, func(d *nmtCheck) { d.p.leafHash = flipped(d.p.leafHash, c.nsLen-1) })
		add("leaf hash dropped", false, func(d *nmtCheck) { d.p.leafHash = nil })
		add("leaf hash cut short", true, func(d *nmtCheck) { d.p.leafHash = d.p.leafHash[:nl-1] })
		if other != nil {
			add("leaf hash another leaf's", false, func(d *nmtCheck) { d.p.leafHash = other })
		}
	} else if other != nil {
		add("a leaf hash added", false, func(d *nmtCheck) { d.p.leafHash = other })
	}
	return out
}

// nmtKnownDisagreements are the disagreements found, by kind, each with
// the verdict: which side is right, by nmt's own docs. Neither is a proof
// of something false accepted: nmt accepts a malformed proof whose extra
// part it does not look at, ours rejects it.
var nmtKnownDisagreements = map[string]string{
	// VerifyInclusion of a range proof that carries a leaf hash: nmt
	// checks the leaf hash's format and that it is above the namespace,
	// then ignores it; ours rejects an absence proof as a proof of
	// inclusion. docs/proof-format.md: leafHash is "Empty for inclusion
	// proofs". Ours is right.
	"a leaf hash added (a range proof), ours accepts false, the port true": "ours right: leafHash is empty for inclusion proofs",
	// VerifyNamespace of an absence proof given leaves: nmt ignores the
	// leaves; ours rejects them. VerifyNamespace's doc: "For an absence
	// proof, the leaves is empty". Ours is right.
	"the leaf at start given (an absence proof), ours accepts false, the port true": "ours right: an absence proof's leaves are empty",
}

func TestNMTProofsBothWays(t *testing.T) {
	counts := make([]nmtProofCounts, len(nmtProofConfigs))
	t.Run("configs", func(t *testing.T) {
		for ci, cfg := range nmtProofConfigs {
			t.Run(fmt.Sprintf("ns=%d/ignore=%v", cfg.nsLen, cfg.ignore), func(t *testing.T) {
				t.Parallel()
				counts[ci] = nmtProofBothWays(t, cfg, ci)
			})
		}
	})
	var all nmtProofCounts
	kinds := map[string][]string{}
	for ci, c := range counts {
		cfg := nmtProofConfigs[ci]
		t.Logf("ns %d, ignore %v: %d trees, %d ranges, %d namespaces; %d of ours verified by the port, %d of the port's by ours; %d tampered: %d both reject, %d both accept, %d disagree",
			cfg.nsLen, cfg.ignore, c.trees, c.ranges, c.namespaces, c.oursByPort, c.portsByOurs, c.tampered, c.bothReject, c.bothPass, c.tampered-c.bothReject-c.bothPass)
		all.trees += c.trees
		all.ranges += c.ranges
		all.namespaces += c.namespaces
		all.oursByPort += c.oursByPort
		all.portsByOurs += c.portsByOurs
		all.tampered += c.tampered
		all.bothReject += c.bothReject
		all.bothPass += c.bothPass
		for k, v := range c.disagree {
			kinds[k] = append(kinds[k], v...)
		}
	}
	t.Logf("all: %d trees, %d ranges, %d namespaces; %d of ours verified by the port, %d of the port's by ours; %d tampered: %d both reject, %d both accept, %d disagree",
		all.trees, all.ranges, all.namespaces, all.oursByPort, all.portsByOurs, all.tampered, all.bothReject, all.bothPass, all.tampered-all.bothReject-all.bothPass)
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		if why, ok := nmtKnownDisagreements[k]; ok {
			t.Logf("known disagreement: %s: %d cases, as %s (%s)", k, len(kinds[k]), kinds[k][0], why)
			continue
		}
		t.Errorf("%s: %d cases, as %s", k, len(kinds[k]), kinds[k][0])
	}
}

func nmtProofBothWays(t *testing.T, cfg nmtProofConfig, ci int) (c nmtProofCounts) {
	c.disagree = map[string][]string{}
	r := rand.New(rand.NewPCG(uint64(ci), 130))
	h := nmt.Hasher{NamespaceSize: cfg.nsLen, IgnoreMaxNamespace: cfg.ignore}
	ns := cfg.nsLen
	check := func(where string, base nmtCheck, other, leaf []byte) {
		for name, d := range base.tamper(other, leaf) {
			o, p := d.verdicts()
			c.tampered++
			switch {
			case o != p:
				kind := fmt.Sprintf("%s (%s proof), ours accepts %v, the port %v", strings.TrimRight(strings.TrimLeft(name, "node 0123456789"), " "), d.kind(base), o, p)
				c.disagree[kind] = append(c.disagree[kind], fmt.Sprintf("ns %d, ignore %v: %s, %s", ns, cfg.ignore, where, name))
			case o && d.mustBreak:
				t.Errorf("ns %d, ignore %v: %s, %s: both accept", ns, cfg.ignore, where, name)
			case o:
				c.bothPass++
			default:
				c.bothReject++
			}
		}
	}
	for n := 0; n <= 130; n++ {
		// every config up to 24 leaves, above two of the six a size
		if n > 24 && (n-ci)%3 != 0 {
			continue
		}
		c.trees++
		leaves := nmtProofLeaves(r, ns, n)
		ours, port := nmtBothTrees(t, h, leaves)
		root := bytes.Clone(ours.Root())
		if pr, err := port.root(); err != nil || !bytes.Equal(pr, root) {
			t.Fatalf("ns %d, %d leaves: roots differ (%v)", ns, n, err)
		}
		for _, rg := range nmtProofRanges(r, leaves, ns) {
			s, e := rg[0], rg[1]
			c.ranges++
			op, err := ours.ProveRange(s, e)
			if err != nil {
				t.Fatal(err)
			}
			pp, err := port.proveRange(s, e)
			if err != nil {
				t.Fatal(err)
			}
			if !sameNMTProof(op, pp) {
				t.Fatalf("ns %d, %d leaves, [%d, %d): proofs differ: ours %x, the port's %x", ns, n, s, e, op.Nodes, pp.nodes)
			}
			nid := leaves[s][:ns]
			base := nmtCheck{p: toPortProof(op, cfg.ignore), nid: nid, leaves: leaves[s:e], root: root, nsLen: ns}
			o, p := base.verdicts()
			single := bytes.Equal(leaves[e-1][:ns], nid)
			if o != single || p != single {
				t.Fatalf("ns %d, %d leaves, [%d, %d) (one namespace %v): ours accepts the proof %v, the port %v", ns, n, s, e, single, o, p)
			}
			base.p = pp
			if o2, _ := base.verdicts(); o2 != single {
				t.Fatalf("ns %d, %d leaves, [%d, %d): ours accepts the port's proof %v", ns, n, s, e, o2)
			}
			if !single {
				// The port verifies any range with the leaf hashes.
				got, err := toPortProof(op, cfg.ignore).computeRootWithBasicValidation(port.h, nid, port.leafHashes[s:e], false)
				if err != nil || !bytes.Equal(got, root) {
					t.Fatalf("ns %d, %d leaves, [%d, %d): the port computes %x (%v) from our proof", ns, n, s, e, got, err)
				}
				c.oursByPort++
				continue
			}
			c.oursByPort++
			c.portsByOurs++
			if c.ranges%64 != 0 {
				continue
			}
			var other []byte
			if e < n {
				other = port.leafHashes[e]
			}
			check(fmt.Sprintf("%d leaves, range [%d, %d)", n, s, e), base, other, nil)
		}
		for v := range 21 {
			q := nmtProofNs(ns, v)
			c.namespaces++
			op, err := ours.ProveNamespace(q)
			if err != nil {
				t.Fatal(err)
			}
			pp, err := port.proveNamespace(q)
			if err != nil {
				t.Fatal(err)
			}
			if !sameNMTProof(op, pp) || op.IsEmpty() != pp.isEmptyProof() {
				t.Fatalf("ns %d, %d leaves, namespace %x: proofs differ: ours %+v, the port's %+v", ns, n, q, op, pp)
			}
			var of [][]byte
			if !pp.isEmptyProof() {
				of = port.get(q)
			}
			base := nmtCheck{ns: true, p: toPortProof(op, cfg.ignore), nid: q, leaves: of, root: root, nsLen: ns}
			if o, p := base.verdicts(); !o || !p {
				t.Fatalf("ns %d, %d leaves, namespace %x: our proof: ours accepts %v, the port %v", ns, n, q, o, p)
			}
			base.p = pp
			if o, _ := base.verdicts(); !o {
				t.Fatalf("ns %d, %d leaves, namespace %x: ours rejects the port's proof", ns, n, q)
			}
			c.oursByPort++
			c.portsByOurs++
			if c.namespaces%4 != 0 {
				continue
			}
			var other []byte
			if pp.end < n {
				other = port.leafHashes[pp.end]
			} else if n > 0 {
				other = port.leafHashes[0]
			}
			var leaf []byte
			if pp.start < n {
				leaf = leaves[pp.start]
			}
			check(fmt.Sprintf("%d leaves, namespace %x", n, q), base, other, leaf)
		}
	}
	return c
}

// TestNMTProofFarRange: proofs of ranges far past any tree, which neither
// verifier can tell from a tree's size (they take none). Below ours'
// bound on a proof's end (maxLeaves, 2^48 where an int has 64 bits), a
// range at the end of a tree shifted to where a larger tree would have it
// verifies on both sides; past it ours rejects it (nmt accepts it below
// its own int's range), and ours rejects a forged leaf there too, and the
// leaves of a namespace above the root's range.
func TestNMTProofFarRange(t *testing.T) {
	for _, cfg := range nmtProofConfigs {
		ns := cfg.nsLen
		h := nmt.Hasher{NamespaceSize: ns, IgnoreMaxNamespace: cfg.ignore}
		leaves := [][]byte{slices.Concat(nmtProofNs(ns, 1), []byte("a")), slices.Concat(nmtProofNs(ns, 2), []byte("b"))}
		ours, port := nmtBothTrees(t, h, leaves)
		root := bytes.Clone(ours.Root())
		p, err := ours.ProveRange(1, 2) // nodes: leaf 0's
		if err != nil {
			t.Fatal(err)
		}
		forged := [][]byte{slices.Concat(nmtProofNs(ns, 2), []byte("forged"))}
		for _, c := range []struct {
			start  int
			leaves [][]byte
			bothNm bool // the port's verdict checked too
			want   bool
		}{
			{2, leaves[1:], true, true},
			{1 << 20, leaves[1:], true, true},
			{1 << (bits.UintSize * 3 / 4), leaves[1:], false, false}, // ours' bound: 2^48 (2^24 with 32 bits)
			{math.MaxInt/2 + 2, leaves[1:], false, false},
			{math.MaxInt/2 + 2, forged, false, false},
		} {
			d := nmtCheck{p: toPortProof(p, cfg.ignore), nid: c.leaves[0][:ns], leaves: c.leaves, root: root, nsLen: ns}
			d.p.start, d.p.end = c.start, c.start+1
			if c.start == math.MaxInt/2+2 {
				d.p.nodes = [][]byte{port.leafHashes[0], port.leafHashes[1]}
			}
			o, n := d.verdicts()
			if o != c.want || c.bothNm && n != c.want {
				t.Errorf("ns %d: range at %d: ours accepts %v, the port %v; want %v", ns, c.start, o, n, c.want)
			}
		}
		above := nmtProofNs(ns, 5)
		d := nmtCheck{ns: true, p: portProof{start: math.MaxInt/2 + 2, end: math.MaxInt/2 + 3, nodes: [][]byte{port.leafHashes[0], port.leafHashes[1]},
			isMaxNamespaceIDIgnored: cfg.ignore}, nid: above, leaves: [][]byte{slices.Concat(above, []byte("forged"))}, root: root, nsLen: ns}
		if o, _ := d.verdicts(); o {
			t.Errorf("ns %d: a namespace proof at %d: ours accepts it", ns, d.p.start)
		}
	}
}

// nmtBothTrees returns our tree and the port's of the same leaves.
func nmtBothTrees(t *testing.T, h nmt.Hasher, leaves [][]byte) (*nmt.Tree, *portTree) {
	ours, port := nmt.New(h), newPortTree(h.NamespaceSize, h.IgnoreMaxNamespace)
	for _, l := range leaves {
		if err := ours.Push(l); err != nil {
			t.Fatal(err)
		}
		if err := port.push(l); err != nil {
			t.Fatal(err)
		}
	}
	return ours, port
}

// TestNMTProveRangeErrorsBothWays: ProveRange refuses the same ranges on
// both sides.
func TestNMTProveRangeErrorsBothWays(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for n := range 10 {
		leaves := nmtProofLeaves(r, 2, n)
		ours, port := nmtBothTrees(t, nmt.Hasher{NamespaceSize: 2}, leaves)
		for s := -2; s <= n+2; s++ {
			for e := -2; e <= n+2; e++ {
				_, oe := ours.ProveRange(s, e)
				_, pe := port.proveRange(s, e)
				if (oe == nil) != (pe == nil) {
					t.Errorf("%d leaves, [%d, %d): ours %v, the port %v", n, s, e, oe, pe)
				}
			}
		}
	}
}
