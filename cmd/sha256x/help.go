package main

// The command's front door: what it is, its subcommands, its version.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/sha256x/sha256x"
)

// A doc describes a subcommand for help: a line of what it does, an example
// or two, and the usage that "sha256x help NAME" and "sha256x NAME -h" print.
type doc struct {
	name, summary string
	examples      []string
	usage         string
}

// docs lists the subcommands in the order help shows them.
var docs = []doc{
	{"sum", "print or check SHA-256 checksums, as sha256sum does, many files at once",
		[]string{"sha256x sum a.iso b.iso c.iso", "sha256x sum -r dir > SUMS && sha256x sum -c SUMS"}, sumUsage},
	{"merkle", "the Merkle root over files as leaves, and inclusion proofs",
		[]string{"sha256x merkle -scheme rfc6962 e1 e2 e3", "sha256x merkle -scheme solana -proof 3 shred*"}, merkleUsage},
	{"bench", "measure sha256x against crypto/sha256 on eight shapes of work (about 8 s)",
		[]string{"sha256x bench", "sha256x bench -long -kernels"}, benchUsage},
	{"chain", "time a hash chain (proof of history) in steps per second",
		[]string{"sha256x chain -n 10000000 -crypto", "sha256x chain -chains 64"}, chainUsage},
	{"-t", "a time trial, as FreeBSD's sha256 -t",
		[]string{"sha256x -t"}, trialUsage},
	{"help", "this text, or a command's usage (as does COMMAND -h)",
		[]string{"sha256x help sum"}, helpUsage},
	{"version", "the version, Go's version and the kernel this CPU runs (also --version)",
		[]string{"sha256x --version"}, versionUsage},
}

const helpText = `sha256x hashes files and Merkle trees with SHA-256, many messages at once:
each gets its own SIMD lane or SHA-NI / ARMv8 SHA2 stream of this CPU
(package github.com/sha256x/sha256x). Every digest is crypto/sha256's.

usage: sha256x COMMAND [ARGUMENT]...

`

const helpUsage = `usage: sha256x help [COMMAND]

Prints what sha256x is and its commands, or, given a COMMAND, its usage
(as "sha256x COMMAND -h" does). Also: sha256x -h, sha256x --help.
`

const versionUsage = `usage: sha256x version   (or sha256x --version)

Prints the module version of this build, from its build info: a release
(go install ...@v1.2.0), or the pseudo-version the go command stamps when it
builds a checkout, followed by the commit, its time and ", modified" when the
tree had changes; the replacement's version where a replace directive
replaced the module; "(devel)" only when the build recorded no version at
all, or a directory replaced the module.
Then the Go version it was built with, and the kernel sha256x runs on this
CPU, with every kernel the CPU can run.
`

func init() {
	commands["help"] = helpMain
	commands["version"] = versionMain
}

// run is the command, less os.Exit: it picks the subcommand.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		writeHelp(stderr) // no command is misuse, but still the help a person needs
		return 2
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help":
		name = "help"
	case "--version", "-version":
		name = "version"
	}
	f := commands[name]
	if f == nil {
		return unknown(stderr, args[0])
	}
	return f(args[1:], stdin, stdout, stderr)
}

func helpMain(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		return writeStatus(stderr, writeHelp(stdout), 0)
	case len(args) > 1:
		io.WriteString(stderr, helpUsage)
		return 2
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help":
		name = "help"
	case "--version", "-version":
		name = "version"
	}
	for _, d := range docs {
		if d.name == name {
			return writeUsage(stdout, stderr, d.usage)
		}
	}
	return unknown(stderr, args[0])
}

func writeHelp(w io.Writer) error {
	var b strings.Builder
	b.WriteString(helpText)
	b.WriteString("commands:\n")
	for _, d := range docs {
		fmt.Fprintf(&b, "  %-8s %s\n", d.name, d.summary)
		for _, e := range d.examples {
			fmt.Fprintf(&b, "             %s\n", e)
		}
	}
	b.WriteString("\n\"sha256x help COMMAND\" or \"sha256x COMMAND -h\" prints a command's usage.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// unknown reports a command that does not exist, with the ones that do.
func unknown(stderr io.Writer, name string) int {
	fmt.Fprintf(stderr, "sha256x: unknown command %q\n", name)
	fmt.Fprintf(stderr, "commands: %s\n", strings.Join(docNames(), ", "))
	fmt.Fprintf(stderr, "Run 'sha256x help' for usage.\n")
	return 2
}

func docNames() []string {
	var names []string
	for _, d := range docs {
		names = append(names, d.name)
	}
	return names
}

func versionMain(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
			return writeUsage(stdout, stderr, versionUsage)
		}
		io.WriteString(stderr, versionUsage)
		return 2
	}
	out := &errWriter{w: stdout}
	stdout = out
	fmt.Fprintf(stdout, "sha256x %s\n", moduleVersion())
	fmt.Fprintf(stdout, "%s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(stdout, "kernel %s on %s; this CPU runs %s\n", sha256x.Kernel(), cpuName(), strings.Join(sha256x.Kernels(), ", "))
	return out.writeStatus(stderr, 0)
}

// moduleVersion is the sha256x module's version in this binary's build
// info (see formatVersion).
func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(no build info)"
	}
	return formatVersion(bi)
}

// formatVersion is the sha256x module's version in bi: a release
// ("v1.2.0"), a pseudo-version (stamped by the go command from the
// checkout's VCS), or "(devel)" where the build recorded neither; where a
// replace directive replaced the module, the replacement's version
// ("(devel)" for a directory). When the build recorded the checkout's
// commit, its revision, time and whether the tree was modified follow in
// parentheses.
func formatVersion(bi *debug.BuildInfo) string {
	const path = "github.com/sha256x/sha256x"
	v := ""
	if bi.Main.Path == path {
		v = bi.Main.Version
		if r := bi.Main.Replace; r != nil {
			// Built from a module that requires this one and replaces it:
			// the code is the replacement's, and no VCS settings are ours.
			if r.Version == "" {
				return "(devel)"
			}
			return r.Version
		}
	} else {
		// Built into another module's binary: the dependency's version;
		// the VCS settings are that module's, not ours.
		for _, m := range bi.Deps {
			if m.Path == path {
				v = m.Version
				if m.Replace != nil && m.Replace.Version != "" {
					v = m.Replace.Version
				}
			}
		}
		if v == "" {
			v = "(devel)"
		}
		return v
	}
	if v == "" {
		v = "(devel)"
	}
	var rev, when string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return v
	}
	extra := "commit " + rev[:min(12, len(rev))]
	if when != "" {
		extra += " " + when
	}
	if modified {
		extra += ", modified"
	}
	return v + " (" + extra + ")"
}

// parseFlags parses a subcommand's flags with fs. -h and -help print usage
// to stdout and stop with status 0; a bad flag prints the complaint and
// usage to stderr and stops with status 2.
func parseFlags(fs *flag.FlagSet, usage string, args []string, stdout, stderr io.Writer) (status int, ok bool) {
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	err := fs.Parse(args)
	switch {
	case err == nil:
		return 0, true
	case errors.Is(err, flag.ErrHelp):
		return writeUsage(stdout, stderr, usage), false
	default:
		io.WriteString(stderr, usage)
		return 2, false
	}
}
