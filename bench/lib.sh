# Shared by the bench scripts (sourced, not run).

# cpu_name prints the CPU as lscpu's model name, family and model.
cpu_name() {
	echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' '), model $(grep -m1 '^model\s' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')"
}

# build_commands REPO OLD DIR builds REPO's sha256x command into DIR/sha256x
# and the one of commit OLD into DIR/sha256x-old.
build_commands() {
	go build -o "$3/sha256x" "$1/cmd/sha256x"
	mkdir "$3/old"
	git -C "$1" archive "$2" | tar -x -C "$3/old"
	(cd "$3/old" && go build -o "$3/sha256x-old" ./cmd/sha256x)
}

# round_robin ROUNDS N runs `run K` for K in 0..N-1 once each to warm the page
# cache, then ROUNDS rounds of all N, the order turning from round to round
# (so that a slow spell of the host lands on every command), and writes
# "round command ns" lines to the file times.
round_robin() {
	local rounds=$1 n=$2 r j k t0
	for ((k = 0; k < n; k++)); do run $k; done
	: > times
	for ((r = 0; r < rounds; r++)); do
		for ((j = 0; j < n; j++)); do
			k=$(((j + r) % n))
			t0=$(date +%s%N)
			run $k
			echo "$r $k $(($(date +%s%N) - t0))" >> times
		done
	done
}

# rr_report "P/Q ..." NAME... reads times and prints each command's median,
# fastest and slowest run, then for each pair P/Q the per-round ratio of
# command P's time over command Q's: median, worst and best.
rr_report() {
	perl -e '
	  my @pairs = map { [split m{/}] } split " ", shift;
	  my @names = @ARGV;
	  my %t;
	  while (<STDIN>) { my ($r, $k, $ns) = split; $t{$k}[$r] = $ns / 1e6 }
	  sub med { my @s = sort { $a <=> $b } @_; my $n = @s; ($s[int(($n - 1) / 2)] + $s[int($n / 2)]) / 2 }
	  for my $k (0 .. $#names) {
	    my @s = sort { $a <=> $b } @{$t{$k}};
	    printf "%-32s median %6.1f ms  fastest %6.1f  slowest %6.1f\n", $names[$k], med(@s), $s[0], $s[-1];
	  }
	  for my $pair (@pairs) {
	    my ($p, $q) = @$pair;
	    my @r = sort { $a <=> $b } map { $t{$p}[$_] / $t{$q}[$_] } 0 .. $#{$t{$q}};
	    printf "%-32s / %-32s median %.2f  worst %.2f  best %.2f\n", $names[$p], $names[$q], med(@r), $r[0], $r[-1];
	  }
	' "$@" < times
}

# ab_summary A B: two files of `go test` benchmark rows (A's and B's runs, a
# row a benchmark and round, in the same order), then a row a benchmark and
# unit, B's figure over A's: the median, the rounds B's was lower in, the
# least and the greatest. ns/op rows as `NAME RATIO...`, every other unit
# (ms-slot, faults/op, B/op, ...) as `NAME UNIT RATIO...`.
ab_summary() {
	perl -e '
		my ($fa, $fb) = @ARGV;
		my (%a, %b, @keys);
		for my $in ([$fa, \%a], [$fb, \%b]) {
			open(my $f, "<", $in->[0]) or die "$in->[0]: $!";
			while (my $l = <$f>) {
				my ($n, $rest) = $l =~ /^(Benchmark\S+)\s+\d+\s+(.*)$/ or next;
				while ($rest =~ /([-\d.]+) (\S+)/g) {
					my $k = $2 eq "ns/op" ? $n : "$n $2";
					push @keys, $k unless exists $a{$k} || exists $b{$k};
					push @{$in->[1]{$k}}, $1;
				}
			}
		}
		for my $k (@keys) {
			my @i = grep { defined $b{$k}[$_] } 0 .. $#{$a{$k}};
			next unless @i;
			my @r = map { $a{$k}[$_] != 0 ? $b{$k}[$_] / $a{$k}[$_] : 1 } @i;
			my @s = sort { $a <=> $b } @r;
			my $med = @s % 2 ? $s[$#s / 2] : ($s[@s / 2 - 1] + $s[@s / 2]) / 2;
			printf "%-50s %.3f  %d of %d  %.3f  %.3f\n", $k, $med, scalar(grep { $_ < 1 } @r), scalar(@r), $s[0], $s[-1];
		}
	' "$1" "$2"
}
