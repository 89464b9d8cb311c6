#!/usr/bin/env bash
# differential_all.sh: the differential check's acceptance run in one device call (about
# 8 minutes on 16 cores): the differential check of this tree (1, 2 and 4
# processes under MPS, detection and every GPU target, fusion on and off),
# beside it the two planted defects it must catch, and StableHLO's own
# verifier over arc's outputs of the test corpus.
#
#   make device-bin-differential            # here (Go): .devbin/ with arc, the plugin, the planted arc,
#                                           # the fused kernel's source before its fix, the verifier's modules
#   bash devtest/differential_all.sh  # GPU machine, carrying .devbin; results in $OUT
#
# The planted defects: an arc whose fused calls carry the epsilon doubled
# (-tags arc_planted_eps), and libarc_gpu.so built with gpu/arc_fused.cu of
# 98a4d52^ (the fused kernel that read a row's sums of squares at the wrong
# epoch parity). Each planted run must report mismatches (exit 1).
set -u
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-/tmp/arc-differential-all}; mkdir -p "$OUT"
BUDGET=${BUDGET:-280} # seconds of the main run's programs (a shorter run when device time is short)
# PLANTED=0 leaves out the planted runs (a main run alone, when device time is short)
# Hopper only (the GPU machine's): the library and the planted one build in about a minute.
ARCH=${GPU_ARCH:-"-gencode=arch=compute_90a,code=sm_90a -gencode=arch=compute_90,code=sm_90"}
FL="-O3 -fmad=false -std=c++17 -Xcompiler -fPIC -split-compile=0"
for f in .devbin/before/arc_fused.cu .devbin/verify .devbin/arc-planted-eps; do
  [ -e "$f" ] || { echo "missing $f: run make device-bin-differential on a machine with Go, and carry .devbin"; exit 2; }
done
t0=$(date +%s)
nvidia-smi -L
( timeout 300 /opt/torch/.venv/bin/python3 devtest/verify_stablehlo.py .devbin/verify >/tmp/verify.log 2>&1
  echo "verify exit $?" >>/tmp/verify.log ) &
( timeout 400 make -j16 GPU_ARCH="$ARCH" build/libarc_gpu.so >/tmp/make.log 2>&1; echo "make exit $?" ) &
timeout 400 nvcc $ARCH $FL -Iproxy -Igpu -x cu -c .devbin/before/arc_fused.cu -o /tmp/before_fused.o >/tmp/before.log 2>&1
echo "the fused kernel before its fix: nvcc exit $?"
wait
echo "== StableHLO's verifier"; tail -15 /tmp/verify.log
# shellcheck disable=SC2046 # the object list is words
nvcc $ARCH -shared -o build/libarc_gpu-before.so $(ls build/gpu/*.o | grep -v 'arc_fused.cu.o') /tmp/before_fused.o -lrt &&
  echo "libraries built in $(($(date +%s) - t0)) s"
V=/tmp/arc-differential-work/venv/bin/python
planted() { # planted NAME VAR=VALUE LABEL: a small run of a broken arc, once differential.sh made the venv and MPS
  # (the venv's folder exists before its packages do, and MPS may run already: wait for what says the venv is ready)
  for _ in $(seq 150); do [ -f /tmp/arc-differential-work/venv-ready ] && pgrep -f nvidia-cuda-mps-control >/dev/null && break; sleep 1; done
  sleep 3
  env "$2" timeout 150 $V devtest/differential.py --out "$OUT/$1" --work "/tmp/$1" --procs 2 --generated 21 \
    --corpus "" --configs cuda:nvlink --fuse on --shards 1 --budget 120 --run-timeout 40 --label "$3" >"/tmp/$1.log" 2>&1
  echo "$1 exit $? (1 = mismatches found, as it must)"
  tail -c 20000 "/tmp/$1.log" >"$OUT/$1.log" # comes back with the results: why, when there is no table
}
# The planted runs follow the main run: beside it, their processes share the GPU with its twelve, and
# arc's kernels, whose ranks wait for each other, then wait past the watchdog for a GPU to run on.
OUT=$OUT/diff timeout $((BUDGET + 80)) bash devtest/differential.sh --procs 1,2,4 --generated 21 --budget $BUDGET --run-timeout 40 \
  --shards 3 --processes 12 --label "one GPU, 1, 2 and 4 processes under MPS" 2>&1 | grep -v "^Unjudged" | tail -30
echo "main run done at $(($(date +%s) - t0)) s"
[ "${PLANTED:-1}" = 0 ] && { echo "total $(($(date +%s) - t0)) s (PLANTED=0: no planted runs)"; exit 0; }
nvidia-cuda-mps-control -d 2>/dev/null # differential.sh stopped its daemon
planted planted-eps "ARC_BIN=$PWD/.devbin/arc-planted-eps" "planted: the fused call's epsilon doubled" &
planted planted-lib "ARC_GPU_LIB=$PWD/build/libarc_gpu-before.so" "planted: the fused kernel of 98a4d52^" &
wait
echo quit | nvidia-cuda-mps-control 2>/dev/null
for d in planted-eps planted-lib; do
  echo "== $d"
  sed -n '/^| processes/,/^Runs/p' "$OUT/$d/differential.md"
  grep -m4 "^MISMATCH" "$OUT/$d/failures.txt" | cut -c1-330
  echo "$(grep -c "^MISMATCH" "$OUT/$d/failures.txt") mismatches"
  rm -f "$OUT/$d/logs.tar.gz" "$OUT/$d/differential.json" # what comes back from the device is limited
  head -c 60000 "$OUT/$d/failures.txt" >/tmp/f.txt && cp /tmp/f.txt "$OUT/$d/failures.txt"
done
echo "total $(($(date +%s) - t0)) s"
