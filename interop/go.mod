module github.com/sha256x/sha256x/interop

go 1.26.0

replace github.com/sha256x/sha256x => ../

replace github.com/sha256x/sha256x/logadapt => ../logadapt

require (
	github.com/ferranbt/fastssz v0.1.4
	github.com/klauspost/cpuid/v2 v2.4.2
	github.com/pk910/hashtree-bindings v0.2.6
	github.com/prysmaticlabs/gohashtree v0.0.4-beta
	github.com/sha256x/sha256x v0.0.0-00010101000000-000000000000
	github.com/sha256x/sha256x/logadapt v0.0.0-00010101000000-000000000000
	github.com/transparency-dev/merkle v0.0.2
	golang.org/x/mod v0.43.0
)

require (
	github.com/emicklei/dot v1.6.2 // indirect
	github.com/minio/sha256-simd v1.0.0 // indirect
	github.com/mitchellh/mapstructure v1.3.2 // indirect
	github.com/pk910/dynamic-ssz v1.4.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	gopkg.in/yaml.v2 v2.3.0 // indirect
)
