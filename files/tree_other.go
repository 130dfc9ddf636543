//go:build !linux

package files

import "os"

// A dirReader reads directories for Tree: os.ReadDir here (tree_linux.go
// reads them itself on Linux).
type dirReader struct{}

func (*dirReader) read(dir string) ([]dent, error) {
	ents, err := readDirRoom(os.ReadDir, dir)
	return dents(ents), err
}

func (*dirReader) done() {}
