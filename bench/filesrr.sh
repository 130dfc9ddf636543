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
for k in 0 1 2 3 4 5 6; do run $k; done # warm the page cache
: > times
for r in $(seq 0 $((rounds - 1))); do
  for j in 0 1 2 3 4 5 6; do
    k=$(((j + r) % 7))
    t0=$(date +%s%N)
    run $k
    echo "$r $k $(($(date +%s%N) - t0))" >> times
  done
done
# times: round, command, ns. Medians and per-round ratios.
perl -e '
  my @names = @ARGV;
  my %t;
  while (<STDIN>) { my ($r, $k, $ns) = split; $t{$k}[$r] = $ns / 1e6 }
  sub med { my @s = sort { $a <=> $b } @_; my $n = @s; ($s[int(($n - 1) / 2)] + $s[int($n / 2)]) / 2 }
  for my $k (0 .. $#names) {
    my @s = sort { $a <=> $b } @{$t{$k}};
    printf "%-32s median %6.1f ms  fastest %6.1f  slowest %6.1f\n", $names[$k], med(@s), $s[0], $s[-1];
  }
  for my $pair ([6, 0], [6, 1], [4, 0], [5, 1], [4, 2], [5, 3]) {
    my ($p, $q) = @$pair;
    my @r = sort { $a <=> $b } map { $t{$p}[$_] / $t{$q}[$_] } 0 .. $#{$t{$q}};
    printf "%-32s / %-32s median %.2f  worst %.2f  best %.2f\n", $names[$p], $names[$q], med(@r), $r[0], $r[-1];
  }
' "${names[@]}" < times
