package files

import (
	"os"
	"testing"

	"github.com/sha256x/sha256x/internal/uring"
)

// ringRefusedWhy says why io_uring cannot be used here, or "" if it can.
func ringRefusedWhy() string {
	r, err := uring.New(8, 8, nil)
	if err != nil {
		return err.Error()
	}
	r.Close()
	return ""
}

// TestMain sends files of unknown type through the ring in every test,
// whatever system calls cost here, so that the tests of names given as a
// list (every configuration in hashers) cover the ring where the kernel
// allows it; TestUntypedPlain checks the other way, the default where
// system calls are cheap.
func TestMain(m *testing.M) {
	untypedByRing = func() bool { return true }
	os.Exit(m.Run())
}
