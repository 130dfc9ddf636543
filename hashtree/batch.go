package hashtree

import (
	"strconv"
	"unsafe"

	"github.com/sha256x/sha256x"
)

// blockNodes is about how many field roots ContainerRoots and
// ByteVectorRoots take through all their levels before the next block of
// objects: 256 KiB, so that a block's levels stay in L2 (bench/HISTORY.md,
// "SSZ"). The top level of a block has at least minBlock pairs, enough to
// fill 16 AVX-512 lanes several times.
const (
	blockNodes = 8192
	minBlock   = 64
)

// blockOf returns how many objects of k nodes one block holds.
func blockOf(k int) int {
	return max(minBlock, blockNodes/k)
}

// ContainerRoots sets roots[i] to the hash tree root of container i of the
// n = len(fields)/k containers of k fields each, whose field roots are
// fields[i*k : i*k+k]: the root of the k roots padded with zero chunks to a
// power of two. It hashes the containers together, the level of every
// container in one HashLevel call, so that a validator's three tiny levels
// cost what wide ones do. Large batches go a block of objects at a time, so
// that the levels stay in cache, with no allocation once the pool's buffer
// has grown.
//
// roots may be fields[:n] (in place); otherwise it must not overlap fields.
// ContainerRoots panics if k < 1, if len(fields) is not a multiple of k, if
// len(roots) < n, or if roots overlaps fields other than in place.
func ContainerRoots(roots, fields [][sha256x.Size]byte, k int) {
	if k < 1 {
		panic("sha256x: hashtree: ContainerRoots of " + strconv.Itoa(k) + " fields a container")
	}
	if len(fields)%k != 0 {
		panic("sha256x: hashtree: ContainerRoots of " + strconv.Itoa(len(fields)) + " fields, not a multiple of " + strconv.Itoa(k))
	}
	n := len(fields) / k
	if len(roots) < n {
		panic("sha256x: hashtree: ContainerRoots of " + strconv.Itoa(n) + " containers into " + strconv.Itoa(len(roots)) + " roots")
	}
	switch {
	case n == 0:
		return
	case overlaps(nodeBytes(roots[:n]), nodeBytes(fields)) && &roots[0] != &fields[0]:
		// A later block's fields could be overwritten before they are read.
		panic("sha256x: hashtree: ContainerRoots: roots overlap fields, other than in place")
	case k == 1:
		copy(roots, fields)
		return
	case k == 2:
		sha256x.Join{}.HashLevel(roots[:n], fields)
		return
	}
	per := min(n, blockOf(k))
	s := getScratch(per * (k + 1))
	for a := 0; a < n; a += per {
		b := min(n, a+per)
		containers(roots[a:b], fields[a*k:b*k], k, s.nodes)
	}
	scratchPool.Put(s)
}

// containers is ContainerRoots of one block of k >= 3 fields a container,
// in buf (len(roots)*(k+1) nodes at least, apart from fields and roots).
// At each level the block's nodes lie container after container, m each;
// where m is odd each container's nodes move up by one to take the zero
// subtree after them.
func containers(roots, fields [][sha256x.Size]byte, k int, buf [][sha256x.Size]byte) {
	n := len(roots)
	m := k
	if m%2 == 0 {
		sha256x.Join{}.HashLevel(buf[:n*m/2], fields)
	} else {
		s := m + 1
		for i := range n {
			copy(buf[i*s:i*s+m], fields[i*m:i*m+m])
			buf[i*s+m] = zeroHashes[0]
		}
		sha256x.Join{}.HashLevel(buf[:n*s/2], buf[:n*s])
		m = s
	}
	m /= 2
	for d := 1; ; d++ {
		if m%2 == 1 {
			// Back to front, so that no container overwrites one not yet moved.
			for i := n - 1; i >= 0; i-- {
				copy(buf[i*(m+1):i*(m+1)+m], buf[i*m:i*m+m])
				buf[i*(m+1)+m] = zeroHashes[d]
			}
			m++
		}
		if m == 2 {
			sha256x.Join{}.HashLevel(roots, buf[:2*n])
			return
		}
		sha256x.Join{}.HashLevel(buf[:n*m/2], buf[:n*m])
		m /= 2
	}
}

// nodeBytes returns the memory of nodes.
func nodeBytes(nodes [][sha256x.Size]byte) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(nodes))), 32*len(nodes))
}

// overlaps reports whether a and b share a byte.
func overlaps(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	pa, pb := uintptr(unsafe.Pointer(&a[0])), uintptr(unsafe.Pointer(&b[0]))
	return pa < pb+uintptr(len(b)) && pb < pa+uintptr(len(a))
}

// ByteVectorRoots sets roots[i] to ByteVectorRoot(vectors[i*size :
// i*size+size]) for each of the len(vectors)/size vectors in vectors, all
// hashed together as ContainerRoots hashes containers: vectors of whole
// chunks read in place, others padded in a copy. It panics if size < 1, if
// len(vectors) is not a multiple of size, if roots is too short, or if roots
// overlaps vectors (other than in place, vectors of whole chunks only).
func ByteVectorRoots(roots [][sha256x.Size]byte, vectors []byte, size int) {
	if size < 1 {
		panic("sha256x: hashtree: ByteVectorRoots of " + strconv.Itoa(size) + "-byte vectors")
	}
	if len(vectors)%size != 0 {
		panic("sha256x: hashtree: ByteVectorRoots of " + strconv.Itoa(len(vectors)) + " bytes, not a multiple of " + strconv.Itoa(size))
	}
	n := len(vectors) / size
	if len(roots) < n {
		panic("sha256x: hashtree: ByteVectorRoots of " + strconv.Itoa(n) + " vectors into " + strconv.Itoa(len(roots)) + " roots")
	}
	if n == 0 {
		return
	}
	k := (size + 31) / 32
	if size%32 != 0 && overlaps(nodeBytes(roots[:n]), vectors) {
		panic("sha256x: hashtree: ByteVectorRoots: roots overlap vectors")
	}
	if size%32 == 0 {
		ContainerRoots(roots, unsafe.Slice((*[sha256x.Size]byte)(unsafe.Pointer(&vectors[0])), n*k), k)
		return
	}
	per := min(n, blockOf(k))
	// The padded vectors of a block, then the levels' buffer.
	s := getScratch(per*k + per*(k+1))
	pad, buf := s.nodes[:per*k], s.nodes[per*k:]
	for a := 0; a < n; a += per {
		b := min(n, a+per)
		p := pad[:(b-a)*k]
		for i := range b - a {
			v := unsafe.Slice(&p[i*k][0], k*32)
			copy(v, vectors[(a+i)*size:(a+i+1)*size])
			clear(v[size:])
		}
		switch k {
		case 1:
			copy(roots[a:b], p)
		case 2:
			sha256x.Join{}.HashLevel(roots[a:b], p)
		default:
			containers(roots[a:b], p, k, buf)
		}
	}
	scratchPool.Put(s)
}

// PubkeyRoots sets roots[i] to the root of the 48-byte BLS public key
// keys[i] (a ByteVector[48]), all keys hashed together. It panics if
// len(roots) < len(keys).
func PubkeyRoots[K ~[48]byte](roots [][sha256x.Size]byte, keys []K) {
	ByteVectorRoots(roots, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(keys))), 48*len(keys)), 48)
}

// SignatureRoots sets roots[i] to the root of the 96-byte BLS signature
// sigs[i] (a ByteVector[96]), all signatures hashed together. It panics if
// len(roots) < len(sigs).
func SignatureRoots[S ~[96]byte](roots [][sha256x.Size]byte, sigs []S) {
	ByteVectorRoots(roots, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(sigs))), 96*len(sigs)), 96)
}
