package sha256x

import (
	"bytes"
	"testing"
)

// FuzzHashMany cuts a random batch, and a random prefix, out of data and
// checks every plan against crypto/sha256. cuts gives the message lengths
// (each byte times 5, so messages span several blocks) and where each starts,
// so messages overlap.
func FuzzHashMany(f *testing.F) {
	f.Add([]byte("abc"), []byte{1, 0, 0}, uint16(0))
	f.Add(make([]byte, 3000), []byte{13, 200, 0, 255, 12, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7}, uint16(26))
	f.Add(pattern(5000, 1), []byte{255, 254, 1, 2, 3, 4, 100, 50, 25, 12, 6, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1}, uint16(4096))
	f.Add(pattern(300, 2), []byte{11, 12, 13, 14, 15, 16}, uint16(63))
	// Batches the pairs kernels take staged: 40 messages of 100 bytes after
	// a 1-byte prefix (RFC 6962 leaves), and 64 of 95-110 bytes, 2 blocks each.
	f.Add(pattern(4000, 3), bytes.Repeat([]byte{20}, 40), uint16(1))
	f.Add(pattern(4000, 4), bytes.Repeat([]byte{19, 20, 21, 22}, 16), uint16(1))
	plans := testPlans()
	f.Fuzz(func(t *testing.T, data, cuts []byte, plen uint16) {
		if len(cuts) > 300 {
			cuts = cuts[:300]
		}
		prefix := data[:int(plen)%(len(data)+1)]
		msgs := make([][]byte, len(cuts))
		for i, c := range cuts {
			n := min(5*int(c), len(data))
			start := (i * 37 * int(c+1)) % (len(data) - n + 1)
			msgs[i] = data[start : start+n]
		}
		bare, prefixed := make([][Size]byte, len(msgs)), make([][Size]byte, len(msgs))
		for i, m := range msgs {
			bare[i], prefixed[i] = want(nil, m), want(prefix, m)
		}
		// The bare messages again as a prefix cut from the first and the
		// rest of each: items of the same lengths whose staged layout,
		// left by the bare call, already holds that prefix in its first
		// slot, and only there.
		var cut []byte
		var rests [][]byte
		var cutWant [][Size]byte
		if len(msgs) > 0 {
			cut = msgs[0][:int(plen)%(len(msgs[0])+1)]
			for _, m := range msgs {
				if len(m) >= len(cut) {
					rests = append(rests, m[len(cut):])
					cutWant = append(cutWant, want(cut, m[len(cut):]))
				}
			}
		}
		for _, p := range plans {
			check(t, p.Plan, nil, msgs, bare)
			check(t, p.Plan, prefix, msgs, prefixed)
			check(t, p.Plan, nil, msgs, bare)
			check(t, p.Plan, cut, rests, cutWant)
		}
	})
}
