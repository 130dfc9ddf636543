//go:build !unix

package files

import (
	"io"
	"io/fs"
	"os"
	"syscall"
)

// errIsDir is EISDIR, as on Unix: the command words it "Is a directory",
// as sha256sum does.
var errIsDir error = syscall.EISDIR

// openFile opens the file at path to be streamed.
func openFile(path string) (*os.File, error) { return os.Open(path) }

// readSmall opens the file at path and, if it is a regular file of at most
// len(buf)-1 bytes, reads it into buf.
func readSmall(path string, buf []byte) (n int, kind fileKind, f io.ReadCloser, err error) {
	return readSmallFS(osFS{}, path, buf)
}

// osFS opens paths of the operating system, as they are.
type osFS struct{}

func (osFS) Open(name string) (fs.File, error) { return os.Open(name) }
