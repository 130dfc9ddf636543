// Package guardmem gives tests memory that ends against an unmapped page
// and begins right after one, so that a read or write of a byte outside a
// caller's slices faults where a test can see it. Only tests import it.
package guardmem
