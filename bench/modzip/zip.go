package main

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// A moduleZip is what a user's go command downloads of the main module.
type moduleZip struct {
	zipped, unpacked int64
	files            []zipFile // largest first
}

type zipFile struct {
	name string // inside the module, without the module@version/ prefix
	size int64
}

const modPath = "github.com/sha256x/sha256x"

// findRoot returns the main module's directory: the nearest directory at or
// above the working one whose go.mod declares modPath.
func findRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && modfile.ModulePath(b) == modPath {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("no go.mod of %s at or above the working directory", modPath)
		}
		dir = up
	}
}

// build zips the module rooted at root as the proxy would.
func build(root string) (*moduleZip, error) {
	var b bytes.Buffer
	m := module.Version{Path: modPath, Version: "v0.0.0-00010101000000-000000000000"}
	if err := modzip.CreateFromDir(&b, m, root); err != nil {
		return nil, err
	}
	r, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		return nil, err
	}
	z := &moduleZip{zipped: int64(b.Len())}
	prefix := m.Path + "@" + m.Version + "/"
	for _, f := range r.File {
		z.unpacked += int64(f.UncompressedSize64)
		z.files = append(z.files, zipFile{strings.TrimPrefix(f.Name, prefix), int64(f.UncompressedSize64)})
	}
	slices.SortFunc(z.files, func(a, b zipFile) int { return int(b.size - a.size) })
	return z, nil
}
