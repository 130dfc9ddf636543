package files

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// keptFor is how long a ring or an arena handed back is kept unused for
// the next call.
const keptFor = time.Second

// A keeper holds what calls hand back for the next call (rings, arenas),
// up to one per core, and drops each once it has been unused for keptFor.
type keeper[T any] struct {
	mu    sync.Mutex
	idle  []keptItem[T]
	timer *time.Timer
	drop  func(T)
}

type keptItem[T any] struct {
	v     T
	since time.Time
}

// take removes and returns a kept value that fits, if any.
func (k *keeper[T]) take(fits func(T) bool) (v T, ok bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for i, it := range k.idle {
		if fits(it.v) {
			k.idle = slices.Delete(k.idle, i, i+1)
			return it.v, true
		}
	}
	return v, false
}

// put keeps v, or reports false if as many as there are cores are kept
// already: the caller disposes of it.
func (k *keeper[T]) put(v T) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.idle) >= runtime.GOMAXPROCS(0) {
		return false
	}
	if k.timer == nil && !timersUp.Load() {
		// The process's first timer sets up the runtime's poller, which
		// ends the process if it gets no descriptors.
		if !pollerRoom() {
			return false
		}
		defer timersUp.Store(true)
	}
	k.idle = append(k.idle, keptItem[T]{v, time.Now()})
	if k.timer == nil {
		k.timer = time.AfterFunc(keptFor, k.expire)
	}
	return true
}

// timersUp is set once a keeper has started a timer: the runtime's poller
// is set up.
var timersUp atomic.Bool

// expire drops what has been unused for keptFor, and sets the timer for
// when the oldest left (the first) will have been.
func (k *keeper[T]) expire() {
	k.mu.Lock()
	defer k.mu.Unlock()
	keep := k.idle[:0]
	for _, it := range k.idle {
		if time.Since(it.since) >= keptFor {
			k.drop(it.v)
		} else {
			keep = append(keep, it)
		}
	}
	clear(k.idle[len(keep):])
	k.idle = keep
	k.timer = nil
	if len(keep) > 0 {
		k.timer = time.AfterFunc(keptFor-time.Since(keep[0].since), k.expire)
	}
}

// drain drops everything kept now: for the tests, and for the
// descriptors of rings when the process is short of them (room.go).
func (k *keeper[T]) drain() {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, it := range k.idle {
		k.drop(it.v)
	}
	clear(k.idle)
	k.idle = k.idle[:0]
}

// kept reports how many values are kept.
func (k *keeper[T]) kept() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.idle)
}
