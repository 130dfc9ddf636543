module github.com/sha256x/sha256x

go 1.26.0

require golang.org/x/term v0.48.0

require golang.org/x/sys v0.50.0
