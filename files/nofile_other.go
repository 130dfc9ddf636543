//go:build !unix && !plan9 && !windows

package files

import (
	"errors"
	"syscall"
)

// outOfFiles reports whether err is a refusal for want of file
// descriptors: EMFILE or ENFILE, as Node.js gives them to js/wasm, a WASI
// runtime to wasip1, and an fs.FS may give them anywhere.
func outOfFiles(err error) bool {
	return errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE)
}
