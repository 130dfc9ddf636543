//go:build !amd64 || purego

// Command planrounds times variants of amd64's mixed plans; see main.go.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "planrounds: amd64 only")
	os.Exit(1)
}
