//go:build !plan9

package main

import (
	"errors"
	"os"
	"strings"
	"syscall"
)

// errText is the text of a system error as strerror words it: Go's text
// with its first letter capitalized ("No such file or directory").
func errText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		s := errno.Error()
		if s != "" {
			return strings.ToUpper(s[:1]) + s[1:]
		}
	}
	return err.Error()
}
