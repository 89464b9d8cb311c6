#!/usr/bin/env bash
# kbench_acceptance.sh: the GPU acceptance of gpu/'s failures and processes in one device
# call (docs/KERNELS.md, "Failures"; docs/RUNTIME.md, "One process per GPU").
# Run from a folder holding new/ (this tree: Makefile, gpu/, proxy/arc_ffi*.h,
# reference/testdata, .devbin/gputest.test from `make device-bin`) and,
# optionally, old/ (the same files of an earlier commit, for kbench's
# baseline). Steps: build libarc_gpu.so (and kbench) with nvcc for sm_90a;
# every kernel test (make device-test-kernels) with logical ranks where there
# is one GPU, the timeout and mismatch tests among them; kbench at 4 KB
# oneshot on logical ranks, old against new (the cost of the checks: not a
# link figure); then MPS and 2, 4 and 8 processes on GPU 0 through the C API.
# Logs and the library go to $OUT, a summary to stdout.
#
#   bash new/devtest/kbench_acceptance.sh [steps: build kbench mp kernels, run in that order]
set -u
H=$(pwd)
OUT=${OUT:-$H/out}
L=$OUT
mkdir -p "$OUT"
steps=${*:-build kbench mp kernels}
export NCCL_NVLS_ENABLE=0
ARCH="-gencode=arch=compute_90a,code=sm_90a"
T0=$SECONDS
say() { echo "== $* ($((SECONDS - T0)) s)"; }
has() { [[ " $steps " == *" $1 "* ]]; }
{ nvidia-smi -L; nvcc --version | tail -2; nproc; nvidia-smi --query-gpu=compute_mode --format=csv; } >"$L/env.txt" 2>&1
h=$(find /usr /opt /root -name nccl.h -path '*include*' 2>/dev/null | head -1)
[ -n "$h" ] && export NCCL_HOME=$(dirname "$(dirname "$h")")

if has build; then
  say build
  for v in new old; do
    [ -d "$H/$v" ] || continue
    # old/ may list the sources to build in old/SOURCES (a baseline needs only some kernels)
    srcs=$(cat "$H/$v/SOURCES" 2>/dev/null)
    (cd "$H/$v" && timeout 170 make -j12 build/libarc_gpu.so GPU_ARCH="$ARCH" ${srcs:+GPU_SRCS="$srcs"} >"$L/build_$v.log" 2>&1 &&
      { [ -z "${NCCL_HOME:-}" ] || make kbench GPU_ARCH="$ARCH" ${srcs:+GPU_SRCS="$srcs"} >>"$L/build_$v.log" 2>&1; }
      echo "build $v rc=$? $((SECONDS - T0)) s") &
  done
  wait
  grep -m8 -i "error" "$L/build_new.log"
  cp "$H/new/build/libarc_gpu.so" "$OUT/" 2>/dev/null
fi

if has kbench; then
  say kbench
  echo "version,round,link,world,dtype,bytes,lowering,mode,us,algbw_GBps,busbw_GBps,vs_nccl" >"$L/kbench.csv"
  for round in 1 2; do
    for v in old new; do
      k="$H/$v/build/kbench"
      [ -x "$k" ] || continue
      for devs in 0,0 0,0,0,0,0,0,0,0; do
        [ $round = 1 ] || [ $devs = 0,0 ] || continue
        timeout 30 "$k" --devices $devs --only oneshot --dtypes f16 --min 4K --max 4K --reps 51 2>>"$L/kbench.err" |
          tail -n +2 | sed "s/^/$v,r$round,/" | tee -a "$L/kbench.csv"
      done
      [ $round = 1 ] || continue
      timeout 30 "$k" --devices 0,0,0,0 --only twoshot-fp,twoshot-int4 --dtypes f32 --min 64M --max 64M --reps 5 2>>"$L/kbench.err" |
        tail -n +2 | sed "s/^/$v,r$round,/" | tee -a "$L/kbench.csv"
    done
  done
fi

if has mp; then
  say mp
  nvidia-cuda-mps-control -d && sleep 1
  # each world's children are killed after ARC_MP_DEADLINE seconds
  (cd "$H/new/gpu/gputest" && ARC_GPU_LIB=$H/new/build/libarc_gpu.so ARC_MP_WORLDS=${ARC_MP_WORLDS:-2,4,8} \
    ARC_MP_DEADLINE=${ARC_MP_DEADLINE:-100} timeout 360 "$H/new/.devbin/gputest.test" -test.run '^TestMultiProcess$' \
    -test.v -test.timeout 350s >"$L/mp.log" 2>&1
    echo "mp rc=$?")
  echo quit | nvidia-cuda-mps-control
  grep -E "^(--- |FAIL|ok|PASS)|multiproc_test.go" "$L/mp.log" | head -60
fi
if has kernels; then
  say kernels
  (cd "$H/new" && ARC_TIMEOUT_MS=10000 GPUTEST_TIMEOUT=${GPUTEST_TIMEOUT:-250s} OUT=$L timeout 280 make --no-print-directory device-test-kernels)
  grep -E "^(=== RUN|--- FAIL|FAIL|ok|PASS)|failure_test|: the calls|timed out|different calls" "$L/device-test.log" | grep -v "=== RUN" | head -40
fi

say done
