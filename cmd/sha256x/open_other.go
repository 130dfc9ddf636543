//go:build !unix

package main

import "os"

// openList opens a checksum file for reading.
func openList(name string) (*os.File, error) { return os.Open(name) }
