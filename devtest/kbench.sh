#!/usr/bin/env bash
# kbench.sh: one session on the GPU machine for gpu, from the
# repository root: build (make gpu), test (make device-test-kernels, which needs
# .devbin/gputest.test from `make device-bin` here), benchmark (kbench over
# peer access, then host-staged against NCCL with P2P off). Logs and CSVs go
# to $OUT (the device tool's folder) or build/devrun; a short summary is
# printed last.
#
#   devtest/kbench.sh [all|test|bench]
set -u
what=${1:-all}
OUT=${OUT:-build/devrun}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0 # never NVLink multicast on shared machines
arch=${GPU_ARCH:--gencode=arch=compute_90a,code=sm_90a}

if [ -z "${NCCL_HOME:-}" ] && [ -z "$(make -s -f - <<<'include Makefile
x: ; @echo $(NCCL_HOME)' x 2>/dev/null)" ]; then
  h=$(find /opt /usr -name nccl.h -path '*include*' 2>/dev/null | head -1)
  [ -n "$h" ] && export NCCL_HOME=$(dirname "$(dirname "$h")")
fi
{ nvidia-smi -L; nvcc --version | tail -2; nvidia-smi topo -m; echo "NCCL_HOME=${NCCL_HOME:-from Makefile}"; } >"$OUT/env.txt" 2>&1
t0=$SECONDS
if ! make -j16 gpu GPU_ARCH="$arch" >"$OUT/build.log" 2>&1; then
  # Someone else's source may not build yet: arc's own still can.
  echo "devrun: make gpu failed (see build.log); building gpu/arc_*.cu only"
  grep -m5 error "$OUT/build.log"
  make -j16 gpu GPU_ARCH="$arch" GPU_SRCS="$(echo gpu/arc_*.cu)" >>"$OUT/build.log" 2>&1 || {
    tail -30 "$OUT/build.log"
    exit 1
  }
fi
echo "devrun: build $((SECONDS - t0)) s"

if [ "$what" != bench ]; then
  t0=$SECONDS
  ARC_TIMEOUT_MS=3000 GPUTEST_TIMEOUT=270s make --no-print-directory device-test-kernels
  echo "devrun: tests $((SECONDS - t0)) s"
fi

if [ "$what" != test ] && [ -x build/kbench ]; then
  t0=$SECONDS
  timeout 120 build/kbench >"$OUT/kbench_peer.csv" 2>"$OUT/kbench_peer.err"
  echo "devrun: kbench peer rc=$? $((SECONDS - t0)) s"
  t0=$SECONDS
  NCCL_P2P_DISABLE=1 timeout 90 build/kbench --link host --min 1M --reps 5 >"$OUT/kbench_host.csv" 2>"$OUT/kbench_host.err"
  echo "devrun: kbench host rc=$? $((SECONDS - t0)) s"
  # Summary: time (us) of NCCL and arc's speedup over it, f16, a few sizes.
  for f in "$OUT/kbench_peer.csv" "$OUT/kbench_host.csv"; do
    echo "== $(basename "$f"): f16, NCCL us (eager/graph) and arc's speedups"
    awk -F, 'NR > 1 && $3 == "f16" && ($4 == 4096 || $4 == 65536 || $4 == 262144 || $4 == 1048576 ||
      $4 == 16777216 || $4 == 67108864 || $4 == 268435456) {
        if ($5 == "nccl" || $5 == "nccl-graph") row[$4] = row[$4] " " $5 "=" $7; else row[$4] = row[$4] " " $5 "=" $10 "x"
        if (!($4 in seen)) { seen[$4] = 1; order[++n] = $4 } }
      END { for (i = 1; i <= n; i++) print order[i] ":" row[order[i]] }' "$f"
  done
fi
