package hashtree_test

import (
	"encoding/binary"
	"fmt"

	"github.com/sha256x/sha256x/hashtree"
)

// chunk returns v as a 32-byte little-endian chunk, a uint64 field's root.
func chunk(v uint64) (c [32]byte) {
	binary.LittleEndian.PutUint64(c[:], v)
	return c
}

// A validator registry and its balances kept from slot to slot: each
// validator's eight field roots kept, a slot's changes set, and both roots
// recomputed from what changed alone, the changed validators' roots hashed
// together first.
func ExampleContainerList() {
	const n = 10000
	keys := make([][48]byte, n)
	fields := make([][32]byte, 8*n)
	balances := make([]uint64, n)
	for i := range n {
		keys[i][0], keys[i][1] = byte(i), byte(i>>8)
		balances[i] = 32_000_000_000
	}
	keyRoots := make([][32]byte, n)
	hashtree.PubkeyRoots(keyRoots, keys)
	for i := range n {
		f := fields[8*i : 8*i+8]
		f[0], f[2], f[4], f[5] = keyRoots[i], chunk(32_000_000_000), chunk(0), chunk(1)
		f[6], f[7] = chunk(^uint64(0)), chunk(^uint64(0))
	}
	registry := hashtree.NewContainerList(8, fields, 1<<40)
	bals := hashtree.NewBasicList(balances, 1<<40)

	// A slot: rewards to 700 validators, one slashed and its balance cut.
	for i := uint64(0); i < 700; i++ {
		v := 7 * i % n
		bals.Set(v, bals.Get(v)+12_345)
	}
	registry.SetField(42, 3, chunk(1)) // Slashed
	bals.Set(42, bals.Get(42)-1_000_000_000)
	registryRoot, balancesRoot := registry.Root(), bals.Root()

	// The same roots hashed afresh from the current values.
	fields[8*42+3] = chunk(1)
	roots := make([][32]byte, n)
	hashtree.ContainerRoots(roots, fields, 8)
	now := make([]uint64, n)
	for i := range now {
		now[i] = bals.Get(uint64(i))
	}
	fmt.Println(registryRoot == hashtree.ListRoot(roots, 1<<40), balancesRoot == hashtree.BasicListRoot(now, 1<<40))
	// Output:
	// true true
}

// Gloas's registry and balances (EIP-7688: ProgressiveLists), changed as a
// slot changes them, one of them copied first: the copy keeps its value.
func ExampleProgressiveContainerList() {
	const n = 1000
	fields := make([][32]byte, 8*n)
	balances := make([]uint64, n)
	for i := range n {
		fields[8*i], fields[8*i+2] = chunk(uint64(i)), chunk(32_000_000_000)
		balances[i] = 32_000_000_000
	}
	registry := hashtree.NewProgressiveContainerList(8, fields)
	bals := hashtree.NewProgressiveBasicList(balances)
	finalized := bals.Copy() // shares every page
	bals.Set(7, bals.Get(7)+12_345)
	registry.SetField(42, 3, chunk(1)) // Slashed

	// The same roots hashed afresh from the current values.
	balances[7] += 12_345
	fields[8*42+3] = chunk(1)
	roots := make([][32]byte, n)
	hashtree.ContainerRoots(roots, fields, 8)
	fmt.Println(registry.Root() == hashtree.ProgressiveListRoot(roots), bals.Root() == hashtree.ProgressiveBasicListRoot(balances), finalized.Get(7))
	// Output: true true 32000000000
}

// A state copied (a fork, the head beside the finalized state): the copy
// shares every page, and the two then change apart, each page copied when
// either first writes it.
func ExampleChunks_Copy() {
	chunks := make([][32]byte, 1000)
	for i := range chunks {
		chunks[i] = chunk(uint64(i))
	}
	head := hashtree.NewChunkList(chunks, 1<<20)
	before := head.Root()

	fork := head.Copy()
	fork.Set(7, chunk(7777))
	fork.Append(chunk(1000))
	head.Truncate(999)

	fmt.Println(fork.Len(), head.Len())
	fmt.Println(fork.Root() != before, head.Root() != before)
	fmt.Println(fork.Root() == hashtree.ListRoot(append(append(chunks[:7:7], chunk(7777)), append(chunks[8:], chunk(1000))...), 1<<20))
	fmt.Println(head.Root() == hashtree.ListRoot(chunks[:999], 1<<20))
	// Output:
	// 1001 999
	// true true
	// true
	// true
}

// A chain of copies, as a beacon node keeps its state: each slot works on a
// copy of the last slot's state, which is then dropped. The chain holds the
// array the first state was built in beside the pages written since;
// Compact moves the state into arrays of its own, and changes no root.
func ExampleChunks_Compact() {
	chunks := make([][32]byte, 1000)
	for i := range chunks {
		chunks[i] = chunk(uint64(i))
	}
	state := hashtree.NewChunkList(chunks, 1<<20)
	for slot := range uint64(100) {
		next := state.Copy()
		next.Set(slot*7%1000, chunk(slot))
		chunks[slot*7%1000] = chunk(slot)
		next.Root()
		state = next
	}
	root := state.Root()
	state.Compact()
	fmt.Println(state.Root() == root, root == hashtree.ListRoot(chunks, 1<<20))
	// Output: true true
}

// A ProgressiveList (EIP-7916): no limit, subtrees of 1, 4, 16, ...
// elements; appended to and changed, its root recomputed from what changed.
func ExampleProgressiveList() {
	roots := make([][32]byte, 20)
	for i := range roots {
		roots[i] = chunk(uint64(i))
	}
	l := hashtree.NewProgressiveList(roots)
	l.Append(chunk(20))
	l.Set(3, chunk(333))
	roots = append(roots, chunk(20))
	roots[3] = chunk(333)
	fmt.Println(l.Len(), l.Root() == hashtree.ProgressiveListRoot(roots))
	// Output: 21 true
}

// A ProgressiveBitList (EIP-7916) of participation bits: bits set as
// attestations come in and appended as the committee grows, its root
// recomputed from the chunks of 256 bits that changed.
func ExampleProgressiveBitlist() {
	bits, err := hashtree.NewProgressiveBitlist([]byte{0b0000_0101, 0b1}) // 8 bits: 0 and 2 set
	if err != nil {
		panic(err)
	}
	for range 600 {
		bits.Append(false) // 608 bits: three chunks, in subtrees of 1 and 4
	}
	bits.Set(3, true)
	bits.Set(600, true)
	bits.Set(0, false)
	want, _ := hashtree.ProgressiveBitlistRoot(bits.Bytes())
	fmt.Println(bits.Len(), bits.Get(2), bits.Get(600), bits.Root() == want)

	bits.Truncate(4) // bits 0011, then the delimiter: 0x1c, one chunk again
	fmt.Printf("%x\n", bits.Bytes())
	// Output:
	// 608 true true true
	// 1c
}

// A ProgressiveContainer (EIP-7495) with active_fields [1, 0, 1, 1]: the
// field at index 1 was dropped and keeps its zero chunk, so the others keep
// their generalized indices; a field's root set, the root recomputed.
func ExampleProgressiveContainer() {
	active := []bool{true, false, true, true}
	fields := [][32]byte{chunk(1), chunk(2), chunk(3)} // indices 0, 2 and 3
	c := hashtree.NewProgressiveContainer(fields, active)
	c.Set(3, chunk(33))
	fields[2] = chunk(33)
	fmt.Println(c.Active(1), c.Get(3) == chunk(33), c.Root() == hashtree.ProgressiveContainerRoot(fields, active))
	// Output: false true true
}
