package main

// How names are written, as GNU coreutils 9.1 sha256sum writes them.

import (
	"os"
	"strings"
	"unicode"
	"unicode/utf8"
)

// escapeName escapes a name for a checksum line if it holds any of chars
// (some of backslash, newline and carriage return): a backslash, a newline
// or a carriage return become \\, \n and \r, and the caller starts the line
// with a backslash. It reports whether anything was escaped. The bytes are
// compared one by one: strings.ContainsAny builds a set each call.
func escapeName(name string, chars string) (string, bool) {
	for i := 0; i < len(name); i++ {
		if c := name[i]; (c == '\\' || c == '\n' || c == '\r') && strings.IndexByte(chars, c) >= 0 {
			r := strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\r", `\r`)
			return r.Replace(name), true
		}
	}
	return name, false
}

// unescapeName undoes escapeName, for a line of a checksum file that starts
// with a backslash; ok is false for any other escape, or a trailing
// backslash, which make the line improperly formatted.
func unescapeName(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == 0 {
			return "", false // as sha256sum: a NUL in an escaped name
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 == len(s) {
			return "", false
		}
		i++
		switch s[i] {
		case '\\':
			b.WriteByte('\\')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		default:
			return "", false
		}
	}
	return b.String(), true
}

// utf8Locale reports whether the environment's character type is UTF-8:
// then names in messages keep their printable non-ASCII characters, as
// they do from coreutils in such a locale; otherwise those bytes are
// escaped, as in the C locale.
var utf8Locale = func() bool {
	for _, v := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if s := os.Getenv(v); s != "" {
			s = strings.ToLower(s)
			return strings.Contains(s, "utf-8") || strings.Contains(s, "utf8")
		}
	}
	return false
}()

// quoteName quotes a name for a message the way coreutils' quotef does
// (gnulib's shell-escape quoting, with the colon quoted too): as it is when
// the shell would read it back unchanged, in double quotes when it has a
// single quote and nothing else special, else in single quotes with
// $'\ooo' escapes for unprintable bytes.
func quoteName(s string) string {
	if s != "" && !needsQuote(s) {
		return s
	}
	q, allCompat, single := shellQuote(s)
	if single && allCompat {
		return `"` + s + `"`
	}
	return q
}

// nextUnit returns the character of s at i: a printable UTF-8 sequence
// (in a UTF-8 locale) or one byte.
func nextUnit(s string, i int) (size int, printable bool) {
	c := s[i]
	if c < utf8.RuneSelf {
		return 1, c >= 0x20 && c < 0x7f
	}
	if !utf8Locale {
		return 1, false
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && n <= 1 {
		return 1, false
	}
	// glibc's iswprint, which coreutils asks, holds format characters
	// (U+00AD, U+200B, U+FEFF, ...) and private use ones printable too;
	// unicode.IsGraphic does not.
	return n, unicode.IsGraphic(r) || unicode.In(r, unicode.Cf, unicode.Co)
}

func needsQuote(s string) bool {
	for i := 0; i < len(s); {
		n, printable := nextUnit(s, i)
		c := s[i]
		switch {
		case n > 1 && printable || isPlain(c):
		case n > 1:
			return true
		case c == '{' || c == '}':
			if len(s) == 1 {
				return true
			}
		case c == '#' || c == '~':
			if i == 0 {
				return true
			}
		case c >= utf8.RuneSelf && printable:
		default:
			return true
		}
		i += n
	}
	return false
}

// isPlain: bytes that need no quoting anywhere in a name.
func isPlain(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("%+,-./]_@", c) >= 0
}

// endsEscaped reports whether the last character of s is written escaped.
func endsEscaped(s string) bool {
	printable := true
	for i := 0; i < len(s); {
		var n int
		n, printable = nextUnit(s, i)
		i += n
	}
	return !printable
}

// shellQuote is gnulib's shell-escape-always style: s in single quotes, a
// single quote as quote, backslash, quote, quote, and unprintable bytes as
// $'\n' or $'\ooo' segments. It also reports whether every character could
// go in a C string unchanged, and whether s has a single quote.
func shellQuote(s string) (q string, allCompat, single bool) {
	var b strings.Builder
	b.WriteByte('\'')
	// pending: the output is inside a $'...' segment. gnulib quotes a name
	// with a single quote twice, and its second pass starts with the state
	// its first ended in: after a name that ends escaped, its first escape
	// lacks the $' and its first plain character is preceded by ''.
	pending := strings.IndexByte(s, '\'') >= 0 && endsEscaped(s)
	allCompat = true
	esc := func(e string) {
		if !pending {
			b.WriteString(`'$'`)
			pending = true
		}
		b.WriteByte('\\')
		b.WriteString(e)
	}
	plain := func(c string) {
		if pending {
			b.WriteString(`''`)
			pending = false
		}
		b.WriteString(c)
	}
	for i := 0; i < len(s); {
		n, printable := nextUnit(s, i)
		c := s[i]
		compat := false
		switch {
		case n > 1 && printable:
			compat = true
			plain(s[i : i+n])
		case n > 1:
			for _, c := range []byte(s[i : i+n]) {
				esc(string([]byte{'0' + c>>6, '0' + c>>3&7, '0' + c&7}))
			}
		case strings.IndexByte("\a\b\f\n\r\t\v", c) >= 0:
			esc(string("abfnrtv"[strings.IndexByte("\a\b\f\n\r\t\v", c)]))
		case !printable:
			esc(string([]byte{'0' + c>>6, '0' + c>>3&7, '0' + c&7}))
		case c == '\'':
			single, compat = true, true
			b.WriteString(`'\'`)
			pending = false
			b.WriteByte('\'')
		case isPlain(c) || c == ':' || c == ' ':
			compat = true
			plain(s[i : i+1])
		case c == '#' || c == '~':
			compat = i == 0
			plain(s[i : i+1])
		case c == '{' || c == '}':
			compat = len(s) == 1
			plain(s[i : i+1])
		default:
			plain(s[i : i+1])
		}
		if !compat {
			allCompat = false
		}
		i += n
	}
	b.WriteByte('\'')
	return b.String(), allCompat, single
}
