#!/usr/bin/env bash
# bench/patchab.sh PATCH ROUNDS BENCH@BENCHTIME...: the bench module's test
# binary built from the working tree (A) and with PATCH applied to it (B: an
# experiment kept as a patch beside its data, `git apply`), alternating
# processes for ROUNDS rounds, pinned to one CPU, -cpu 1, each BENCH (a
# -test.bench pattern) run for its BENCHTIME; then each row and unit's
# median of B's figure over A's, the rounds B's was lower in, the least and
# the greatest (lib.sh's ab_summary). How an experiment measured on one CPU
# is measured on the next:
#
#   bash bench/patchab.sh bench/data/zen3-2026-12-07i/tiers2.patch 3 \
#     '^BenchmarkMutableChain$@4800x' '^BenchmarkMutableSlot$/impl=sha256x@1s'
#
# With a revision (a commit) in place of PATCH, A is that revision's tree
# and B the working tree: what a change did to the rows both trees have.
set -euo pipefail
patch=${1:?usage: bench/patchab.sh PATCH|REV ROUNDS BENCH@BENCHTIME...}
rev=
if [ -f "$patch" ]; then
	patch=$(realpath "$patch")
else
	rev=$(git rev-parse --verify "$patch^{commit}")
fi
rounds=${2:?usage: bench/patchab.sh PATCH ROUNDS BENCH@BENCHTIME...}
shift 2
[ $# -gt 0 ] || { echo "usage: bench/patchab.sh PATCH|REV ROUNDS BENCH@BENCHTIME..." >&2; exit 2; }
cd "$(dirname "$0")/.."
. bench/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for v in A B; do
	mkdir "$tmp/src$v"
	if [ -n "$rev" ] && [ $v = A ]; then
		git archive "$rev" | tar -x -C "$tmp/src$v"
	else
		git ls-files -z | xargs -0 cp --parents -t "$tmp/src$v"
	fi
	[ -n "$rev" ] || [ $v = A ] || (cd "$tmp/src$v" && git apply "$patch")
	(cd "$tmp/src$v/bench" && go test -c -o "$tmp/bench$v.test" .)
done
if [ -n "$rev" ]; then
	echo "# CPU: $(cpu_name); A: $(git rev-parse --short "$rev"); B: $(git rev-parse --short HEAD)$(git diff --quiet || echo +changes); $rounds rounds"
else
	echo "# CPU: $(cpu_name); $(git rev-parse --short HEAD)$(git diff --quiet || echo +changes); B: $(basename "$patch"); $rounds rounds"
fi
cpu=$(($(nproc) - 1))
for ((r = 1; r <= rounds; r++)); do
	order="A B"
	((r % 2 == 0)) && order="B A"
	for v in $order; do
		echo "== round $r $v"
		for spec in "$@"; do
			(cd bench && taskset -c $cpu "$tmp/bench$v.test" -test.run '^$' -test.bench "${spec%@*}" -test.cpu 1 -test.benchtime "${spec##*@}") |
				grep '^Benchmark' | tee -a "$tmp/runs$v"
		done
	done
done
echo "# B/A: median, rounds B lower, least, greatest"
ab_summary "$tmp/runsA" "$tmp/runsB"
