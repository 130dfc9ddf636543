#!/usr/bin/env bash
# Measures every kernel this CPU can run, crypto/sha256 and the peers on
# every shape, interleaved round by round so that drift hits all alike, and
# prints a benchstat table and the ratios to crypto/sha256.
#
#   bench/run.sh [COUNT] [BENCHTIME]     defaults: 6 rounds, 1s
set -euo pipefail
cd "$(dirname "$0")"
count=${1:-6}
benchtime=${2:-1s}
out=${OUT:-$(mktemp -d)}
go install golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
go test -c -o "$out/bench.test" .
kernels=$(go run ./report kernels)
echo "# $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null || uname -m); kernels: $kernels; results in $out" >&2
: > "$out/all.txt"
for round in $(seq "$count"); do
	"$out/bench.test" -test.run '^$' -test.bench '^BenchmarkShapes$' -test.benchtime "$benchtime" | tee -a "$out/all.txt" | grep -c Benchmark | sed "s/^/round $round: dispatched + peers: /" >&2
	for k in $kernels; do
		SHA256X_KERNEL=$k "$out/bench.test" -test.run '^$' -test.bench '^BenchmarkShapes$' -test.benchtime "$benchtime" >> "$out/all.txt"
	done
done
"$(go env GOPATH)/bin/benchstat" -col /impl "$out/all.txt"
echo
go run ./report ratios "$out/all.txt"
