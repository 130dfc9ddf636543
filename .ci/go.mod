module github.com/sha256x/sha256x/ci

go 1.26.0

require github.com/sha256x/sha256x v0.0.0

require golang.org/x/sys v0.50.0 // indirect

replace github.com/sha256x/sha256x => ../
