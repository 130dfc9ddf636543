package files

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestParseMountinfo(t *testing.T) {
	const (
		root = "25 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
		shm  = "30 25 0:26 / /dev/shm rw,nosuid,nodev shared:4 - tmpfs tmpfs rw,size=24683584k\n"
	)
	for _, c := range []struct {
		name, info string
		points     []string
		dax        bool
	}{
		{"none", root + shm, []string{"/", "/dev/shm"}, false},
		{"dax superblock option", root + "40 25 259:0 / /mnt/pmem rw,relatime - xfs /dev/pmem0 rw,attr2,dax=always\n", []string{"/", "/mnt/pmem"}, true},
		{"old dax option", "40 25 259:0 / /p rw - ext4 /dev/pmem0 rw,dax\n", []string{"/p"}, true},
		{"dax=inode", "40 25 259:0 / /p rw - xfs /dev/pmem0 rw,dax=inode\n", []string{"/p"}, true},
		{"per-mount option", "40 25 259:0 / /p rw,dax master:3 - ext4 /dev/pmem0 rw\n", []string{"/p"}, true},
		{"dax=never", "40 25 259:0 / /p rw - ext4 /dev/pmem0 rw,dax=never\n", []string{"/p"}, false},
		{"a path named dax", "40 25 259:0 / /dax rw - ext4 /dev/dax rw,daxish\n", []string{"/dax"}, false},
		{"escapes", "40 25 0:50 / /a\\040b/c\\134d rw - tmpfs tmpfs rw\n", []string{"/a b/c\\d"}, false},
		{"a short line", "40 25\n" + root, []string{"/"}, false},
	} {
		points, dax, err := parseMountinfo(strings.NewReader(c.info))
		if err != nil || dax != c.dax || !slices.Equal(points, c.points) {
			t.Errorf("%s: parseMountinfo = %q, %v, %v; want %q, %v", c.name, points, dax, err, c.points, c.dax)
		}
	}
}

// fsDirs are a temporary directory on the file systems the tests can
// reach: the default one, and tmpfs.
func fsDirs(t *testing.T) map[string]string {
	dirs := map[string]string{"TempDir": t.TempDir()}
	var st unix.Statfs_t
	if unix.Statfs("/dev/shm", &st) == nil && uint32(st.Type) == unix.TMPFS_MAGIC {
		d, err := os.MkdirTemp("/dev/shm", "sha256x-test")
		if err == nil {
			t.Cleanup(func() { os.RemoveAll(d) })
			dirs["tmpfs"] = d
		}
	}
	return dirs
}

func dirShortReadsEnd(t *testing.T, dir string) (bool, uint32) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	var st unix.Statfs_t
	if err := unix.Fstatfs(fd, &st); err != nil {
		t.Fatal(err)
	}
	return shortReadsEnd(fd), uint32(st.Type)
}

// TestShortReadsEnd: procfs, whose files read short of their end, is never
// trusted, nor a directory with a mount point in it; tmpfs is, where no
// mount uses DAX.
func TestShortReadsEnd(t *testing.T) {
	if ends, _ := dirShortReadsEnd(t, "/proc/self"); ends {
		t.Errorf("/proc/self: short reads taken as the end of a file")
	}
	if ends, typ := dirShortReadsEnd(t, "/"); ends {
		t.Errorf("/ (file system %#x, mount points in it): short reads taken as the end of a file", typ)
	}
	dax := currentMounts().dax
	for name, dir := range fsDirs(t) {
		ends, typ := dirShortReadsEnd(t, dir)
		t.Logf("%s (file system %#x): short reads end files: %v (DAX mounted: %v)", name, typ, ends, dax)
		if name == "tmpfs" && ends == dax {
			t.Errorf("tmpfs: shortReadsEnd = %v with DAX mounted %v", ends, dax)
		}
	}
}

// TestShortReadsEndMount: a directory stops being trusted once something
// is mounted in it, and is trusted again once it is unmounted (where this
// process may mount).
func TestShortReadsEndMount(t *testing.T) {
	dir := t.TempDir()
	if ends, _ := dirShortReadsEnd(t, dir); !ends || currentMounts().dax {
		t.Skip("short reads not trusted here to begin with")
	}
	sub := dir + "/m"
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mount("sha256x-test", sub, "tmpfs", 0, ""); err != nil {
		t.Skip("cannot mount:", err)
	}
	mounted := true
	defer func() {
		if mounted {
			unix.Unmount(sub, 0)
		}
	}()
	if ends, _ := dirShortReadsEnd(t, dir); ends {
		t.Errorf("%s: trusted with a mount point in it", dir)
	}
	if err := unix.Unmount(sub, 0); err != nil {
		t.Fatal(err)
	}
	mounted = false
	if ends, _ := dirShortReadsEnd(t, dir); !ends {
		t.Errorf("%s: not trusted again once unmounted", dir)
	}
}

// TestOpenDirNoLinks: a directory opened with no symbolic link on its way
// gets the path /proc/self/fd gives it, from a relative name (with . and ..
// in it) or an absolute one, and is judged as shortReadsEnd judges it,
// with a mount point in it too; a symbolic link on the way is refused.
func TestOpenDirNoLinks(t *testing.T) {
	cwd, err := unix.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, d := range []string{"a/b", "m"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(cwd, dir)
	if err != nil {
		t.Fatal(err)
	}
	mounted := unix.Mount("sha256x-test", filepath.Join(dir, "m"), "tmpfs", 0, "") == nil
	if mounted {
		defer unix.Unmount(filepath.Join(dir, "m"), 0)
	}
	names := []string{dir, dir + "/a", dir + "/a/b", dir + "/a/./b/..", rel, rel + "/a/b", rel + "//a/../a/b/", "/", "/proc"}
	for _, name := range names {
		fd, abs, ok := openDirNoLinks(name, cwd)
		if !ok {
			if noOpenat2.Load() {
				t.Skip("openat2 refused here")
			}
			t.Errorf("%s: not opened", name)
			continue
		}
		want, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
		if err != nil {
			t.Fatal(err)
		}
		if abs != want {
			t.Errorf("%s: path %q, want %q", name, abs, want)
		}
		if got, want := shortReadsEndIn(fd, abs, currentMounts()), shortReadsEnd(fd); got != want {
			t.Errorf("%s: shortReadsEndIn = %v, shortReadsEnd = %v", name, got, want)
		}
		if name == dir && mounted && shortReadsEndIn(fd, abs, currentMounts()) {
			t.Errorf("%s: trusted with a mount point in it", name)
		}
		unix.Close(fd)
	}
	for _, name := range []string{dir + "/link", dir + "/link/b", "/proc/self", "/proc/self/cwd"} {
		if fd, _, ok := openDirNoLinks(name, cwd); ok {
			unix.Close(fd)
			t.Errorf("%s: opened through a symbolic link", name)
		}
	}
}

// TestProbeChains: the ring's probe reads give crypto/sha256's digests
// with the read of one more byte and, where the file system allows it,
// without (TestProbed checks what each chain's results are taken for).
func TestProbeChains(t *testing.T) {
	if why := ringRefusedWhy(); why != "" {
		t.Skip("io_uring not used:", why)
	}
	for name, dir := range fsDirs(t) {
		paths := randomTree(t, dir, 7, 200, 20000)
		ends, _ := dirShortReadsEnd(t, dir+"/d0")
		for _, trust := range []bool{true, false} {
			trustShortReads = trust
			ring, short := ringFiles.Load(), ringShort.Load()
			res, err := (&Hasher{}).Hash(context.Background(), paths)
			trustShortReads = true
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range res {
				if r.Err != nil || r.Sum != want(t, nil, paths[i]) {
					t.Fatalf("%s, trust %v: %s (%d bytes): %v, or a wrong digest", name, trust, r.Path, r.Size, r.Err)
				}
			}
			ring, short = ringFiles.Load()-ring, ringShort.Load()-short
			t.Logf("%s, trust %v: %d files read through the ring, %d of them without the read of one more byte", name, trust, ring, short)
			if ring == 0 {
				t.Errorf("%s, trust %v: no file read through io_uring", name, trust)
			}
			if wantShort := trust && ends; (short > 0) != wantShort {
				t.Errorf("%s, trust %v: %d files taken from a short read; want some: %v", name, trust, short, wantShort)
			}
		}
	}
}

// TestLateOpens: where short reads end files, a probe's unlinked open that
// finishes after its read and close (sent to io-wq, asyncOpens) has its
// file read and closed by a second submission; elsewhere the chains are
// linked and no open is late. The digests are crypto/sha256's either way.
func TestLateOpens(t *testing.T) {
	if why := ringRefusedWhy(); why != "" {
		t.Skip("io_uring not used:", why)
	}
	for name, dir := range fsDirs(t) {
		paths := randomTree(t, dir, 9, 200, 20000)
		for _, trust := range []bool{true, false} {
			trustShortReads, asyncOpens = trust, true
			late, ring := ringLate.Load(), ringFiles.Load()
			res, err := (&Hasher{}).Hash(context.Background(), paths)
			trustShortReads, asyncOpens = true, false
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range res {
				if r.Err != nil || r.Sum != want(t, nil, paths[i]) {
					t.Fatalf("%s, trust %v: %s (%d bytes): %v, or a wrong digest", name, trust, r.Path, r.Size, r.Err)
				}
			}
			late, ring = ringLate.Load()-late, ringFiles.Load()-ring
			t.Logf("%s, trust %v: %d files read through the ring, %d opens late", name, trust, ring, late)
			ends, _ := dirShortReadsEnd(t, dir)
			if ring == 0 || (late > 0) != (trust && ends) {
				t.Errorf("%s, trust %v: %d late opens, %d files through the ring; want late opens: %v", name, trust, late, ring, trust && ends)
			}
		}
	}
}

// TestUnsettledPlain: where short reads end files, the files a probe
// leaves unsettled short of probeMax (empty, or read to a multiple of 4096
// bytes) are read the plain way, not sized through the ring's statx, and
// the others through the ring; the digests are crypto/sha256's.
func TestUnsettledPlain(t *testing.T) {
	if why := ringRefusedWhy(); why != "" {
		t.Skip("io_uring not used:", why)
	}
	for name, dir := range fsDirs(t) {
		if ends, _ := dirShortReadsEnd(t, dir); !ends {
			continue
		}
		settled := 0
		for i := range 40 {
			n := 4096 * (i % 4) // 0, 4096, 8192, 12288
			if i%5 == 4 {
				n, settled = 100+i, settled+1
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d", i)), bytes.Repeat([]byte{byte(i)}, n), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		settle()
		ring := ringFiles.Load()
		var res []Result
		if err := (&Hasher{}).Stream(context.Background(), Tree(dir), func(r Result) { res = append(res, r) }); err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if r.Err != nil || r.Sum != want(t, nil, r.Path) {
				t.Fatalf("%s: %s: %v, or a wrong digest", name, r.Path, r.Err)
			}
		}
		if ring = ringFiles.Load() - ring; len(res) != 40 || ring != int64(settled) {
			t.Errorf("%s: %d files, %d through the ring; want 40, %d", name, len(res), ring, settled)
		}
	}
}

func TestProbed(t *testing.T) {
	for _, c := range []struct {
		open, n, more int32
		ends          bool
		want          int
	}{
		{-2, 0, 0, false, probePlain},
		{0, -5, 0, false, probePlain},
		{0, 100, -5, false, probePlain},
		{0, 100, 0, false, probeWhole},
		{0, 4096, 0, false, probeWhole},
		{0, probeMax, 0, false, probeWhole},
		{0, probeMax, 1, false, probeSized},
		{0, 100, 1, false, probeSized}, // grew between the reads
		{0, 0, 0, false, probeSized},
		{0, -5, 0, true, probePlain},
		{0, 100, 0, true, probeWhole},
		{0, 4095, 0, true, probeWhole},
		{0, 4097, 0, true, probeWhole},
		{0, 4096, 0, true, probeSized},
		{0, 12288, 0, true, probeSized},
		{0, probeMax, 0, true, probeSized},
		{0, 0, 0, true, probeSized},
	} {
		if got := probed(c.open, c.n, c.more, c.ends); got != c.want {
			t.Errorf("probed(%d, %d, %d, %v) = %d, want %d", c.open, c.n, c.more, c.ends, got, c.want)
		}
	}
}
