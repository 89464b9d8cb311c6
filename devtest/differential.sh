#!/usr/bin/env bash
# differential.sh: arc against the native executor on the GPU machine, in one
# command (one device call):
#
#   make device-bin-differential                     # here (Go): .devbin/ with arc, the plugin, the planted arc
#   bash devtest/differential.sh [ARGS...]      # GPU machine: ARGS go to differential.py
#
# It builds build/libarc_gpu.so when missing (make gpu: nvcc, minutes), makes
# the arc_jax wheel from .devbin/ and installs it into a venv over the
# machine's JAX, starts MPS (several processes on one GPU), runs
# differential.py and leaves its table, JSON, failures and logs in $OUT.
# Variables:
#   OUT      results (default /tmp/arc-differential)
#   BASE_PY  the machine's JAX (default /opt/torch/.venv/bin/python3)
#   PLANTED  also run a deliberately wrong arc on a subset, which must be
#            caught: "eps" (.devbin/arc-planted-eps: the fused call's epsilon
#            doubled) or "lib=PATH" (another libarc_gpu.so, e.g. the kernel
#            before a fix); its table goes to $OUT/planted-*.md
#   PLANTED_ARGS  differential.py's arguments for the planted run
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
BASE_PY=${BASE_PY:-/opt/torch/.venv/bin/python3}
OUT=${OUT:-/tmp/arc-differential}
WORK=${WORK:-/tmp/arc-differential-work}
mkdir -p "$OUT" "$WORK"

if [ ! -f build/libarc_gpu.so ]; then
  echo "make gpu (build/libarc_gpu.so) ..."
  timeout 400 make -j16 build/libarc_gpu.so >"$WORK/make-gpu.log" 2>&1 || { tail -20 "$WORK/make-gpu.log"; exit 2; }
fi
for f in .devbin/pjrt_c_api_arc_plugin.so .devbin/arc .devbin/arc_mlir_to_text.py; do
  [ -f "$f" ] || { echo "missing $f: run make device-bin-differential on a machine with Go, and carry .devbin"; exit 2; }
done
cp build/libarc_gpu.so .devbin/ && "$BASE_PY" python/build_wheel.py --build .devbin --out "$WORK/dist" >/dev/null || exit 2
V=$WORK/venv
rm -rf "$V" "$WORK/venv-ready"
"$BASE_PY" -m venv --system-site-packages "$V" &&
  site=$("$BASE_PY" -c 'import jax, os; print(os.path.dirname(os.path.dirname(jax.__file__)))') &&
  echo "$site" >"$("$V/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/machine_jax.pth" &&
  "$V/bin/pip" install -q --no-index --no-deps --force-reinstall "$WORK"/dist/arc_jax-*.whl || exit 2
touch "$WORK/venv-ready" # what differential_all.sh's planted runs wait for

started_mps=
if nvidia-cuda-mps-control -d 2>/dev/null; then started_mps=1; fi # N processes on one GPU side by side
stop_mps() { [ -n "$started_mps" ] && { echo quit | nvidia-cuda-mps-control 2>/dev/null; }; }
trap stop_mps EXIT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
env -u JAX_PLATFORMS "$V/bin/python" -c 'import jax; print("jax", jax.__version__)' 2>&1 | tail -n 1

status=0
MPS=${started_mps:+--mps}
"$V/bin/python" devtest/differential.py --out "$OUT" --work "$WORK/run" $MPS "$@" || status=1
case "${PLANTED:-}" in
eps)
  ARC_BIN=$ROOT/.devbin/arc-planted-eps "$V/bin/python" devtest/differential.py --out "$WORK/planted" \
    --work "$WORK/planted-run" --label "planted: epsilon one ulp up" ${PLANTED_ARGS:-} >"$WORK/planted.log" 2>&1
  echo "planted run (eps) exit $? (1 = mismatches found, as it must)"
  cp "$WORK/planted/differential.md" "$OUT/planted-eps.md"; head -c 200000 "$WORK/planted/failures.txt" >"$OUT/planted-eps-failures.txt" ;;
lib=*)
  ARC_GPU_LIB=${PLANTED#lib=} "$V/bin/python" devtest/differential.py --out "$WORK/planted" \
    --work "$WORK/planted-run" --label "planted: ${PLANTED#lib=}" ${PLANTED_ARGS:-} >"$WORK/planted.log" 2>&1
  echo "planted run (library) exit $? (1 = mismatches found, as it must)"
  cp "$WORK/planted/differential.md" "$OUT/planted-lib.md"; head -c 200000 "$WORK/planted/failures.txt" >"$OUT/planted-lib-failures.txt" ;;
esac
exit $status
