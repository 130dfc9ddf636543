module github.com/sha256x/sha256x/interop

go 1.26.0

replace github.com/sha256x/sha256x => ../

require (
	github.com/prysmaticlabs/gohashtree v0.0.4-beta
	github.com/sha256x/sha256x v0.0.0-00010101000000-000000000000
	github.com/transparency-dev/merkle v0.0.2
)

require (
	github.com/klauspost/cpuid/v2 v2.4.2 // indirect
	golang.org/x/mod v0.43.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
)
