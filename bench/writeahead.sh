#!/usr/bin/env bash
# bench/writeahead.sh [ROUNDS] [A] [B]: hashtree's trees that change with
# plan.WriteAhead set to A (default 0) and to B (default 16), whatever this
# CPU's route says, on the working tree: two bench test binaries, alternating
# processes for ROUNDS rounds (default 8), pinned to one CPU, -cpu 1
# -benchtime 0.3s; then each row's median of B's time over A's, the rounds
# B was faster in, the best and worst round. What a CPU's route sets
# (internal/plan's routes) rests on this (BENCHMARKS.md, "Writes asked for
# ahead"); the raw runs go to standard output with the summary at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-8} a=${2:-0} b=${3:-16}
. bench/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
lists='MutableList/^k=(1|512|8192|1048576)$/^impl=sha256x$'
slots='MutableSlot/^impl=sha256x(-after-Copy)?$'
echo "# CPU: $(cpu_name); $(git rev-parse --short HEAD)$(git diff --quiet || echo +changes); WriteAhead A=$a, B=$b; $rounds rounds"
for v in "$a" "$b"; do
	mkdir "$tmp/src$v"
	git ls-files -z | xargs -0 cp --parents -t "$tmp/src$v"
	sed -i "s/^var WriteAhead = writeAhead(Active)$/var WriteAhead = $v/" "$tmp/src$v/internal/plan/plan.go"
	grep -q "^var WriteAhead = $v$" "$tmp/src$v/internal/plan/plan.go" || { echo "could not set WriteAhead"; exit 1; }
	(cd "$tmp/src$v/bench" && go test -c -o "$tmp/bench$v.test" .)
done
cpu=$(($(nproc) - 1))
for ((r = 1; r <= rounds; r++)); do
	order="$a $b"
	((r % 2 == 0)) && order="$b $a"
	for v in $order; do
		echo "== round $r WriteAhead=$v"
		for rows in "$lists" "$slots"; do
			(cd bench && taskset -c $cpu "$tmp/bench$v.test" -test.run '^$' -test.bench "$rows" -test.cpu 1 -test.benchtime 0.3s) |
				grep '^Benchmark' | tee -a "$tmp/runs$v"
		done
	done
done
echo "# B/A ($b over $a): median, rounds B faster, best, worst"
ab_summary "$tmp/runs$a" "$tmp/runs$b"
