#!/usr/bin/env bash
# bench/jcap.sh [ROUNDS] [TREE]: issue 38's bound on workers. `sha256x sum -r
# TREE` by default and with `-j 1000000`, alternating for ROUNDS rounds (3),
# after one run of each to warm the page cache: each run's wall time and peak
# memory (GNU time's %e and %M), then the medians and their ratios. The -j
# run's note on standard error (the workers capped) is printed once. TREE
# defaults to /usr/lib; files it cannot read (broken links) are the same
# errors in both runs and do not stop them. Large files are read, not
# mapped (SHA256X_MMAP=off; MMAP=on or MMAP=trial to change it): a mapped
# file's pages count in the peak memory, and the trial may decide either
# way in a run where the two cost about the same (Zen 4, /usr/lib), so that
# the two commands' memory would differ by what the trial chose.
set -euo pipefail
export SHA256X_MMAP=${MMAP:-off}
[ "$SHA256X_MMAP" = trial ] && unset SHA256X_MMAP
rounds=${1:-3}
tree=${2:-/usr/lib}
repo=$(cd "$(dirname "$0")/.." && pwd)
source "$repo/bench/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/sha256x" "$repo/cmd/sha256x"
echo "CPU: $(cpu_name), $(nproc) cores; kernel $(uname -r); $tree, $rounds rounds; SHA256X_MMAP=${SHA256X_MMAP:-(the trial)}"
one() { # one NAME ARGS...: a run, "NAME seconds KB" to stdout
	local name=$1
	shift
	/usr/bin/time -f "$name %e %M" -o "$tmp/t" "$tmp/sha256x" sum "$@" -r "$tree" > /dev/null 2> "$tmp/err" || true
	tail -1 "$tmp/t"
}
one warm > /dev/null
one warm -j 1000000 > /dev/null
grep -m1 -v "$tree" "$tmp/err" || true # the cap's note
: > "$tmp/all"
for ((r = 0; r < rounds; r++)); do
	if ((r % 2 == 0)); then
		one default >> "$tmp/all"
		one j1000000 -j 1000000 >> "$tmp/all"
	else
		one j1000000 -j 1000000 >> "$tmp/all"
		one default >> "$tmp/all"
	fi
done
cat "$tmp/all"
perl -e '
	my %t; my %m;
	while (<>) { my ($n, $s, $kb) = split; push @{$t{$n}}, $s; push @{$m{$n}}, $kb }
	sub med { my @s = sort { $a <=> $b } @_; my $n = @s; ($s[int(($n - 1) / 2)] + $s[int($n / 2)]) / 2 }
	for my $n (qw(default j1000000)) { printf "%-9s median %.2f s, %.1f MB\n", $n, med(@{$t{$n}}), med(@{$m{$n}}) / 1024 }
	printf "-j 1000000 / default: time %.3f, memory %.3f\n", med(@{$t{j1000000}}) / med(@{$t{default}}), med(@{$m{j1000000}}) / med(@{$m{default}});
' "$tmp/all"
