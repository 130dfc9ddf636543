#!/usr/bin/env bash
# The "Trees that change" tables of README and BENCHMARKS.md (issue 39), on
# one core: a 2^20-chunk tree with k chunks changed, its root by
# hashtree.Chunks (SetMany, and a Set each), the port of Prysm's
# RecomputeFromLayer, a full rebuild and fastssz + gohashtree
# (BenchmarkMutableList); a slot on 2^20 validators and their balances
# against fastssz's HashTreeRoot of the two fields, the same slot on a
# fresh Copy (BenchmarkMutableSlot), and Copy (BenchmarkMutableCopy), COUNT
# rounds in separate processes; a chain of CHAIN slots, each on a copy of
# the last slot's state (BenchmarkMutableChain, default 4800x, once: a
# slot's mean time, the memory the chain holds, Compact); benchstat, then
# the medians' ratios, the chain's slot among them. About 4 minutes with
# the defaults.
#
#   bench/mutable.sh [COUNT] [BENCHTIME]     defaults: 3 rounds, 0.3s
set -euo pipefail
cd "$(dirname "$0")"
source ./lib.sh
count=${1:-3}
benchtime=${2:-0.3s}
out=${OUT:-$(mktemp -d)}
go install golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
CGO_ENABLED=1 go test -c -o "$out/bench.test" .
echo "# $(cpu_name); results in $out" >&2
: > "$out/mutable.txt"
for round in $(seq "$count"); do
	echo "round $round of $count, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
	"$out/bench.test" -test.run '^$' -test.cpu 1 -test.bench '^BenchmarkMutable(List|Slot|Copy)$' -test.benchtime "$benchtime" >> "$out/mutable.txt"
done
# A chain of CHAIN slots (an epoch every 32), once: the mean time of a slot
# and of an epoch, the memory the last state holds beyond the state as
# built, Compact's time and what the state holds after it.
"$out/bench.test" -test.run '^$' -test.cpu 1 -test.bench '^BenchmarkMutableChain$' -test.benchtime "${CHAIN:-4800x}" > "$out/chain.txt"
"$(go env GOPATH)/bin/benchstat" -col /impl "$out/mutable.txt"
echo
# The medians' ratios: Prysm's port, the rebuild and fastssz over Chunks at
# each k; fastssz's slot over sha256x's; the slot after a Copy, and the
# chain's, over the slot alone; Copy's time.
awk '/^BenchmarkMutableChain/ {
	for (i = 2; i <= NF; i++) if ($(i+1) == "ms-slot") chainslot = $i * 1e6; else if ($(i+1) == "ns/op") chainn = $(i-1)
	next
}
/^BenchmarkMutable/ && / ns\/op/ {
	name = $1; sub(/-[0-9]+$/, "", name)
	for (i = 2; i <= NF; i++) if ($(i+1) == "ns/op") v[name] = v[name] " " $i
}
function median(s,   a, n, i, j, t) {
	n = split(s, a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
END {
	for (k in v) m[k] = median(v[k])
	split("1 512 8192 65536 1048576", ks, " ")
	printf "%-9s %12s %12s %12s %12s %9s %9s %9s\n", "k", "sha256x", "prysm", "rebuild", "fastssz", "xprysm", "xrebuild", "xfastssz"
	for (i = 1; i <= 5; i++) {
		p = "BenchmarkMutableList/k=" ks[i] "/impl="
		s = m[p "sha256x"]
		printf "%-9s %12.0f %12s %12.0f %12.0f %9s %9.2f %9.2f\n", ks[i], s, (p "prysm" in m) ? sprintf("%.0f", m[p "prysm"]) : "-", m[p "rebuild-HashLevel"], m[p "fastssz+gohashtree"], (p "prysm" in m) ? sprintf("%.2f", m[p "prysm"] / s) : "-", m[p "rebuild-HashLevel"] / s, m[p "fastssz+gohashtree"] / s
	}
	s = m["BenchmarkMutableSlot/impl=sha256x"]
	printf "\na Set each (sha256x-Set):"
	for (i = 1; i <= 4; i++) {
		p = "BenchmarkMutableList/k=" ks[i] "/impl="
		printf " k=%s %.0f ns (%.2fx prysm)", ks[i], m[p "sha256x-Set"], m[p "prysm"] / m[p "sha256x-Set"]
	}
	printf "\n"
	printf "\nslot: sha256x %.0f ns, fastssz+gohashtree %.0f ns (%.0fx); after a Copy %.0f ns (%.2fx the slot alone); on a copy of the last slot'"'"'s state (a chain of %d slots) %.0f ns (%.2fx); Copy %.0f ns\n", s, m["BenchmarkMutableSlot/impl=fastssz+gohashtree"], m["BenchmarkMutableSlot/impl=fastssz+gohashtree"] / s, m["BenchmarkMutableSlot/impl=sha256x-after-Copy"], m["BenchmarkMutableSlot/impl=sha256x-after-Copy"] / s, chainn, chainslot, chainslot / s, m["BenchmarkMutableCopy"]
}' "$out/chain.txt" "$out/mutable.txt"
grep ns/op "$out/chain.txt"
