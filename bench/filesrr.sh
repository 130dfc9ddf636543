#!/usr/bin/env bash
# Times `sha256x sum` round robin against the command at an older commit
# and `openssl dgst -sha256`, whole processes, page cache warm, on
# smallfiles.pl's 10,000 files: in every round each command runs once, the
# order turning from round to round, so that a slow spell of the host
# lands on all of them (files.sh's hyperfine runs all of one command's runs
# before the next's). It prints each command's median, fastest and slowest
# run, then, per round, the peer's time over sha256x's: the median and the
# worst and best round (above 1: sha256x faster).
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
mapfile -t files < list
names=("sum -r" "sum FILE..." "sum -r, io_uring refused" "sum FILE..., io_uring refused" "old sum -r" "old sum FILE..." "openssl FILE...")
run() {
  case $1 in
  0) "$x" sum -r small ;;
  1) "$x" sum "${files[@]}" ;;
  2) SHA256X_IOURING=off "$x" sum -r small ;;
  3) SHA256X_IOURING=off "$x" sum "${files[@]}" ;;
  4) "$o" sum -r small ;;
  5) "$o" sum "${files[@]}" ;;
  6) openssl dgst -sha256 "${files[@]}" ;;
  esac > /dev/null
}
echo "CPU: $(cpu_name), $(nproc) cores; kernel $(uname -r); old $old; $rounds rounds"
round_robin "$rounds" 7
rr_report "6/0 6/1 4/0 5/1 4/2 5/3" "${names[@]}"
