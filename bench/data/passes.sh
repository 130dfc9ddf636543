#!/bin/bash
# passes.sh BIN OUT PASSES BENCHRE [benchtime]: run all matching benchmarks once per pass, PASSES times
BIN=$1; OUT=$2; N=$3; RE=$4; BT=${5:-0.2s}
rm -f $OUT
for i in $(seq $N); do
  nice -n -15 $BIN -test.run X -test.bench "$RE" -test.count 1 -test.benchtime $BT | grep -E '^Benchmark|^cpu' >> $OUT
done
