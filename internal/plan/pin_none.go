//go:build !(sha256x_generic || sha256x_stdlib || sha256x_shani || sha256x_avx2 || sha256x_avx512 || sha256x_neon || sha256x_sha2)

package plan

// pinned is the kernel a sha256x_<name> build tag pins, or "".
const pinned = ""
