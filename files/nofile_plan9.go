package files

import (
	"errors"
	"syscall"
)

// outOfFiles reports whether err is a refusal for want of file
// descriptors: EMFILE (Plan 9 has no ENFILE).
func outOfFiles(err error) bool { return errors.Is(err, syscall.EMFILE) }
