package hashtree_test

// The digests in the Output lines were computed with Python's hashlib by
// testdata/derive_examples.py.

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/sha256x/sha256x/hashtree"
)

// With fastssz, the HashFn is the one change (the example in the interop
// module runs it: interop/example_test.go):
//
//	hh := ssz.NewHasherWithHashFn(hashtree.HashByteSlice)
//	err := state.HashTreeRootWith(hh)
//	root, err := hh.HashRoot()
//
// fastssz calls its HashFn once a level, in place, with the zero subtree of
// the level's height after an odd level, as this loop does.
func ExampleHashByteSlice() {
	buf := make([]byte, 0, 6*32)
	for i := range 5 {
		for range 32 {
			buf = append(buf, byte(i+1))
		}
	}
	for height := 0; len(buf) > 32; height++ {
		if len(buf)/32%2 == 1 {
			z := hashtree.ZeroHash(height)
			buf = append(buf, z[:]...)
		}
		if err := hashtree.HashByteSlice(buf, buf); err != nil {
			panic(err)
		}
		buf = buf[:len(buf)/2]
	}
	fmt.Printf("%x\n", buf)
	// Output:
	// 6c1cfb22738edf2a397893ab3bd49b601f5dfc69439772b613f6fad2889ebbd6
}

func ExampleMerkleize() {
	chunks := [][32]byte{{1}, {2}, {3}}
	for i := range chunks {
		for j := range chunks[i] {
			chunks[i][j] = byte(i + 1)
		}
	}
	fmt.Printf("%x\n", hashtree.Merkleize(chunks, 3))     // a Vector[Bytes32, 3]
	fmt.Printf("%x\n", hashtree.Merkleize(chunks, 1<<40)) // under a limit of 2^40: 40 levels, 38 of them one join each
	fmt.Printf("%x\n", hashtree.ListRoot(chunks, 1<<40))  // a List[Bytes32, 2^40]: the length mixed in
	// Output:
	// d6cfa0d1046a0f4c1f9a6dc57afb0f4577680c106a48cf04125e7ba8606da219
	// 9f88b94da4c6fd2ad7581141e0942fb7190b51f3b63636fc328848a2e5b68881
	// 957a6dc48495ed1f30cc9d48f1b4d8191517a2a78a4d8157245fa14c576d20a5
}

// Validator is the beacon chain's validator record.
type Validator struct {
	Pubkey                     [48]byte
	WithdrawalCredentials      [32]byte
	EffectiveBalance           uint64
	Slashed                    bool
	ActivationEligibilityEpoch uint64
	ActivationEpoch            uint64
	ExitEpoch                  uint64
	WithdrawableEpoch          uint64
}

// The root of a validator registry, a List[Validator, 2^40], with every
// validator hashed at once: the public keys' roots in one batched call, then
// the eight field roots of every validator side by side, and the three
// levels of every validator's tree in three batched calls.
func ExampleContainerRoots() {
	const farFuture = ^uint64(0)
	registry := make([]Validator, 1000)
	for i := range registry {
		v := &registry[i]
		for j := range v.Pubkey {
			v.Pubkey[j] = byte(i + j)
		}
		for j := range v.WithdrawalCredentials {
			v.WithdrawalCredentials[j] = byte(3*i + j)
		}
		v.EffectiveBalance = 32_000_000_000 - uint64(i)
		v.Slashed = i%7 == 0
		v.ActivationEligibilityEpoch, v.ActivationEpoch = uint64(i), uint64(i+1)
		v.ExitEpoch, v.WithdrawableEpoch = farFuture, farFuture
	}

	// Hash in blocks of validators, so that the buffers stay small and in
	// cache; each block's calls still take every validator in it at once.
	const block = 256
	keys := make([][48]byte, block)
	fields := make([][32]byte, 8*block)
	roots := make([][32]byte, len(registry))
	u64 := func(c *[32]byte, v uint64) { *c = [32]byte{}; binary.LittleEndian.PutUint64(c[:], v) }
	for a := 0; a < len(registry); a += block {
		vs := registry[a:min(a+block, len(registry))]
		for i := range vs {
			keys[i] = vs[i].Pubkey
		}
		keyRoots := roots[a : a+len(vs)] // borrowed until ContainerRoots writes the validators' roots
		hashtree.PubkeyRoots(keyRoots, keys[:len(vs)])
		for i, v := range vs {
			f := fields[8*i : 8*i+8]
			f[0] = keyRoots[i]
			f[1] = v.WithdrawalCredentials
			u64(&f[2], v.EffectiveBalance)
			u64(&f[3], 0)
			if v.Slashed {
				f[3][0] = 1
			}
			u64(&f[4], v.ActivationEligibilityEpoch)
			u64(&f[5], v.ActivationEpoch)
			u64(&f[6], v.ExitEpoch)
			u64(&f[7], v.WithdrawableEpoch)
		}
		hashtree.ContainerRoots(roots[a:a+len(vs)], fields[:8*len(vs)], 8)
	}
	fmt.Printf("%x\n", hashtree.ListRoot(roots, 1<<40))

	// The same as one validator at a time.
	one := hashtree.Merkleize(fields[8*(len(registry)%block-1):8*(len(registry)%block)], 8)
	fmt.Println(one == roots[len(registry)-1])
	// Output:
	// 589dd46b8f5c0d7baa48fcd7e84094d5cd2aa8a6f0ac641157124408af5172a2
	// true
}

// A proof of one validator's effective balance in a registry: the proof of
// the validator in the list, chained with the proof of the field in the
// validator.
func ExampleConcatProofs() {
	fields := make([][32]byte, 8*5) // five validators' field roots
	for i := range fields {
		fields[i][0], fields[i][1] = byte(i), 0xaa
	}
	roots := make([][32]byte, 5)
	hashtree.ContainerRoots(roots, fields, 8)
	registry := hashtree.NewListTree(roots, 1<<40, uint64(len(roots)))

	inList, err := registry.Prove(registry.Gindex(3))
	if err != nil {
		panic(err)
	}
	validator := hashtree.NewTree(fields[8*3:8*4], 8)
	inValidator, err := validator.Prove(8 + 2) // field 2 of 8
	if err != nil {
		panic(err)
	}
	p, err := hashtree.ConcatProofs(inList, inValidator)
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Gindex, len(p.Branch), p.Verify(registry.Root()))
	p.Leaf[0] ^= 1
	fmt.Println(errors.Is(p.Verify(registry.Root()), hashtree.ErrMismatch))
	// Output:
	// 17592186044442 44 <nil>
	// true
}

// A multiproof of two elements of a list, with the helper nodes the specs'
// get_helper_indices names.
func ExampleTree_ProveMulti() {
	chunks := make([][32]byte, 6)
	for i := range chunks {
		chunks[i][0] = byte(i + 1)
	}
	tree := hashtree.NewListTree(chunks, 8, 6)
	g := []uint64{tree.Gindex(1), tree.Gindex(4)}
	m, err := tree.ProveMulti(g)
	if err != nil {
		panic(err)
	}
	fmt.Println(g, hashtree.HelperIndices(g), m.Verify(tree.Root()))
	// Output:
	// [17 20] [21 16 11 9 3] <nil>
}
