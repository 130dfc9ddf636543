//go:build sha256x_generate

package kernel

// Built only by the generators (gen.go), which read this package's types
// and constants: the table they write is left out.
var infos = [firstArch]Info{}
