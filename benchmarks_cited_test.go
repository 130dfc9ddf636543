package sha256x_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// citeRE finds a citation of a benchmark record in comment text:
// BENCHMARKS.md or bench/HISTORY.md, then one or more quoted section titles
// ("A", "B" and "C"), or a #anchor.
var (
	citeRE   = regexp.MustCompile(`(BENCHMARKS\.md|bench/HISTORY\.md)\)?[,:]?\s+((?:"[^"]+"(?:\s*(?:,|and|or)\s*)?)+)`)
	titleRE  = regexp.MustCompile(`"([^"]+)"`)
	anchorRE = regexp.MustCompile(`(BENCHMARKS\.md|bench/HISTORY\.md)#([\w-]+)`)
	linkRE   = regexp.MustCompile(`\]\(bench/HISTORY\.md#([\w-]+)\)`)
	// mdRE finds a record of the repository's root named in a comment
	// (README.md, CONTRIBUTING.md), not a path into another project's tree.
	mdRE = regexp.MustCompile(`(?:^|[^\w./-])([A-Z][A-Z0-9_]*\.md)\b`)
)

// TestBenchmarksCited: every section of BENCHMARKS.md or bench/HISTORY.md
// that a comment cites by title ("Files: large files mapped") or anchor
// exists as a heading there (the title a heading's start, or within it);
// every link from BENCHMARKS.md into the history resolves; and each
// decision (a "## " section of BENCHMARKS.md) names its CPU, figure,
// command and history. Comments are read from the .go, .s and .sh files of
// the whole tree where it is checked out (the other modules' too); the
// history is checked only where it is present (it is not in the module's
// download).
func TestBenchmarksCited(t *testing.T) {
	record, err := os.ReadFile("BENCHMARKS.md")
	if err != nil {
		t.Fatal(err)
	}
	heads := map[string][]string{"BENCHMARKS.md": headings(string(record))}
	var history []byte
	if history, err = os.ReadFile(filepath.Join("bench", "HISTORY.md")); err == nil {
		heads["bench/HISTORY.md"] = headings(string(history))
	} else {
		t.Logf("no bench/HISTORY.md (%v): its citations are not checked", err)
	}

	cites := map[string]int{}
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" || path == filepath.Join("bench", "data") {
				return filepath.SkipDir
			}
			return nil
		}
		ext := filepath.Ext(path)
		if ext != ".go" && ext != ".s" && ext != ".sh" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := commentText(string(b), ext)
		for _, m := range citeRE.FindAllStringSubmatch(text, -1) {
			file := m[1]
			cites[file]++
			hs, ok := heads[file]
			if !ok {
				continue
			}
			for _, tm := range titleRE.FindAllStringSubmatch(m[2], -1) {
				title := squash(tm[1])
				if !cited(hs, title) {
					t.Errorf("%s cites %s, %q: no such section", path, file, title)
				} else if n := decisions(hs, title); file == "BENCHMARKS.md" && n != 1 {
					t.Errorf("%s cites %s, %q: the start of %d sections' titles, not one decision's", path, file, title, n)
				}
			}
		}
		// A record named in a comment is in the repository.
		for _, m := range mdRE.FindAllStringSubmatch(text, -1) {
			if _, err := os.Stat(m[1]); err != nil {
				t.Errorf("%s cites %s: no such file in the repository", path, m[1])
			}
		}
		for _, m := range anchorRE.FindAllStringSubmatch(text, -1) {
			cites[m[1]]++
			if hs, ok := heads[m[1]]; ok && !hasSlug(hs, m[2]) {
				t.Errorf("%s cites %s#%s: no such anchor", path, m[1], m[2])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if cites["BENCHMARKS.md"] < 10 {
		t.Errorf("found %d citations of BENCHMARKS.md: the comments' form changed, or this test reads them wrong", cites["BENCHMARKS.md"])
	}

	// Each decision's five lines, and its links into the history.
	sections := strings.Split(string(record), "\n## ")
	if len(sections) < 2 {
		t.Fatalf("BENCHMARKS.md has no \"## \" sections")
	}
	for _, sec := range sections[1:] {
		title, _, _ := strings.Cut(sec, "\n")
		for _, want := range []string{"**Decision:**", "**CPU:**", "**Figure:**", "**Command:**", "**History:**", "](bench/HISTORY.md#"} {
			if !strings.Contains(sec, want) {
				t.Errorf("BENCHMARKS.md, %q: no %s (each decision names its CPU, figure, command and history)", title, want)
			}
		}
	}
	if hs, ok := heads["bench/HISTORY.md"]; ok {
		for _, m := range linkRE.FindAllStringSubmatch(string(record), -1) {
			if !hasSlug(hs, m[1]) {
				t.Errorf("BENCHMARKS.md links to bench/HISTORY.md#%s: no such anchor", m[1])
			}
		}
	}
}

// commentText returns the comments of a source file, the text after // (Go
// and assembly) or # (shell) on each line, joined by spaces.
func commentText(src, ext string) string {
	mark := "//"
	if ext == ".sh" {
		mark = "#"
	}
	var b strings.Builder
	for _, line := range strings.Split(src, "\n") {
		if _, c, ok := strings.Cut(line, mark); ok {
			b.WriteString(c)
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// headings returns the titles of a Markdown file's headings, whitespace
// squashed.
func headings(md string) []string {
	var hs []string
	fence := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
		}
		if !fence && strings.HasPrefix(line, "#") {
			if t, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " "); ok {
				hs = append(hs, squash(t))
			}
		}
	}
	return hs
}

func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// cited reports whether a heading holds the title.
func cited(hs []string, title string) bool {
	for _, h := range hs {
		if strings.Contains(h, title) {
			return true
		}
	}
	return false
}

// decisions counts the headings that start with the title: a citation of
// BENCHMARKS.md names one decision, not the first words of several.
func decisions(hs []string, title string) int {
	n := 0
	for _, h := range hs {
		if strings.HasPrefix(h, title) {
			n++
		}
	}
	return n
}

// hasSlug reports whether a heading has the anchor GitHub gives it:
// lower case, spaces as hyphens, punctuation but hyphens and underscores
// dropped, "-1", "-2", ... after a repeated one.
func hasSlug(hs []string, anchor string) bool {
	seen := map[string]int{}
	for _, h := range hs {
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		s := b.String()
		if n := seen[s]; n > 0 {
			seen[s]++
			s += "-" + strconv.Itoa(n)
		} else {
			seen[s] = 1
		}
		if s == anchor {
			return true
		}
	}
	return false
}
