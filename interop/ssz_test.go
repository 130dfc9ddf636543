package interop

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	ssz "github.com/ferranbt/fastssz"
	"github.com/ferranbt/fastssz/spectests"
	hashtree "github.com/pk910/hashtree-bindings"
	"github.com/prysmaticlabs/gohashtree"
	sszx "github.com/sha256x/sha256x/hashtree"
)

// The drop-in (sha256x/hashtree) against gohashtree and OffchainLabs'
// hashtree (hashtree-bindings, its C library linked with cgo; without cgo
// its Go fallback), fastssz's Hasher with either as its HashFn on real
// consensus objects, merkleization against fastssz's, and proofs both
// ways.

// chunkCounts are the level sizes the drop-in is checked at: every count
// to 600 chunks, odd ones too, the powers of two and their neighbours to
// 2^16, and random counts up to 2^16.
func chunkCounts() []int {
	var ns []int
	for n := range 601 {
		ns = append(ns, n)
	}
	for k := 11; k <= 16; k++ {
		ns = append(ns, 1<<k-2, 1<<k-1, 1<<k, 1<<k+1, 1<<k+2)
	}
	r := rand.New(rand.NewPCG(19, 1))
	m := 60
	if testing.Short() {
		m = 20
	}
	for range m {
		ns = append(ns, r.IntN(1<<16+1))
	}
	return ns
}

func randChunks(r *rand.Rand, n int) [][32]byte {
	c := make([][32]byte, n)
	for i := range c {
		for j := 0; j < 32; j += 8 {
			binary.LittleEndian.PutUint64(c[i][j:], r.Uint64())
		}
	}
	return c
}

func flat(c [][32]byte) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(c))), 32*len(c))
}

// sameErr: both nil, or both errors; with gohashtree, the same words.
func sameErr(t *testing.T, what string, got, want error, words bool) {
	t.Helper()
	if (got == nil) != (want == nil) || words && got != nil && got.Error() != want.Error() {
		t.Fatalf("%s: error %v, reference %v", what, got, want)
	}
}

type hashFns struct {
	name  string
	hash  func(d, c [][32]byte) error
	bytes func(d, c []byte) error
	words bool // the same error messages as sha256x's
}

func refs() []hashFns {
	return []hashFns{
		{"gohashtree", gohashtree.Hash, gohashtree.HashByteSlice, true},
		{"hashtree", hashtree.Hash, hashtree.HashByteSlice, false},
	}
}

// TestDropIn: Hash, HashOf, HashChunks and HashByteSlice against
// gohashtree and hashtree on random levels of 0..2^16 chunks, apart and in
// place, with the error cases (odd counts, short digests, lengths not
// multiples of 32 or 64).
func TestDropIn(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 2))
	for _, n := range chunkCounts() {
		chunks := randChunks(r, n)
		for _, ref := range refs() {
			want := make([][32]byte, n/2)
			werr := ref.hash(want, chunks)
			got := make([][32]byte, n/2)
			sameErr(t, fmt.Sprintf("Hash, %d chunks", n), sszx.Hash(got, chunks), werr, ref.words)
			if werr != nil {
				sameErr(t, "Hash, short digests", sszx.Hash(got[:max(0, n/2-1)], chunks), ref.hash(want[:max(0, n/2-1)], chunks), ref.words)
				continue
			}
			if !slicesEqual(got, want) {
				t.Fatalf("Hash, %d chunks: digests differ from %s", n, ref.name)
			}
			if n >= 2 {
				sameErr(t, fmt.Sprintf("Hash, %d chunks, short digests", n), sszx.Hash(got[:n/2-1], chunks), ref.hash(want[:n/2-1], chunks), ref.words)
			}
			a, b := append([][32]byte{}, chunks...), append([][32]byte{}, chunks...)
			sameErr(t, "Hash in place", sszx.Hash(a, a), ref.hash(b, b), ref.words)
			if !slicesEqual(a[:n/2], b[:n/2]) {
				t.Fatalf("Hash in place, %d chunks: digests differ from %s", n, ref.name)
			}
			type root [32]byte
			g := make([]root, n/2)
			if err := sszx.HashOf(g, *(*[]root)(unsafe.Pointer(&chunks))); err != nil || !slicesEqual(*(*[][32]byte)(unsafe.Pointer(&g)), want) {
				t.Fatalf("HashOf, %d chunks: %v or digests differ", n, err)
			}
			clear(got)
			sszx.HashChunks(got, chunks)
			if n > 0 {
				if ref.name == "gohashtree" {
					clear(want)
					gohashtree.HashChunks(want, chunks)
				}
				if !slicesEqual(got, want) {
					t.Fatalf("HashChunks, %d chunks: digests differ", n)
				}
			}
			fa, fb := append([]byte{}, flat(chunks)...), append([]byte{}, flat(chunks)...)
			sameErr(t, "HashByteSlice in place", sszx.HashByteSlice(fa, fa), ref.bytes(fb, fb), ref.words)
			if !bytes.Equal(fa[:16*n], fb[:16*n]) {
				t.Fatalf("HashByteSlice in place, %d chunks: digests differ from %s", n, ref.name)
			}
			for _, cut := range []int{1, 31, 32, 33, 63} { // chunks and digests of other lengths
				if cut > 32*n {
					break
				}
				c := flat(chunks)[:32*n-cut]
				da, db := make([]byte, 16*n+32), make([]byte, 16*n+32)
				sameErr(t, "HashByteSlice, ragged chunks", sszx.HashByteSlice(da, c), ref.bytes(db, c), ref.words)
				sameErr(t, "HashByteSlice, ragged digests", sszx.HashByteSlice(da[:16*n+cut%32], flat(chunks)), ref.bytes(db[:16*n+cut%32], flat(chunks)), ref.words)
				if !bytes.Equal(da, db) {
					t.Fatalf("HashByteSlice, %d chunks cut %d: digests differ from %s", n, cut, ref.name)
				}
			}
		}
	}
}

func slicesEqual(a, b [][32]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestDropInPageEdges: levels that end at an unmapped page or start right
// after one, chunks and digests, in place and apart, against gohashtree.
func TestDropInPageEdges(t *testing.T) {
	ps := os.Getpagesize()
	mem := guarded(t, 4*ps)
	r := rand.New(rand.NewPCG(19, 3))
	src := randChunks(r, len(mem)/32)
	for _, n := range []int{2, 4, 6, 8, 10, 16, 30, 32, 34, 62, 64, 66, 126, 128, 254, 256} {
		for _, at := range []string{"end", "start"} {
			off := 0
			if at == "end" {
				off = len(mem) - 32*n
			}
			c := unsafe.Slice((*[32]byte)(unsafe.Pointer(&mem[off])), n)
			copy(c, src[:n])
			want := make([][32]byte, n/2)
			if err := gohashtree.Hash(want, src[:n]); err != nil {
				t.Fatal(err)
			}
			// Digests apart, at the other edge.
			doff := len(mem) - 16*n
			if at == "end" {
				doff = 0
			}
			d := unsafe.Slice((*[32]byte)(unsafe.Pointer(&mem[doff])), n/2)
			if doff+16*n <= off || off+32*n <= doff {
				if err := sszx.Hash(d, c); err != nil || !slicesEqual(d, want) {
					t.Fatalf("%d chunks at the %s of a page: %v or digests differ", n, at, err)
				}
				copy(c, src[:n])
			}
			if err := sszx.HashByteSlice(flat(c), flat(c)); err != nil || !slicesEqual(c[:n/2], want) {
				t.Fatalf("%d chunks in place at the %s of a page: %v or digests differ", n, at, err)
			}
			copy(c, src[:n])
			sszx.HashChunksOf(c, c)
			if !slicesEqual(c[:n/2], want) {
				t.Fatalf("HashChunksOf, %d chunks in place at the %s of a page: digests differ", n, at)
			}
			// Merkleization over the same memory reads only it.
			copy(c, src[:n])
			if got, w := sszx.Merkleize(c, uint64(n)), fastsszMerkleize(src[:n], 0); got != w {
				t.Fatalf("Merkleize of %d chunks at the %s of a page: %x, fastssz %x", n, at, got, w)
			}
			if got, w := sszx.ByteVectorRoot(flat(c)[:32*n-5]), fastsszMerkleizeBytes(flat(src[:n])[:32*n-5], 0); got != w {
				t.Fatalf("ByteVectorRoot at the %s of a page: %x, fastssz %x", at, got, w)
			}
		}
	}
}

// fastsszMerkleize is fastssz's Hasher.Merkleize (limit 0) or
// MerkleizeWithMixin's merkleization (limit > 0, without the mix-in) of
// chunks, with gohashtree as its HashFn.
func fastsszMerkleize(chunks [][32]byte, limit uint64) [32]byte {
	return fastsszMerkleizeBytes(flat(chunks), limit)
}

func fastsszMerkleizeBytes(b []byte, limit uint64) [32]byte {
	hh := ssz.NewHasherWithHashFn(gohashtree.HashByteSlice)
	hh.Append(b)
	if limit == 0 {
		hh.FillUpTo32()
		hh.Merkleize(0)
	} else {
		hh.MerkleizeWithMixin(0, 12345, limit)
		// Undo nothing: the caller compares the mixed root.
	}
	r, err := hh.HashRoot()
	if err != nil {
		panic(err)
	}
	return r
}

// TestMerkleizeFastssz: Merkleize and MixInLength (ListRoot) against
// fastssz's Merkleize and MerkleizeWithMixin over random counts and
// limits; fastssz's limit 0 means the count (a vector). fastssz's depth is
// wrong for limits above 2^32 that are not powers of two (its
// nextPowerOfTwo stops at 32 bits), so those limits are powers of two.
func TestMerkleizeFastssz(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 4))
	m := 3000
	if testing.Short() {
		m = 600
	}
	for i := range m {
		n := r.IntN(300)
		if i%10 == 0 {
			n = r.IntN(5000)
		}
		chunks := randChunks(r, n)
		if got, want := sszx.Merkleize(chunks, uint64(n)), fastsszMerkleize(chunks, 0); got != want {
			t.Fatalf("vector of %d chunks: %x, fastssz %x", n, got, want)
		}
		var limit uint64
		switch r.IntN(3) {
		case 0:
			limit = uint64(n) + r.Uint64N(uint64(n)+3)
		case 1:
			limit = uint64(n) + r.Uint64N(1<<32-uint64(n))
		default:
			limit = 1 << (bitsLen(uint64(n)) + r.IntN(64-bitsLen(uint64(n))))
		}
		if limit == 0 {
			limit = 1
		}
		if got, want := sszx.MixInLength(sszx.Merkleize(chunks, limit), 12345), fastsszMerkleize(chunks, limit); got != want {
			t.Fatalf("%d chunks under %d: %x, fastssz %x", n, limit, got, want)
		}
		if got, want := sszx.ListRoot(chunks, limit), sszx.MixInLength(sszx.Merkleize(chunks, limit), uint64(n)); got != want {
			t.Fatal("ListRoot is not MixInLength(Merkleize)")
		}
	}
}

func bitsLen(x uint64) int {
	n := 0
	for ; x > 0; x >>= 1 {
		n++
	}
	return n
}

// TestBasicFastssz: basic lists, byte lists and vectors and bitlists
// against fastssz's Hasher as its generated code calls it.
func TestBasicFastssz(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 5))
	hh := ssz.NewHasherWithHashFn(gohashtree.HashByteSlice)
	root := func() [32]byte {
		t.Helper()
		x, err := hh.HashRoot()
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	for range 500 {
		n := r.IntN(700)
		v := make([]uint64, n)
		for i := range v {
			v[i] = r.Uint64()
		}
		limit := uint64(n) + r.Uint64N(1<<40)
		hh.Reset()
		hh.PutUint64Array(v, limit)
		if got, want := sszx.BasicListRoot(v, limit), root(); got != want {
			t.Fatalf("List[uint64, %d] of %d: %x, fastssz %x", limit, n, got, want)
		}
		if n > 0 { // no SSZ vector is empty
			hh.Reset()
			hh.PutUint64Array(v)
			if got, want := sszx.BasicVectorRoot(v), root(); got != want {
				t.Fatalf("Vector[uint64, %d]: %x, fastssz %x", n, got, want)
			}
		}
		b := make([]byte, 1+r.IntN(300))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		hh.Reset()
		hh.PutBytes(b)
		if got, want := sszx.ByteVectorRoot(b), root(); got != want {
			t.Fatalf("ByteVector[%d]: %x, fastssz %x", len(b), got, want)
		}
		// A byte list as the generated code hashes ExtraData.
		bl := uint64(len(b)) + r.Uint64N(2000)
		hh.Reset()
		hh.Append(b)
		hh.MerkleizeWithMixin(0, uint64(len(b)), (bl+31)/32)
		if got, want := sszx.ByteListRoot(b, bl), root(); got != want {
			t.Fatalf("ByteList[%d] of %d: %x, fastssz %x", bl, len(b), got, want)
		}
		if len(b) > 0 && b[len(b)-1] != 0 {
			nbits := 8*uint64(len(b)-1) + uint64(bitsLen(uint64(b[len(b)-1]))-1)
			limit := nbits + r.Uint64N(5000)
			hh.Reset()
			hh.PutBitlist(b, limit)
			got, err := sszx.BitlistRoot(b, limit)
			if want := root(); err != nil || got != want {
				t.Fatalf("Bitlist[%d] %x: %x, %v; fastssz %x", limit, b, got, err, want)
			}
		}
	}
}

// consensusTypes are fastssz's generated consensus types (spectests).
func consensusTypes() []func() spectestObject {
	return []func() spectestObject{
		func() spectestObject { return new(spectests.AggregateAndProof) },
		func() spectestObject { return new(spectests.Checkpoint) },
		func() spectestObject { return new(spectests.AttestationData) },
		func() spectestObject { return new(spectests.Attestation) },
		func() spectestObject { return new(spectests.DepositData) },
		func() spectestObject { return new(spectests.Deposit) },
		func() spectestObject { return new(spectests.DepositMessage) },
		func() spectestObject { return new(spectests.IndexedAttestation) },
		func() spectestObject { return new(spectests.PendingAttestation) },
		func() spectestObject { return new(spectests.Fork) },
		func() spectestObject { return new(spectests.Validator) },
		func() spectestObject { return new(spectests.VoluntaryExit) },
		func() spectestObject { return new(spectests.SignedVoluntaryExit) },
		func() spectestObject { return new(spectests.Eth1Block) },
		func() spectestObject { return new(spectests.Eth1Data) },
		func() spectestObject { return new(spectests.SigningRoot) },
		func() spectestObject { return new(spectests.HistoricalBatch) },
		func() spectestObject { return new(spectests.ProposerSlashing) },
		func() spectestObject { return new(spectests.AttesterSlashing) },
		func() spectestObject { return new(spectests.BeaconBlock) },
		func() spectestObject { return new(spectests.SignedBeaconBlock) },
		func() spectestObject { return new(spectests.Transfer) },
		func() spectestObject { return new(spectests.BeaconState) },
		func() spectestObject { return new(spectests.BeaconBlockBodyPhase0) },
		func() spectestObject { return new(spectests.BeaconBlockBodyAltair) },
		func() spectestObject { return new(spectests.BeaconBlockBodyBellatrix) },
		func() spectestObject { return new(spectests.BeaconStateAltair) },
		func() spectestObject { return new(spectests.BeaconStateBellatrix) },
		func() spectestObject { return new(spectests.SignedBeaconBlockHeader) },
		func() spectestObject { return new(spectests.BeaconBlockHeader) },
		func() spectestObject { return new(spectests.SyncCommittee) },
		func() spectestObject { return new(spectests.SyncAggregate) },
		func() spectestObject { return new(spectests.ExecutionPayload) },
		func() spectestObject { return new(spectests.ExecutionPayloadHeader) },
		func() spectestObject { return new(spectests.ExecutionPayloadCapella) },
		func() spectestObject { return new(spectests.ExecutionPayloadHeaderCapella) },
		func() spectestObject { return new(spectests.BLSToExecutionChange) },
		func() spectestObject { return new(spectests.HistoricalSummary) },
		func() spectestObject { return new(spectests.SignedBLSToExecutionChange) },
		func() spectestObject { return new(spectests.Withdrawal) },
		func() spectestObject { return new(spectests.BeaconStateCapella) },
		func() spectestObject { return new(spectests.SignedBeaconBlockCapella) },
		func() spectestObject { return new(spectests.BeaconBlockCapella) },
		func() spectestObject { return new(spectests.BeaconBlockBodyCapella) },
		func() spectestObject { return new(spectests.ExecutionPayloadDeneb) },
		func() spectestObject { return new(spectests.ExecutionPayloadHeaderDeneb) },
	}
}

type spectestObject interface {
	HashTreeRootWith(ssz.HashWalker) error
	GetTree() (*ssz.Node, error)
}

func rootWith(o spectestObject, fn ssz.HashFn) (_ [32]byte, err error) {
	defer func() {
		if r := recover(); r != nil { // fastssz panics on some invalid objects
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	hh := ssz.NewHasherWithHashFn(fn)
	if err := o.HashTreeRootWith(hh); err != nil {
		return [32]byte{}, err
	}
	return hh.HashRoot()
}

var bellatrix struct {
	once sync.Once
	s    *spectests.BeaconStateBellatrix
	err  error
}

// bellatrixState is the real Bellatrix beacon state (Goerli, slot
// 4744352) that fastssz v0.1.4 ships in its module, read from the module
// cache.
func bellatrixState(t *testing.T) *spectests.BeaconStateBellatrix {
	bellatrix.once.Do(func() {
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/ferranbt/fastssz").Output()
		if err != nil {
			bellatrix.err = fmt.Errorf("go list fastssz: %v", err)
			return
		}
		data, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "spectests", "fixtures", "beacon_state_bellatrix.ssz"))
		if err != nil {
			bellatrix.err = err
			return
		}
		s := new(spectests.BeaconStateBellatrix)
		bellatrix.err = s.UnmarshalSSZ(data)
		bellatrix.s = s
	})
	if bellatrix.err != nil {
		t.Fatal(bellatrix.err)
	}
	return bellatrix.s
}

// TestFastsszHashFn: fastssz's own Hasher gives the same roots with
// sha256x's HashByteSlice as with gohashtree's (and hashtree's): on the real Bellatrix beacon state fastssz ships, and on
// objects of every generated consensus type filled at random by fastssz's
// fuzz package, whole beacon states of every fork among them.
func TestFastsszHashFn(t *testing.T) {
	s := bellatrixState(t)
	want, err := rootWith(s, gohashtree.HashByteSlice)
	if err != nil {
		t.Fatal(err)
	}
	for name, fn := range map[string]ssz.HashFn{"sha256x": sszx.HashByteSlice, "hashtree": hashtree.HashByteSlice} {
		if got, err := rootWith(s, fn); err != nil || got != want {
			t.Fatalf("Bellatrix state with %s: %x, %v; gohashtree %x", name, got, err, want)
		}
	}
	t.Logf("Bellatrix state (%d validators): root %x", len(s.Validators), want)

	per := 6
	if testing.Short() {
		per = 2
	}
	valid := 0
	for ti, mk := range consensusTypes() {
		for i := range per {
			o := mk()
			fill(reflect.ValueOf(o).Elem(), "", rand.New(rand.NewPCG(uint64(ti), uint64(i))), 40)
			want, werr := rootWith(o, gohashtree.HashByteSlice)
			got, err := rootWith(o, sszx.HashByteSlice)
			name := reflect.TypeOf(o).Elem().Name()
			if (err == nil) != (werr == nil) || got != want {
				t.Fatalf("%s #%d: %x, %v; with gohashtree %x, %v", name, i, got, err, want, werr)
			}
			if err == nil {
				valid++
			}
		}
	}
	if valid != len(consensusTypes())*per {
		t.Fatalf("only %d of %d objects had roots", valid, len(consensusTypes())*per)
	}
}

// related reports whether g is an ancestor or a descendant of one of gs.
func related(g uint64, gs []uint64) bool {
	for _, h := range gs {
		a, b := min(g, h), max(g, h)
		for b > a {
			b >>= 1
		}
		if a == b {
			return true
		}
	}
	return false
}

var errFastsszPanic = errors.New("fastssz panicked")

// verifyMultiproof is fastssz's VerifyMultiproof, whose panic (an index out
// of range in its loop over computed indices, on sets of indices where one
// is another's ancestor, or the root) becomes errFastsszPanic.
func verifyMultiproof(root []byte, proof, leaves [][]byte, indices []int) (ok bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", errFastsszPanic, r)
		}
	}()
	return ssz.VerifyMultiproof(root, proof, leaves, indices)
}

// prove is fastssz's Node.Prove, whose panics on a node it has not
// stored (padding past a container's fields) become errors.
func prove(n *ssz.Node, g int) (p *ssz.Proof, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("fastssz panicked: %v", r)
		}
	}()
	return n.Prove(g)
}

func proveMulti(n *ssz.Node, gs []int) (p *ssz.Multiproof, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("fastssz panicked: %v", r)
		}
	}()
	return n.ProveMulti(gs)
}

// fill sets v, a generated consensus type, to random contents that its
// ssz tags allow (fastssz's own fuzz package cannot fill the types with
// transactions, and fills bitlists with more bits than their limit): lists
// of up to most elements (bytes for a byte list), vectors and fixed byte
// fields of their size, valid bitlists.
func fill(v reflect.Value, tag reflect.StructTag, r *rand.Rand, most int) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 1)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(r.Uint64())
	case reflect.Array:
		for i := range v.Len() {
			fill(v.Index(i), "", r, most)
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), "", r, most)
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if f.Tag.Get("ssz") == "-" || !v.Field(i).CanSet() {
				continue
			}
			fill(v.Field(i), f.Tag, r, most)
		}
	case reflect.Slice:
		var limit int
		maxes := strings.Split(tag.Get("ssz-max"), ",")
		fmt.Sscan(maxes[0], &limit)
		if tag.Get("ssz") == "bitlist" {
			n := r.IntN(min(limit, 8*most) + 1)
			b := make([]byte, n/8+1)
			for j := range n {
				b[j/8] |= byte(r.IntN(2)) << (j % 8)
			}
			b[n/8] |= 1 << (n % 8)
			v.SetBytes(b)
			return
		}
		sizes := strings.Split(tag.Get("ssz-size"), ",")
		n := -1
		if sizes[0] != "" && sizes[0] != "?" {
			fmt.Sscan(sizes[0], &n)
		} else {
			n = r.IntN(min(limit, most) + 1)
		}
		var sub []string
		if len(sizes) > 1 {
			sub = append(sub, `ssz-size:"`+strings.Join(sizes[1:], ",")+`"`)
		}
		if len(maxes) > 1 {
			sub = append(sub, `ssz-max:"`+strings.Join(maxes[1:], ",")+`"`)
		}
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := range n {
			fill(v.Index(i), reflect.StructTag(strings.Join(sub, " ")), r, most)
		}
	}
}

// toFastssz is p as a fastssz proof.
func toFastssz(p sszx.Proof) *ssz.Proof {
	q := &ssz.Proof{Index: int(p.Gindex), Leaf: append([]byte{}, p.Leaf[:]...)}
	for _, h := range p.Branch {
		q.Hashes = append(q.Hashes, append([]byte{}, h[:]...))
	}
	return q
}

func fromFastssz(p *ssz.Proof) sszx.Proof {
	q := sszx.Proof{Gindex: uint64(p.Index), Leaf: [32]byte(p.Leaf)}
	for _, h := range p.Hashes {
		q.Branch = append(q.Branch, [32]byte(h))
	}
	return q
}

func multiFromFastssz(m *ssz.Multiproof) sszx.Multiproof {
	q := sszx.Multiproof{}
	for i, g := range m.Indices {
		q.Gindices = append(q.Gindices, uint64(g))
		q.Leaves = append(q.Leaves, [32]byte(m.Leaves[i]))
	}
	for _, h := range m.Hashes {
		q.Helpers = append(q.Helpers, [32]byte(h))
	}
	return q
}

func bs(c [][32]byte) [][]byte {
	var out [][]byte
	for _, x := range c {
		out = append(out, append([]byte{}, x[:]...))
	}
	return out
}

// TestProofsFastssz: our proofs and multiproofs of list and vector trees
// verify with fastssz's VerifyProof and VerifyMultiproof, and fastssz's
// proofs from its trees of the same chunks verify with ours; tampered ones
// fail on both sides.
func TestProofsFastssz(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 6))
	verified, fastsszPanics := 0, 0
	defer func() {
		t.Logf("%d multiproofs verified by fastssz; on %d fastssz's VerifyMultiproof panicked", verified, fastsszPanics)
		if fastsszPanics > 0 {
			t.Errorf("fastssz's VerifyMultiproof panicked on %d of %d multiproofs", fastsszPanics, verified+fastsszPanics)
		}
	}()
	for _, n := range []int{1, 2, 3, 5, 8, 13, 31, 64, 100} {
		for _, limit := range []int{n, 128, 1024} {
			if limit < n || limit&(limit-1) != 0 && limit != n {
				continue
			}
			chunks := randChunks(r, n)
			for _, list := range []bool{false, true} {
				var tr *sszx.Tree
				var leaves []*ssz.Node
				for _, c := range chunks {
					leaves = append(leaves, ssz.NewNodeWithValue(append([]byte{}, c[:]...)))
				}
				var fn *ssz.Node
				var err error
				plimit := 1
				for plimit < limit {
					plimit *= 2
				}
				if list {
					tr = sszx.NewListTree(chunks, uint64(limit), uint64(n))
					fn, err = ssz.TreeFromNodesWithMixin(leaves, n, plimit)
				} else {
					tr = sszx.NewTree(chunks, uint64(limit))
					fn, err = ssz.TreeFromNodes(leaves, plimit)
				}
				if err != nil {
					t.Fatal(err)
				}
				root := tr.Root()
				if !bytes.Equal(fn.Hash(), root[:]) {
					t.Fatalf("%d chunks under %d, list %v: fastssz tree root %x, ours %x", n, limit, list, fn.Hash(), root)
				}
				var gs []uint64
				for range min(n, 20) {
					gs = append(gs, tr.Gindex(uint64(r.IntN(n))))
				}
				for _, g := range []uint64{1, 2, 3, 4, 5, 6, 7} {
					if _, err := tr.Node(g); err == nil {
						gs = append(gs, g)
					}
				}
				for _, g := range gs {
					p, err := tr.Prove(g)
					if err != nil {
						t.Fatal(err)
					}
					if ok, err := ssz.VerifyProof(root[:], toFastssz(p)); !ok || err != nil {
						t.Fatalf("%d chunks under %d, list %v: our proof of %d fails fastssz's VerifyProof: %v", n, limit, list, g, err)
					}
					bad := toFastssz(p)
					bad.Leaf[0] ^= 1
					if ok, _ := ssz.VerifyProof(root[:], bad); ok {
						t.Fatal("fastssz verified a tampered proof")
					}
					fp, err := prove(fn, int(g))
					if err != nil {
						continue // beyond fastssz's stored nodes (a zero subtree)
					}
					if err := fromFastssz(fp).Verify(root); err != nil {
						t.Fatalf("%d chunks under %d, list %v: fastssz's proof of %d fails ours: %v", n, limit, list, g, err)
					}
				}
				slices.Sort(gs)
				gs = slices.Compact(gs)
				for range 10 {
					k := 1 + r.IntN(min(4, len(gs)))
					sel := map[uint64]bool{}
					var m []uint64
					// Nodes none of which is another's ancestor: fastssz's
					// VerifyMultiproof panics on the others (an index out of
					// range), which only our verifier is checked on
					// (hashtree's TestTree).
					for tries := 0; len(m) < k && tries < 100; tries++ {
						g := gs[r.IntN(len(gs))]
						if !sel[g] && !related(g, m) {
							sel[g] = true
							m = append(m, g)
						}
					}
					mp, err := tr.ProveMulti(m)
					if err != nil {
						t.Fatal(err)
					}
					var idx []int
					for _, g := range m {
						idx = append(idx, int(g))
					}
					ok, err := verifyMultiproof(root[:], bs(mp.Helpers), bs(mp.Leaves), idx)
					if errors.Is(err, errFastsszPanic) {
						fastsszPanics++
						t.Logf("fastssz's VerifyMultiproof of %v: %v", idx, err)
						continue
					}
					verified++
					if !ok || err != nil {
						t.Fatalf("our multiproof of %v fails fastssz's VerifyMultiproof: %v", m, err)
					}
					fm, err := proveMulti(fn, idx)
					if err != nil {
						continue
					}
					if err := multiFromFastssz(fm).Verify(root); err != nil {
						t.Fatalf("fastssz's multiproof of %v fails ours: %v", m, err)
					}
				}
			}
		}
	}
}

// TestObjectProofsFastssz: fastssz's proofs from the trees of generated
// consensus objects (GetTree) verify with ours, single and multi, and a
// proof of a validator's field through a state, built from fastssz's proof
// of the registry and our trees of the registry and of the validator
// (ConcatProofs), verifies with fastssz's VerifyProof under the state's
// root.
func TestObjectProofsFastssz(t *testing.T) {
	s := bellatrixState(t)
	h, err := s.LatestBlockHeader.GetTree()
	if err != nil {
		t.Fatal(err)
	}
	hroot, _ := s.LatestBlockHeader.HashTreeRoot()
	for g := 1; g < 14; g++ { // 13: the padding beside the fifth field
		p, err := prove(h, g)
		if err != nil {
			t.Fatal(err)
		}
		if err := fromFastssz(p).Verify(hroot); err != nil {
			t.Fatalf("header, gindex %d: %v", g, err)
		}
	}
	m, err := h.ProveMulti([]int{8, 9, 13})
	if err != nil {
		t.Fatal(err)
	}
	if err := multiFromFastssz(m).Verify(hroot); err != nil {
		t.Fatal(err)
	}

	// A small state, filled at random: its tree is fastssz's.
	st := new(spectests.BeaconStateBellatrix)
	fill(reflect.ValueOf(st).Elem(), "", rand.New(rand.NewPCG(19, 8)), 300)
	sroot, err := st.HashTreeRoot()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := st.GetTree()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []int{32, 33, 43, 44, 56, 2, 3, 5} {
		p, err := prove(tree, g)
		if err != nil {
			t.Fatal(err)
		}
		if err := fromFastssz(p).Verify(sroot); err != nil {
			t.Fatalf("state, gindex %d: %v", g, err)
		}
	}
	// Field 11 is the registry, List[Validator, 2^40]: gindex 32+11.
	outer, err := prove(tree, 32+11)
	if err != nil {
		t.Fatal(err)
	}
	vs := st.Validators
	if len(vs) < 3 {
		t.Fatalf("%d validators", len(vs))
	}
	fields := make([][32]byte, 8*len(vs))
	for i, v := range vs {
		f := fields[8*i : 8*i+8]
		f[0] = sszx.ByteVectorRoot(v.Pubkey)
		copy(f[1][:], v.WithdrawalCredentials)
		binary.LittleEndian.PutUint64(f[2][:], v.EffectiveBalance)
		if v.Slashed {
			f[3][0] = 1
		}
		binary.LittleEndian.PutUint64(f[4][:], v.ActivationEligibilityEpoch)
		binary.LittleEndian.PutUint64(f[5][:], v.ActivationEpoch)
		binary.LittleEndian.PutUint64(f[6][:], v.ExitEpoch)
		binary.LittleEndian.PutUint64(f[7][:], v.WithdrawableEpoch)
	}
	roots := make([][32]byte, len(vs))
	sszx.ContainerRoots(roots, fields, 8)
	reg := sszx.NewListTree(roots, 1<<40, uint64(len(vs)))
	if !bytes.Equal(outer.Leaf, func() []byte { r := reg.Root(); return r[:] }()) {
		t.Fatalf("registry root %x, fastssz's node 43 %x", reg.Root(), outer.Leaf)
	}
	i := len(vs) / 2
	pv, err := reg.Prove(reg.Gindex(uint64(i)))
	if err != nil {
		t.Fatal(err)
	}
	vt := sszx.NewTree(fields[8*i:8*i+8], 8)
	pf, err := vt.Prove(8 + 2) // effective_balance
	if err != nil {
		t.Fatal(err)
	}
	inner, err := sszx.ConcatProofs(pv, pf)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := sszx.ConcatProofs(fromFastssz(outer), inner)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := ssz.VerifyProof(sroot[:], toFastssz(whole)); !ok || err != nil {
		t.Fatalf("the proof of validator %d's balance (gindex %d) fails fastssz's VerifyProof: %v", i, whole.Gindex, err)
	}
	if fp, err := prove(tree, int(whole.Gindex)); err != nil || !bytes.Equal(fp.Leaf, whole.Leaf[:]) {
		t.Fatalf("fastssz's proof of the same gindex: %v", err)
	}
}

// TestVerifyOutside: proofs from outside get errors, never panics.
func TestVerifyOutside(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 7))
	var root [32]byte
	for range 20000 {
		m := sszx.Multiproof{}
		for range r.IntN(6) {
			m.Gindices = append(m.Gindices, r.Uint64()>>r.IntN(64))
		}
		for range r.IntN(8) {
			m.Leaves = append(m.Leaves, [32]byte{byte(r.Uint32())})
		}
		for range r.IntN(12) {
			m.Helpers = append(m.Helpers, [32]byte{byte(r.Uint32())})
		}
		if err := m.Verify(root); err == nil {
			t.Fatalf("%+v verified", m)
		}
		p := sszx.Proof{Gindex: r.Uint64() >> r.IntN(64), Branch: make([][32]byte, r.IntN(70))}
		if err := p.Verify(root); err == nil && p.Gindex != 1 {
			t.Fatalf("%+v verified", p)
		}
		if err := p.Verify(root); err != nil && !errors.Is(err, sszx.ErrMismatch) && !errors.Is(err, sszx.ErrMalformed) && !errors.Is(err, sszx.ErrGindex) {
			t.Fatalf("an error that wraps none of the sentinels: %v", err)
		}
	}
}
