package translog

import (
	"errors"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unsafe"
)

// TileHeight is the height of a tile of C2SP tlog-tiles: a tile holds up to
// TileWidth = 2^TileHeight nodes of one level.
const (
	TileHeight = 8
	TileWidth  = 1 << TileHeight
)

// A Tile names a tile of hashes of C2SP tlog-tiles, the layout of
// golang.org/x/mod/sumdb/tlog at height 8 (tlog.Tile{H: 8, L, N, W}): W
// consecutive nodes of tree level 8*L, from node 256*N. A full tile has
// 256; a partial one, the last of its level, fewer. Its data is the nodes'
// hashes, W*32 bytes. The entry bundles ("tile/entries/...") are the
// caller's: they hold entries, not hashes.
type Tile struct {
	L int    // the tile's level: it holds nodes of tree level 8*L
	N uint64 // its index within the level: it holds nodes 256*N onward
	W int    // its width: 1 to 256 nodes, 256 when full
}

// Path returns the tile's path in C2SP tlog-tiles form, tile/L/N[.p/W],
// N written in groups of three digits, all but the last with an x:
// Tile{0, 1234067, 256} is tile/0/x001/x234/067, and with W 5 it is
// tile/0/x001/x234/067.p/5. (tlog's Tile.Path puts the height after
// "tile/": tile/8/0/x001/x234/067.)
func (t Tile) Path() string {
	b := make([]byte, 0, 40)
	b = append(b, "tile/"...)
	b = strconv.AppendInt(b, int64(t.L), 10)
	b = append(b, '/')
	b = appendTileIndex(b, t.N)
	if t.W != TileWidth {
		b = append(b, ".p/"...)
		b = strconv.AppendInt(b, int64(t.W), 10)
	}
	return string(b)
}

func appendTileIndex(b []byte, n uint64) []byte {
	var groups [7]uint64
	k := 0
	for {
		groups[k] = n % 1000
		k++
		n /= 1000
		if n == 0 {
			break
		}
	}
	for i := k - 1; i >= 0; i-- {
		if i > 0 {
			b = append(b, 'x')
		}
		g := groups[i]
		b = append(b, byte('0'+g/100), byte('0'+g/10%10), byte('0'+g%10))
		if i > 0 {
			b = append(b, '/')
		}
	}
	return b
}

// ParseTilePath parses a tile path, as a tile server receives it: what
// Path returns, and nothing else (no leading zeros but in N's groups, no
// width 256 or 0, a tile level of 0 to 7), of a tile that a log of at most
// 2^64 - 1 leaves can have. It is an error, saying what is wrong, for any
// other string.
func ParseTilePath(path string) (Tile, error) {
	bad := func(why string) (Tile, error) {
		return Tile{}, errors.New("translog: tile path " + strconv.Quote(path) + ": " + why)
	}
	rest, ok := strings.CutPrefix(path, "tile/")
	if !ok {
		return bad("does not begin with tile/")
	}
	level, rest, ok := strings.Cut(rest, "/")
	if !ok || len(level) != 1 || level[0] < '0' || level[0] > '7' {
		return bad("no tile level 0 to 7")
	}
	t := Tile{L: int(level[0] - '0'), W: TileWidth}
	if head, w, ok := strings.Cut(rest, ".p/"); ok {
		n, err := strconv.Atoi(w)
		if err != nil || n < 1 || n >= TileWidth || strconv.Itoa(n) != w {
			return bad("the width of a partial tile is not 1 to 255")
		}
		t.W, rest = n, head
	}
	groups := strings.Split(rest, "/")
	if len(groups) > 7 {
		return bad("a tile index of more than 7 groups")
	}
	for i, g := range groups {
		if i < len(groups)-1 {
			if g, ok = strings.CutPrefix(g, "x"); !ok {
				return bad("a group of the tile index without its x")
			}
		}
		if len(g) != 3 || g[0] < '0' || g[0] > '9' || g[1] < '0' || g[1] > '9' || g[2] < '0' || g[2] > '9' {
			return bad("a group of the tile index that is not 3 digits")
		}
		v := uint64(g[0]-'0')*100 + uint64(g[1]-'0')*10 + uint64(g[2]-'0')
		hi, lo := bits.Mul64(t.N, 1000)
		if hi != 0 || lo+v < lo {
			return bad("a tile index past 2^64")
		}
		t.N = lo + v
	}
	if t.Path() != path {
		return bad("not in canonical form")
	}
	if !t.inLog() {
		return bad("a tile past the last node of a log of 2^64 - 1 leaves")
	}
	return t, nil
}

// inLog reports whether some log (of at most 2^64 - 1 leaves) has t's
// nodes: those of tree level 8*L up to 256*N + W - 1.
func (t Tile) inLog() bool {
	last := ^uint64(0) >> (TileHeight * t.L) // the nodes of the level in the largest log
	return uint64(t.W) <= last && t.N <= (last-uint64(t.W))>>TileHeight
}

// NewTiles appends to dst the tiles that a log growing from oldSize to
// newSize leaves writes, new or wider, and returns the extended slice: at
// each tile level from 0 up, the full tiles that it completes and the
// partial tile it ends with, in the order of tlog.NewTiles(8, oldSize,
// newSize). It returns dst for newSize <= oldSize.
func NewTiles(dst []Tile, oldSize, newSize uint64) []Tile {
	if newSize <= oldSize {
		return dst
	}
	for l := 0; l < 8 && newSize>>(TileHeight*l) > 0; l++ {
		oldN, newN := oldSize>>(TileHeight*l), newSize>>(TileHeight*l)
		if oldN == newN {
			continue
		}
		for n := oldN >> TileHeight; n < newN>>TileHeight; n++ {
			dst = append(dst, Tile{l, n, TileWidth})
		}
		if w := int(newN % TileWidth); w > 0 {
			dst = append(dst, Tile{l, newN >> TileHeight, w})
		}
	}
	return dst
}

// TileData is a tile and its hashes: W*32 bytes, what tlog.ReadTileData
// returns for the tile.
type TileData struct {
	Tile
	Data []byte
}

// A TileLog is a log that publishes C2SP tlog-tiles: its compact range and
// its right edge, the partial tile of each tile level (at most 255 hashes
// each). Append appends a batch of entries and returns the tiles that the
// growth writes, computed from the new entries and the right edge alone,
// hashed as Range.Append hashes. A log that publishes tiles needs no other
// state to grow: NewTileLog picks it up again from its partial tiles.
//
// The zero TileLog is an empty log, ready to use. A TileLog is not safe for
// concurrent use.
type TileLog struct {
	r Range
	// levels[L] holds the nodes of tree level 8L from node start[L], the
	// first of the tile that was partial before the last Append: 32 bytes
	// each.
	levels [][]byte
	start  []uint64
	tiles  []TileData
	visit  Visitor // the caller's, during an Append
}

// tileLevels is the number of tile levels of a log of size leaves: those
// with at least one node.
func tileLevels(size uint64) int {
	if size == 0 {
		return 0
	}
	return (bits.Len64(size)-1)/TileHeight + 1
}

// NewTileLog returns the log of size leaves whose right edge is edge:
// edge[L] is the data of the partial tile of tile level L (what
// TileLog.Edge returns, or tlog.ReadTileData of that tile), empty where
// level L ends with a full tile, one entry for each tile level that has
// nodes. It is an error if edge has the wrong number of levels or a level
// the wrong number of bytes. The edge is not checked against any root:
// compare Root with the log's checkpoint. edge is copied.
func NewTileLog(size uint64, edge [][]byte) (*TileLog, error) {
	levels := tileLevels(size)
	if len(edge) != levels {
		return nil, errors.New("translog: a log of " + itoa(size) + " leaves has " + strconv.Itoa(levels) +
			" tile levels, not " + strconv.Itoa(len(edge)))
	}
	t := &TileLog{levels: make([][]byte, levels), start: make([]uint64, levels)}
	for l := range levels {
		n := size >> (TileHeight * l)
		w := int(n % TileWidth)
		if len(edge[l]) != w*Size {
			return nil, errors.New("translog: the partial tile of level " + strconv.Itoa(l) + " of a log of " + itoa(size) +
				" leaves has " + strconv.Itoa(w) + " hashes (" + strconv.Itoa(w*Size) + " bytes), not " +
				strconv.Itoa(len(edge[l])) + " bytes")
		}
		t.levels[l] = append(make([]byte, 0, TileWidth*Size), edge[l]...)
		t.start[l] = n - uint64(w)
	}
	// The compact range: in each partial tile (top level first), the
	// perfect subtrees of its w hashes, largest first.
	var scratch [TileWidth][Size]byte
	ids := rangeIDs(0, size, nil)
	hashes := make([][Size]byte, 0, len(ids))
	for l := levels - 1; l >= 0; l-- {
		w := len(t.levels[l]) / Size
		nodes := hashesOf(t.levels[l])
		off := 0
		for b := TileHeight - 1; b >= 0; b-- {
			if w>>b&1 == 0 {
				continue
			}
			m := copy(scratch[:], nodes[off:off+1<<b])
			for ; m > 1; m /= 2 {
				node.HashLevel(scratch[:m/2], scratch[:m])
			}
			hashes = append(hashes, scratch[0])
			off += 1 << b
		}
	}
	t.r = Range{end: size, ids: ids, hashes: hashes}
	return t, nil
}

// Reset empties the log, keeping its memory for the next log.
func (t *TileLog) Reset() {
	t.r.begin, t.r.end = 0, 0
	t.r.ids, t.r.hashes = t.r.ids[:0], t.r.hashes[:0]
	for l := range t.levels {
		t.levels[l] = t.levels[l][:0]
		t.start[l] = 0
	}
	t.tiles = t.tiles[:0]
}

// Size returns the number of leaves in the log.
func (t *TileLog) Size() uint64 { return t.r.end }

// Root returns the log's root.
func (t *TileLog) Root() [Size]byte { return foldRight(t.r.hashes) }

// Range returns the log's compact range, as a copy.
func (t *TileLog) Range() *Range { return t.r.Clone() }

// Edge returns the log's right edge, as NewTileLog takes it: the data of
// each tile level's partial tile, empty where a level ends with a full
// tile. The slices are the log's own memory, valid until the next Append.
func (t *TileLog) Edge() [][]byte {
	edge := make([][]byte, tileLevels(t.r.end))
	for l := range edge {
		n := t.r.end >> (TileHeight * l)
		full := n - n%TileWidth
		off := int(full-t.start[l]) * Size
		edge[l] = t.levels[l][off:len(t.levels[l]):len(t.levels[l])]
	}
	return edge
}

// Append appends entries, leaf-hashed in one batched call a chunk at a
// time, and returns the tiles the growth writes, in NewTiles order, each
// with its data. visit, unless nil, is handed every new node as by
// Range.Append. The returned slice and the tiles' data are the log's own
// memory, valid until the next Append: write them out before then. Once its
// memory has grown to a batch's size, Append allocates nothing.
func (t *TileLog) Append(entries [][]byte, visit Visitor) []TileData {
	old := t.prepare(len(entries), visit)
	t.r.AppendEntries(entries, t.capture)
	return t.finish(old)
}

// AppendHashes is Append for leaves given by their leaf hashes.
func (t *TileLog) AppendHashes(leafHashes [][Size]byte, visit Visitor) []TileData {
	old := t.prepare(len(leafHashes), visit)
	t.r.Append(leafHashes, t.capture)
	return t.finish(old)
}

// prepare drops the tiles that were full before the last Append, keeping
// each level's partial tile at the front of its buffer.
func (t *TileLog) prepare(k int, visit Visitor) uint64 {
	t.r.checkGrowth(k)
	size := t.r.end
	for l := range t.levels {
		n := size >> (TileHeight * l)
		full := n - n%TileWidth
		if full > t.start[l] {
			off := int(full-t.start[l]) * Size
			t.levels[l] = t.levels[l][:copy(t.levels[l], t.levels[l][off:])]
			t.start[l] = full
		}
	}
	for l := len(t.levels); l < tileLevels(size+uint64(k)); l++ {
		t.levels = append(t.levels, make([]byte, 0, TileWidth*Size))
		t.start = append(t.start, 0)
	}
	// Room for the growth's nodes of each tile level, in one allocation
	// at most, not one for each doubling.
	for l := range t.levels {
		t.levels[l] = slices.Grow(t.levels[l], (k>>(TileHeight*l)+1)*Size)
	}
	t.visit = visit
	return size
}

// capture is the Range's Visitor: it keeps the nodes of the tile levels.
func (t *TileLog) capture(level int, index uint64, nodes [][Size]byte) {
	if level%TileHeight == 0 {
		l := level / TileHeight
		t.levels[l] = append(t.levels[l], bytesOf(nodes)...)
	}
	if t.visit != nil {
		t.visit(level, index, nodes)
	}
}

// finish lists the tiles of the growth from old to the log's size.
func (t *TileLog) finish(old uint64) []TileData {
	t.visit = nil
	t.tiles = t.tiles[:0]
	size := t.r.end
	for l := range t.levels {
		oldN, newN := old>>(TileHeight*l), size>>(TileHeight*l)
		if oldN == newN {
			continue
		}
		// To the tile of the level's last node, (newN-1)>>TileHeight: the
		// one past it begins at 2^64 for the last tile of level 0.
		for n := oldN >> TileHeight; n <= (newN-1)>>TileHeight; n++ {
			w := int(min(newN-n<<TileHeight, TileWidth))
			off := int(n<<TileHeight-t.start[l]) * Size
			t.tiles = append(t.tiles, TileData{Tile{l, n, w}, t.levels[l][off : off+w*Size : off+w*Size]})
		}
	}
	return t.tiles
}

// bytesOf returns the memory of hashes as bytes: [Size]byte has no padding.
func bytesOf(hashes [][Size]byte) []byte {
	if len(hashes) == 0 {
		return nil
	}
	return unsafe.Slice(&hashes[0][0], len(hashes)*Size)
}

// hashesOf returns b, a whole number of hashes, as hashes.
func hashesOf(b []byte) [][Size]byte {
	if len(b) < Size {
		return nil
	}
	return unsafe.Slice((*[Size]byte)(unsafe.Pointer(&b[0])), len(b)/Size)
}
