package files

import (
	"io/fs"
	"syscall"
	"testing"
)

// TestOutOfFilesWindows: Windows' own refusal counts, as an fs.FS's do.
func TestOutOfFilesWindows(t *testing.T) {
	for _, e := range []error{errTooManyOpenFiles, syscall.EMFILE, syscall.ENFILE} {
		if !outOfFiles(&fs.PathError{Err: e}) || outOfFiles(syscall.ERROR_ACCESS_DENIED) {
			t.Errorf("outOfFiles(%v) is false, or of access denied true", e)
		}
	}
}
