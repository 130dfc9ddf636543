// Command modzip builds the main module's zip as the module proxy would
// (golang.org/x/mod/zip's CreateFromDir, which leaves out the directories
// with a go.mod of their own: bench, interop, _asm, logadapt) and prints
// its size, its unpacked size and its largest files:
//
//	cd bench && go run ./modzip [-top 10]
//
// TestModuleZip (in this package) holds the unpacked size under 3 MB.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	top := flag.Int("top", 10, "list the largest files, this many")
	flag.Parse()
	root, err := findRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "modzip:", err)
		os.Exit(1)
	}
	z, err := build(root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "modzip:", err)
		os.Exit(1)
	}
	fmt.Printf("module zip: %d files, %d bytes zipped, %d bytes unpacked (%.2f MB)\n",
		len(z.files), z.zipped, z.unpacked, float64(z.unpacked)/1e6)
	for i, f := range z.files {
		if i == *top {
			break
		}
		fmt.Printf("%10d  %s\n", f.size, f.name)
	}
}
