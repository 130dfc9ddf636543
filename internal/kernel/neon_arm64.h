// The NEON round function, shared by neon_arm64.s (four messages)
// and chain_arm64.s (four chains): four SHA-256 lanes in the 32-bit
// lanes of NEON vectors. The includer defines KP, the register that points at
// the round constants (R5 in both).

#define VT1 V24
#define VT2 V25
#define VT3 V26
#define VKW V27

// ROUND is round t of every lane, with KP at K[t] and w = W[t]:
//	T1 = h + Σ1(e) + Ch(e, f, g) + K[t] + W[t]
//	T2 = Σ0(a) + Maj(a, b, c)
//	d += T1, h = T1 + T2
// after which the caller renames: (a, ..., h) = (h, a, ..., g). Rotations
// are a shift right plus a shift left and insert (ror n = USHR n, SLI 32-n);
// Ch and Maj are bit selects: Ch = e ? f : g, Maj = (a^b) ? c : b.
#define ROUND(a, b, c, d, e, f, g, h, w) \
	VLD1R.P	4(KP), [VKW.S4] \
	VUSHR	$6, e.S4, VT1.S4 \
	VUSHR	$11, e.S4, VT2.S4 \
	VMOV	e.B16, VT3.B16 \
	VADD	w.S4, VKW.S4, VKW.S4 \
	VSLI	$26, e.S4, VT1.S4 \
	VSLI	$21, e.S4, VT2.S4 \
	VBSL	g.B16, f.B16, VT3.B16 \
	VADD	VKW.S4, h.S4, h.S4 \
	VEOR	VT2.B16, VT1.B16, VT1.B16 \
	VUSHR	$25, e.S4, VT2.S4 \
	VADD	VT3.S4, h.S4, h.S4 \
	VSLI	$7, e.S4, VT2.S4 \
	VEOR	VT2.B16, VT1.B16, VT1.B16 \
	VADD	VT1.S4, h.S4, h.S4 \
	VUSHR	$2, a.S4, VT1.S4 \
	VUSHR	$13, a.S4, VT2.S4 \
	VEOR	b.B16, a.B16, VT3.B16 \
	VADD	h.S4, d.S4, d.S4 \
	VSLI	$30, a.S4, VT1.S4 \
	VSLI	$19, a.S4, VT2.S4 \
	VBSL	b.B16, c.B16, VT3.B16 \
	VEOR	VT2.B16, VT1.B16, VT1.B16 \
	VUSHR	$22, a.S4, VT2.S4 \
	VADD	VT3.S4, h.S4, h.S4 \
	VSLI	$10, a.S4, VT2.S4 \
	VEOR	VT2.B16, VT1.B16, VT1.B16 \
	VADD	VT1.S4, h.S4, h.S4

// SCHED computes W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16] over
// w16 = W[t-16]; σ0(x) = ror 7 ^ ror 18 ^ x>>3, σ1(x) = ror 17 ^ ror 19 ^ x>>10.
#define SCHED(w16, w15, w7, w2) \
	VUSHR	$7, w15.S4, VT1.S4 \
	VUSHR	$18, w15.S4, VT2.S4 \
	VADD	w7.S4, w16.S4, w16.S4 \
	VSLI	$25, w15.S4, VT1.S4 \
	VSLI	$14, w15.S4, VT2.S4 \
	VEOR	VT2.B16, VT1.B16, VT1.B16 \
	VUSHR	$3, w15.S4, VT2.S4 \
	VEOR	VT2.B16, VT1.B16, VT1.B16 \
	VADD	VT1.S4, w16.S4, w16.S4 \
	VUSHR	$17, w2.S4, VT1.S4 \
	VUSHR	$19, w2.S4, VT2.S4 \
	VSLI	$15, w2.S4, VT1.S4 \
	VSLI	$13, w2.S4, VT2.S4 \
	VEOR	VT2.B16, VT1.B16, VT1.B16 \
	VUSHR	$10, w2.S4, VT2.S4 \
	VEOR	VT2.B16, VT1.B16, VT1.B16 \
	VADD	VT1.S4, w16.S4, w16.S4

#define SCHED_ROUND(a, b, c, d, e, f, g, h, w16, w15, w7, w2) \
	SCHED(w16, w15, w7, w2) \
	ROUND(a, b, c, d, e, f, g, h, w16)
