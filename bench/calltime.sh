#!/usr/bin/env bash
# bench/calltime.sh: how long the kernel calls of every entry point run on
# this CPU, on the dispatched plan and on each assembly kernel this CPU runs
# (SHA256X_KERNEL), from a build that records every kernel call (the
# sha256x_calltime tag; TestCallTime in the root); then the arithmetic of
# the bounds by time for every plan of this architecture (TestCallBounds).
# About 15 s a kernel on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
echo "CPU: $(cpu_name); $(git rev-parse --short HEAD)$(git diff --quiet || echo +changes)"
kernels=$(go run ./cmd/sha256x version | sed -n 's/.*this CPU runs //p' | tr -d ,)
# -count=1: SHA256X_KERNEL is read at init, which go test's cache does not see.
for k in "" $kernels; do
	case $k in generic | stdlib) continue ;; esac # Go: the runtime preempts it
	echo "== ${k:-dispatched}"
	SHA256X_KERNEL=$k go test -count=1 -tags sha256x_calltime -run 'TestCallTime$' -v . |
		sed -n 's/^ *calltime_test.go:[0-9]*: //p'
done
echo "== the bounds' arithmetic, every plan of $(go env GOARCH)"
go test -count=1 -run 'TestCallBounds$' -v ./internal/plan | sed -n 's/^ *bounds_test.go:[0-9]*: //p'
