//go:build !amd64

package main

import "fmt"

func main() { fmt.Println("rnds2: amd64 only") }
