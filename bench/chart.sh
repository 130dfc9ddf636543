#!/usr/bin/env bash
# Draws the speed chart from one measurement run (bench/chart, one core):
# throughput of sha256x's plan (HashMany), crypto/sha256 and
# minio/sha256-simd (one message after another), gohashtree and hashtree
# (pairs only) against message size (32 B to 1 MiB, batches of 64) and
# batch size (1 to 1024 messages of 64 B). Writes
#   bench/data/speed-<cpu>.svg   the chart, the CPU named in its title
#   bench/data/speed-<cpu>.csv   the numbers: every round of every point
# where <cpu> is the CPU's short name (zen5, zen4, ... or its brand's words).
# About 100 s with the defaults (3 rounds of 250 ms a point); on a quiet
# machine. Flags go to bench/chart:
#
#   bash bench/chart.sh                                  measure and draw
#   bash bench/chart.sh -rounds 5 -time 400ms            a longer run
#   bash bench/chart.sh -from bench/data/speed-zen5.csv  redraw, no measuring
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# hashtree links its C and assembly library through cgo: without it the
# bindings fall back to Go and the chart would name it hashtree-purego.
export CGO_ENABLED=1
(cd "$repo/bench" && go build -o "$tmp/chart" ./chart)
cpu=$("$tmp/chart" -cpu)
mkdir -p "$repo/bench/data"
"$tmp/chart" -svg "$repo/bench/data/speed-$cpu.svg" -csv "$repo/bench/data/speed-$cpu.csv" "$@"
echo "wrote bench/data/speed-$cpu.svg and bench/data/speed-$cpu.csv"
