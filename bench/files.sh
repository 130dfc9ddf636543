#!/usr/bin/env bash
# Times `sha256x sum` (this tree, with io_uring and with it refused) against
# the sha256x of an older commit, `openssl dgst -sha256` (one process) and
# coreutils `sha256sum`, whole processes, page cache warm, side by side in
# one hyperfine run each; counts system calls per file with strace -c -f;
# times the start of one small file's sum against a Go program that prints
# one line.
#   small: 10,000 files of 0..8 KiB (100 directories of 100 files)
#   large: 8 files of 64 MiB
# Needs hyperfine, strace, openssl, sha256sum, perl, git and go. Files are
# made under a temporary directory, removed on exit.
#
#   bash bench/files.sh [RUNS] [OLD]   (RUNS per command, 20; OLD commit, ae6c824)
set -euo pipefail
runs=${1:-20}
old=${2:-ae6c824}
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$repo/bench/lib.sh"
build_commands "$repo" "$old" "$tmp"
# Programs that print a line and import one package each: what the start of
# a Go process costs here, and what each package's init adds to it.
mkdir "$tmp/hello"
printf 'module hello\n\ngo 1.26.0\n\nrequire github.com/sha256x/sha256x v0.0.0\n\nreplace github.com/sha256x/sha256x => %s\n' "$repo" > "$tmp/hello/go.mod"
cp "$repo/go.sum" "$tmp/hello/"
for p in none github.com/klauspost/cpuid/v2 golang.org/x/sys/cpu runtime/metrics crypto/sha256 github.com/sha256x/sha256x; do
  d=$tmp/hello/$(basename "$p")
  mkdir -p "$d"
  imp=""
  [ "$p" = none ] || imp="import _ \"$p\""
  printf 'package main\n\nimport "os"\n\n%s\n\nfunc main() { os.Stdout.WriteString("hi\\n") }\n' "$imp" > "$d/main.go"
  (cd "$tmp/hello" && GOFLAGS=-mod=mod go build -o "$tmp/hello-$(basename "$p")" "./$(basename "$p")")
done
x=$tmp/sha256x
o=$tmp/sha256x-old

perl "$repo/bench/smallfiles.pl" "$tmp"
mkdir "$tmp/large"
for i in 1 2 3 4 5 6 7 8; do
  head -c $((64 << 20)) /dev/urandom > "$tmp/large/f$i"
done
cd "$tmp"
"$x" sum -r small | cut -c67- > list
tr '\n' '\0' < list > list0
# One process for the whole list (xargs' default would start two).
xa="xargs -0 -s 1000000 -a list0"

# Same output from every tool and mode (openssl's format differs: compare
# digests).
"$x" sum -r small > new.txt
SHA256X_IOURING=off "$x" sum -r small | cmp - new.txt
"$o" sum -r small | cmp - new.txt
$xa sha256sum | cmp - new.txt
$xa "$x" sum | cmp - new.txt
diff <(cut -c1-64 new.txt) <($xa openssl dgst -sha256 -r | cut -c1-64)
diff <("$x" sum large/*) <(sha256sum large/*)
diff <(SHA256X_IOURING=off "$x" sum large/*) <(sha256sum large/*)
diff <(SHA256X_MMAP=off "$x" sum large/*) <(sha256sum large/*)

echo "CPU: $(cpu_name), $(nproc) cores; kernel $(uname -r); load: $(cut -d' ' -f1-3 /proc/loadavg)"

echo "== system calls per file (strace -c -f, 10,000 files, sum -r)"
for m in "new" "new, io_uring refused" "old $old"; do
  case $m in
    new) cmd=("$x" sum -r small); env=() ;;
    new,*) cmd=("$x" sum -r small); env=(SHA256X_IOURING=off) ;;
    old*) cmd=("$o" sum -r small); env=() ;;
  esac
  env "${env[@]}" strace -f -c -o st.txt "${cmd[@]}" > /dev/null
  perl -ne 'BEGIN { $label = shift } if (/^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\S+)$/ && $2 ne "total") { $t += $1; $c{$2} = $1 } END {
    my @top = sort { $c{$b} <=> $c{$a} } keys %c; splice(@top, 6) if @top > 6;
    printf "%-24s %6.2f per file (%d):", $label, $t / 10000, $t; printf " %s %d", $_, $c{$_} for @top; print "\n" }' "$m" < st.txt
done

hyperfine -N --warmup 3 --runs "$runs" --export-json small.json \
  -n "sha256x sum -r" "$x sum -r small" \
  -n "sha256x sum -r, io_uring refused" "env SHA256X_IOURING=off $x sum -r small" \
  -n "sha256x $old sum -r" "$o sum -r small" \
  -n "sha256x sum (list)" "$xa $x sum" \
  -n "sha256x sum (list), io_uring refused" "env SHA256X_IOURING=off $xa $x sum" \
  -n "sha256x $old sum (list)" "$xa $o sum" \
  -n "openssl dgst -sha256 (list)" "$xa openssl dgst -sha256" \
  -n "sha256sum (list)" "$xa sha256sum" > /dev/null
hyperfine -N --warmup 2 --runs "$runs" --export-json large.json \
  -n "sha256x sum" "$x sum large/f1 large/f2 large/f3 large/f4 large/f5 large/f6 large/f7 large/f8" \
  -n "sha256x sum, io_uring refused" "env SHA256X_IOURING=off $x sum large/f1 large/f2 large/f3 large/f4 large/f5 large/f6 large/f7 large/f8" \
  -n "sha256x sum, read not mapped" "env SHA256X_MMAP=off $x sum large/f1 large/f2 large/f3 large/f4 large/f5 large/f6 large/f7 large/f8" \
  -n "sha256x $old sum" "$o sum large/f1 large/f2 large/f3 large/f4 large/f5 large/f6 large/f7 large/f8" \
  -n "openssl dgst -sha256" "openssl dgst -sha256 large/f1 large/f2 large/f3 large/f4 large/f5 large/f6 large/f7 large/f8" \
  -n "sha256sum" "sha256sum large/f1 large/f2 large/f3 large/f4 large/f5 large/f6 large/f7 large/f8" > /dev/null
hyperfine -N --warmup 10 --runs $((runs * 5)) --export-json one.json \
  -n "sha256x sum (one 4 KiB file)" "$x sum small/d00/f01" \
  -n "sha256x $old sum (one file)" "$o sum small/d00/f01" \
  -n "Go program printing a line" "$tmp/hello-none" \
  -n "... importing klauspost/cpuid/v2" "$tmp/hello-v2" \
  -n "... importing golang.org/x/sys/cpu" "$tmp/hello-cpu" \
  -n "... importing runtime/metrics" "$tmp/hello-metrics" \
  -n "... importing crypto/sha256" "$tmp/hello-sha256" \
  -n "... importing sha256x" "$tmp/hello-sha256x" \
  -n "sha256sum (one file)" "sha256sum small/d00/f01" \
  -n "openssl dgst -sha256 (one file)" "openssl dgst -sha256 small/d00/f01" > /dev/null
# Medians, worst (max) and best, and each command's median over sha256x's
# first command's.
for f in small.json large.json one.json; do
  echo "== ${f%.json} ($runs+ runs: median, min, max; median ratio to the first)"
  perl -MJSON::PP -e '
    my $d = decode_json(do { local $/; <STDIN> });
    my @r = @{$d->{results}};
    my $base = $r[0]{median};
    printf "%-40s %8.1f ms %8.1f %8.1f  %5.2fx\n", $_->{command}, 1000 * $_->{median}, 1000 * $_->{min}, 1000 * $_->{max}, $_->{median} / $base for @r;
  ' < "$f"
done
echo "== GODEBUG=inittrace=1 $x sum small/d00/f01 (init ms, largest first; medians of 21 runs)"
for i in $(seq 21); do GODEBUG=inittrace=1 "$x" sum small/d00/f01 2>&1 >/dev/null; done |
  awk '/^init/ { print $2, $5 }' | sort -k1,1 -k2g | awk '{ v[$1] = v[$1] " " $2; n[$1]++ } END { for (k in v) { split(substr(v[k], 2), a, " "); printf "%-40s %s ms\n", k, a[int((n[k] + 1) / 2)] } }' | sort -k2 -g -r | head -8
echo "== system calls of one small file's sum (strace -f -c)"
strace -f -c -o st1.txt "$x" sum small/d00/f01 > /dev/null
strace -f -c -o st0.txt "$tmp/hello-none" > /dev/null
echo "sha256x sum: $(awk '/total/ { print $4 }' st1.txt) calls; Go program printing a line: $(awk '/total/ { print $4 }' st0.txt)"
