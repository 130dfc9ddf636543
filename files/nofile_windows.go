package files

import (
	"errors"
	"syscall"
)

// errTooManyOpenFiles is Win32's ERROR_TOO_MANY_OPEN_FILES, which package
// syscall does not name.
const errTooManyOpenFiles syscall.Errno = 4

// outOfFiles reports whether err is a refusal for want of file handles:
// errTooManyOpenFiles, or EMFILE or ENFILE, as an fs.FS may give them.
func outOfFiles(err error) bool {
	return errors.Is(err, errTooManyOpenFiles) || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE)
}
