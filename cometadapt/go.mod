module github.com/sha256x/sha256x/cometadapt

go 1.26.0

replace github.com/sha256x/sha256x => ../

require github.com/sha256x/sha256x v0.0.0-00010101000000-000000000000

require (
	github.com/cometbft/cometbft v1.0.1
	github.com/cometbft/cometbft/api v1.0.0 // indirect
	github.com/cosmos/gogoproto v1.7.0 // indirect
	github.com/google/go-cmp v0.6.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	google.golang.org/protobuf v1.36.4 // indirect
)
