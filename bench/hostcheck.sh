#!/usr/bin/env bash
# bench/hostcheck.sh DIR [OLD]: the measurements that issues 38 and 39 ask
# for on every CPU a session reaches, one after another on a quiet machine,
# each into its own file in DIR (made if missing), with the CPU named at the
# top of each: large files (8 x 64 MiB, 20 rounds; one 1 GiB file, 10
# rounds) and 10,000 small files (40 rounds) against OLD and openssl; the
# pause probe (`sha256x bench -pauses -rounds 10`); every kernel call's time
# (calltime.sh); the public API against OLD, row by row (abrr.sh OLD 5 64);
# `sum -j 1000000 -r /usr/lib` against the default (jcap.sh 5); the trees
# that change (mutable.sh 3) and their writes asked for ahead against none
# (writeahead.sh 8: what a route of this CPU should set); the tiers of
# overlays against the pages copied (patchab.sh with tiers2.patch, 3 rounds:
# whether they pay here as on Zen 3, on the Lists and, printed beside,
# Gloas's ProgressiveLists) and the price of a page fault on this
# host (faultcost). OLD defaults to
# 0edbfb5, issue 38's starting point. Last, each must-show those files
# measure, met or not (bench/verdict), into DIR/verdict.txt and on standard
# output.
set -euo pipefail
dir=${1:?usage: bench/hostcheck.sh DIR [OLD]}
old=${2:-0edbfb5}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
cd "$(dirname "$0")/.." # the scripts build the command from the module's root
source bench/lib.sh
echo "# $(cpu_name); $(nproc) cores; kernel $(uname -r); $(go version); $(git rev-parse --short HEAD)" > "$dir/host.txt"
cat /sys/kernel/mm/transparent_hugepage/enabled >> "$dir/host.txt" 2>/dev/null || true
run() { # run NAME COMMAND...: COMMAND's output to DIR/NAME
	local name=$1
	shift
	echo "== $name" >&2
	"$@" > "$dir/$name" 2>&1 || echo "FAILED: $*" >&2
}
run largerr.txt bash bench/largerr.sh 20 "$old"
FILES=1 MIB=1024 run largerr-1g.txt bash bench/largerr.sh 10 "$old"
run filesrr.txt bash bench/filesrr.sh 40 "$old"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/sha256x" ./cmd/sha256x
run pauses.txt "$tmp/sha256x" bench -pauses -rounds 10
run calltime.txt bash bench/calltime.sh
run abrr.txt bash bench/abrr.sh "$old" 5 64
run jcap.txt bash bench/jcap.sh 5
run mutable.txt bash bench/mutable.sh 3
run writeahead.txt bash bench/writeahead.sh 8
run tiers.txt bash bench/patchab.sh bench/data/zen3-2026-12-07i/tiers2.patch 3 '^BenchmarkMutableChain$@4800x' '^BenchmarkMutableSlot$/impl=sha256x@1s' '^BenchmarkGloasChain$@1600x'
run faultcost.txt bash -c 'cd bench && go run ./faultcost'
(cd bench && go run ./verdict "$dir") | tee "$dir/verdict.txt"
echo "results in $dir" >&2
