//go:build !purego

package kernel

import (
	"encoding/binary"
	"os"
	"strconv"
	"strings"
)

// cpuid runs the CPUID instruction for leaf and subleaf sub.
func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// xgetbv reads extended control register 0 (XCR0): which register states
// the operating system saves. Only where CPUID says OSXSAVE.
func xgetbv() (eax uint32)

// An X86 is what the dispatcher reads of an amd64 CPU: who made it, its
// family and model (as the vendors' manuals combine the base and extended
// fields), and the features its kernels need, each with the operating
// system's support for its registers where it has any. Three CPUID leaves,
// read once at init: each CPUID traps to the hypervisor in a virtual
// machine, and a general-purpose library's dozens cost a process start
// (bench/HISTORY.md, "One small file: where the milliseconds go").
// TestFeaturesAgree holds the features to x/sys/cpu's.
type X86 struct {
	Vendor        string // "GenuineIntel", "AuthenticAMD", ...
	Family, Model int
	SHA           bool // SHA-NI (CPUID.(EAX=7,ECX=0):EBX bit 29)
	SSSE3, SSE41  bool // the SHA-NI kernels' PSHUFB and PALIGNR; PBLENDW
	AVX, AVX2     bool // and the OS saves the YMM registers
	AVX512        bool // AVX-512 F and BW, and the OS saves the opmask and ZMM registers
}

// CPU is this machine's, less the features GODEBUG turns off.
var CPU = detected.withGODEBUG(os.Getenv("GODEBUG"))

// detected is what CPUID and the operating system say, before GODEBUG.
var detected = readX86()

func readX86() X86 {
	var c X86
	maxLeaf, b, cx, d := cpuid(0, 0)
	var v [12]byte
	binary.LittleEndian.PutUint32(v[0:], b)
	binary.LittleEndian.PutUint32(v[4:], d)
	binary.LittleEndian.PutUint32(v[8:], cx)
	c.Vendor = string(v[:])
	if maxLeaf < 1 {
		return c
	}
	a, _, cx, _ := cpuid(1, 0)
	c.Family, c.Model = familyModel(a)
	c.SSSE3 = cx&(1<<9) != 0
	c.SSE41 = cx&(1<<19) != 0
	var xcr0 uint32
	if cx&(1<<27) != 0 { // OSXSAVE: XGETBV may be used
		xcr0 = xgetbv()
	}
	osAVX := xcr0&0b110 == 0b110 // the XMM and YMM registers saved
	c.AVX = cx&(1<<28) != 0 && osAVX
	if maxLeaf >= 7 {
		_, b, _, _ := cpuid(7, 0)
		c.SHA = b&(1<<29) != 0
		c.AVX2 = b&(1<<5) != 0 && osAVX
		c.AVX512 = b&(1<<16) != 0 && b&(1<<30) != 0 && osAVX && osSavesAVX512(xcr0)
	}
	return c
}

// withGODEBUG returns c less the features that GODEBUG's cpu.<name>=off
// settings turn off, as Go's runtime (crypto/sha256's kernels) and
// golang.org/x/sys/cpu (this package's dispatcher on arm64) take them: Go's
// names for the features, "all" for every one, the last setting of a name
// winning, and "on" restoring no more than the CPU has. The AVX2 and AVX-512
// kernels are VEX and EVEX code, so turning AVX off turns them off too.
func (c X86) withGODEBUG(env string) X86 {
	features := []struct {
		names []string
		has   *bool
	}{
		{[]string{"sha"}, &c.SHA},
		{[]string{"ssse3"}, &c.SSSE3},
		{[]string{"sse41"}, &c.SSE41},
		{[]string{"avx"}, &c.AVX},
		{[]string{"avx2"}, &c.AVX2},
		{[]string{"avx512", "avx512f", "avx512bw"}, &c.AVX512},
	}
	on := make([]bool, len(features))
	for i, f := range features {
		on[i] = *f.has
	}
	for _, field := range strings.Split(env, ",") {
		setting, ok := strings.CutPrefix(field, "cpu.")
		key, value, _ := strings.Cut(setting, "=")
		if !ok || (value != "on" && value != "off") {
			continue
		}
		for i, f := range features {
			for _, name := range f.names {
				if key == name || key == "all" {
					on[i] = value == "on" && *f.has
				}
			}
		}
	}
	for i, f := range features {
		*f.has = on[i]
	}
	c.AVX2 = c.AVX2 && c.AVX
	c.AVX512 = c.AVX512 && c.AVX
	return c
}

// familyModel decodes CPUID leaf 1's EAX: the extended family is added
// where the base family is 0Fh, and the extended model prefixed where it is
// 06h or 0Fh (Intel's and AMD's manuals agree).
func familyModel(eax uint32) (family, model int) {
	family = int(eax>>8) & 0xf
	model = int(eax>>4) & 0xf
	if family == 0xf {
		family += int(eax>>20) & 0xff
	}
	if family == 0x6 || family >= 0xf {
		model += (int(eax>>16) & 0xf) << 4
	}
	return family, model
}

// Brand returns the CPU's brand string (CPUID leaves 80000002h-80000004h),
// or "" if it has none.
func (X86) Brand() string {
	if max, _, _, _ := cpuid(0x80000000, 0); max < 0x80000004 {
		return ""
	}
	var s [48]byte
	for i := range uint32(3) {
		a, b, c, d := cpuid(0x80000002+i, 0)
		for j, r := range [4]uint32{a, b, c, d} {
			binary.LittleEndian.PutUint32(s[16*i+4*uint32(j):], r)
		}
	}
	return strings.TrimSpace(strings.TrimRight(string(s[:]), "\x00"))
}

// CPUName names the CPU for reports: its brand string, vendor, family and
// model, or "" where CPUID has no brand string.
func CPUName() string {
	b := CPU.Brand()
	if b == "" {
		return ""
	}
	return b + " (" + CPU.Vendor + ", family " + strconv.Itoa(CPU.Family) + ", model " + strconv.Itoa(CPU.Model) + ")"
}
