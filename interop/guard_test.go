//go:build linux || darwin

package interop

import (
	"testing"

	"github.com/sha256x/sha256x/internal/guardmem"
)

// guarded returns n bytes (a whole number of pages) with an unmapped page
// right before and right after them.
func guarded(t *testing.T, n int) []byte { return guardmem.Mem(t, n) }
