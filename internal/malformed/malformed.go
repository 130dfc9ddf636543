// Package malformed is the error of a proof that no tree has, shared by
// merkle, translog and nmt: its text says what is malformed, and
// errors.Is matches it to Err, which each of them exports as ErrMalformed.
package malformed

import "errors"

// Err is merkle.ErrMalformed (and translog's and nmt's).
var Err = errors.New("malformed proof")

// New returns an error whose text is s and that errors.Is matches to Err.
func New(s string) error { return &proofError{s} }

type proofError struct{ s string }

func (e *proofError) Error() string      { return e.s }
func (*proofError) Is(target error) bool { return target == Err }
