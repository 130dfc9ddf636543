module github.com/sha256x/sha256x/ci

go 1.26.0

require (
	github.com/sha256x/sha256x v0.0.0
	golang.org/x/tools v0.39.1-0.20260527181557-0f52e3809b35
)

require (
	golang.org/x/mod v0.30.0 // indirect
	golang.org/x/sync v0.18.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
)

replace github.com/sha256x/sha256x => ../
