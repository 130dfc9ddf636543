#!/usr/bin/env bash
# The Merkle tables of bench/HISTORY.md: one level of n pairs (BenchmarkLevel)
# and whole SSZ trees (BenchmarkSSZTree), for crypto/sha256, gohashtree,
# hashtree and sha256x's dispatched plan in one process, then sha256x with
# each kernel this CPU runs forced by SHA256X_KERNEL, one process each,
# interleaved round by round so that drift hits all alike; benchstat
# tables of time per operation at the end, and the same as Markdown with
# the ratios (report merkle).
#
#   bench/merkle.sh [COUNT] [BENCHTIME]     defaults: 6 rounds, 0.2s
set -euo pipefail
cd "$(dirname "$0")"
count=${1:-6}
benchtime=${2:-0.2s}
out=${OUT:-$(mktemp -d)}
go install golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
CGO_ENABLED=1 go test -c -o "$out/bench.test" .
kernels=$(go run ./report kernels)
echo "# $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null || uname -m); $(nproc) CPUs; kernels: $kernels; results in $out" >&2
: > "$out/merkle.txt"
run() { "$out/bench.test" -test.run '^$' -test.bench '^Benchmark(Level|SSZTree)$' -test.benchtime "$benchtime"; }
for round in $(seq "$count"); do
	echo "round $round of $count, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
	run >> "$out/merkle.txt"
	for k in $kernels; do
		SHA256X_KERNEL=$k run >> "$out/merkle.txt"
	done
done
"$(go env GOPATH)/bin/benchstat" -col /impl -filter '.name:Level' "$out/merkle.txt"
echo
"$(go env GOPATH)/bin/benchstat" -col /impl -filter '.name:SSZTree' "$out/merkle.txt"
echo
go run ./report merkle "$out/merkle.txt"
