//go:build sha256x_calltime

package sched

import (
	"testing"

	"github.com/sha256x/sha256x/internal/plan/plantest"
)

// Long messages are hashed a part of PartBlocks blocks at a time, so that
// no kernel call runs unbounded work. TestBoundedCalls checks the bound on
// every entry point; the root's TestParts checks the digests around part
// boundaries, and TestPauses (cmd/sha256x/internal/pauses) what the bound is for: the runtime stops the
// world quickly while a long message is hashed.

// TestBoundedCalls records the blocks of every kernel call's queue while
// every entry point hashes long input, and checks the bound PartBlocks
// states: at most 2*width*(PartBlocks+3) blocks, width the lanes of the
// plan's first kernel, with PartBlocks no more than 64 KiB of blocks.
func TestBoundedCalls(t *testing.T) {
	const mib = 1 << 20
	buf := pattern(9*mib+100, 5)
	var many [][]byte
	for i := range 9 {
		many = append(many, buf[i*mib+i:][:mib-i])
	}
	for i := range 50 {
		many = append(many, buf[i:][:i*37])
	}
	nodes := make([][Size]byte, 4096)
	for _, p := range plantest.All() {
		if p.Plan.Stdlib {
			continue // crypto/sha256 bounds its own calls
		}
		t.Run(p.Name, func(t *testing.T) {
			pl := p.Plan
			out := make([][Size]byte, len(nodes)/2)
			for name, f := range map[string]func(){
				"sum256":        func() { Sum256(pl, buf) },
				"one message":   func() { HashMany(pl, out, nil, [][]byte{buf}) },
				"many":          func() { HashMany(pl, out, nil, many) },
				"long prefix":   func() { HashMany(pl, out, buf[:5*mib+3], many[9:]) },
				"prefixed many": func() { HashMany(pl, out, buf[:7], many) },
				"level":         func() { HashLevel(pl, true, &Join{}, out, nodes) },
				"solana level": func() {
					HashLevel(pl, false, &Join{Prefix: []byte("\x01SOLANA_MERKLE_SHREDS_NODE"), Width: 20}, out, nodes[:64])
				},
				"one stream":   func() { WriteMany(pl, streams(1), [][]byte{buf}, true) },
				"write":        func() { new(Stream).Write(pl, buf) },
				"many streams": func() { WriteMany(pl, streams(len(many)), many, false) },
				"buffered first": func() {
					ss := streams(2)
					ss[1].Write(pl, buf[:5])
					WriteMany(pl, ss, [][]byte{buf, buf[1:]}, false)
				},
			} {
				CallBlocks.Most = 0
				f()
				if bound := uintptr(2 * pl.Stages[0].Width * (min(PartBlocks, 1024) + 3)); CallBlocks.Most > bound {
					t.Errorf("%s: a kernel call had %d blocks, more than %d", name, CallBlocks.Most, bound)
				}
			}
		})
	}
}
