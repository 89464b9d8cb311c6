#!/usr/bin/env bash
# bench_onegpu.sh: what arc bench's XLA runner can check on one GPU (1 x H200), in one
# device call of about two minutes; the world-2 measurements are bench.sh's.
#
#   go test -c -ldflags='-s -w' -o .devbin/bench/xlarun.test ./bench/xlarun   # here (no Go there)
#   make device-bin-examples                                                  # here: .devbin/examples/llama
#   bash devtest/bench_onegpu.sh                                                      # there, carrying .devbin
#
# Steps, each with a time limit, none stopping the others; results in $OUT:
#   switches.txt      xlarun.CheckSwitches at world 1: a chain compiled and run
#                     with each of XLA's switches as per-program flags, with and
#                     without collective memory, and a flag XLA has not (refused)
#   plugin-flags.txt  the all-reduce flag names the CUDA plugin's binary holds
#   kbench-nvcc.txt   gpu/kbench/kbench.cu compiled against the machine's NCCL
#   llama-*.txt/csv   examples/llama at --tp 1, native and native+oneshot: a
#                     4-block model first (times of the drawing and the
#                     compiles), then LLAMA_LAYERS blocks (40: the weights one
#                     rank holds of 80 at --tp 2, plus the whole LM head)
# Knobs: CUDA_PLUGIN, LLAMA_LAYERS, LLAMA_LIMIT (seconds).
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${OUT:-/tmp/arc-onegpu}
mkdir -p "$OUT"
PLUGIN=${CUDA_PLUGIN:-/opt/torch/.venv/lib/python3.12/site-packages/jax_plugins/xla_cuda13/xla_cuda_plugin.so}
LLAMA=${LLAMA_BIN:-$ROOT/.devbin/examples/llama}
XLARUN=${XLARUN_TEST:-$ROOT/.devbin/bench/xlarun.test}
LAYERS=${LLAMA_LAYERS:-40}
LIMIT=${LLAMA_LIMIT:-100}
export GOMLX_NO_AUTO_INSTALL=1 GOPJRT_CUDA_CHECKS=0 NCCL_NVLS_ENABLE=0 ARC_PJRT_PLUGIN=$PLUGIN
T0=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader >"$OUT/env.txt" 2>&1

( # CPU only, beside the GPU steps
  inc=$(dirname "$(ls /opt/*/.venv/lib/python3*/site-packages/nvidia/nccl/include/nccl.h /usr/include/nccl.h 2>/dev/null | head -1)")
  grep -m3 -E '#define NCCL_(MAJOR|MINOR|PATCH)' "$inc/nccl.h"
  timeout 90 nvcc -std=c++17 -O2 -gencode=arch=compute_90,code=sm_90 -Igpu -Iproxy -I"$inc" \
    -c gpu/kbench/kbench.cu -o /tmp/kbench.o && echo "kbench.cu compiles"
) >"$OUT/kbench-nvcc.txt" 2>&1 &
( timeout 60 grep -aoE 'xla_gpu_[a-z0-9_]*(nccl|one_shot|all_reduce|symmetric)[a-z0-9_]*' "$PLUGIN" | sort -u ) >"$OUT/plugin-flags.txt" 2>&1 &

ARC_SWITCHES_OUT=$OUT/switches.txt timeout 60 "$XLARUN" -test.run TestSwitchesOnGPU -test.v >"$OUT/switches.log" 2>&1
echo "exit $?" >>"$OUT/switches.log"
llama() { # llama NAME LIMIT FLAGS...
  local name=$1 limit=$2
  shift 2
  timeout "$limit" "$LLAMA" --plugin "$PLUGIN" --tp 1 --variants native,native+oneshot --steps 3 --warmup 1 \
    --csv "$OUT/$name.csv" "$@" >"$OUT/$name.txt" 2>&1
  echo "exit $? after $(($(date +%s) - T0)) s" >>"$OUT/$name.txt"
}
llama llama-4 60 --layers 4 --shapes decode:1,prefill:2048
llama llama-$LAYERS "$LIMIT" --layers "$LAYERS" --shapes decode:1,prefill:2048
wait
for f in switches.txt kbench-nvcc.txt llama-4.txt "llama-$LAYERS.txt"; do echo "== $f"; tail -n 25 "$OUT/$f"; done
echo "total $(($(date +%s) - T0)) s"
