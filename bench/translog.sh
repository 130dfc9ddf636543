#!/usr/bin/env bash
# The transparency-log tables of bench/HISTORY.md (issue 20): a 2^20-entry log
# grown in batches of 256 with every node stored (BenchmarkLogGrow), all its
# tiles (BenchmarkTiles), proofs from its stored nodes (BenchmarkLogProof)
# and their verification (BenchmarkLogVerify), for sha256x's translog,
# transparency-dev/merkle and golang.org/x/mod/sumdb/tlog side by side in
# one process on one core (GOMAXPROCS=1), round after round so that drift
# hits all alike; benchstat tables at the end, then each peer's time over
# sha256x's round by round (report rounds).
#
#   bench/translog.sh [ROUNDS] [GROWTIMES]     defaults: 8 rounds, 4x
set -euo pipefail
cd "$(dirname "$0")"
rounds=${1:-8}
grow=${2:-4x}
out=${OUT:-$(mktemp -d)}
go install golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
go test -c -o "$out/bench.test" .
echo "# $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null || uname -m); $(nproc) CPUs; results in $out" >&2
: > "$out/translog.txt"
for round in $(seq "$rounds"); do
	echo "round $round of $rounds, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
	"$out/bench.test" -test.run '^$' -test.bench '^Benchmark(LogGrow|Tiles)$' -test.benchtime "$grow" -test.cpu 1 >> "$out/translog.txt"
	"$out/bench.test" -test.run '^$' -test.bench '^BenchmarkLog(Proof|Verify)$' -test.benchtime 0.2s -test.cpu 1 >> "$out/translog.txt"
done
"$(go env GOPATH)/bin/benchstat" -col /impl "$out/translog.txt"
echo
go run ./report rounds "$out/translog.txt"
