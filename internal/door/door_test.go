package door

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// TestInline: Plan, Small and SmallPairs inline into hashtree's Hash and
// HashByteSlice, so that the one- and two-pair levels reach the kernel one
// call from their frame (the door's package comment). A change that pushes
// one of them past the inliner's budget fails here rather than as a few
// percent in a benchmark.
func TestInline(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no go command to run here")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	const pkg = "github.com/sha256x/sha256x/hashtree"
	out, err := exec.Command(goCmd, "build", "-gcflags="+pkg+"=-m", pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, f := range []string{"door.Plan", "door.Small", "door.SmallPairs"} {
		if n := strings.Count(string(out), "inlining call to "+f+"\n"); n != 2 {
			t.Errorf("%s inlined %d times into hashtree, want 2 (Hash, HashByteSlice)", f, n)
		}
	}
}
