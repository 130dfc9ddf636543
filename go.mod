module github.com/sha256x/sha256x

go 1.26.0

require github.com/klauspost/cpuid/v2 v2.4.2

require golang.org/x/sys v0.50.0
