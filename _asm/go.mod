module github.com/sha256x/sha256x/_asm

go 1.26.0

require github.com/mmcloughlin/avo v0.6.0

require (
	github.com/klauspost/cpuid/v2 v2.4.2 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
)

require (
	github.com/sha256x/sha256x v0.0.0
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)

replace github.com/sha256x/sha256x => ../
