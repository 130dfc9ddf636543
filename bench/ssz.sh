#!/usr/bin/env bash
# The SSZ tables of bench/HISTORY.md (issue 19), on one core (-cpu 1):
# the drop-in's Hash and HashByteSlice against gohashtree and hashtree
# (BenchmarkSSZHash, BenchmarkSSZHashByteSlice), fastssz's HashTreeRoot of
# the Bellatrix beacon state it ships with each HashFn
# (BenchmarkSSZBeaconState), and a 2^19-validator registry through the
# batched API against fastssz's generated code (BenchmarkSSZRegistry), all
# implementations side by side in one process, COUNT rounds in separate
# processes so that drift hits all alike; benchstat tables of time per
# operation, then the small levels round by round (go run ./sszrounds).
#
#   bench/ssz.sh [COUNT] [BENCHTIME]     defaults: 6 rounds, 0.2s
set -euo pipefail
cd "$(dirname "$0")"
count=${1:-6}
benchtime=${2:-0.2s}
out=${OUT:-$(mktemp -d)}
go install golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
CGO_ENABLED=1 go test -c -o "$out/bench.test" .
go build -o "$out/sszrounds" ./sszrounds
echo "# $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null || uname -m); results in $out" >&2
: > "$out/ssz.txt"
for round in $(seq "$count"); do
	echo "round $round of $count, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
	"$out/bench.test" -test.run '^$' -test.cpu 1 -test.bench '^BenchmarkSSZHash(ByteSlice)?$' -test.benchtime "$benchtime" >> "$out/ssz.txt"
	"$out/bench.test" -test.run '^$' -test.cpu 1 -test.bench '^BenchmarkSSZ(BeaconState|Registry)$' -test.benchtime 4x >> "$out/ssz.txt"
done
"$(go env GOPATH)/bin/benchstat" -col /impl "$out/ssz.txt"
echo
"$out/sszrounds" -rounds 60 -calls 3000 -pairs 1,2,4,16
