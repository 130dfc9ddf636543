package sha256x

import "strconv"

// A Digest is one SHA-256 computation that takes its input piece by piece:
// a file read in chunks, say. It implements hash.Hash. WriteMany advances
// many Digests side by side, one lane or stream per Digest, which is how to
// hash several large files at once without holding any of them in memory.
//
// The zero Digest is ready to use.
type Digest struct {
	h    [8]uint32 // state after the blocks hashed so far, once started
	sum  [Size]byte
	x    [BlockSize]byte // input not yet a whole block
	nx   int
	len  uint64 // bytes written
	init bool   // h holds a state (the zero Digest has not set the IV yet)
	busy bool   // inside WriteMany: catches a Digest passed twice
}

// Reset resets d to its initial state.
func (d *Digest) Reset() { *d = Digest{} }

// Size returns Size.
func (d *Digest) Size() int { return Size }

// BlockSize returns BlockSize.
func (d *Digest) BlockSize() int { return BlockSize }

// Write adds p to the input. It never returns an error.
func (d *Digest) Write(p []byte) (int, error) {
	switch {
	case d.nx+len(p) < BlockSize:
		d.nx += copy(d.x[d.nx:], p)
		d.len += uint64(len(p))
	case active.stdlib:
		d.stdlib(p, nil)
	default:
		active.write(d, p)
	}
	return len(p), nil
}

// write adds p, which completes at least one block, to d on the plan's
// single-message kernel: the block it shares with d's buffered bytes from
// the stack, its whole blocks in place, a part at a time.
func (pl *plan) write(d *Digest, p []byte) {
	if !d.init {
		d.h, d.init = iv, true
	}
	d.len += uint64(len(p))
	var head [BlockSize]byte
	var jobs [1]job
	jobs[0].init, jobs[0].out = &d.h, &d.sum
	k := 0
	if d.nx > 0 {
		copy(head[copy(head[:], d.x[:d.nx]):], p)
		p = p[BlockSize-d.nx:]
		d.nx = 0
		jobs[0].runs[0] = run{&head[0], 1}
		k = 1
	}
	for {
		if whole := min(len(p)/BlockSize, partBlocks); whole > 0 {
			jobs[0].runs[k] = run{&p[0], uintptr(whole)}
			p = p[whole*BlockSize:]
			k++
		}
		if k > 0 {
			runOne(pl.one, &jobs)
			d.h = stateOf(&d.sum)
		}
		if len(p) < BlockSize {
			break
		}
		jobs[0].runs, k = [3]run{}, 0
	}
	d.nx = copy(d.x[:], p)
}

// Sum appends the digest of the input so far to b; d is not changed.
func (d *Digest) Sum(b []byte) []byte {
	s := d.Sum256()
	return append(b, s[:]...)
}

// Sum256 returns the digest of the input so far; d is not changed.
func (d *Digest) Sum256() [Size]byte {
	if active.stdlib {
		var sum [Size]byte
		e := *d
		e.stdlib(nil, &sum)
		return sum
	}
	h := d.state()
	var t [2 * BlockSize]byte
	var out [Size]byte
	jobs := [1]job{{init: &h, runs: [3]run{{&t[0], uintptr(pad(t[:], d.x[:d.nx], nil, 8*d.len))}}, out: &out}}
	runOne(active.one, &jobs)
	return out
}

func (d *Digest) state() [8]uint32 {
	if !d.init {
		return iv
	}
	return d.h
}

// WriteMany writes chunks[i] to ds[i] for every i, hashing the streams side
// by side. Whole blocks of a chunk are read in place; what is left over
// waits in its Digest for the next write. It panics with a message starting
// "sha256x:" if len(ds) < len(chunks), or if a Digest appears twice.
func WriteMany(ds []*Digest, chunks [][]byte) {
	active.writeMany(ds, chunks, false)
}

func (pl *plan) writeMany(ds []*Digest, chunks [][]byte, single bool) {
	if len(ds) < len(chunks) {
		panic("sha256x: len(ds) = " + strconv.Itoa(len(ds)) + " < len(chunks) = " + strconv.Itoa(len(chunks)))
	}
	ds = ds[:len(chunks)]
	for i, d := range ds {
		if d.busy {
			for _, d := range ds[:i] {
				d.busy = false
			}
			panic("sha256x: WriteMany with a Digest twice")
		}
		d.busy = true
	}
	defer func() {
		for _, d := range ds {
			d.busy = false
		}
	}()
	if pl.stdlib {
		for i, d := range ds {
			d.stdlib(chunks[i], nil)
		}
		return
	}
	stages := pl.stages
	if single || len(chunks) == 1 {
		stages = pl.one
	}
	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	b := batch{stages: stages, sc: sc}
	if !b.writePart(ds, chunks, nil, 0) {
		return
	}
	// The chunks longer than a part go on a group at a time, a part of each
	// per window, as hashParts does for messages.
	var group [maxLanes]int
	g := 0
	for i := 0; i <= len(chunks); i++ {
		if i < len(chunks) {
			if len(chunks[i]) > partBytes {
				group[g] = i
				g++
			}
			if g < stages[0].width {
				continue
			}
		}
		for part := 1; g > 0 && b.writePart(ds, chunks, group[:g], part); part++ {
		}
		g = 0
	}
}

// partBytes is how much of one chunk one job takes (with up to 63 bytes
// the Digest buffered before): at most partBlocks+1 blocks.
const partBytes = partBlocks * BlockSize

// writePart writes part number part (partBytes each) of chunks[i] to ds[i],
// for each i in which, or in all of ds if which is nil, and reports whether
// any of those chunks has more parts.
func (b *batch) writePart(ds []*Digest, chunks [][]byte, which []int, part int) (more bool) {
	count := len(ds)
	if which != nil {
		count = len(which)
	}
	var jobs [window]job
	n, nb := 0, 0
	for k := range count {
		i := k
		if which != nil {
			i = which[k]
		}
		d, c := ds[i], chunks[i]
		off := part * partBytes
		if part > 0 && off >= len(c) {
			continue
		}
		c = c[off:]
		if len(c) > partBytes {
			c = c[:partBytes]
			more = true
		}
		if d.nx+len(c) < BlockSize {
			d.nx += copy(d.x[d.nx:], c)
			d.len += uint64(len(c))
			continue
		}
		if !d.init {
			d.h, d.init = iv, true
		}
		if n == window || nb >= b.limit() {
			carried, nc := b.flush(jobs[:n])
			for k := range nc {
				jobs[k] = carried[k]
			}
			n, nb = nc, 0
		}
		jobs[n].runs[0], jobs[n].runs[1] = d.stage(&b.sc.slots[b.half][n], c)
		jobs[n].runs[2], jobs[n].init, jobs[n].out = run{}, &d.h, &d.sum
		nb += int(jobs[n].runs[0].n + jobs[n].runs[1].n)
		n++
	}
	b.finish(jobs[:n])
	for k := range count {
		d := ds[k]
		if which != nil {
			d = ds[which[k]]
		}
		if d.init {
			d.h = stateOf(&d.sum)
		}
	}
	return more
}

// stage returns the runs of the job that hashes d's buffered bytes and c's
// whole blocks, staging the block they share in s, and keeps what is left of
// c in d.x. The job's digest, the state afterwards big-endian, goes to d.sum.
// writeMany calls it only when the two make at least one block.
func (d *Digest) stage(s *slot, c []byte) (r0, r1 run) {
	d.len += uint64(len(c))
	var rs [2]run
	k := 0
	if d.nx > 0 {
		copy(s.blk[copy(s.blk[:BlockSize], d.x[:d.nx]):BlockSize], c)
		c = c[BlockSize-d.nx:]
		d.nx = 0
		rs[k] = run{&s.blk[0], 1}
		k++
	}
	if whole := len(c) / BlockSize; whole > 0 {
		rs[k] = run{&c[0], uintptr(whole)}
		c = c[whole*BlockSize:]
	}
	d.nx = copy(d.x[:], c)
	return rs[0], rs[1]
}

// stdlib writes c to d through crypto/sha256, resumed from d's state, and
// if sum is not nil sets it to the digest.
func (d *Digest) stdlib(c []byte, sum *[Size]byte) {
	sc := stdlibPool.Get().(*stdlibScratch)
	defer stdlibPool.Put(sc)
	h := d.state()
	sc.resume(&h, &d.x, d.len)
	sc.write(c)
	if sum != nil {
		sc.h.Sum(sc.buf[:0])
		copy(sum[:], sc.buf[:Size])
		return
	}
	d.len = sc.suspend(&d.h, &d.x)
	d.nx = int(d.len % BlockSize)
	d.init = true
}
