//go:build plan9

package main

import (
	"errors"
	"os"
	"strings"
)

// errText is the text of a system error, its first letter capitalized as
// strerror words it. Plan 9 has no errno: its errors are strings.
func errText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	s := err.Error()
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
