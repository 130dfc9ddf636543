#!/usr/bin/env perl
# smallfiles.pl DIR: makes DIR/small, 10,000 files of 0..8 KiB in 100
# directories of 100 (d00/f00 .. d99/f99), the same bytes on every run
# (perl's srand seeds its generator): the small-file trees of files.sh,
# filesrr.sh and cmd.sh.
use strict;
use warnings;
srand(2026);
my ($root) = @ARGV or die "usage: smallfiles.pl DIR\n";
mkdir "$root/small" or die "$root/small: $!\n";
for my $d (0..99) {
  mkdir sprintf("%s/small/d%02d", $root, $d);
  for my $f (0..99) {
    my $n = int(rand(8193));
    open(my $fh, ">", sprintf("%s/small/d%02d/f%02d", $root, $d, $f)) or die;
    print $fh pack("C*", map { int(rand(256)) } 1..$n);
    close($fh);
  }
}
