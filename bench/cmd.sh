#!/usr/bin/env bash
# Times `sha256x sum` against `openssl dgst -sha256` and coreutils
# `sha256sum` over the same files, side by side in one hyperfine run each,
# page cache warm:
#   small: 10,000 files of 0..8 KiB (100 directories of 100 files)
#   large: 8 files of 64 MiB
# Needs hyperfine, openssl, sha256sum, perl and go. The files are made
# under a temporary directory, removed on exit.
#
#   bash bench/cmd.sh [RUNS]       (RUNS: hyperfine runs per command, 10)
set -euo pipefail
runs=${1:-10}
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/bench/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go build -o "$tmp/sha256x" "$repo/cmd/sha256x"
x=$tmp/sha256x

# The same 10,000 files as files.sh, byte for byte.
perl "$repo/bench/smallfiles.pl" "$tmp"
mkdir "$tmp/large"
for i in 1 2 3 4 5 6 7 8; do
  head -c $((64 << 20)) /dev/urandom > "$tmp/large/f$i"
done
# The same list, in sum -r's order, for every tool.
(cd "$tmp" && "$x" sum -r small | cut -c67- > list)
tr '\n' '\0' < "$tmp/list" > "$tmp/list0"

cd "$tmp"
# Same output from every tool (openssl's format differs: compare digests).
diff <("$x" sum -r small | cut -c1-64) <(xargs -0 -a list0 openssl dgst -sha256 -r | cut -c1-64)
diff <("$x" sum large/*) <(sha256sum large/*)

echo "CPU: $(cpu_name), $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "sha256x -t:"; "$x" -t
hyperfine -N --warmup 3 --runs "$runs" --export-json small.json \
  -n "sha256x sum -r" "$x sum -r small" \
  -n "sha256x sum (list)" "xargs -0 -a list0 $x sum" \
  -n "openssl dgst -sha256" "xargs -0 -a list0 openssl dgst -sha256" \
  -n "sha256sum" "xargs -0 -a list0 sha256sum"
hyperfine -N --warmup 2 --runs "$runs" --export-json large.json \
  -n "sha256x sum" "$x sum large/f1 large/f2 large/f3 large/f4 large/f5 large/f6 large/f7 large/f8" \
  -n "openssl dgst -sha256" "openssl dgst -sha256 large/f1 large/f2 large/f3 large/f4 large/f5 large/f6 large/f7 large/f8" \
  -n "sha256sum" "sha256sum large/f1 large/f2 large/f3 large/f4 large/f5 large/f6 large/f7 large/f8"
# Medians, and each command's ratio to sha256x's first command.
for f in small.json large.json; do
  echo "== ${f%.json} (median of $runs runs)"
  perl -MJSON::PP -e '
    my $d = decode_json(do { local $/; <STDIN> });
    my @r = @{$d->{results}};
    my $base = $r[0]{median};
    printf "%-24s %8.1f ms  %5.2fx\n", $_->{command}, 1000 * $_->{median}, $_->{median} / $base for @r;
  ' < "$f"
done
