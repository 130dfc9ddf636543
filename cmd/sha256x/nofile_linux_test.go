package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/sha256x/sha256x/internal/fdlimit"
)

// nofileEnv, set to a number, makes this test binary the command with that
// many descriptors to spare (fdlimit.Leave), as prlimit --nofile would.
const nofileEnv = "SHA256X_TEST_NOFILE"

func init() {
	nofileChild = func() {
		arg := os.Getenv(nofileEnv)
		if arg == "" {
			return
		}
		spare, err := strconv.Atoi(arg)
		if err == nil {
			err = fdlimit.Leave(spare)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
}

// TestSumShortOfDescriptors: sum of 32 large files, -r of them and of
// small ones, and -c of a list of them, each with a few descriptors to
// spare, print sha256sum's lines with crypto/sha256's digests and exit 0,
// from one descriptor spare (two for -c: the list's, and one for the files
// it names, as sha256sum needs); with none (one for -c), every file gets
// sha256sum's error and the exit status is 1.
func TestSumShortOfDescriptors(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(9, 9))
	var names []string
	var sums, list bytes.Buffer
	write := func(name string, size int) {
		b := make([]byte, size)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
		fmt.Fprintf(&sums, "%x  %s\n", sha256.Sum256(b), name)
	}
	// Past smallMax, to be streamed (16 a goroutine side by side).
	for i := range 32 {
		write(fmt.Sprintf("big/f%02d", i), smallMax+1+r.IntN(64<<10))
	}
	bigSums, bigNames := sums.String(), names
	for i := range 40 {
		write(fmt.Sprintf("small/s%02d", i), r.IntN(5000))
	}
	list.WriteString(bigSums)
	if err := os.WriteFile(filepath.Join(dir, "list"), list.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var refused, failed strings.Builder
	for _, n := range bigNames {
		fmt.Fprintf(&refused, "sha256x: %s: Too many open files\n", n)
		fmt.Fprintf(&failed, "%s: FAILED open or read\n", n)
	}
	cases := []struct {
		args           []string
		spare          int
		stdout, stderr string
		code           int
	}{
		{append([]string{"sum"}, bigNames...), 1, bigSums, "", 0},
		{append([]string{"sum"}, bigNames...), 7, bigSums, "", 0},
		{append([]string{"sum"}, bigNames...), 15, bigSums, "", 0},
		{[]string{"sum", "-r", "big", "small"}, 1, sums.String(), "", 0},
		{[]string{"sum", "-c", "list"}, 2, strings.ReplaceAll(failed.String(), "FAILED open or read", "OK"), "", 0},
		{append([]string{"sum"}, bigNames...), 0, "", refused.String(), 1},
		{[]string{"sum", "-c", "list"}, 1, failed.String(), refused.String() + "sha256x: WARNING: 32 listed files could not be read\n", 1},
	}
	for _, c := range cases {
		name := "sum"
		if strings.HasPrefix(c.args[1], "-") {
			name += " " + c.args[1]
		}
		t.Run(fmt.Sprintf("%s/spare=%d", name, c.spare), func(t *testing.T) {
			cmd := exec.Command(exe, c.args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), nofileEnv+"="+strconv.Itoa(c.spare), "LC_ALL=C.UTF-8")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != c.code || stdout.String() != c.stdout || stderr.String() != c.stderr {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code,
					diff(stdout.String(), c.stdout), diff(stderr.String(), c.stderr))
			}
		})
	}
}

// TestSumShortOfDescriptorsOnTerminal: sum with standard error a terminal
// and one or two descriptors to spare hashes every file and draws no
// progress line, whose timer would set up the runtime's poller: two
// descriptors, a fatal error with fewer, none left for the files with two.
func TestSumShortOfDescriptorsOnTerminal(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(10, 10))
	var names []string
	var sums strings.Builder
	for i := range 4 {
		b := make([]byte, smallMax+1+r.IntN(64<<10))
		for j := range b {
			b[j] = byte(r.Uint32())
		}
		name := fmt.Sprintf("f%d", i)
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
		fmt.Fprintf(&sums, "%x  %s\n", sha256.Sum256(b), name)
	}
	for _, spare := range []int{1, 2} {
		t.Run(fmt.Sprintf("spare=%d", spare), func(t *testing.T) {
			ptm, pts := openPty(t)
			defer ptm.Close()
			var tty bytes.Buffer
			read := make(chan struct{})
			go func() {
				io.Copy(&tty, ptm) // until the terminal's last holder closes it (EIO)
				close(read)
			}()
			cmd := exec.Command(exe, append([]string{"sum"}, names...)...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), nofileEnv+"="+strconv.Itoa(spare), "LC_ALL=C.UTF-8")
			var stdout bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, pts
			err := cmd.Run()
			pts.Close()
			<-read
			if err != nil || stdout.String() != sums.String() || tty.Len() > 0 {
				t.Errorf("%v\nstdout: %s\nterminal: %q", err, diff(stdout.String(), sums.String()), tty.String())
			}
		})
	}
}

// TestSumTerminalLines: with standard output a terminal, a file's line is
// written once it is hashed, as sha256sum's is, not when a buffer fills or
// the command ends: here before standard input, hashed next, ends.
func TestSumTerminalLines(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	line := fmt.Sprintf("%x  f", sha256.Sum256(nil))
	if err := os.WriteFile(filepath.Join(dir, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "list"), []byte(line+"\n"+line[:66]+"-\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for c, want := range map[string]string{"f -": line, "-c list": "f: OK"} {
		ptm, pts := openPty(t)
		cmd := exec.Command(exe, append([]string{"sum"}, strings.Fields(c)...)...)
		cmd.Dir, cmd.Stdout = dir, pts
		cmd.Env = append(os.Environ(), nofileEnv+"=100")
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pts.Close()
		got := make(chan string, 1)
		go func() {
			var b []byte
			buf := make([]byte, 256)
			for !bytes.Contains(b, []byte(want+"\r\n")) {
				n, err := ptm.Read(buf)
				if err != nil {
					break
				}
				b = append(b, buf[:n]...)
			}
			got <- string(b)
		}()
		select {
		case s := <-got:
			if s != want+"\r\n" {
				t.Errorf("sum %s: the terminal got %q, want the line %q", c, s, want)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("sum %s: no line on the terminal while standard input is open", c)
		}
		stdin.Close()
		cmd.Wait()
		ptm.Close()
	}
}

// openPty opens a pseudo-terminal: its master and its slave.
func openPty(t *testing.T) (ptm, pts *os.File) {
	fd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Skip("no pseudo-terminals:", err)
	}
	ptm = os.NewFile(uintptr(fd), "/dev/ptmx")
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		ptm.Close()
		t.Skip("no pseudo-terminals:", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		ptm.Close()
		t.Skip("no pseudo-terminals:", err)
	}
	pts, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		ptm.Close()
		t.Skip("no pseudo-terminals:", err)
	}
	return ptm, pts
}
