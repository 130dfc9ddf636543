#!/usr/bin/env bash
# Times `sha256x sum` round robin against the command at an older commit
# and `openssl dgst -sha256`, whole processes, page cache warm, on
# smallfiles.pl's 10,000 files: in every round each command runs once, the
# order turning from round to round, so that a slow spell of the host
# lands on all of them (files.sh's hyperfine runs all of one command's runs
# before the next's). It prints each command's median, fastest and slowest
# run, then, per round, the peer's time over sha256x's: the median and the
# worst and best round (above 1: sha256x faster). The list form runs a third
# way too, with SHA256X_IOURING=on: names of unknown type through the ring
# even where system calls are cheap.
#
# The processes are started by bench/procrr, with no shell between: bash
# takes 7-10 ms to hand a process 10,000 names, which made openssl's and the
# list form's figures that much slower here before (bench/HISTORY.md, "Where
# the rest of `sum -r` goes").
#
#   bash bench/filesrr.sh [ROUNDS] [OLD]   (ROUNDS 40; OLD commit, ae6c824)
set -euo pipefail
rounds=${1:-40}
old=${2:-ae6c824}
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$repo/bench/lib.sh"
build_commands "$repo" "$old" "$tmp"
perl "$repo/bench/smallfiles.pl" "$tmp"
cd "$tmp"
x=$tmp/sha256x o=$tmp/sha256x-old
"$x" sum -r small | cut -c67- > list
(cd "$repo/bench" && go build -o "$tmp/procrr" ./procrr)
echo "CPU: $(cpu_name), $(nproc) cores; kernel $(uname -r); old $old; $rounds rounds"
"$tmp/procrr" -rounds "$rounds" -dir "$tmp" -list list -pairs "6/0 6/1 4/0 5/1 4/2 5/3 7/1" \
  "sum -r=$x sum -r small" \
  "sum FILE...=$x sum @LIST" \
  "sum -r, io_uring refused=SHA256X_IOURING=off $x sum -r small" \
  "sum FILE..., io_uring refused=SHA256X_IOURING=off $x sum @LIST" \
  "old sum -r=$o sum -r small" \
  "old sum FILE...=$o sum @LIST" \
  "openssl FILE...=openssl dgst -sha256 @LIST" \
  "sum FILE..., io_uring on=SHA256X_IOURING=on $x sum @LIST"
