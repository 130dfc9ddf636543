module github.com/sha256x/sha256x/bench

go 1.26.0

require (
	github.com/ferranbt/fastssz v0.1.4
	github.com/klauspost/cpuid/v2 v2.4.2
	github.com/minio/sha256-simd v1.0.1
	github.com/pk910/hashtree-bindings v0.2.6
	github.com/prysmaticlabs/gohashtree v0.0.4-beta
	github.com/sha256x/sha256x v0.0.0
	github.com/transparency-dev/merkle v0.0.2
	golang.org/x/mod v0.43.0
	golang.org/x/sys v0.50.0
)

require (
	github.com/emicklei/dot v1.6.2 // indirect
	github.com/mitchellh/mapstructure v1.3.2 // indirect
	gopkg.in/yaml.v2 v2.3.0 // indirect
)

replace github.com/sha256x/sha256x => ../
