package sha256x

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/sha256x/sha256x/internal/plan"
)

// TestKernelEnv: SHA256X_KERNEL accepts every name Kernel and Kernels
// report on this CPU (Kernel's is a plan's, such as "avx512+shani", which a
// bug report quotes), and every other name plan.Names lists, and forcing it
// runs that plan: each name in a process of its own, since the variable is
// read once at init.
func TestKernelEnv(t *testing.T) {
	if os.Getenv("SHA256X_KERNEL_CHILD") != "" {
		t.Skip("in the child")
	}
	if testing.Short() || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		// Emulated runs (.ci/cross) are -short: qemu user mode may not
		// run the binary it is given again.
		t.Skip("starts a process of this test binary per name")
	}
	names := append([]string{Kernel()}, Kernels()...)
	names = append(names, plan.Names()...)
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestKernelEnvChild$", "-test.v")
			cmd.Env = append(os.Environ(), "SHA256X_KERNEL="+name, "SHA256X_KERNEL_CHILD=1")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("SHA256X_KERNEL=%s: %v\n%s", name, err, out)
			}
			want := name
			if k := plan.Find(name); k != nil {
				want = k.Plan.Name // a kernel's own plan, "neon+generic" for neon
			}
			if !strings.Contains(string(out), "\nKernel() = "+want+"\n") || !strings.Contains(string(out), "--- PASS: TestKernelEnvChild") {
				t.Errorf("SHA256X_KERNEL=%s: want Kernel() = %s and a pass:\n%s", name, want, out)
			}
		})
	}
}

// TestKernelEnvChild runs in TestKernelEnv's processes: the forced plan is
// the one of that name, and it hashes as crypto/sha256 does.
func TestKernelEnvChild(t *testing.T) {
	name := os.Getenv("SHA256X_KERNEL")
	if os.Getenv("SHA256X_KERNEL_CHILD") == "" || name == "" {
		t.Skip("run by TestKernelEnv")
	}
	fmt.Printf("\nKernel() = %s\n", Kernel())
	if want := plan.Runnable(name); plan.Active != want {
		t.Errorf("SHA256X_KERNEL=%s runs plan %q, not the plan of that name", name, plan.Active.Name)
	}
	hashesRight(t)
}

// TestGODEBUG: Go's GODEBUG=cpu.<feature>=off turns a feature off for the
// dispatcher as for Go's crypto: the kernels that need it are neither listed
// nor run, and what runs instead hashes as crypto/sha256 does. Each setting
// in a process of its own, since the features are read once at init.
func TestGODEBUG(t *testing.T) {
	if os.Getenv("SHA256X_KERNEL_CHILD") != "" {
		t.Skip("in the child")
	}
	if testing.Short() || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("starts a process of this test binary per setting")
	}
	settings := map[string][]string{ // what each setting takes away, by GOARCH
		"amd64": {"cpu.sha=off shani", "cpu.avx2=off avx2 avx512", "cpu.avx512f=off avx512",
			"cpu.avx=off avx2 avx512", "cpu.all=off shani avx2 avx512"},
		"arm64": {"cpu.sha2=off sha2", "cpu.asimd=off sha2 neon", "cpu.all=off sha2 neon"},
	}[runtime.GOARCH]
	for _, s := range settings {
		setting, off, _ := strings.Cut(s, " ")
		t.Run(setting, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestGODEBUGChild$", "-test.v")
			cmd.Env = append(os.Environ(), "GODEBUG="+setting, "SHA256X_KERNEL_CHILD=1", "SHA256X_KERNEL=")
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "--- PASS: TestGODEBUGChild") {
				t.Fatalf("GODEBUG=%s: %v\n%s", setting, err, out)
			}
			_, ran, _ := strings.Cut(string(out), "\nkernels: ")
			ran, _, _ = strings.Cut(ran, "\n")
			for _, family := range strings.Fields(off) {
				if strings.Contains(ran, family) {
					t.Errorf("GODEBUG=%s: %s still runs or is listed: %s", setting, family, ran)
				}
			}
		})
	}
}

// TestGODEBUGChild runs in TestGODEBUG's processes: it prints the plan and
// the kernels listed, and hashes with them.
func TestGODEBUGChild(t *testing.T) {
	if os.Getenv("SHA256X_KERNEL_CHILD") == "" || os.Getenv("GODEBUG") == "" {
		t.Skip("run by TestGODEBUG")
	}
	fmt.Printf("\nkernels: %s %s\n", Kernel(), strings.Join(Kernels(), " "))
	hashesRight(t)
}

// hashesRight checks that HashMany, on the plan this process runs, hashes
// a batch of 37 messages (0 to 756 bytes) as crypto/sha256 does.
func hashesRight(t *testing.T) {
	msgs := make([][]byte, 37)
	for i := range msgs {
		msgs[i] = []byte(strings.Repeat("abc", i*7))
	}
	out := make([][Size]byte, len(msgs))
	HashMany(out, msgs)
	for i, m := range msgs {
		if out[i] != sha256.Sum256(m) {
			t.Errorf("plan %s: HashMany's digest %d differs from crypto/sha256's", Kernel(), i)
		}
	}
}
