package hashtree

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"strconv"
	"sync"
	"unsafe"

	"github.com/sha256x/sha256x"
)

// MaxDepth is the depth of the deepest tree a uint64 limit makes: 2^64
// chunks.
const MaxDepth = 64

// zeroHashes[d] is the root of a tree of depth d of zero chunks.
var zeroHashes [MaxDepth + 1][sha256x.Size]byte

func init() {
	for d := 1; d <= MaxDepth; d++ {
		zeroHashes[d] = pair(zeroHashes[d-1], zeroHashes[d-1])
	}
}

// ZeroHash returns the root of a tree of 2^depth zero chunks (depth 0: the
// zero chunk), precomputed. It panics unless 0 <= depth <= MaxDepth.
func ZeroHash(depth int) [sha256x.Size]byte {
	if depth < 0 || depth > MaxDepth {
		panic("sha256x: hashtree: ZeroHash(" + strconv.Itoa(depth) + "), not in 0..64")
	}
	return zeroHashes[depth]
}

// Depth returns the depth of the tree that merkleization pads limit chunks
// to: log2 of the next power of two (0 for a limit of 0 or 1).
func Depth(limit uint64) int {
	if limit <= 1 {
		return 0
	}
	return bits.Len64(limit - 1)
}

// Merkleize returns the specs' merkleize(chunks, limit): the root of the
// binary tree over chunks padded with zero chunks to the next power of two of
// limit. The padding is never hashed: a level that ends early is joined with
// the zero subtree of its height (ZeroHash). For a vector (no limit) pass
// uint64(len(chunks)). No chunks give ZeroHash(Depth(limit)).
//
// The chunks are only read. Merkleize hashes each level in one batched call
// on the calling goroutine, and allocates nothing once its pool has grown.
// It panics if len(chunks) > limit.
func Merkleize(chunks [][sha256x.Size]byte, limit uint64) [sha256x.Size]byte {
	if uint64(len(chunks)) > limit {
		panic("sha256x: hashtree: Merkleize of " + strconv.Itoa(len(chunks)) + " chunks, more than the limit " + strconv.FormatUint(limit, 10))
	}
	return root(chunks, nil, Depth(limit))
}

// MerkleizeBytes is Merkleize of data packed into 32-byte chunks, the last
// one padded with zero bytes (the specs' merkleize(pack(value), limit) for
// data already serialized): limit counts chunks. Whole chunks are read in
// place. It panics if data needs more than limit chunks.
func MerkleizeBytes(data []byte, limit uint64) [sha256x.Size]byte {
	n := uint64(len(data)+31) / 32
	if n > limit {
		panic("sha256x: hashtree: MerkleizeBytes of " + strconv.FormatUint(n, 10) + " chunks, more than the limit " + strconv.FormatUint(limit, 10))
	}
	return rootBytes(data, Depth(limit))
}

func rootBytes(data []byte, depth int) [sha256x.Size]byte {
	full := roots(data)
	if len(data)%32 == 0 {
		return root(full, nil, depth)
	}
	var tail [sha256x.Size]byte
	copy(tail[:], data[len(full)*32:])
	return root(full, &tail, depth)
}

// MixInLength returns the specs' mix_in_length(root, length): SHA-256 of
// root and length as a 32-byte little-endian number, the root of a list.
func MixInLength(root [sha256x.Size]byte, length uint64) [sha256x.Size]byte {
	var l [sha256x.Size]byte
	binary.LittleEndian.PutUint64(l[:], length)
	return pair(root, l)
}

// ListRoot returns the root of a list of composite elements whose roots
// are roots, of at most limit elements: MixInLength(Merkleize(roots, limit),
// len(roots)). It panics if len(roots) > limit.
func ListRoot(roots [][sha256x.Size]byte, limit uint64) [sha256x.Size]byte {
	return MixInLength(Merkleize(roots, limit), uint64(len(roots)))
}

// Basic is the Go types of the specs' basic types that have one: boolean
// and uintN up to uint64 (and named types of them, such as a Gwei), packed
// little-endian as SSZ serializes them.
type Basic interface {
	~bool | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// BasicVectorRoot returns the root of values as a Vector[T, len(values)]:
// the values packed into chunks, merkleized.
func BasicVectorRoot[T Basic](values []T) [sha256x.Size]byte {
	size := sizeOf[T]()
	return packedRoot(bytesOf(values), size, !littleEndian, Depth(chunksFor(uint64(len(values)), size)))
}

// BasicListRoot returns the root of values as a List[T, limit]: the values
// packed into chunks, merkleized under the chunks that limit values need,
// and the number of values mixed in. It panics if len(values) > limit.
func BasicListRoot[T Basic](values []T, limit uint64) [sha256x.Size]byte {
	if uint64(len(values)) > limit {
		panic("sha256x: hashtree: BasicListRoot of " + strconv.Itoa(len(values)) + " values, more than the limit " + strconv.FormatUint(limit, 10))
	}
	size := sizeOf[T]()
	r := packedRoot(bytesOf(values), size, !littleEndian, Depth(chunksFor(limit, size)))
	return MixInLength(r, uint64(len(values)))
}

// ByteVectorRoot returns the root of b as a ByteVector[len(b)] (a Bytes32
// root is itself, a 48-byte BLS public key two chunks joined).
func ByteVectorRoot(b []byte) [sha256x.Size]byte {
	return rootBytes(b, Depth(chunksFor(uint64(len(b)), 1)))
}

// ByteListRoot returns the root of b as a ByteList[limit]. It panics if
// len(b) > limit.
func ByteListRoot(b []byte, limit uint64) [sha256x.Size]byte {
	if uint64(len(b)) > limit {
		panic("sha256x: hashtree: ByteListRoot of " + strconv.Itoa(len(b)) + " bytes, more than the limit " + strconv.FormatUint(limit, 10))
	}
	return MixInLength(rootBytes(b, Depth(chunksFor(limit, 1))), uint64(len(b)))
}

// BitvectorRoot returns the root of a Bitvector[N] serialized as bits
// (ceil(N/8) bytes, bit i in byte i/8 at 1<<(i%8)): the root of its bytes,
// as ByteVectorRoot.
func BitvectorRoot(bits []byte) [sha256x.Size]byte {
	return ByteVectorRoot(bits)
}

// ErrBitlist is the error of a serialized bitlist that is not one: empty,
// or its last byte zero (no length delimiter). An error for a bitlist longer
// than its limit wraps it.
var ErrBitlist = errors.New("hashtree: bitlist without a delimiter bit")

// BitlistRoot returns the root of a Bitlist[limit] from its serialization
// (the bits, then a delimiting 1 bit): the bits packed into chunks,
// merkleized under the chunks that limit bits need, and the number of bits
// mixed in. A serialization without a delimiter, or of more than limit
// bits, is an error (ErrBitlist).
func BitlistRoot(serialized []byte, limit uint64) ([sha256x.Size]byte, error) {
	n, top, ok := bitlistLen(serialized)
	if !ok {
		return [sha256x.Size]byte{}, ErrBitlist
	}
	if n > limit {
		return [sha256x.Size]byte{}, &bitlistError{n, limit}
	}
	depth := Depth(limit/256 + min(limit%256, 1))
	data := serialized[:(n+7)/8]
	if top == 0 { // the delimiter alone in its byte
		return MixInLength(rootBytes(data, depth), n), nil
	}
	// The last byte, without its delimiter, goes through a copy.
	full := roots(data)
	if len(data)%32 == 0 {
		full = full[:len(full)-1]
	}
	var tail [sha256x.Size]byte
	copy(tail[:], data[len(full)*32:])
	tail[len(data)-1-len(full)*32] &^= 1 << top
	return MixInLength(root(full, &tail, depth), n), nil
}

// bitlistLen returns the number of bits of a serialized bitlist and the
// place of its delimiter in the last byte, or false where it has none
// (empty, or the last byte zero).
func bitlistLen(serialized []byte) (n uint64, top int, ok bool) {
	if len(serialized) == 0 || serialized[len(serialized)-1] == 0 {
		return 0, 0, false
	}
	top = bits.Len8(serialized[len(serialized)-1]) - 1
	return 8*uint64(len(serialized)-1) + uint64(top), top, true
}

type bitlistError struct{ n, limit uint64 }

func (e *bitlistError) Error() string {
	return "hashtree: bitlist of " + strconv.FormatUint(e.n, 10) + " bits, more than its limit " + strconv.FormatUint(e.limit, 10)
}

func (e *bitlistError) Unwrap() error { return ErrBitlist }

// chunksFor returns the chunks that n values of size bytes take.
func chunksFor(n uint64, size int) uint64 {
	per := uint64(32 / size)
	return n/per + min(n%per, 1)
}

var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

func sizeOf[T Basic]() int {
	var v T
	return int(unsafe.Sizeof(v))
}

func bytesOf[T Basic](values []T) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(values))), len(values)*sizeOf[T]())
}

var bytePool sync.Pool // *[]byte

// packedRoot is the root of the values of size bytes each in b (their
// memory), packed little-endian: b itself where the machine is
// little-endian, else (swap) each value's bytes reversed in a copy.
func packedRoot(b []byte, size int, swap bool, depth int) [sha256x.Size]byte {
	if !swap || size == 1 {
		return rootBytes(b, depth)
	}
	p, _ := bytePool.Get().(*[]byte)
	if p == nil {
		p = new([]byte)
	}
	if cap(*p) < len(b) {
		*p = make([]byte, len(b))
	}
	le := (*p)[:len(b)]
	for i := 0; i < len(b); i += size {
		for j := range size {
			le[i+j] = b[i+size-1-j]
		}
	}
	r := rootBytes(le, depth)
	bytePool.Put(p)
	return r
}

// stackNodes is how many nodes of a small tree's first level root keeps on
// its stack rather than take a buffer from the pool (BENCHMARKS.md,
// "Constants that measured level").
const stackNodes = 8

type scratch struct{ nodes [][sha256x.Size]byte }

var scratchPool sync.Pool // *scratch

func getScratch(n int) *scratch {
	s, _ := scratchPool.Get().(*scratch)
	if s == nil {
		s = new(scratch)
	}
	if cap(s.nodes) < n {
		s.nodes = make([][sha256x.Size]byte, n)
	}
	s.nodes = s.nodes[:n]
	return s
}

// root returns the root of the tree of the given depth whose leaves are
// full, then *tail if tail is not nil, then zero chunks; the leaves must fit
// (len(full)+1 <= 2^depth with a tail). The first level is hashed from full
// in place (its last pair, with the tail or a zero chunk, from a copy), the
// others in a buffer, each level one HashLevel call.
func root(full [][sha256x.Size]byte, tail *[sha256x.Size]byte, depth int) [sha256x.Size]byte {
	m := len(full)
	if tail != nil {
		m++
	}
	switch {
	case m == 0:
		return zeroHashes[depth]
	case m == 1:
		r := full
		if tail != nil {
			r = unsafe.Slice(tail, 1)
		}
		return up(r[0], 0, depth)
	}
	var stack [stackNodes][sha256x.Size]byte
	buf := stack[:]
	var s *scratch
	if need := (m+1)/2 + 1; need > len(buf) {
		s = getScratch(need)
		buf = s.nodes
	}
	p := len(full) / 2
	if p > 0 {
		sha256x.Join{}.HashLevel(buf[:p], full[:2*p])
	}
	k := p
	if len(full)%2 == 1 || tail != nil {
		var two [2][sha256x.Size]byte // two[1] is the zero chunk unless set
		if len(full)%2 == 1 {
			two[0] = full[len(full)-1]
			if tail != nil {
				two[1] = *tail
			}
		} else {
			two[0] = *tail
		}
		sha256x.Join{}.HashLevel(buf[k:k+1], two[:])
		k++
	}
	d := 1
	for ; k > 1; d++ {
		if k%2 == 1 {
			buf[k] = zeroHashes[d]
			k++
		}
		sha256x.Join{}.HashLevel(buf[:k/2], buf[:k])
		k /= 2
	}
	r := buf[0]
	if s != nil {
		scratchPool.Put(s)
	}
	return up(r, d, depth)
}

// up returns the root of depth over a tree of depth d whose root is r and
// every other leaf zero.
func up(r [sha256x.Size]byte, d, depth int) [sha256x.Size]byte {
	for ; d < depth; d++ {
		r = pair(r, zeroHashes[d])
	}
	return r
}

// pair returns SHA-256(l || r).
func pair(l, r [sha256x.Size]byte) [sha256x.Size]byte {
	in := [2][sha256x.Size]byte{l, r}
	var out [1][sha256x.Size]byte
	sha256x.Join{}.HashLevel(out[:], in[:])
	return out[0]
}
