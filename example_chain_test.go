package sha256x_test

import (
	"crypto/sha256"
	"fmt"

	"github.com/sha256x/sha256x"
)

// A proof-of-history entry as Solana defines it: NumHashes steps of a hash
// chain from the previous entry's hash; if the entry carries transactions,
// the last step hashes the state with Mixin appended (the hash of the
// transactions): SHA-256(state || Mixin).
type entry struct {
	NumHashes uint64
	Mixin     []byte // nil for a tick, which records no transactions
	Hash      [sha256x.Size]byte
}

func ExampleChains() {
	// A leader's entries, made the slow way: one crypto/sha256 step at a time.
	start := sha256.Sum256([]byte("the last entry of the previous slot"))
	var entries []entry
	h := start
	for i, n := range []uint64{12500, 3, 12497, 1, 800, 12500} {
		e := entry{NumHashes: n}
		if i%2 == 1 {
			m := sha256.Sum256(fmt.Appendf(nil, "transactions of entry %d", i))
			e.Mixin = m[:]
		}
		for range n - 1 {
			h = sha256.Sum256(h[:])
		}
		if e.Mixin != nil {
			h = sha256.Sum256(append(h[:], e.Mixin...))
		} else {
			h = sha256.Sum256(h[:])
		}
		e.Hash = h
		entries = append(entries, e)
	}
	// A forged hash: entry 4 fails, and so does entry 5, which no longer
	// follows from it.
	entries[4].Hash[0] ^= 1

	// A validator checks every entry independently, side by side: one
	// Chains call runs each entry's plain steps from the previous entry's
	// hash, one HashMany call the mixin steps.
	states := make([][sha256x.Size]byte, len(entries))
	counts := make([]uint64, len(entries))
	for i, e := range entries {
		states[i] = start
		if i > 0 {
			states[i] = entries[i-1].Hash
		}
		counts[i] = e.NumHashes
		if e.Mixin != nil {
			counts[i]--
		}
	}
	sha256x.Chains(states, counts)
	var mixed [][]byte
	for i, e := range entries {
		if e.Mixin != nil {
			mixed = append(mixed, append(states[i][:], e.Mixin...))
		}
	}
	digests := make([][sha256x.Size]byte, len(mixed))
	sha256x.HashMany(digests, mixed)
	for i, e := range entries {
		if e.Mixin != nil {
			states[i], digests = digests[0], digests[1:]
		}
		fmt.Printf("entry %d (%d hashes, mixin %v): valid %v\n", i, e.NumHashes, e.Mixin != nil, states[i] == e.Hash)
	}
	// Output:
	// entry 0 (12500 hashes, mixin false): valid true
	// entry 1 (3 hashes, mixin true): valid true
	// entry 2 (12497 hashes, mixin false): valid true
	// entry 3 (1 hashes, mixin true): valid true
	// entry 4 (800 hashes, mixin false): valid false
	// entry 5 (12500 hashes, mixin true): valid false
}

func ExampleChain() {
	seed := sha256.Sum256([]byte("seed"))
	d := sha256x.Chain(seed, 1000)
	want := seed
	for range 1000 {
		want = sha256.Sum256(want[:])
	}
	fmt.Println(d == want, sha256x.Chain(seed, 0) == seed)
	// Output: true true
}
