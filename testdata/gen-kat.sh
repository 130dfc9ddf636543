#!/usr/bin/env bash
# Regenerates testdata/kat.txt: SHA-256 known answers computed by OpenSSL
# (an implementation independent of Go's), for TestKnownAnswers.
#
# Each line: prefix length, prefix seed, message length, message seed, digest
# of prefix || message. Byte i of a pattern of seed s is
# (7*i + 13*s + i/256) mod 256, as pattern() in sha256x_test.go makes it.
set -euo pipefail
cd "$(dirname "$0")"
pat() { python3 -c "import sys; n,s=int(sys.argv[1]),int(sys.argv[2]); sys.stdout.buffer.write(bytes((7*i+13*s+(i>>8))&255 for i in range(n)))" "$1" "$2"; }
{
	echo "# prefixlen prefixseed msglen msgseed sha256(prefix||msg) -- made by gen-kat.sh with $(openssl version | cut -d' ' -f1-2)"
	cases=()
	for n in $(seq 0 200) 255 256 511 512 513 1000 1031 1032 4095 4096 4097 65535 65536 65537 1000000; do
		cases+=("0 0 $n $n")
	done
	for p in 1 26 55 56 63 64 65 119 4096; do
		for n in 0 1 7 8 9 37 38 63 64 65 1031 4096; do
			cases+=("$p $((p + 1000)) $n $((n + 3))")
		done
	done
	for c in "${cases[@]}"; do
		set -- $c
		d=$( { pat "$1" "$2"; pat "$3" "$4"; } | openssl dgst -sha256 -r | cut -d' ' -f1)
		echo "$1 $2 $3 $4 $d"
	done
} > kat.txt
