package kernel

// The generated files: each amd64 family's assembly and stubs (_asm/lanes,
// _asm/shani, _asm/chain), then the table, amd64's pairs entries
// (entry_amd64.s) and arm64's stubs and layout header (_asm/table), all from
// the kernel list in _asm/abi. The generators build this package with -tags
// sha256x_generate, which leaves the table out (table_generate.go), so that
// it builds in any state the table and the stubs pass through while they are
// rewritten.

//go:generate sh -c "cd ../../_asm && GOFLAGS=-tags=sha256x_generate go run ./lanes -isa avx2 -pkg kernel -out ../internal/kernel/avx2_amd64.s.tmp -stubs ../internal/kernel/avx2_amd64.go.tmp"
//go:generate sh -c "cd ../../_asm && GOFLAGS=-tags=sha256x_generate go run ./lanes -isa avx512 -pkg kernel -out ../internal/kernel/avx512_amd64.s.tmp -stubs ../internal/kernel/avx512_amd64.go.tmp"
//go:generate sh -c "cd ../../_asm && GOFLAGS=-tags=sha256x_generate go run ./shani -pkg kernel -out ../internal/kernel/shani_amd64.s.tmp -stubs ../internal/kernel/shani_amd64.go.tmp"
//go:generate sh -c "cd ../../_asm && GOFLAGS=-tags=sha256x_generate go run ./chain -pkg kernel -out ../internal/kernel/chain_amd64.s.tmp -stubs ../internal/kernel/chain_amd64.go.tmp"
//go:generate sh -c "cd ../../_asm && GOFLAGS=-tags=sha256x_generate go run ./table -dir ../internal/kernel"
