package files

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestChangedWhileRead: a file changed between its read and the stamp
// after it is hashed again, and gets its new contents' digest; one changed
// after every read is given ErrChanged after hashTries passes. Small
// files read whole and large ones streamed, read or mapped, by system
// calls or through an fs.FS.
func TestChangedWhileRead(t *testing.T) {
	type way struct {
		name string
		h    Hasher
		mmap string
		fsys bool
	}
	ways := []way{
		{"plain", Hasher{PlainReads: true}, "", false},
		{"fs.FS", Hasher{}, "", true},
		{"default, read", Hasher{}, "off", false},
	}
	if runtime.GOOS == "linux" {
		ways = append(ways, way{"default, mapped", Hasher{}, "on", false})
	}
	for _, w := range ways {
		for _, size := range []int{100, 5000, 20000, 1 << 20} {
			for _, every := range []bool{false, true} {
				t.Run("", func(t *testing.T) {
					t.Setenv("SHA256X_MMAP", w.mmap)
					dir := t.TempDir()
					p := filepath.Join(dir, "f")
					old, changed := bytes.Repeat([]byte("a"), size), bytes.Repeat([]byte("b"), size-10)
					if err := os.WriteFile(p, old, 0o644); err != nil {
						t.Fatal(err)
					}
					calls := 0
					changeHook = func(string) {
						if calls++; calls == 1 || every {
							// Shrunk and written again in place, as a
							// rewrite under the read leaves it.
							if err := os.WriteFile(p, changed[:len(changed)-calls%2], 0o644); err != nil {
								t.Error(err)
							}
						}
					}
					defer func() { changeHook = nil }()
					h, name := w.h, p
					if w.fsys {
						h.FS, name = os.DirFS(dir), "f"
					}
					again, gave := readAgain.Load(), gaveUp.Load()
					res, err := h.Hash(context.Background(), []string{name})
					if err != nil {
						t.Fatal(err)
					}
					r := res[0]
					again, gave = readAgain.Load()-again, gaveUp.Load()-gave
					got, _ := os.ReadFile(p)
					switch {
					case every:
						var pe *fs.PathError
						if !errors.Is(r.Err, ErrChanged) || !errors.As(r.Err, &pe) || pe.Path != name || again != hashTries || gave != 1 {
							t.Errorf("%s, %d bytes, changed every time: %v, %d reads again, %d given up; want ErrChanged, %d, 1", w.name, size, r.Err, again, gave, hashTries)
						}
					case r.Err != nil || r.Sum != sha256.Sum256(got) || again != 1 || gave != 0:
						t.Errorf("%s, %d bytes, changed once: %v, %d bytes, digest right: %v, %d reads again, %d given up; want 1, 0", w.name, size, r.Err, r.Size, r.Sum == sha256.Sum256(got), again, gave)
					}
				})
			}
		}
	}
}
