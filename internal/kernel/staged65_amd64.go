//go:build !purego

package kernel

import (
	"encoding/binary"
	"sync"
)

// staged65 holds, for each value b of a 65-byte message's last byte, the
// W+K of its second block: b, the padding, the length, all an RFC 6962
// node's second block varies by. With it the SHA-NI streams run that block
// without a schedule (BENCHMARKS.md, "RFC 6962 nodes: the second block from
// a table"). Made on first use: 64 KiB that a process which hashes no such
// node should not pay for at start.
var staged65 struct {
	once sync.Once
	wk   [256][64]uint32
}

// staged65WK returns the table, made.
func staged65WK() *[256][64]uint32 {
	staged65.once.Do(func() {
		var blk [BlockSize]byte
		blk[1] = 0x80
		binary.BigEndian.PutUint64(blk[BlockSize-8:], 8*65)
		for b := range staged65.wk {
			blk[0] = byte(b)
			ScheduleWK(&staged65.wk[b], &blk)
		}
	})
	return &staged65.wk
}
