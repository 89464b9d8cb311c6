#!/usr/bin/env bash
# run.sh: the runtime's acceptance on the GPU machine, in one command:
#
#   bash devtest/run.sh [abi] [wheel] [graphs] [collective] [jax] [cost] [mp] [hostlink]   (default: the first four)
#
# Go is not installed there: `make runtime-devbin` on a CPU machine puts the
# binaries in .devbin/ (carried to the device machine). libarc_gpu.so is built
# here with nvcc (`make gpu`) when build/ lacks it.
#   abi         arc's PJRT and XLA FFI declarations against jaxlib's headers
#   wheel       the arc_jax wheel installed in a venv: arc_jax check, JAX's default backend
#   graphs      gomlx SPMD all-reduces, both proxy forms, every lowering,
#               bit-exact against the Go reference (.devbin/devtest -all)
#   collective  gomlx's own TestCollective through the standalone plugin
#   jax         a JAX shard_map psum through the standalone plugin vs native
#   cost        JAX's compile time of 20 programs, native vs arc (docs/PERFORMANCE.md)
#   mp          JAX with one process per device, 2 and 4 processes on GPU 0 under MPS
#               (jax_multiprocess.py: native vs arc, a permuted mesh, the persistent cache)
#   hostlink    the host-staged link across processes, 2 and 4 processes on GPU 0 under MPS
#               (about 3-4 minutes): the kernels through the C API when .devbin/gputest.test
#               is there (TestMultiProcess, ARC_MP_LINK=host: every algorithm, codec and dtype
#               bit-exact, graph replays, a killed peer's timeout), then jax_multiprocess.py
#               natively, with ARC_TARGET=cuda:pcie-nop2p and with no ARC_TARGET (one GPU
#               detects it): psums of f32, f16, bf16 from 4 KiB to 32 MiB bit-exact against
#               native (integers) and the rank-order sum, --quant codecs within their bounds,
#               the same bits in every process, link = "host" in every dumped call, and
#               nothing of arc's left in /dev/shm. `make device-bin` here builds what it needs.
# Environment: JAX_PY, CUDA_PLUGIN, OUT (results), DEVTEST_ARGS (extra devtest flags,
# e.g. "-configs auto,twoshot-int8 -sizes 4096,67108864").
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
JAX_PY=${JAX_PY:-/opt/torch/.venv/bin/python}
CUDA_PLUGIN=${CUDA_PLUGIN:-/opt/torch/.venv/lib/python3.12/site-packages/jax_plugins/xla_cuda13/xla_cuda_plugin.so}
OUT=${OUT:-/tmp/arc-devtest}
STEPS=${*:-abi graphs collective jax}
export GOMLX_NO_AUTO_INSTALL=1 GOPJRT_CUDA_CHECKS=0
export ARC_GPU_LIB=$ROOT/build/libarc_gpu.so ARC_BIN=$ROOT/.devbin/arc
PLUGIN=$ROOT/.devbin/pjrt_c_api_arc_plugin.so

passed=0 failed=0
result() { # result NAME STATUS
  if [ "$2" -eq 0 ]; then echo "PASS $1"; passed=$((passed + 1)); else echo "FAIL $1"; failed=$((failed + 1)); fi
}
# tally adds the PASS/FAIL lines of a step's own output.
tally() {
  passed=$((passed + $(grep -c '^PASS ' "$1"))) failed=$((failed + $(grep -c '^FAIL ' "$1")))
}

# jax_venv installs the arc_jax wheel, built from .devbin and build/, into a
# virtual environment over the machine's JAX: the JAX steps run JAX as a user
# who installed arc would.
VENV=$OUT/venv
# machine_site VENV: the machine's JAX lives in a venv of its own ($JAX_PY's),
# whose packages a venv made from it does not see (--system-site-packages
# means the base interpreter's): a .pth file adds them, below VENV's own.
machine_site() {
  local site
  site=$("$JAX_PY" -c 'import jax, os; print(os.path.dirname(os.path.dirname(jax.__file__)))') &&
    echo "$site" >"$("$1/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/machine_jax.pth"
}
jax_venv() {
  [ -x "$VENV/bin/python" ] && return 0
  cp build/libarc_gpu.so .devbin/ &&
    "$JAX_PY" python/build_wheel.py --build .devbin --out .devbin/dist >/dev/null &&
    "$JAX_PY" -m venv --system-site-packages "$VENV" &&
    machine_site "$VENV" &&
    "$VENV/bin/pip" install -q --no-index --no-deps --force-reinstall .devbin/dist/arc_jax-*.whl
}

need="$PLUGIN .devbin/arc $CUDA_PLUGIN"
case " $STEPS " in *" graphs "*) need="$need .devbin/devtest" ;; esac
case " $STEPS " in *" collective "*) need="$need .devbin/gomlx_graph.test" ;; esac
case " $STEPS " in *" hostlink "*) [ -x .devbin/gputest.test ] || echo "no .devbin/gputest.test (make device-bin): hostlink runs JAX only" ;; esac
for f in $need; do
  [ -e "$f" ] || { echo "missing $f: run 'make runtime-devbin' on a CPU machine first"; exit 2; }
done
if [ ! -f build/libarc_gpu.so ]; then make gpu || { echo "make gpu failed"; exit 2; }; fi
rm -rf "$OUT" && mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

for step in $STEPS; do
  echo "== $step"
  case $step in
  abi)
    inc=$("$JAX_PY" -c 'import jaxlib, os; print(os.path.join(os.path.dirname(jaxlib.__file__), "include"))')
    g++ -std=c++17 -fsyntax-only -Iproxy -I"$inc" gpu/ffitest/testdata/ffi_abi_check.cc
    result "abi: arc_ffi_abi.h matches jaxlib's xla/ffi/api/c_api.h" $?
    if [ -f "$inc/xla/pjrt/c/pjrt_c_api.h" ]; then
      gcc -std=gnu11 -fsyntax-only -Iproxy -I"$inc/xla/pjrt/c" -I"$inc" proxy/testdata/abi_check.c
      result "abi: pjrt_abi.h matches jaxlib's pjrt_c_api.h" $?
    fi
    ;;
  graphs)
    # shellcheck disable=SC2086
    .devbin/devtest -all -standalone "$PLUGIN" -plugin "$CUDA_PLUGIN" -gpu-lib "$ARC_GPU_LIB" \
      -dump "$OUT/graphs" ${DEVTEST_ARGS:-} 2>"$OUT/graphs.log" | tee "$OUT/graphs.txt"
    grep -v ' passed, ' "$OUT/graphs.txt" >"$OUT/graphs.lines"
    tally "$OUT/graphs.lines"
    ;;
  collective)
    # gomlx's test helper auto-installs PJRT plugins unless they look installed.
    home=$OUT/home && mkdir -p "$home/.local/lib/go-xla/nvidia"
    touch "$home/.local/lib/go-xla/pjrt_c_api_cpu_v0.83.3_plugin.so"
    ln -sf "$CUDA_PLUGIN" "$home/.local/lib/go-xla/nvidia/pjrt_c_api_cuda_plugin.so"
    HOME=$home GOMLX_BACKEND=xla:$PLUGIN ARC_PJRT_PLUGIN=$CUDA_PLUGIN ARC_TARGET=cuda:nvlink ARC_QUANT=none \
      ARC_DUMP_DIR=$OUT/collective .devbin/gomlx_graph.test -test.run '^TestCollective$' -test.v \
      >"$OUT/collective.txt" 2>&1
    rc=$?
    tail -n 30 "$OUT/collective.txt"
    result "gomlx TestCollective through pjrt_c_api_arc_plugin.so" $rc
    ;;
  wheel)
    jax_venv
    result "the arc_jax wheel builds and installs into a venv over the machine's JAX" $?
    "$VENV/bin/python" -m arc_jax check >"$OUT/check.txt" 2>&1
    result "python -m arc_jax check" $?
    cat "$OUT/check.txt"
    for mode in arc native; do
      disable=; [ $mode = native ] && disable=1
      env -u JAX_PLATFORMS ARC_DISABLE=$disable "$VENV/bin/python" -c '
import jax, jax.numpy as jnp
print("default_backend", jax.default_backend())
print("devices gpu", jax.devices("gpu"), "cuda", jax.devices("cuda"))
print("value", float(jax.jit(lambda a: (a * 2).sum())(jnp.ones(4))))' >"$OUT/smoke-$mode.txt" 2>&1
      rc=$?
      cat "$OUT/smoke-$mode.txt"
      grep -q '^default_backend gpu$' "$OUT/smoke-$mode.txt" && grep -q '^value 8.0$' "$OUT/smoke-$mode.txt" &&
        ! grep -q experimental "$OUT/smoke-$mode.txt"
      result "$mode: JAX's default backend is gpu, no experimental warning" $((rc | $?))
      if [ $mode = arc ]; then grep -q '^arc: active' "$OUT/smoke-$mode.txt"; else ! grep -q '^arc:' "$OUT/smoke-$mode.txt"; fi
      result "$mode: arc's start line is there only when arc is on" $?
    done
    ;;
  jax)
    jax_venv && "$VENV/bin/python" devtest/jax_psum.py --cuda-plugin "$CUDA_PLUGIN" \
      --dump "$OUT/jax" 2>"$OUT/jax.log" | tee "$OUT/jax.txt"
    grep -v ' passed, ' "$OUT/jax.txt" >"$OUT/jax.lines"
    tally "$OUT/jax.lines"
    grep -q '^FAIL' "$OUT/jax.lines" && tail -n 40 "$OUT/jax.log"
    ;;
  cost)
    jax_venv && "$VENV/bin/python" devtest/jax_compile_cost.py --cuda-plugin "$CUDA_PLUGIN" \
      --out "$OUT/cost" | tee "$OUT/cost.txt"
    result "jax compile cost measured" "${PIPESTATUS[0]}"
    ;;
  mp)
    nvidia-cuda-mps-control -d 2>/dev/null # several processes on one GPU spin on flags: MPS runs them side by side
    for n in 2 4; do
      jax_venv && "$VENV/bin/python" devtest/jax_multiprocess.py --procs $n --cuda-plugin "$CUDA_PLUGIN" \
        --out "$OUT/mp$n" | tee "$OUT/mp$n.txt"
      grep -v ' passed, ' "$OUT/mp$n.txt" >"$OUT/mp$n.lines"
      tally "$OUT/mp$n.lines"
    done
    echo quit | nvidia-cuda-mps-control 2>/dev/null
    ;;
  hostlink)
    # ARC_MAX_BYTES: the largest psum (32 MiB); the segment in /dev/shm holds
    # every rank's buffers (world 4: about 1.3 GB), the default 256 MiB ten times that.
    started_mps=
    nvidia-cuda-mps-control -d 2>/dev/null && started_mps=1
    echo "/dev/shm: $(df -h /dev/shm | awk 'NR == 2 {print $2 " size, " $4 " free"}')"
    ls /dev/shm | grep '^arc-' >"$OUT/shm-before.txt"
    if [ -x .devbin/gputest.test ]; then
      t0=$SECONDS
      (cd gpu/gputest && ARC_GPU_LIB=$ARC_GPU_LIB ARC_MP_WORLDS=2,4 ARC_MP_LINK=host ARC_MP_DEADLINE=70 \
        timeout -k 5 150 "$ROOT/.devbin/gputest.test" -test.run '^TestMultiProcess$' -test.v -test.timeout 145s) \
        >"$OUT/hostlink-kernels.txt" 2>&1
      rc=$?
      grep -E '^(--- |FAIL|ok)|multiproc_test.go:[0-9]+: (rank 0|process)' "$OUT/hostlink-kernels.txt" | cut -c1-200 | head -20
      result "kernels: TestMultiProcess, 2 and 4 processes on the host-staged link ($((SECONDS - t0)) s)" $rc
    fi
    for n in 2 4; do
      t0=$SECONDS
      jax_venv && ARC_MAX_BYTES=33554432 timeout -k 5 150 "$VENV/bin/python" devtest/jax_multiprocess.py \
        --procs $n --cuda-plugin "$CUDA_PLUGIN" --out "$OUT/hostlink$n" --timeout 120 \
        --modes native,arc-cuda:pcie-nop2p,arc-detect --sizes 4K,256K,4M,32M --integers \
        --quant int8,int6,int4,int4r,fp8 --link host --json "$OUT/hostlink$n.json" >"$OUT/hostlink$n.txt" 2>&1
      rc=$?
      echo "jax, $n processes: $(grep -c '^PASS ' "$OUT/hostlink$n.txt") checks passed, $(grep -c '^FAIL ' "$OUT/hostlink$n.txt") failed, exit $rc, $((SECONDS - t0)) s"
      grep '^FAIL ' "$OUT/hostlink$n.txt" | head -20
      grep -v ' passed, ' "$OUT/hostlink$n.txt" | grep -E '^(PASS|FAIL) ' >"$OUT/hostlink$n.lines"
      tally "$OUT/hostlink$n.lines"
      [ "$rc" -eq 0 ] || [ -s "$OUT/hostlink$n.lines" ] || result "jax, $n processes: exit $rc" 1
    done
    ls /dev/shm | grep '^arc-' | grep -vxF -f "$OUT/shm-before.txt" >"$OUT/shm-left.txt"
    result "nothing of arc's left in /dev/shm ($(wc -l <"$OUT/shm-left.txt") new names)" "$([ -s "$OUT/shm-left.txt" ] && echo 1 || echo 0)"
    [ -n "$started_mps" ] && { echo quit | nvidia-cuda-mps-control 2>/dev/null; }
    ;;
  *) echo "unknown step $step"; exit 2 ;;
  esac
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
