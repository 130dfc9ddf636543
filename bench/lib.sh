# Shared by the bench scripts (sourced, not run).

# cpu_name prints the CPU as lscpu's model name, family and model.
cpu_name() {
	echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' '), model $(grep -m1 '^model\s' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')"
}

# build_commands REPO OLD DIR builds REPO's sha256x command into DIR/sha256x
# and the one of commit OLD into DIR/sha256x-old.
build_commands() {
	go build -o "$3/sha256x" "$1/cmd/sha256x"
	mkdir "$3/old"
	git -C "$1" archive "$2" | tar -x -C "$3/old"
	(cd "$3/old" && go build -o "$3/sha256x-old" ./cmd/sha256x)
}
