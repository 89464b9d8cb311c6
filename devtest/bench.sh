#!/usr/bin/env bash
# bench.sh: docs/BENCHMARKS.md's measurements on the GPU machine (2 x H200),
# in one device call (`make device-bench` runs it):
#
#   bash devtest/bench.sh
#
# Go is not installed there: `make bench-bin` on a CPU machine puts arc (built
# with cgo) in .devbin/bench/, and `make device-bin-examples` the examples in
# .devbin/examples/, both carried to the device machine (run with carry
# [".devbin/bench", ".devbin/examples"]; ARC_BIN and LLAMA_BIN override the
# paths). libarc_gpu.so and kbench are built here with nvcc (`make gpu`). The
# steps, each with a time limit, each logged, none stopping the others:
#
#   build        make gpu: build/libarc_gpu.so and build/kbench
#   xla-peer     arc bench --level xla, f16 and bf16, native with each of XLA's
#                switches and every arc lowering (NVLink)
#   tune-peer    arc tune --from that CSV -> cuda-nvlink.json
#   auto-peer    arc bench: native and its switches, and auto with cuda-nvlink.json
#   kernel-peer  arc bench --level kernel (kbench: arc's C API against NCCL,
#                eager, captured, and on symmetric windows)
#   llama        examples/llama at --tp 2 (LLAMA_ARGS): decode and prefill steps,
#                native, its switches, auto, int8 and int4
#   xla-host     arc bench --level xla --link host (peer access off; NCCL_P2P_DISABLE=1)
#   tune-host    arc tune --from that CSV -> cuda-pcie-nop2p.json
#   kernel-host  arc bench --level kernel --link host
#
# ONLY (space-separated step names) runs a subset, e.g. ONLY="llama" or
# ONLY="build xla-peer tune-peer auto-peer kernel-peer". $OUT receives:
# bench.log (every step's output), bench.csv (every measurement), xla-peer.svg,
# kernel-peer.svg, xla-host.svg, cuda-nvlink.json, cuda-pcie-nop2p.json,
# llama.csv and, when arc has --format, nccl.txt (the sweeps in nccl-tests'
# columns). stdout ends with the tables and a summary of the steps. Knobs
# (environment): SIZES, HOST_SIZES, DTYPES, HOST_DTYPES, CHAIN, REPS, WARMUP,
# JOBS, BUDGET (seconds for all steps), CUDA_PLUGIN, LLAMA_ARGS, LLAMA_LIMIT.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${OUT:-/tmp/arc-devbench}
SIZES=${SIZES:-4K:256M}
HOST_SIZES=${HOST_SIZES:-64K:256M}
DTYPES=${DTYPES:-f16,bf16}
HOST_DTYPES=${HOST_DTYPES:-f16}
CHAIN=${CHAIN:-20}
REPS=${REPS:-15}
WARMUP=${WARMUP:-2}
JOBS=${JOBS:-8}
BUDGET=${BUDGET:-560}
ONLY=${ONLY:-}
LLAMA_ARGS=${LLAMA_ARGS:---tp 2 --layers 80 --steps 10 --warmup 3}
LLAMA_LIMIT=${LLAMA_LIMIT:-240}
CUDA_PLUGIN=${CUDA_PLUGIN:-/opt/torch/.venv/lib/python3.12/site-packages/jax_plugins/xla_cuda13/xla_cuda_plugin.so}
HOST_LOWERINGS=native,native+symm,native+userbuf,oneshot,twoshot:fp,lowprec:fp8,twoshot:int8,twoshot:int4,auto
NATIVES=native,native+oneshot,native+symm,native+userbuf,native+all

export GOMLX_NO_AUTO_INSTALL=1 GOPJRT_CUDA_CHECKS=0
export NCCL_NVLS_ENABLE=0                            # no NVLink multicast on the lent machines
export ARC_TIMEOUT_MS=${ARC_TIMEOUT_MS:-20000}       # a stuck arc kernel fails its measurement instead of hanging the run
export ARC_GPU_LIB=$ROOT/build/libarc_gpu.so ARC_PJRT_PLUGIN=$CUDA_PLUGIN
# XLA's own settings, as users run it: its command buffers (CUDA graphs)
# record the fusions and arc's custom calls (command-buffer compatible), not
# NCCL's all-reduces (XLA leaves collectives out by default). Set XLA_FLAGS
# to measure other settings (docs/BENCHMARKS.md has a run with them off).
ARC=${ARC_BIN:-$ROOT/.devbin/bench/arc}
LLAMA=${LLAMA_BIN:-$ROOT/.devbin/examples/llama}
WORK=$(mktemp -d)
mkdir -p "$OUT"
START=$(date +%s)
SUMMARY=$WORK/summary

# step NAME LIMIT CMD...: runs CMD with at most LIMIT seconds (less if the
# budget is nearly spent), its stdout and stderr in $WORK/NAME.log, and
# records its status and time in the summary.
step() {
  local name=$1 limit=$2
  shift 2
  if [ -n "$ONLY" ] && ! [[ " $ONLY " == *" $name "* ]]; then
    skip "$name" "not in ONLY"
    return 1
  fi
  local left=$((BUDGET - ($(date +%s) - START)))
  if [ "$left" -lt 20 ]; then
    skip "$name" "the ${BUDGET}s budget is spent"
    return 1
  fi
  [ "$limit" -gt "$left" ] && limit=$left
  echo "== $name (limit ${limit}s): $*" | tee "$WORK/$name.log"
  local t0 rc note
  t0=$(date +%s)
  timeout --kill-after=10 "$limit" "$@" >>"$WORK/$name.log" 2>&1
  rc=$?
  case $rc in
  0) note=ok ;;
  124 | 137) note="timed out after ${limit}s" ;;
  *) note="exit $rc: $(grep -v '^\s*$' "$WORK/$name.log" | tail -n 1 | tr -d '\r' | cut -c1-110)" ;;
  esac
  printf '%-12s %-8s %5s  %s\n' "$name" "$([ $rc -eq 0 ] && echo ok || echo FAILED)" "$(($(date +%s) - t0))s" "$note" >>"$SUMMARY"
  return $rc
}

skip() { printf '%-12s %-8s %5s  %s\n' "$1" skipped - "$2" >>"$SUMMARY"; }
have() { [ -e "$1" ] || { echo "missing $1: $2"; return 1; }; }

{
  echo "devbench $(date -u +%FT%TZ) on $(hostname)"
  nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader
  nvidia-smi topo -m
  "$ARC" version
  echo "XLA_FLAGS=${XLA_FLAGS-(unset: the defaults of XLA)}"
} >"$WORK/env.log" 2>&1
cat "$WORK/env.log"

have "$ARC" "run 'make bench-bin' on a CPU machine first (Go is not on the GPU machine)" || exit 2
have "$CUDA_PLUGIN" "set CUDA_PLUGIN to the CUDA PJRT plugin" || exit 2

step build 300 make gpu
have build/libarc_gpu.so "make gpu failed: arc's lowerings will fail, native is still measured"
have build/kbench "kbench not built: the kernel level is skipped"

common=(--sizes "$SIZES" --dtypes "$DTYPES" --chain "$CHAIN" --reps "$REPS" --warmup "$WARMUP" --jobs "$JOBS")
host=(--sizes "$HOST_SIZES" --dtypes "$HOST_DTYPES" --chain "$CHAIN" --reps "$REPS" --warmup "$WARMUP" --jobs "$JOBS"
  --link host --lowerings "$HOST_LOWERINGS")

step xla-peer 240 "$ARC" bench --level xla --link peer "${common[@]}" --csv "$WORK/xla-peer.csv" --plot "$OUT/xla-peer.svg"
# A sweep cut short has saved every cell it finished: fit what there is.
if [ -s "$WORK/xla-peer.csv" ]; then
  step tune-peer 30 "$ARC" tune --from "$WORK/xla-peer.csv" -o "$OUT/cuda-nvlink.json"
else skip tune-peer "no XLA-level measurements"; fi
# What auto chooses once the measured profile replaces the estimates (it must
# never be slower than native); its table goes to the log only.
if [ -s "$OUT/cuda-nvlink.json" ]; then
  step auto-peer 120 "$ARC" bench --level xla --link peer "${common[@]}" --lowerings "$NATIVES,auto" \
    --profile "$OUT/cuda-nvlink.json"
else skip auto-peer "no tuned profile"; fi
if [ -x build/kbench ]; then
  step kernel-peer 90 "$ARC" bench --level kernel --link peer --kbench build/kbench \
    --sizes "$SIZES" --dtypes "$DTYPES" --reps "$REPS" --csv "$WORK/kernel-peer.csv" --plot "$OUT/kernel-peer.svg"
else skip kernel-peer "no build/kbench"; fi
# The Llama-shaped decoder end to end (examples/llama): its own tables, RESULT
# lines and CSV.
if [ -x "$LLAMA" ]; then
  # shellcheck disable=SC2086 # LLAMA_ARGS is a list of flags
  step llama "$LLAMA_LIMIT" "$LLAMA" --plugin "$CUDA_PLUGIN" $LLAMA_ARGS --csv "$OUT/llama.csv"
else skip llama "no $LLAMA: make device-bin-examples, carry .devbin/examples"; fi
step xla-host 150 "$ARC" bench --level xla "${host[@]}" --csv "$WORK/xla-host.csv" --plot "$OUT/xla-host.svg"
if [ -s "$WORK/xla-host.csv" ]; then
  step tune-host 30 "$ARC" tune --from "$WORK/xla-host.csv" -o "$OUT/cuda-pcie-nop2p.json"
else skip tune-host "no host-link measurements"; fi
if [ -x build/kbench ]; then
  step kernel-host 60 "$ARC" bench --level kernel --link host --kbench build/kbench \
    --sizes "$HOST_SIZES" --dtypes "$HOST_DTYPES" --lowerings "$HOST_LOWERINGS" --reps "$REPS" --csv "$WORK/kernel-host.csv"
else skip kernel-host "no build/kbench"; fi

# Pack: one CSV (one header), one log.
first=1
for f in "$WORK"/xla-peer.csv "$WORK"/kernel-peer.csv "$WORK"/xla-host.csv "$WORK"/kernel-host.csv; do
  [ -s "$f" ] || continue
  if [ $first -eq 1 ]; then cat "$f"; first=0; else tail -n +2 "$f"; fi
done >"$OUT/bench.csv"
# nccl-tests' columns for the same measurements.
if [ -s "$OUT/bench.csv" ]; then
  : >"$OUT/nccl.txt"
  for kind in "xla peer" "kernel peer" "xla host" "kernel host"; do
    set -- $kind
    "$ARC" bench --from "$OUT/bench.csv" --level "$1" --link "$2" --format nccl >>"$OUT/nccl.txt" 2>/dev/null
  done
fi
for f in env build xla-peer tune-peer auto-peer kernel-peer llama xla-host tune-host kernel-host; do
  [ -f "$WORK/$f.log" ] && { cat "$WORK/$f.log"; echo; }
done >"$OUT/bench.log"

# The tables (progress bars left out), then the summary last, where the tail of the output shows it.
for f in xla-peer auto-peer kernel-peer xla-host kernel-host tune-peer tune-host; do
  [ -f "$WORK/$f.log" ] || continue
  echo
  tr '\r' '\n' <"$WORK/$f.log" | sed -n '/microseconds per all-reduce\|^profile for\|^failures:/,$p'
done
[ -f "$WORK/llama.log" ] && { echo; grep -v '^RESULT' "$WORK/llama.log"; }
echo
echo "step         status    time  note"
cat "$SUMMARY"
echo "total $(($(date +%s) - START))s; files in $OUT: $(cd "$OUT" && ls | tr '\n' ' ')"
failed=$(grep -c FAILED "$SUMMARY")
rm -rf "$WORK"
[ "$failed" -eq 0 ]
