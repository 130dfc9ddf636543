//go:build !linux

package uring

import "errors"

// Ring is not available on this system.
type Ring struct{}

// New always fails here: io_uring is Linux's.
func New(entries, files int, bufs [][]byte) (*Ring, error) {
	return nil, errors.ErrUnsupported
}

// Close does nothing.
func (r *Ring) Close() error { return nil }
