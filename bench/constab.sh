#!/usr/bin/env bash
# bench/constab.sh DIR FILE OLD NEW ROUNDS CPUS BENCH: the test binary of the package in
# DIR (of the main module or the bench module) built from the working tree (A)
# and with the line OLD replaced by NEW in FILE (B), alternating processes for
# ROUNDS rounds (-test.cpu CPUS, -test.benchtime 0.3s, the benchmarks BENCH),
# then each row's median of B's time over A's, the rounds B was faster in, the
# best and worst round: how a constant that rests on a measurement is measured
# again (bench/HISTORY.md, "merkle's subtrees a worker and gathered calls").
#
#   bash bench/constab.sh merkle merkle/mutable.go 'const gatherBlock = 1024' \
#     'const gatherBlock = 512' 8 1 'MutableChanges'
set -euo pipefail
cd "$(dirname "$0")/.."
pkg=$1 file=$2 old=$3 new=$4 rounds=$5 cpus=$6 bench=$7
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for v in A B; do
	mkdir "$tmp/src$v"
	git ls-files -z | xargs -0 cp --parents -t "$tmp/src$v"
	if [ $v = B ]; then
		python3 - "$tmp/src$v/$file" "$old" "$new" <<'PY'
import sys
p, old, new = sys.argv[1:]
s = open(p).read()
assert s.count(old) == 1, "line not found once"
open(p, 'w').write(s.replace(old, new))
PY
	fi
	(cd "$tmp/src$v/$pkg" && go test -c -o "$tmp/pkg$v.test" .)
done
. bench/lib.sh
echo "# CPU: $(cpu_name); $(git rev-parse --short HEAD)$(git diff --quiet || echo +changes); $file: A '$old', B '$new'; $rounds rounds; -cpu $cpus"
for ((r = 1; r <= rounds; r++)); do
	order="A B"; ((r % 2 == 0)) && order="B A"
	for v in $order; do
		(cd "$pkg" && "$tmp/pkg$v.test" -test.run '^$' -test.bench "$bench" -test.cpu "$cpus" -test.benchtime 0.3s) | grep '^Benchmark' >> "$tmp/runs$v"
	done
done
sed 's/^/A /' "$tmp/runsA"; sed 's/^/B /' "$tmp/runsB"
echo "# B/A: median, rounds B faster, best, worst"
ab_summary "$tmp/runsA" "$tmp/runsB"
