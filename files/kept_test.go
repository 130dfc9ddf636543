package files

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/sha256x/sha256x/internal/docsaid"
)

// TestKeeper: a keeper keeps up to one value a core, hands back only one
// that fits, and drops what it holds when drained.
func TestKeeper(t *testing.T) {
	var dropped []int
	k := keeper[int]{drop: func(v int) { dropped = append(dropped, v) }}
	n := runtime.GOMAXPROCS(0)
	for i := range n {
		if !k.put(i) {
			t.Fatalf("put %d of %d: refused", i+1, n)
		}
	}
	if k.put(n) {
		t.Fatalf("put %d with %d cores: kept", n+1, n)
	}
	if v, ok := k.take(func(v int) bool { return v == n-1 }); !ok || v != n-1 {
		t.Fatalf("take the last: %d, %v", v, ok)
	}
	if _, ok := k.take(func(v int) bool { return v == n-1 }); ok {
		t.Fatal("took the same value twice")
	}
	if got := k.kept(); got != n-1 {
		t.Fatalf("%d kept, want %d", got, n-1)
	}
	k.drain()
	if k.kept() != 0 || len(dropped) != n-1 {
		t.Fatalf("after drain: %d kept, %d dropped, want 0 and %d", k.kept(), len(dropped), n-1)
	}
}

// TestArenaKept: a call's plain arena is handed to the next call.
func TestArenaKept(t *testing.T) {
	arenas.drain()
	a := takeArena(1000)
	putArena(a)
	if b := takeArena(1000); &b[0] != &a[0] {
		t.Fatal("the arena handed back was not taken again")
	}
	if c := takeArena(1000); len(c) != 1000 {
		t.Fatalf("a new arena of %d bytes, want 1000", len(c))
	}
}

// TestKeeperExpires: what is kept is dropped once unused for keptFor, and
// a value handed back later is kept its own keptFor, not the first one's.
func TestKeeperExpires(t *testing.T) {
	if testing.Short() {
		t.Skip("2 s of timers")
	}
	dropped := make(chan int, 2)
	k := keeper[int]{drop: func(v int) { dropped <- v }}
	k.put(1)
	time.Sleep(keptFor / 2)
	k.put(2)
	select {
	case v := <-dropped:
		if v != 1 {
			t.Fatalf("dropped %d first, want 1", v)
		}
	case <-time.After(keptFor):
		t.Fatalf("nothing dropped %v after the first was handed back", keptFor*3/2)
	}
	if got := k.kept(); got != 1 {
		t.Fatalf("%d kept after the first was dropped, want 1", got)
	}
	select {
	case v := <-dropped:
		if v != 2 {
			t.Fatalf("dropped %d, want 2", v)
		}
	case <-time.After(keptFor):
		t.Fatal("the second was not dropped")
	}
}

// TestConfigBudget: a worker's read buffers (its arena, and a chunk for
// each of its streams) fit its share of Memory at every budget, and the
// default is what the README says: 16 large files side by side, read in
// 128 KiB chunks.
func TestConfigBudget(t *testing.T) {
	for _, m := range []int{0, MinMemory, MinMemory + 1, 1 << 20, DefaultMemory, 64 << 20} {
		c := (&Hasher{Memory: m}).config(-1)
		per := DefaultMemory
		if m > 0 {
			per = max(MinMemory, m/c.workers)
		}
		if used := c.arenaMax + c.smallMax + 1 + c.streams*c.chunk; used > per {
			t.Errorf("Memory %d: a worker's buffers take %d bytes, its share %d", m, used, per)
		}
	}
	if c := (&Hasher{}).config(-1); c.streams != 16 || c.chunk != 128<<10 {
		t.Errorf("default: %d streams of %d-byte chunks, the README says 16 of 128 KiB", c.streams, c.chunk)
	}
}

// TestMemorySaid: Hasher.Memory's doc gives as many large files side by
// side as a worker streams.
func TestMemorySaid(t *testing.T) {
	c := (&Hasher{}).config(-1)
	docsaid.Check(t, []string{"files.go"}, fmt.Sprintf("the chunks of up to %d large files", c.streams))
}
