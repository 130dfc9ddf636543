package files

import "github.com/sha256x/sha256x/internal/uring"

// ringRefusedWhy says why io_uring cannot be used here, or "" if it can.
func ringRefusedWhy() string {
	r, err := uring.New(8, 8, nil)
	if err != nil {
		return err.Error()
	}
	r.Close()
	return ""
}
