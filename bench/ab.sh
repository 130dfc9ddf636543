#!/usr/bin/env bash
# bench/ab.sh OLD [NEW] [ROUNDS]: the public API at two commits side by side.
# Builds bench/abtest against each commit (git worktrees under a temporary
# directory; NEW defaults to the working tree), then runs the two binaries in
# alternating processes, ROUNDS each (default 8), pinned to one CPU, and
# prints benchstat of BenchmarkAB and, for BenchmarkDepth, each small call's
# median over depths and rounds. Run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1 new=${2:-} rounds=${3:-8}
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/old-tree" 2>/dev/null || true; [ -z "$new" ] || git worktree remove --force "$tmp/new-tree" 2>/dev/null || true; rm -rf "$tmp"' EXIT
git worktree add -q --detach "$tmp/old-tree" "$old"
newtree=$PWD
if [ -n "$new" ]; then
	git worktree add -q --detach "$tmp/new-tree" "$new"
	newtree=$tmp/new-tree
fi
for v in old new; do
	tree=$tmp/old-tree
	[ $v = old ] || tree=$newtree
	mkdir -p "$tmp/$v"
	cp bench/abtest/ab_test.go "$tmp/$v/"
	cat > "$tmp/$v/go.mod" <<MOD
module github.com/sha256x/sha256x/abtest

go 1.26.0

require github.com/sha256x/sha256x v0.0.0

replace github.com/sha256x/sha256x => $tree
MOD
	cp go.sum "$tmp/$v/"
	(cd "$tmp/$v" && GOFLAGS=-mod=mod go mod tidy > /dev/null 2>&1 && go test -c -o "$tmp/$v.test" .)
done
cpu=$(($(nproc) - 1))
for i in $(seq 1 "$rounds"); do
	for v in old new; do
		taskset -c $cpu "$tmp/$v.test" -test.run '^$' -test.bench '^BenchmarkAB$' -test.benchtime 0.15s -test.cpu 1 >> "$tmp/$v.txt"
		taskset -c $cpu "$tmp/$v.test" -test.run '^$' -test.bench '^BenchmarkDepth$' -test.benchtime 100000x -test.cpu 1 >> "$tmp/$v-depth.txt"
	done
done
go run golang.org/x/perf/cmd/benchstat@latest "$tmp/old.txt" "$tmp/new.txt"
python3 - "$tmp/old-depth.txt" "$tmp/new-depth.txt" <<'PY'
import collections, re, statistics, sys
def load(f):
    d = collections.defaultdict(lambda: collections.defaultdict(list))
    for l in open(f):
        m = re.match(r'BenchmarkDepth/call=(\w+)/depth=(\d+)\S*\s+\d+\s+([\d.]+) ns/op', l)
        if m:
            d[m.group(1)][int(m.group(2))].append(float(m.group(3)))
    return d
old, new = load(sys.argv[1]), load(sys.argv[2])
print("\nsmall calls, median over 16 depths of each depth's median (ns):")
for c in sorted(old):
    o = statistics.median(statistics.median(v) for v in old[c].values())
    n = statistics.median(statistics.median(v) for v in new[c].values())
    print(f"  {c:10s} {o:8.1f} -> {n:8.1f}  {n / o - 1:+.1%}")
PY
