#!/usr/bin/env bash
# jax_suite.sh: arc's JAX suite on the GPU machine, in one command (one device
# call of at most ~8 minutes):
#
#   OUT=/tmp/arc-jaxsuite WHEEL=dist/arc_jax-0.1.0.dev0-py3-none-linux_x86_64.whl bash devtest/jax_suite.sh [STEP...]
#
# Steps (default all three; block runs on the CPU beside the other two):
#   compat  jax_compat.py: 34 JAX features natively (ARC_DISABLE=1) and through arc,
#           each in fresh processes, compared; arc's start line, no experimental warning
#   llama   jax_llama.py: a Llama-shaped decode step, tensor parallel over 2 and 4
#           processes on GPU 0 under MPS, native against arc and an f32 CPU reference,
#           arc's dumps, per-program compiler options (int8), step times
#   block   jax_llama_block.py: StableHLO fixtures of one Llama block (TP 2, 4, 8;
#           bf16, f32) printed on the CPU
# Variables:
#   JAX_PY   the Python to run, with JAX and arc_jax installed; by default a venv made
#            here: WHEEL installed into `BASE_PY -m venv --system-site-packages` (the
#            wheel is built from .devbin and build/libarc_gpu.so, as run.sh does, when
#            WHEEL is unset and they are there)
#   BASE_PY  the machine's JAX (default /opt/torch/.venv/bin/python3)
#   OUT      results, at most 8 files (default /tmp/arc-jaxsuite):
#              summary.txt      every step's output: tables, PASS/FAIL and INFO lines
#              compat.json      jax_compat.py's features and comparisons
#              llama.json       jax_llama.py's runs, checks, dumps' findings, timings
#              block.json       the fixtures and what each holds
#              fixtures.tar.gz  jax_llama_block_tp{2,4,8}_{bf16,f32}.mlir
#              logs.tar.gz      every process's log, the per-process JSON, arc's
#                               after.mlir dumps of the decode step
#   WORK     scratch: the venv, caches, dumps (default /tmp/arc-jaxsuite-work)
#   T_MAKE   the time limit of `make gpu` when build/libarc_gpu.so is missing (default 300)
#   T_COMPAT, T_LLAMA, T_BLOCK  each step's time limit in seconds (default 240, 220, 200);
#            the scripts stop their children within budgets below these
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
BASE_PY=${BASE_PY:-/opt/torch/.venv/bin/python3}
OUT=${OUT:-/tmp/arc-jaxsuite}
WORK=${WORK:-/tmp/arc-jaxsuite-work}
T_COMPAT=${T_COMPAT:-240} T_LLAMA=${T_LLAMA:-220} T_BLOCK=${T_BLOCK:-200}
STEPS=${*:-compat llama block}
DEV=$ROOT/devtest
rm -rf "$OUT" && mkdir -p "$OUT" "$WORK"
SUMMARY=$OUT/summary.txt
: >"$SUMMARY"
say() { echo "$*" | tee -a "$SUMMARY"; }

# venv: the arc_jax wheel over the machine's JAX, which lives in a venv of its
# own (BASE_PY's): --system-site-packages means the base interpreter's, so a
# .pth file adds the machine's site-packages below the venv's own.
venv() {
  local v=$WORK/venv site
  if [ -z "${WHEEL:-}" ] && [ -f .devbin/pjrt_c_api_arc_plugin.so ] && [ -f .devbin/arc ]; then
    # nvcc on every gpu/*.cu: minutes. Carry build/libarc_gpu.so (or a wheel) to skip it.
    [ -f build/libarc_gpu.so ] || timeout "${T_MAKE:-300}" make gpu >"$WORK/make-gpu.log" 2>&1 ||
      { say "make gpu failed: $WORK/make-gpu.log"; return 1; }
    cp build/libarc_gpu.so .devbin/ && "$BASE_PY" python/build_wheel.py --build .devbin --out .devbin/dist >/dev/null || return 1
    WHEEL=$(ls .devbin/dist/arc_jax-*.whl | head -n 1)
  fi
  [ -n "${WHEEL:-}" ] || { say "no WHEEL, no JAX_PY and no .devbin to build a wheel from: running $BASE_PY as it is"; JAX_PY=$BASE_PY; return 0; }
  rm -rf "$v"
  "$BASE_PY" -m venv --system-site-packages "$v" &&
    site=$("$BASE_PY" -c 'import jax, os; print(os.path.dirname(os.path.dirname(jax.__file__)))') &&
    echo "$site" >"$("$v/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/machine_jax.pth" &&
    "$v/bin/pip" install -q --no-index --no-deps --force-reinstall "$WHEEL" || return 1
  JAX_PY=$v/bin/python
}

if [ -z "${JAX_PY:-}" ]; then
  venv || { say "FAIL suite: the venv with arc_jax could not be made"; exit 2; }
fi
say "== jax_suite: $(date -u +%FT%TZ), JAX_PY=$JAX_PY, steps: $STEPS"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | tee -a "$SUMMARY"
env -u JAX_PLATFORMS "$JAX_PY" -c 'import jax, jaxlib; print("jax", jax.__version__, "jaxlib", jaxlib.__version__)' 2>&1 | tail -n 1 | tee -a "$SUMMARY"
env -u JAX_PLATFORMS "$JAX_PY" -c 'import arc_jax; print("arc_jax", arc_jax.__file__)' 2>&1 | tail -n 1 | tee -a "$SUMMARY"

status=0
block_pid=
case " $STEPS " in *" block "*)
  # CPU only: beside the GPU steps.
  (timeout -k 10 "$T_BLOCK" env JAX_PLATFORMS=cpu ARC_DISABLE=1 XLA_FLAGS=--xla_force_host_platform_device_count=8 \
    "$JAX_PY" "$DEV/jax_llama_block.py" "$WORK/block" >"$WORK/block.txt" 2>&1
    echo "exit $?" >>"$WORK/block.txt") &
  block_pid=$!
  ;;
esac

for step in $STEPS; do
  case $step in
  compat)
    say "== compat (limit ${T_COMPAT}s)"
    timeout -k 10 "$T_COMPAT" "$JAX_PY" "$DEV/jax_compat.py" --out "$WORK/compat" --work "$WORK/compat-work" \
      --budget $((T_COMPAT - 30)) --feature-timeout 45 --grace 15 2>&1 | tee -a "$SUMMARY"
    rc=${PIPESTATUS[0]}
    say "compat: exit $rc"
    [ "$rc" -eq 0 ] || status=1
    cp "$WORK/compat/compat.json" "$OUT/" 2>/dev/null
    ;;
  llama)
    say "== llama (limit ${T_LLAMA}s)"
    started_mps=
    if nvidia-cuda-mps-control -d 2>/dev/null; then started_mps=1; fi # N processes on one GPU side by side
    timeout -k 10 "$T_LLAMA" "$JAX_PY" "$DEV/jax_llama.py" --out "$WORK/llama" --work "$WORK/llama-work" \
      --budget $((T_LLAMA - 20)) 2>&1 | tee -a "$SUMMARY"
    rc=${PIPESTATUS[0]}
    [ -n "$started_mps" ] && { echo quit | nvidia-cuda-mps-control 2>/dev/null; }
    say "llama: exit $rc"
    [ "$rc" -eq 0 ] || status=1
    cp "$WORK/llama/llama.json" "$OUT/" 2>/dev/null
    ;;
  block) ;;
  *) say "unknown step $step"; status=2 ;;
  esac
done

if [ -n "$block_pid" ]; then
  wait "$block_pid"
  say "== block"
  tee -a "$SUMMARY" <"$WORK/block.txt"
  grep -q '^exit 0$' "$WORK/block.txt" || status=1
  cp "$WORK/block/block.json" "$OUT/" 2>/dev/null
  (cd "$WORK/block" 2>/dev/null && tar -czf "$OUT/fixtures.tar.gz" ./*.mlir 2>/dev/null)
fi

# Logs and small JSON only: the outputs, caches, profiles and venv stay in WORK.
(cd "$WORK" && find . -path ./venv -prune -o -type f \( -name '*.log' -o -name '*.txt' -o -name '*.json' -o -name '*.jsonl' \
  -o -name '*-after.mlir' -o -name '*-error.txt' \) -size -2M -print | grep -v '^./venv' |
  tar -czf "$OUT/logs.tar.gz" -T - 2>/dev/null)
grep -E '^(PASS|FAIL|SKIP) ' "$SUMMARY" >"$WORK/verdicts.txt"
say "== suite: $(grep -c '^PASS ' "$WORK/verdicts.txt") passed, $(grep -c '^FAIL ' "$WORK/verdicts.txt") failed, $(grep -c '^SKIP ' "$WORK/verdicts.txt") skipped; files in $OUT:"
ls -la "$OUT" | tee -a "$SUMMARY"
exit $status
