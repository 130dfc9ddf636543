// Package hashtree is SSZ hashing (Ethereum's hash_tree_root) on sha256x:
// a drop-in for github.com/prysmaticlabs/gohashtree and OffchainLabs'
// hashtree, the consensus specs' merkleization, the roots of many
// containers at once, and proofs by generalized index.
//
// # A drop-in for gohashtree and hashtree
//
// Hash, HashChunks and HashByteSlice have gohashtree's signatures, results
// and error cases: digests[i] = SHA-256(chunks[2i] || chunks[2i+1]), in
// place when digests and chunks start at the same address. Switching is
// the import line:
//
//	import gohashtree "github.com/sha256x/sha256x/hashtree"
//
// or, with fastssz, ssz.NewHasherWithHashFn(hashtree.HashByteSlice). HashOf
// and HashChunksOf take slices of any named 32-byte type (a root, a
// chainhash.Hash) without casts. One or two pairs go straight to the plan's
// one- or two-stream kernel; every longer level is one call to
// sha256x.Join{}.HashLevel, on the widest lanes (see bench/HISTORY.md, "SSZ").
//
// # Merkleization
//
// Merkleize and MixInLength are the specs' merkleize(chunks, limit) and
// mix_in_length, the padding's zero subtrees never hashed. ListRoot,
// BasicVectorRoot, BasicListRoot, ByteVectorRoot, ByteListRoot,
// BitvectorRoot and BitlistRoot are the roots of the specs' list and
// vector types.
//
// # Many objects at once
//
// A container of k fields is a tree of k field roots, three tiny levels for a
// validator, which no hasher runs fast one object at a time. ContainerRoots
// hashes n containers of one shape level by level, the level of every
// container in one batched call; ByteVectorRoots, PubkeyRoots and
// SignatureRoots batch the roots of fixed-size byte fields the same way.
//
// # Progressive merkleization
//
// MerkleizeProgressive, ProgressiveListRoot, ProgressiveBasicListRoot,
// ProgressiveBitlistRoot and ProgressiveContainerRoot are EIP-7916's and
// EIP-7495's roots as consensus-specs v1.7.0-alpha.13 defines them.
//
// # Trees that change
//
// A beacon state is rehashed after a few of its leaves change. Chunks,
// BasicList (balances) and ContainerList (the validator registry) keep
// every level and recompute the root from the nodes that changed alone,
// each level's dirty nodes in one batched call; the Progressive types do
// the same, Gloas's registry and balances (EIP-7688) among them as
// ProgressiveContainerList and ProgressiveBasicList. Their roots equal those of the functions above over the
// current values, and they prove (see Proofs). Copy shares every page until
// one of the copies writes it; each copy has one writer at a time, readers
// may share a copy once its Root has returned, and two copies may be
// written from two goroutines at once.
//
// # Proofs
//
// Tree keeps every level of one merkleization, for proofs by generalized
// index: Tree.Prove and Tree.ProveMulti (the specs' helper indices and order,
// see HelperIndices); Proof.Verify and Multiproof.Verify check them, and
// ConcatProofs chains proofs of nested objects. The trees that change prove
// from their current levels the same way, the progressive types at the
// gindices ProgressiveGindex gives, which stay as a list grows.
//
// # Errors
//
// Data from outside (a proof, a serialized bitlist) gets an error, never a
// panic. Programmer errors (a list longer than its limit, a container shape
// that does not divide the fields, digests that overlap their chunks other
// than in place or from below) panic with a message that starts
// "sha256x: hashtree:".
package hashtree

import (
	"errors"
	"strconv"
	"unsafe"

	"github.com/sha256x/sha256x"
	"github.com/sha256x/sha256x/internal/door"
)

// The errors of Hash, HashOf and HashByteSlice, with the names and messages
// of OffchainLabs hashtree's Go bindings (github.com/pk910/hashtree-bindings)
// and the messages of gohashtree, so that code comparing against them
// compiles and holds after the one-line switch. An error for digests too
// short wraps ErrNotEnoughDigests and adds the lengths as gohashtree does.
var (
	ErrOddChunks              = errors.New("odd number of chunks")
	ErrNotEnoughDigests       = errors.New("not enough digest length")
	ErrChunksNotMultipleOf64  = errors.New("chunks not multiple of 64 bytes")
	ErrDigestsNotMultipleOf32 = errors.New("digests not multiple of 32 bytes")
)

// The names these errors had before they took hashtree's.
var (
	// Deprecated: use ErrNotEnoughDigests, the same error.
	ErrShortDigests = ErrNotEnoughDigests
	// Deprecated: use ErrChunksNotMultipleOf64, the same error.
	ErrChunksNotPairs = ErrChunksNotMultipleOf64
	// Deprecated: use ErrDigestsNotMultipleOf32, the same error.
	ErrDigestsNotRoots = ErrDigestsNotMultipleOf32
)

type shortError struct{ need, got int }

func (e *shortError) Error() string {
	return "not enough digest length, need at least " + strconv.Itoa(e.need) + ", got " + strconv.Itoa(e.got)
}

func (e *shortError) Unwrap() error { return ErrNotEnoughDigests }

// Hash sets digests[i] to SHA-256(chunks[2i] || chunks[2i+1]) for every pair
// of chunks, as gohashtree.Hash does. digests may start where chunks start
// (in place, digests[i] overwriting chunks[i]), or before chunks; it must not
// start inside chunks otherwise (a panic). No chunks is no error; an odd
// number of chunks, or fewer than len(chunks)/2 digests, is an error and
// leaves digests alone.
func Hash(digests, chunks [][sha256x.Size]byte) error {
	if n := len(chunks); n%2 != 0 || len(digests) < n/2 || n == 0 {
		return hashError(len(digests), n)
	}
	if pl := door.Plan(); door.Small(pl, digests, chunks) {
		// Nothing is live past the kernel: no spills around the call.
		door.SmallPairs(pl, &digests[0], &chunks[0][0], len(chunks)/2)
		return nil
	}
	level(digests, chunks)
	return nil
}

// hashError is the error of Hash, or nil, for these lengths: out of line,
// so that Hash stays small.
//
//go:noinline
func hashError(digests, chunks int) error {
	switch {
	case chunks == 0:
		return nil
	case chunks%2 != 0:
		return ErrOddChunks
	default:
		return &shortError{chunks / 2, digests}
	}
}

// HashChunks is Hash without the error cases, as gohashtree.HashChunks: it
// hashes len(chunks)/2 pairs (an odd last chunk is left out). It panics if
// digests is shorter than that.
func HashChunks(digests, chunks [][sha256x.Size]byte) {
	n := len(chunks) &^ 1
	if n == 0 {
		return
	}
	if len(digests) < n/2 {
		panic("sha256x: hashtree: HashChunks of " + strconv.Itoa(n/2) + " pairs into " + strconv.Itoa(len(digests)) + " digests")
	}
	level(digests, chunks[:n])
}

// HashByteSlice is Hash over flat bytes, gohashtree.HashByteSlice and
// fastssz's HashFn: pair i is chunks[64i:64i+64], its digest
// digests[32i:32i+32]. No chunks is no error; chunks not a multiple of 64
// bytes, digests not a multiple of 32, or digests shorter than
// len(chunks)/2 bytes are errors, checked in that order.
func HashByteSlice(digests, chunks []byte) error {
	if n := len(chunks); n%64 != 0 || len(digests)%32 != 0 || len(digests) < n/2 || n == 0 {
		return hashBytesError(len(digests), n)
	}
	d, c := roots(digests), roots(chunks)
	if pl := door.Plan(); door.Small(pl, d, c) {
		door.SmallPairs(pl, &d[0], &c[0][0], len(c)/2)
		return nil
	}
	level(d, c)
	return nil
}

// hashBytesError is the error of HashByteSlice, or nil, for these lengths.
//
//go:noinline
func hashBytesError(digests, chunks int) error {
	switch {
	case chunks == 0:
		return nil
	case chunks%64 != 0:
		return ErrChunksNotMultipleOf64
	case digests%32 != 0:
		return ErrDigestsNotMultipleOf32
	default:
		return &shortError{chunks / 2, digests}
	}
}

// HashOf is Hash for slices of any 32-byte type.
func HashOf[T ~[sha256x.Size]byte](digests, chunks []T) error {
	return Hash(view(digests), view(chunks))
}

// HashChunksOf is HashChunks for slices of any 32-byte type.
func HashChunksOf[T ~[sha256x.Size]byte](digests, chunks []T) {
	HashChunks(view(digests), view(chunks))
}

// view returns s as [][sha256x.Size]byte, the same memory.
func view[T ~[sha256x.Size]byte](s []T) [][sha256x.Size]byte {
	return unsafe.Slice((*[sha256x.Size]byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// roots returns the whole 32-byte chunks of b, the same memory.
func roots(b []byte) [][sha256x.Size]byte {
	return unsafe.Slice((*[sha256x.Size]byte)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/32)
}

// level hashes the pairs of chunks (an even number, at least 2) into
// digests (long enough). In place and disjoint go to HashLevel; digests
// that start below chunks and run into them, which gohashtree hashes
// correctly, go in runs that each write only below what they read; digests
// that start inside chunks, past their start, panic.
func level(digests, chunks [][sha256x.Size]byte) {
	n := len(chunks)
	d, c := uintptr(unsafe.Pointer(&digests[0])), uintptr(unsafe.Pointer(&chunks[0]))
	switch {
	case d == c:
	case d < c && c-d < uintptr(n/2)*32:
		trailing(digests, chunks, int((c-d)/32))
		return
	case d > c && d-c < uintptr(n)*32:
		panic("sha256x: hashtree: digests start inside the chunks, past their start")
	}
	sha256x.Join{}.HashLevel(digests, chunks)
}

// trailing hashes a level whose digests start gap whole digests (and
// perhaps a few bytes) below its chunks and overlap them: the run of pairs
// a..b writes digests a..b, which end at or below chunk 2a, where its reads
// begin, and the runs double in length. A gap of less than one digest
// hashes the first pair through a copy.
func trailing(digests, chunks [][sha256x.Size]byte, gap int) {
	n := len(chunks) / 2
	for a := 0; a < n; {
		b := min(n, 2*a+gap)
		if b == a {
			var t [1][sha256x.Size]byte
			sha256x.Join{}.HashLevel(t[:], chunks[:2])
			digests[0] = t[0]
			a = 1
			continue
		}
		sha256x.Join{}.HashLevel(digests[a:b], chunks[2*a:2*b])
		a = b
	}
}
