package files

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRingChecked: files read through the ring are taken if a statx after
// the read finds them settled (probed) or as before it (sized); one changed
// after its read, and the probed ones written just before the call, are
// read again the plain way.
func TestRingChecked(t *testing.T) {
	if why := ringRefusedWhy(); why != "" {
		t.Skip("io_uring not used:", why)
	}
	for name, dir := range fsDirs(t) {
		for _, young := range []bool{false, true} {
			for i := range 40 {
				p := filepath.Join(dir, fmt.Sprintf("f%02d", i))
				os.WriteFile(p, bytes.Repeat([]byte{byte(i)}, 100+i*600), 0o644)
				if young { // a time to come: young however slow the test runs
					os.Chtimes(p, time.Time{}, time.Now().Add(time.Hour))
				}
			}
			settle()
			changed := map[string]bool{}
			changeHook = func(p string) {
				if b := filepath.Base(p); (b == "f03" || b == "f35") && !changed[p] {
					changed[p] = true
					os.WriteFile(p, []byte("changed"), 0o644)
				}
			}
			ring, unsettled := ringFiles.Load(), ringUnsettled.Load()
			var res []Result
			(&Hasher{}).Stream(context.Background(), Tree(dir), func(r Result) { res = append(res, r) })
			changeHook = nil
			ring, unsettled = ringFiles.Load()-ring, ringUnsettled.Load()-unsettled
			for _, r := range res {
				if r.Err != nil || r.Sum != want(t, nil, r.Path) {
					t.Errorf("%s, young %v: %s: %v, or a wrong digest", name, young, r.Path, r.Err)
				}
			}
			// 28 files probed, 12 sized (over probeMax).
			wantRing, wantUnsettled := int64(38), int64(2)
			if young {
				wantRing, wantUnsettled = 11, 29
			}
			if len(res) != 40 || len(changed) != 2 || ring != wantRing || unsettled != wantUnsettled {
				t.Errorf("%s, young %v: %d files, %d through the ring, %d unsettled, %d changed; want 40, %d, %d, 2", name, young, len(res), ring, unsettled, len(changed), wantRing, wantUnsettled)
			}
		}
	}
}

// TestChangedWhileRead: a file rewritten between its read and its stamp
// after is hashed again; one rewritten after every read gets ErrChanged.
// Read whole or streamed, read or mapped, by system calls or an fs.FS.
func TestChangedWhileRead(t *testing.T) {
	for _, w := range []struct {
		h    Hasher
		mmap string
		fsys bool
	}{{Hasher{PlainReads: true}, "", false}, {Hasher{}, "", true}, {Hasher{}, "off", false}, {Hasher{}, "on", false}} {
		for _, size := range []int{100, 20000, 1 << 20} {
			for _, every := range []bool{false, true} {
				t.Setenv("SHA256X_MMAP", w.mmap)
				dir := t.TempDir()
				p := filepath.Join(dir, "f")
				os.WriteFile(p, bytes.Repeat([]byte("a"), size), 0o644)
				calls := 0
				changeHook = func(string) {
					if calls++; calls == 1 || every {
						os.WriteFile(p, bytes.Repeat([]byte("b"), size-calls%9), 0o644)
					}
				}
				h, name := w.h, p
				if w.fsys {
					h.FS, name = os.DirFS(dir), "f"
				}
				again, gave := readAgain.Load(), gaveUp.Load()
				res, _ := h.Hash(context.Background(), []string{name})
				changeHook = nil
				r, got := res[0], must(os.ReadFile(p))
				again, gave = readAgain.Load()-again, gaveUp.Load()-gave
				if every && (!errors.Is(r.Err, ErrChanged) || again != hashTries || gave != 1) ||
					!every && (r.Err != nil || r.Sum != sha256.Sum256(got) || again != 1 || gave != 0) {
					t.Errorf("%+v, %d bytes, changed every time %v: %v, digest right %v, %d passes again, %d given up", w, size, every, r.Err, r.Sum == sha256.Sum256(got), again, gave)
				}
			}
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
