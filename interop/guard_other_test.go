//go:build !(linux || darwin)

package interop

import "testing"

func guarded(t *testing.T, n int) []byte {
	t.Skip("no guard pages here")
	return nil
}
