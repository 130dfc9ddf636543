package bench

import (
	"bytes"
	"errors"
	"hash"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"

	simd "github.com/minio/sha256-simd"
	"github.com/prysmaticlabs/gohashtree"
	sszx "github.com/sha256x/sha256x/hashtree"
)

// A Go port of Prysm's per-path recompute of a changed trie, the algorithm
// beacon nodes ran (issue 39), for the "Trees that change" tables:
// beacon-chain/state/stateutil/trie_helpers.go at OffchainLabs/prysm
// 83d75bcb78f7360fd7ded88b008789e6776e3ae6 (release v6.1.0; the same through
// v7.1.4 but for the v7 import paths, range loops, a redundant nil check
// dropped and AddInMixin; v7.1.5 replaced these functions with the flat
// field trie of beacon-chain/state/fieldtrie, PR 16512), functions
// ReturnTrieLayer, ReturnTrieLayerVariable, RecomputeFromLayer,
// RecomputeFromLayerVariable, recomputeRootFromLayer and
// recomputeRootFromLayerVariable, statement by statement; "P:" comments
// quote or name the line ported. Prysm's module is not served to this
// build, so its helpers are written out: trie.ZeroHashes is sszx.ZeroHash,
// ssz.Depth is sszx.Depth, math.Int a bounds check, htr.VectorizedSha256 is
// gohashtree (Prysm's own, its levels of 5,000 nodes or more split over
// GOMAXPROCS goroutines as Prysm splits them), and hash.CustomSHA256Hasher
// (crypto/hash/hash.go: a hash.Hash from its pool, Write, Sum(h[:0]),
// Reset) is the same over the same minio/sha256-simd, v1.0.1 as Prysm's
// go.mod pins it (on SHA-NI CPUs its own digest and assembly, not
// crypto/sha256's).

// prysmSHA256Pool is crypto/hash/hash.go's sha256Pool.
var prysmSHA256Pool = sync.Pool{New: func() any {
	return simd.New() // P: return sha256.New() (minio/sha256-simd)
}}

// prysmHasher is hash.CustomSHA256Hasher: one hash.Hash reused.
func prysmHasher() func([]byte) [32]byte {
	hasher, ok := prysmSHA256Pool.Get().(hash.Hash) // P: hasher, ok := sha256Pool.Get().(hash.Hash)
	if !ok {                                        // P: if !ok { hasher = sha256.New() } else { hasher.Reset() }
		hasher = simd.New()
	} else {
		hasher.Reset()
	}
	var h [32]byte
	return func(data []byte) [32]byte {
		hasher.Write(data) // P: hasher.Write(data)
		hasher.Sum(h[:0])  // P: hasher.Sum(h[:0])
		hasher.Reset()     // P: hasher.Reset()
		return h
	}
}

// vectorizedSha256 is htr.VectorizedSha256 (crypto/hash/htr/hashtree.go):
// the pairs of a level hashed into a new slice (gohashtree), a level of
// 5,000 nodes or more split over GOMAXPROCS goroutines as Prysm splits it.
func vectorizedSha256(in [][32]byte) [][32]byte {
	out := make([][32]byte, len(in)/2) // P: outputList := make([][32]byte, len(inputList)/2)
	if len(in) < 5000 {                // P: if len(inputList) < minSliceSizeToParallelize {
		if err := gohashtree.Hash(out, in); err != nil {
			panic(err)
		}
		return out
	}
	n := runtime.GOMAXPROCS(0) - 1 // P: n := runtime.GOMAXPROCS(0) - 1
	var wg sync.WaitGroup
	wg.Add(n)
	groupSize := len(in) / (2 * (n + 1)) // P: groupSize := len(inputList) / (2 * (n + 1))
	for j := 0; j < n; j++ {
		// P: go hashParallel(inputList[j*2*groupSize:(j+1)*2*groupSize], outputList[j*groupSize:], &wg)
		go func(in, out [][32]byte) {
			defer wg.Done()
			if err := gohashtree.Hash(out, in); err != nil {
				panic(err)
			}
		}(in[j*2*groupSize:(j+1)*2*groupSize], out[j*groupSize:])
	}
	// P: err := gohashtree.Hash(outputList[n*groupSize:], inputList[n*2*groupSize:])
	if err := gohashtree.Hash(out[n*groupSize:], in[n*2*groupSize:]); err != nil {
		panic(err)
	}
	wg.Wait()
	return out
}

// prysmReturnTrieLayer is ReturnTrieLayer: the layers of a trie of a power
// of two of leaves, each node behind a pointer.
func prysmReturnTrieLayer(elements [][32]byte, length uint64) ([][]*[32]byte, error) {
	leaves := elements    // P: leaves := elements
	if len(leaves) == 1 { // P: if len(leaves) == 1 { return [][]*[32]byte{{&leaves[0]}}, nil }
		return [][]*[32]byte{{&leaves[0]}}, nil
	}
	hashLayer := leaves                                           // P: hashLayer := leaves
	layers := make([][][32]byte, sszx.Depth(length)+1)            // P: layers := make([][][32]byte, ssz.Depth(length)+1)
	layers[0] = hashLayer                                         // P: layers[0] = hashLayer
	layers, _, err := prysmMerkleizeTrieLeaves(layers, hashLayer) // P: layers, _, err = MerkleizeTrieLeaves(layers, hashLayer)
	if err != nil {
		return nil, err
	}
	refLayers := make([][]*[32]byte, len(layers)) // P: refLayers := make([][]*[32]byte, len(layers))
	for i, val := range layers {
		refLayers[i] = make([]*[32]byte, len(val)) // P: refLayers[i] = make([]*[32]byte, len(val))
		for j, innerVal := range val {
			newVal := innerVal        // P: newVal := innerVal
			refLayers[i][j] = &newVal // P: refLayers[i][j] = &newVal
		}
	}
	return refLayers, nil
}

// prysmMerkleizeTrieLeaves is MerkleizeTrieLeaves.
func prysmMerkleizeTrieLeaves(layers [][][32]byte, hashLayer [][32]byte) ([][][32]byte, [][32]byte, error) {
	i := 1
	chunkBuffer := bytes.NewBuffer([]byte{})    // P: chunkBuffer := bytes.NewBuffer([]byte{})
	chunkBuffer.Grow(64)                        // P: chunkBuffer.Grow(64)
	for len(hashLayer) > 1 && i < len(layers) { // P: for len(hashLayer) > 1 && i < len(layers) {
		if n := uint64(len(hashLayer)); n&(n-1) != 0 { // P: if !math.IsPowerOf2(uint64(len(hashLayer)))
			return nil, nil, errors.New("hash layer is a non power of 2")
		}
		hashLayer = vectorizedSha256(hashLayer) // P: hashLayer = htr.VectorizedSha256(hashLayer)
		layers[i] = hashLayer                   // P: layers[i] = hashLayer
		i++
	}
	return layers, hashLayer, nil
}

// prysmReturnTrieLayerVariable is ReturnTrieLayerVariable: the layers of a
// trie of any number of leaves under 2^depth(length).
func prysmReturnTrieLayerVariable(elements [][32]byte, length uint64) [][]*[32]byte {
	depth := uint8(sszx.Depth(length))     // P: depth := ssz.Depth(length)
	layers := make([][]*[32]byte, depth+1) // P: layers := make([][]*[32]byte, depth+1)
	if len(elements) == 0 {                // P: if len(elements) == 0 {
		zerohash := sszx.ZeroHash(int(depth)) // P: zerohash := trie.ZeroHashes[depth]
		layers[len(layers)-1] = []*[32]byte{&zerohash}
		return layers
	}
	transformedLeaves := make([]*[32]byte, len(elements)) // P: transformedLeaves := make([]*[32]byte, len(elements))
	for i := range elements {
		arr := elements[i]          // P: arr := elements[i]
		transformedLeaves[i] = &arr // P: transformedLeaves[i] = &arr
	}
	layers[0] = transformedLeaves       // P: layers[0] = transformedLeaves
	buffer := bytes.NewBuffer([]byte{}) // P: buffer := bytes.NewBuffer([]byte{})
	buffer.Grow(64)                     // P: buffer.Grow(64)
	for i := uint8(0); i < depth; i++ {
		layerLen := len(layers[i])       // P: layerLen := len(layers[i])
		oddNodeLength := layerLen%2 == 1 // P: oddNodeLength := layerLen%2 == 1
		if oddNodeLength {               // P: if oddNodeLength {
			zerohash := sszx.ZeroHash(int(i)) // P: zerohash := trie.ZeroHashes[i]
			elements = append(elements, zerohash)
			layerLen++
		}
		layers[i+1] = make([]*[32]byte, layerLen/2) // P: layers[i+1] = make([]*[32]byte, layerLen/2)
		elements = vectorizedSha256(elements)       // P: elements = htr.VectorizedSha256(elements)
		for j := range elements {
			layers[i+1][j] = &elements[j] // P: layers[i+1][j] = &elements[j]
		}
	}
	return layers
}

// prysmRecomputeFromLayer is RecomputeFromLayer: the changed leaves set,
// then each one's path to the root recomputed, one node at a time.
func prysmRecomputeFromLayer(changedLeaves [][32]byte, changedIdx []uint64, layer [][]*[32]byte) ([32]byte, [][]*[32]byte, error) {
	hasher := prysmHasher() // P: hasher := hash.CustomSHA256Hasher()
	for i, idx := range changedIdx {
		layer[0][idx] = &changedLeaves[i] // P: layer[0][idx] = &changedLeaves[i]
	}
	if len(changedIdx) == 0 { // P: if len(changedIdx) == 0 { return *layer[0][0], layer, nil }
		return *layer[0][0], layer, nil
	}
	leaves := layer[0] // P: leaves := layer[0]
	// P: maxChangedIndex := changedIdx[len(changedIdx)-1]
	maxChangedIndex := changedIdx[len(changedIdx)-1]
	// P: if int(maxChangedIndex+2) == len(leaves) && maxChangedIndex%2 != 0 {
	if int(maxChangedIndex+2) == len(leaves) && maxChangedIndex%2 != 0 {
		changedIdx = append(changedIdx, maxChangedIndex+1) // P: changedIdx = append(changedIdx, maxChangedIndex+1)
	}
	root := *layer[0][0] // P: root := *layer[0][0]
	for _, idx := range changedIdx {
		if idx > math.MaxInt { // P: ii, err := math.Int(idx); if err != nil { return ... }
			return [32]byte{}, nil, errors.New("integer overflow")
		}
		ii := int(idx)
		var err error
		root, layer, err = prysmRecomputeRootFromLayer(ii, layer, leaves, hasher) // P: root, layer, err = recomputeRootFromLayer(ii, layer, leaves, hasher)
		if err != nil {
			return [32]byte{}, nil, err
		}
	}
	return root, layer, nil
}

// prysmRecomputeFromLayerVariable is RecomputeFromLayerVariable.
func prysmRecomputeFromLayerVariable(changedLeaves [][32]byte, changedIdx []uint64, layer [][]*[32]byte) ([32]byte, [][]*[32]byte, error) {
	hasher := prysmHasher()   // P: hasher := hash.CustomSHA256Hasher()
	if len(changedIdx) == 0 { // P: if len(changedIdx) == 0 { return *layer[0][0], layer, nil }
		return *layer[0][0], layer, nil
	}
	root := *layer[len(layer)-1][0] // P: root := *layer[len(layer)-1][0]
	for i, idx := range changedIdx {
		if idx > math.MaxInt { // P: ii, err := math.Int(idx); if err != nil { return ... }
			return [32]byte{}, nil, errors.New("integer overflow")
		}
		ii := int(idx)
		var err error
		// P: root, layer, err = recomputeRootFromLayerVariable(ii, changedLeaves[i], layer, hasher)
		root, layer, err = prysmRecomputeRootFromLayerVariable(ii, changedLeaves[i], layer, hasher)
		if err != nil {
			return [32]byte{}, nil, err
		}
	}
	return root, layer, nil
}

// prysmRecomputeRootFromLayer is recomputeRootFromLayer: one leaf's path.
func prysmRecomputeRootFromLayer(idx int, layers [][]*[32]byte, chunks []*[32]byte, hasher func([]byte) [32]byte) ([32]byte, [][]*[32]byte, error) {
	root := *chunks[idx] // P: root := *chunks[idx]
	layers[0] = chunks   // P: layers[0] = chunks
	currentIndex := idx  // P: currentIndex := idx
	var combinedChunks [64]byte
	for i := 0; i < len(layers)-1; i++ { // P: for i := 0; i < len(layers)-1; i++ {
		isLeft := currentIndex%2 == 0   // P: isLeft := currentIndex%2 == 0
		neighborIdx := currentIndex ^ 1 // P: neighborIdx := currentIndex ^ 1
		var neighbor [32]byte
		// P: if layers[i] != nil && len(layers[i]) != 0 && neighborIdx < len(layers[i]) {
		//lint:ignore S1009 Prysm's condition, as written
		if layers[i] != nil && len(layers[i]) != 0 && neighborIdx < len(layers[i]) {
			neighbor = *layers[i][neighborIdx] // P: neighbor = *layers[i][neighborIdx]
		}
		if isLeft { // P: if isLeft { copy root, neighbor } else { copy neighbor, root }
			copy(combinedChunks[:32], root[:])
			copy(combinedChunks[32:], neighbor[:])
		} else {
			copy(combinedChunks[:32], neighbor[:])
			copy(combinedChunks[32:], root[:])
		}
		parentHash := hasher(combinedChunks[:]) // P: parentHash := hasher(combinedChunks[:])
		root = parentHash                       // P: root = parentHash
		parentIdx := currentIndex / 2           // P: parentIdx := currentIndex / 2
		rootVal := root                         // P: rootVal := root
		if len(layers[i+1]) == 0 {              // P: if len(layers[i+1]) == 0 {
			layers[i+1] = append(layers[i+1], &rootVal)
		} else {
			layers[i+1][parentIdx] = &rootVal // P: layers[i+1][parentIdx] = &rootVal
		}
		currentIndex = parentIdx // P: currentIndex = parentIdx
	}
	if len(layers[0]) == 1 { // P: if len(layers[0]) == 1 { return *layers[0][0], layers, nil }
		return *layers[0][0], layers, nil
	}
	return root, layers, nil
}

// prysmRecomputeRootFromLayerVariable is recomputeRootFromLayerVariable:
// one leaf's path in a trie whose missing leaves are zero hashes.
func prysmRecomputeRootFromLayerVariable(idx int, item [32]byte, layers [][]*[32]byte, hasher func([]byte) [32]byte) ([32]byte, [][]*[32]byte, error) {
	for idx >= len(layers[0]) { // P: for idx >= len(layers[0]) {
		zerohash := sszx.ZeroHash(0) // P: zerohash := trie.ZeroHashes[0]
		layers[0] = append(layers[0], &zerohash)
	}
	layers[0][idx] = &item // P: layers[0][idx] = &item
	currentIndex := idx    // P: currentIndex := idx
	root := item           // P: root := item
	var neighbor [32]byte
	var combinedChunks [64]byte
	for i := 0; i < len(layers)-1; i++ { // P: for i := 0; i < len(layers)-1; i++ {
		isLeft := currentIndex%2 == 0   // P: isLeft := currentIndex%2 == 0
		neighborIdx := currentIndex ^ 1 // P: neighborIdx := currentIndex ^ 1
		if neighborIdx >= len(layers[i]) {
			neighbor = sszx.ZeroHash(i) // P: neighbor = trie.ZeroHashes[i]
		} else {
			neighbor = *layers[i][neighborIdx] // P: neighbor = *layers[i][neighborIdx]
		}
		if isLeft {
			copy(combinedChunks[:32], root[:])
			copy(combinedChunks[32:], neighbor[:])
		} else {
			copy(combinedChunks[:32], neighbor[:])
			copy(combinedChunks[32:], root[:])
		}
		parentHash := hasher(combinedChunks[:]) // P: parentHash := hasher(combinedChunks[:])
		root = parentHash
		parentIdx := currentIndex / 2 // P: parentIdx := currentIndex / 2
		// P: if len(layers[i+1]) == 0 || parentIdx >= len(layers[i+1]) {
		if len(layers[i+1]) == 0 || parentIdx >= len(layers[i+1]) {
			newItem := root                             // P: newItem := root
			layers[i+1] = append(layers[i+1], &newItem) // P: layers[i+1] = append(layers[i+1], &newItem)
		} else {
			newItem := root                   // P: newItem := root
			layers[i+1][parentIdx] = &newItem // P: layers[i+1][parentIdx] = &newItem
		}
		currentIndex = parentIdx // P: currentIndex = parentIdx
	}
	return root, layers, nil
}

// TestPrysmPort: the port's roots after random changes equal a full
// rebuild's (sszx.Merkleize), for the fixed trie (RecomputeFromLayer) and
// the variable one under a limit of 2^40 (RecomputeFromLayerVariable),
// appends included, as Prysm's own trie_helpers_test.go checks them
// against a rebuilt trie.
func TestPrysmPort(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 1))
	for _, n := range []int{1, 2, 4, 64, 1024} {
		leaves := randRoots(r, n)
		layers, err := prysmReturnTrieLayer(slices.Clone(leaves), uint64(n))
		if err != nil {
			t.Fatal(err)
		}
		for range 5 {
			k := 1 + r.IntN(n)
			idx := slices.Sorted(slices.Values(r.Perm(n)[:k]))
			changed := make([][32]byte, k)
			for j, i := range idx {
				changed[j] = randRoots(r, 1)[0]
				leaves[i] = changed[j]
			}
			u := make([]uint64, k)
			for j, i := range idx {
				u[j] = uint64(i)
			}
			var root [32]byte
			root, layers, err = prysmRecomputeFromLayer(changed, u, layers)
			if err != nil {
				t.Fatal(err)
			}
			if want := sszx.Merkleize(leaves, uint64(n)); root != want {
				t.Fatalf("RecomputeFromLayer, %d leaves, %d changed: %x, want %x", n, k, root, want)
			}
		}
	}
	for _, n := range []int{0, 1, 3, 100, 777} {
		leaves := randRoots(r, n)
		layers := prysmReturnTrieLayerVariable(slices.Clone(leaves), 1<<40)
		if n > 0 {
			if got, want := *layers[40][0], sszx.Merkleize(leaves, 1<<40); got != want {
				t.Fatalf("ReturnTrieLayerVariable of %d: %x, want %x", n, got, want)
			}
		}
		for range 5 {
			k := 1 + r.IntN(n+3)
			var u []uint64
			var changed [][32]byte
			for range k {
				i := r.IntN(len(leaves) + 1) // an append now and then
				c := randRoots(r, 1)[0]
				if i == len(leaves) {
					leaves = append(leaves, c)
				} else {
					leaves[i] = c
				}
				u, changed = append(u, uint64(i)), append(changed, c)
			}
			root, l, err := prysmRecomputeFromLayerVariable(changed, u, layers)
			if err != nil {
				t.Fatal(err)
			}
			layers = l
			if want := sszx.Merkleize(leaves, 1<<40); root != want {
				t.Fatalf("RecomputeFromLayerVariable, %d leaves: %x, want %x", len(leaves), root, want)
			}
		}
	}
}

func randRoots(r *rand.Rand, n int) [][32]byte {
	c := make([][32]byte, n)
	for i := range c {
		for j := range c[i] {
			c[i][j] = byte(r.Uint32())
		}
	}
	return c
}
