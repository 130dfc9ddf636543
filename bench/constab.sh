#!/usr/bin/env bash
# bench/constab.sh DIR FILE OLD NEW ROUNDS CPUS BENCH: the test binary of the package in
# DIR (of the main module or the bench module) built from the working tree (A)
# and with the line OLD replaced by NEW in FILE (B), alternating processes for
# ROUNDS rounds (-test.cpu CPUS, -test.benchtime 0.3s, the benchmarks BENCH),
# then each row's median of B's time over A's, the rounds B was faster in, the
# best and worst round: how a constant that rests on a measurement is measured
# again (bench/HISTORY.md, "merkle's subtrees a worker and gathered calls").
#
#   bash bench/constab.sh merkle merkle/mutable.go 'const gatherBlock = 1024' \
#     'const gatherBlock = 512' 8 1 'MutableChanges'
set -euo pipefail
cd "$(dirname "$0")/.."
pkg=$1 file=$2 old=$3 new=$4 rounds=$5 cpus=$6 bench=$7
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for v in A B; do
	mkdir "$tmp/src$v"
	git ls-files -z | xargs -0 cp --parents -t "$tmp/src$v"
	if [ $v = B ]; then
		python3 - "$tmp/src$v/$file" "$old" "$new" <<'PY'
import sys
p, old, new = sys.argv[1:]
s = open(p).read()
assert s.count(old) == 1, "line not found once"
open(p, 'w').write(s.replace(old, new))
PY
	fi
	(cd "$tmp/src$v/$pkg" && go test -c -o "$tmp/pkg$v.test" .)
done
. bench/lib.sh
echo "# CPU: $(cpu_name); $(git rev-parse --short HEAD)$(git diff --quiet || echo +changes); $file: A '$old', B '$new'; $rounds rounds; -cpu $cpus"
for ((r = 1; r <= rounds; r++)); do
	order="A B"; ((r % 2 == 0)) && order="B A"
	for v in $order; do
		(cd "$pkg" && "$tmp/pkg$v.test" -test.run '^$' -test.bench "$bench" -test.cpu "$cpus" -test.benchtime 0.3s) | grep '^Benchmark' >> "$tmp/runs$v"
	done
done
sed 's/^/A /' "$tmp/runsA"; sed 's/^/B /' "$tmp/runsB"
echo "# B/A: median, rounds B faster, best, worst"
perl -e '
	my ($fa, $fb) = @ARGV; my (%a, %b, @names);
	for my $in ([$fa, \%a], [$fb, \%b]) { open(my $f, "<", $in->[0]) or die;
		while (my $l = <$f>) { my ($n, $ns) = $l =~ /^(\S+)\s+\d+\s+([\d.]+) ns\/op/ or next;
			push @names, $n unless exists $a{$n} || exists $b{$n}; push @{$in->[1]{$n}}, $ns; } }
	for my $n (@names) { my @r = map { $b{$n}[$_] / $a{$n}[$_] } 0 .. $#{$a{$n}}; my @s = sort { $a <=> $b } @r;
		my $med = @s % 2 ? $s[$#s / 2] : ($s[@s / 2 - 1] + $s[@s / 2]) / 2;
		printf "%-50s %.3f  %d of %d  %.3f  %.3f\n", $n, $med, scalar(grep { $_ < 1 } @r), scalar(@r), $s[0], $s[-1]; }
' "$tmp/runsA" "$tmp/runsB"
