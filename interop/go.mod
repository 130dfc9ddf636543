module github.com/sha256x/sha256x/interop

go 1.26.0

replace github.com/sha256x/sha256x => ../

replace github.com/sha256x/sha256x/logadapt => ../logadapt

require (
	github.com/ferranbt/fastssz v0.1.4
	github.com/klauspost/cpuid/v2 v2.4.2
	github.com/pk910/hashtree-bindings v0.2.6
	github.com/protolambda/ztyp v0.2.2
	github.com/prysmaticlabs/gohashtree v0.0.4-beta
	github.com/sha256x/sha256x v0.0.0-00010101000000-000000000000
	github.com/sha256x/sha256x/logadapt v0.0.0-00010101000000-000000000000
	github.com/transparency-dev/merkle v0.0.2
	golang.org/x/mod v0.43.0
)

require github.com/holiman/uint256 v1.2.0 // indirect

require (
	github.com/cometbft/cometbft v1.0.1
	github.com/cometbft/cometbft/api v1.0.0 // indirect
	github.com/cosmos/gogoproto v1.7.0 // indirect
	github.com/google/go-cmp v0.6.0 // indirect
	google.golang.org/protobuf v1.36.4 // indirect
)

require (
	github.com/btcsuite/btcd v0.24.2
	github.com/btcsuite/btcd/btcec/v2 v2.1.3 // indirect
	github.com/btcsuite/btcd/btcutil v1.1.6
	github.com/btcsuite/btcd/chaincfg/chainhash v1.1.0
	github.com/btcsuite/btclog v0.0.0-20170628155309-84c8d2346e9f // indirect
	github.com/decred/dcrd/crypto/blake256 v1.0.1 // indirect
	github.com/decred/dcrd/dcrec/secp256k1/v4 v4.3.0 // indirect
	github.com/emicklei/dot v1.6.2 // indirect
	github.com/minio/sha256-simd v1.0.0 // indirect
	github.com/mitchellh/mapstructure v1.5.0 // indirect
	github.com/pk910/dynamic-ssz v1.4.0
	github.com/sha256x/sha256x/cometadapt v0.0.0-00010101000000-000000000000
	golang.org/x/crypto v0.32.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	gopkg.in/yaml.v2 v2.3.0 // indirect
)

replace github.com/sha256x/sha256x/cometadapt => ../cometadapt
