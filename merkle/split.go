package merkle

import (
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
)

// A large tree is cut into subtrees of 2^k leaves (the last one may have
// fewer), which goroutines take one after another and hash up to their
// roots, each in its own part of the tree's memory; the calling goroutine
// then hashes the levels above them. Node i of level d < k lies in subtree
// i>>(k-d), and a full subtree has an even number of nodes on each level
// below its root, so an odd last node, and every Odd rule, only falls in
// the last subtree, as in the serial code: the nodes are the same.
//
// Work is counted in 64-byte blocks, about one per node and one per 64
// bytes of a hashed leaf. Each worker gets about subtreesPerWorker
// subtrees, so that a worker whose core is busy leaves its share to the
// others, but no subtree has less than minSubtree blocks, so that the small
// top levels of each subtree stay few. Splitting costs about 40 us, mostly
// waking another core, so a tree splits from splitMin blocks, where it
// gains a quarter (BENCHMARKS.md, "Trees on every core: from 4,096 blocks,
// 16 subtrees a worker"). minSubtree only matters between splitMin and a
// few times it (BENCHMARKS.md, "Constants that measured level"). Tests
// lower these to split small trees.
var (
	splitMin          = 1 << 12
	minSubtree        = 1 << 10
	subtreesPerWorker = 16
)

// plan returns how many goroutines hash a tree of n leaves, and the height
// k of its subtrees when there are more than one. leaves are the leaves
// Root or Build hash, or nil.
func (s *Scheme) plan(n int, leaves [][]byte) (workers, k int) {
	if n < 2 || s.Workers == 1 {
		return 1, 0
	}
	work := n
	if n < splitMin && leaves != nil && !s.RawLeaves {
		// Few leaves, perhaps long: their length is estimated from 16 of
		// them, so that a small tree pays for 16 reads, not n.
		step := max(n/16, 1)
		bytes, count := 0, 0
		for i := 0; i < n; i += step {
			bytes += len(leaves[i])
			count++
		}
		work += n * (bytes/count + len(s.LeafPrefix) + 8) / 64
	}
	if work < splitMin {
		return 1, 0
	}
	// More goroutines than Ps would only take turns.
	w := runtime.GOMAXPROCS(0)
	if s.Workers > 0 {
		w = min(w, s.Workers)
	}
	if w < 2 {
		return 1, 0
	}
	// 2^k is n / (subtreesPerWorker * w), rounded to powers of two, and at
	// least 2 (RootNodes hashes a subtree's first level apart) and
	// minSubtree blocks.
	k = bits.Len(uint(n-1)) - bits.Len(uint(subtreesPerWorker*w-1))
	k = max(k, 1, bits.Len(uint((minSubtree*n-1)/work)))
	subtrees := (n-1)>>k + 1
	w = min(w, subtrees)
	if w < 2 {
		return 1, 0
	}
	return w, k
}

// split is the shared state of the goroutines hashing one tree's subtrees.
type split struct {
	s        *Scheme
	zero     [][Size]byte // ZeroPad: the roots of zero subtrees, read only
	n, k     int          // leaves, height of a subtree
	subtrees int
	next     atomic.Int64 // the next subtree to take
	wg       sync.WaitGroup

	leaves [][]byte     // the leaves to hash (Root, Build), or
	src    [][Size]byte // the leaf nodes (RootNodes, BuildNodes)

	nodes  [][Size]byte   // Root: the leaf level (n+1); RootNodes: level 1 (n/2+1)
	levels [][][Size]byte // Build, BuildNodes: every level

	mu      sync.Mutex
	failed  int // the lowest subtree that panicked, or -1
	failure any // and its panic
}

// start sets p up for a tree of n leaves in subtrees of 2^k, and starts
// w-1 goroutines on it; the caller must then call p.work itself and wait.
func (p *split) start(s *Scheme, sc *scratch, w, k, n int) {
	p.s, p.n, p.k = s, n, k
	p.subtrees = (n-1)>>k + 1
	p.zero = nil
	if s.Odd == ZeroPad {
		p.zero = s.zeros(sc, n)
	}
	p.next.Store(0)
	p.failed, p.failure = -1, nil
	p.wg.Add(w - 1)
	for range w - 1 {
		go p.helper()
	}
	// The last goroutine started waits in this P's runnext slot, which an
	// idle P steals only after a pause (runqgrab's usleep(3)): yielding
	// runs it here at once and puts the caller on the global queue, which
	// an idle P takes from without a pause.
	runtime.Gosched()
}

// finish waits for the helpers and passes on the panic of the lowest
// subtree that had one: the one the serial code would have met first.
func (p *split) finish() {
	p.wg.Wait()
	f := p.failure
	*p = split{failed: -1} // drop the caller's slices before pooling
	if f != nil {
		panic(f)
	}
}

func (p *split) helper() {
	defer p.wg.Done()
	sc := scratchPool.Get().(*scratch)
	p.work(sc)
	scratchPool.Put(sc)
}

// work hashes subtrees until there are none left, and returns its
// reducer, which has room for the levels above the subtrees too.
func (p *split) work(sc *scratch) reducer {
	r := p.s.reducerOver(p.zero)
	for {
		j := int(p.next.Add(1) - 1)
		if j >= p.subtrees {
			return r
		}
		p.subtree(&r, j)
	}
}

// subtree hashes subtree j from its leaves up to its root, at node j of
// level k; a panic is kept for finish.
func (p *split) subtree(r *reducer, j int) {
	defer func() {
		if e := recover(); e != nil {
			p.mu.Lock()
			if p.failed < 0 || j < p.failed {
				p.failed, p.failure = j, e
			}
			p.mu.Unlock()
		}
	}()
	lo := j << p.k
	m := min(1<<p.k, p.n-lo)
	if p.levels == nil {
		// In place, within nodes[lo:lo+m] and the spare slot after it
		// (the last subtree's alone); RootNodes hashes the caller's leaf
		// nodes into level 1 at nodes[lo/2:].
		var nodes [][Size]byte
		d := 0
		if p.src != nil {
			nodes = p.nodes[lo/2:]
			r.levelOut(nodes, p.src[lo:lo+m], m, 0)
			m, d = (m+1)/2, 1
		} else {
			nodes = p.nodes[lo:]
			p.s.leafNodes(nodes[:m], p.leaves[lo:lo+m], lo)
		}
		for ; d < p.k; m, d = (m+1)/2, d+1 {
			r.level(nodes, nodes, m, d)
		}
		return
	}
	p.fill(p.levels[0][lo:lo+m], lo, m)
	for d := 0; d < p.k; m, d = (m+1)/2, d+1 {
		lv := p.levels[d]
		r.level(p.levels[d+1][lo>>(d+1):], lv[lo>>d:cap(lv)], m, d)
	}
}

// fill sets nodes to the leaf nodes lo to lo+m.
func (p *split) fill(nodes [][Size]byte, lo, m int) {
	if p.leaves != nil {
		p.s.leafNodes(nodes, p.leaves[lo:lo+m], lo)
	} else {
		copy(nodes, p.src[lo:lo+m])
	}
}

// splitRoot is Root and RootNodes on w goroutines, in sc.nodes: n+1 nodes
// for Root, n/2+1 for RootNodes.
func (s *Scheme) splitRoot(sc *scratch, w, k int, leaves [][]byte, nodes [][Size]byte) [Size]byte {
	n := max(len(leaves), len(nodes))
	p := &sc.split
	p.leaves, p.src, p.nodes = leaves, nodes, sc.nodes
	p.start(s, sc, w, k, n)
	r := p.work(sc)
	m := p.subtrees
	p.finish()
	// The subtrees' roots, at nodes[j<<k] (RootNodes: [j<<(k-1)]), side
	// by side: level k.
	shift := k
	if nodes != nil {
		shift = k - 1
	}
	for j := 1; j < m; j++ {
		sc.nodes[j] = sc.nodes[j<<shift]
	}
	return r.reduce(sc.nodes, m, k)
}

// splitBuild fills levels 0 to k of a tree on w goroutines, and returns a
// reducer for the levels above.
func (s *Scheme) splitBuild(sc *scratch, w, k int, levels [][][Size]byte, leaves [][]byte, nodes [][Size]byte) reducer {
	p := &sc.split
	p.leaves, p.src, p.levels = leaves, nodes, levels
	p.start(s, sc, w, k, len(levels[0]))
	r := p.work(sc)
	p.finish()
	return r
}
