#!/usr/bin/env bash
# bench/abrr.sh OLD [PROCESSES] [ROUNDS] [ROWS]: the public API at commit OLD
# and in the working tree, round robin in one process (bench/abrr), each of
# PROCESSES (default 3) processes ROUNDS rounds (default 64), pinned to one
# CPU; ROWS, a regexp, picks rows. OLD's tree is copied with its module
# path renamed, so that one binary links both. Each process is its own
# link, its functions laid out at random (-randlayout, seeded with the
# process's number): where a row's code falls against cache lines and
# branch predictors moved rows of OLD's unchanged code by up to 15% from
# one build to the next, so a figure is the median over the layouts
# (bench/HISTORY.md, "Link layouts at random").
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1 procs=${2:-3} rounds=${3:-64} rows=${4:-}
repo=$PWD
. bench/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/old" "$tmp/abrr"
git archive "$old" | tar -x -C "$tmp/old"
grep -rlZ 'github.com/sha256x/sha256x' --include='*.go' --include=go.mod "$tmp/old" |
	xargs -0 sed -i 's#github.com/sha256x/sha256x\b#github.com/sha256x/sha256xold#g'
sed 's/^\/\/go:build abrr$//' bench/abrr/main.go > "$tmp/abrr/main.go"
sed 's#IMPORT#github.com/sha256x/sha256xold#g; s#SUFFIX#Old#' bench/abrr/rows.tmpl > "$tmp/abrr/rows_old.go"
sed 's#IMPORT#github.com/sha256x/sha256x#g; s#SUFFIX#New#' bench/abrr/rows.tmpl > "$tmp/abrr/rows_new.go"
cat > "$tmp/abrr/go.mod" <<MOD
module github.com/sha256x/sha256x/abrr

go 1.26.0

require (
	github.com/sha256x/sha256x v0.0.0
	github.com/sha256x/sha256xold v0.0.0
)

replace github.com/sha256x/sha256x => $repo

replace github.com/sha256x/sha256xold => $tmp/old
MOD
cp go.sum "$tmp/abrr/"
(cd "$tmp/abrr" && GOFLAGS=-mod=mod go mod tidy > /dev/null 2>&1)
echo "CPU: $(cpu_name); old $old, new $(git rev-parse --short HEAD)$(git diff --quiet || echo +changes)"
cpu=$(($(nproc) - 1))
for p in $(seq 1 "$procs"); do
	(cd "$tmp/abrr" && go build -ldflags=-randlayout=$p -o abrr .)
	echo "== process $p (link layout $p)"
	taskset -c $cpu "$tmp/abrr/abrr" -rounds "$rounds" -rows "$rows"
done
