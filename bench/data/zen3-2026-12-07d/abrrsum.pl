# median over processes of the "paired" column, and how many processes over +1%
my (%p, @names);
while (<>) { next unless /^(\S+)\s+[\d.]+\s+[\d.]+\s+\S+%\s+(\S+)%\s+\S+%$/; push @names, $1 unless $p{$1}; push @{$p{$1}}, $2; }
my @out;
for my $n (@names) { my @s = sort { $a <=> $b } @{$p{$n}}; my $m = $s[$#s/2]; my $over = grep { $_ > 1 } @s; push @out, sprintf("%-42s median %+5.1f%%  over +1%%: %d of %d  (%s)\n", $n, $m, $over, scalar @s, join(" ", map { sprintf "%+.1f", $_ } @{$p{$n}})); }
print for @out;
