#!/usr/bin/env bash
# Times `sha256x sum` of 8 files of 64 MiB (or FILES files of MIB MiB)
# round robin, whole processes, page cache warm: this tree as it chooses
# (mapped or read, decided by a trial on the run's first rounds), forced
# mapped (SHA256X_MMAP=on) and forced read (SHA256X_MMAP=off), the command
# at an older commit, and `openssl dgst -sha256`; in every round each runs
# once, the order turning from round to round. It prints the decision of
# three runs' trials (SHA256X_MMAP=show), each command's median, fastest
# and slowest run, then per round the other's time over sha256x's:
# median, worst and best.
#
#   bash bench/largerr.sh [ROUNDS] [OLD]   (ROUNDS 20; OLD commit, ae6c824)
#   FILES=1 MIB=1024 bash bench/largerr.sh  (one file of 1 GiB)
set -euo pipefail
rounds=${1:-20}
old=${2:-ae6c824}
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$repo/bench/lib.sh"
build_commands "$repo" "$old" "$tmp"
cd "$tmp"
mkdir large
for i in $(seq "${FILES:-8}"); do
  head -c $((${MIB:-64} << 20)) /dev/urandom > "large/f$i"
done
x=$tmp/sha256x o=$tmp/sha256x-old
diff <("$x" sum large/*) <(sha256sum large/*)
diff <(SHA256X_MMAP=off "$x" sum large/*) <(sha256sum large/*)
diff <(SHA256X_MMAP=on "$x" sum large/*) <(sha256sum large/*)
names=("sum" "sum, read (SHA256X_MMAP=off)" "sum, mapped (SHA256X_MMAP=on)" "old sum" "openssl")
run() {
  case $1 in
  0) "$x" sum large/* ;;
  1) SHA256X_MMAP=off "$x" sum large/* ;;
  2) SHA256X_MMAP=on "$x" sum large/* ;;
  3) "$o" sum large/* ;;
  4) openssl dgst -sha256 large/* ;;
  esac > /dev/null
}
echo "CPU: $(cpu_name), $(nproc) cores; kernel $(uname -r); old $old; $rounds rounds; ${FILES:-8} x ${MIB:-64} MiB"
for _ in 1 2 3; do SHA256X_MMAP=show "$x" sum large/* 2>&1 > /dev/null; done
round_robin "$rounds" 5
rr_report "1/0 2/0 3/0 4/0" "${names[@]}"
