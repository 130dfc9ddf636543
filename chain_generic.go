package sha256x

import "math/bits"

// The portable chain kernel, and the constants every chain kernel shares.

// chainPad is the second half of every chain step's block, W[8..15]: 0x80,
// zeros, and the message length, 256 bits.
var chainPad = [8]uint32{0x80000000, 0, 0, 0, 0, 0, 0, 256}

// chainWK is W[t]+K[t] for the constant rounds 8..15 of a chain step.
var chainWK = func() (wk [8]uint32) {
	for i := range wk {
		wk[i] = chainPad[i] + k256[8+i]
	}
	return wk
}()

// chainGeneric advances the chain whose digest, as words, is h by n steps.
// It is Go code, which the runtime can preempt: n is not bounded.
func chainGeneric(h *[8]uint32, n uint64) {
	var w [64]uint32
	copy(w[8:16], chainPad[:])
	for ; n > 0; n-- {
		copy(w[:8], h[:])
		for i := 16; i < 64; i++ {
			x, y := w[i-2], w[i-15]
			s1 := bits.RotateLeft32(x, -17) ^ bits.RotateLeft32(x, -19) ^ x>>10
			s0 := bits.RotateLeft32(y, -7) ^ bits.RotateLeft32(y, -18) ^ y>>3
			w[i] = s1 + w[i-7] + s0 + w[i-16]
		}
		a, b, c, d, e, f, g, hh := iv[0], iv[1], iv[2], iv[3], iv[4], iv[5], iv[6], iv[7]
		// Eight rounds a turn, as blocksGeneric; rounds 8..15 take their
		// W+K from chainWK.
		for i := 0; i < 64; i += 8 {
			var wk [8]uint32
			if i == 8 {
				wk = chainWK
			} else {
				for j := range wk {
					wk[j] = k256[i+j] + w[i+j]
				}
			}
			d, hh = round(a, b, c, d, e, f, g, hh, wk[0])
			c, g = round(hh, a, b, c, d, e, f, g, wk[1])
			b, f = round(g, hh, a, b, c, d, e, f, wk[2])
			a, e = round(f, g, hh, a, b, c, d, e, wk[3])
			hh, d = round(e, f, g, hh, a, b, c, d, wk[4])
			g, c = round(d, e, f, g, hh, a, b, c, wk[5])
			f, b = round(c, d, e, f, g, hh, a, b, wk[6])
			e, a = round(b, c, d, e, f, g, hh, a, wk[7])
		}
		h[0], h[1], h[2], h[3] = iv[0]+a, iv[1]+b, iv[2]+c, iv[3]+d
		h[4], h[5], h[6], h[7] = iv[4]+e, iv[5]+f, iv[6]+g, iv[7]+hh
	}
}
