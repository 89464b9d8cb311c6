#!/usr/bin/env bash
# arch_check.sh: the architectures `make gpu` builds (docs/KERNELS.md,
# "Architectures"), checked on the GPU machine in one command from the
# repository root:
#
#   bash devtest/arch_check.sh [build] [inspect] [sass] [ptx] [jit] [base]
#                                     (default: the first five, in that order)
#
#   build    build/arch-all/libarc_gpu.so from clean for every architecture
#            of the Makefile (make gpu-arch), make -j$JOBS: wall time, each
#            source's nvcc time, the library's size
#   inspect  cuobjdump --list-elf and --list-ptx of it: a cubin of every
#            source for each sm_*, compute_80 PTX, the bytes of each
#   sass     the kernel tests against it: this GPU runs its own cubin
#   ptx      build/arch-ptx80/libarc_gpu.so, compute_80 PTX alone (no cubin):
#            time and size
#   jit      the kernel tests against the PTX library with
#            CUDA_FORCE_PTX_JIT=1: the driver compiles the compute_80 PTX for
#            this GPU, the code a GPU without its own cubin runs (e4m3 in
#            integer code, as on sm_80 and sm_86); first the driver's compile
#            alone (one short test, a fresh JIT cache), then every test
#   base     for comparison, build/arch-base with the list before
#            (sm_90a and sm_90): time and size
#
# The GPU machine has no Go: build the test binary here first and carry it,
#   go test -c -o .devbin/gputest.test ./gpu/gputest
# (or make device-bin). Environment: OUT (logs; default build/arch-check),
# JOBS (make -j; default nproc), GPUTEST_ARGS (the test binary's flags for
# sass and jit, e.g. '-test.run TestGolden|TestWorld2'; default every test),
# GPUTEST_TIMEOUT (per test run; default 270s), BUILD_LIMIT (seconds a build
# may take; default 480). A step that needs an earlier one's library says so
# when it is missing: steps may be split over device calls of one warm
# machine (build inspect sass, then ptx jit). The last lines are the summary.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${OUT:-$ROOT/build/arch-check}
JOBS=${JOBS:-$(nproc)}
BUILD_LIMIT=${BUILD_LIMIT:-480}
export GPUTEST_TIMEOUT=${GPUTEST_TIMEOUT:-270s}
steps=${*:-build inspect sass ptx jit}
ALL=build/arch-all PTX=build/arch-ptx80 BASE=build/arch-base
PTX_ARCH=-gencode=arch=compute_80,code=compute_80
BASE_ARCH="-gencode=arch=compute_90a,code=sm_90a -gencode=arch=compute_90,code=sm_90"
mkdir -p "$OUT"
T0=$SECONDS
summary=()
failed=0
note() { summary+=("$*"); echo "arch_check: $*"; }
fail() { failed=$((failed + 1)); note "FAIL $*"; }
mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }
size_of() { stat -c %s "$1" 2>/dev/null || echo 0; }

{
  nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader
  nvcc --version | tail -2
  echo "nproc $(nproc), JOBS $JOBS, make gpu-arch: $(make -s --no-print-directory gpu-arch)"
} >"$OUT/env.txt" 2>&1
note "$(head -1 "$OUT/env.txt"); $(grep -o 'release [0-9.]*' "$OUT/env.txt" | head -1 | sed 's/^/nvcc /'); $JOBS jobs"
if ! command -v nvcc >/dev/null || ! command -v cuobjdump >/dev/null; then
  fail "nvcc or cuobjdump not on PATH"
fi

# A wrapper that records each nvcc's wall time beside its output file.
cat >"$OUT/nvcc-timed" <<'EOF'
#!/usr/bin/env bash
s=$(date +%s.%N)
nvcc "$@"
rc=$?
echo "$(basename "${@: -1}") $(awk -v s="$s" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')" >>"$NVCC_TIMES"
exit $rc
EOF
chmod +x "$OUT/nvcc-timed"

# build_lib NAME DIR ARCH...: DIR/libarc_gpu.so from clean for ARCH (empty:
# the Makefile's list); notes its time, the slowest sources and its size.
build_lib() {
  local name=$1 dir=$2 arch=$3 t rc
  rm -rf "$dir"
  export NVCC_TIMES=$OUT/times-$name.txt
  : >"$NVCC_TIMES"
  t=$SECONDS
  timeout "$BUILD_LIMIT" make -j"$JOBS" --no-print-directory "$dir/libarc_gpu.so" GPU_OUT="$dir" NVCC="$OUT/nvcc-timed" \
    ${arch:+GPU_ARCH="$arch"} >"$OUT/build-$name.log" 2>&1
  rc=$?
  if [ $rc -ne 0 ] || [ ! -f "$dir/libarc_gpu.so" ]; then
    fail "$name build rc=$rc after $((SECONDS - t)) s (log: $OUT/build-$name.log)"
    grep -m5 -i error "$OUT/build-$name.log"
    return 1
  fi
  note "$name build $((SECONDS - t)) s, libarc_gpu.so $(mib "$(size_of "$dir/libarc_gpu.so")"); slowest: $(sort -k2 -rn "$NVCC_TIMES" | head -3 | awk '{ printf "%s%s %s s", (NR > 1 ? ", " : ""), $1, $2 }')"
}

need_lib() {
  [ -f "$1/libarc_gpu.so" ] && return 0
  fail "$2: $1/libarc_gpu.so is missing (run the step that builds it first)"
  return 1
}

# run_tests NAME DIR: the kernel tests (make device-test-kernels) against DIR's library.
run_tests() {
  local name=$1 dir=$2 t rc line
  if [ ! -x .devbin/gputest.test ]; then
    fail "$name: .devbin/gputest.test is missing (go test -c -o .devbin/gputest.test ./gpu/gputest here, carried)"
    return 1
  fi
  t=$SECONDS
  # -o: the library as it is, never remade (a tree copied anew is newer than it).
  OUT=$OUT/$name make --no-print-directory -o "$dir/libarc_gpu.so" device-test-kernels GPU_OUT="$dir" >"$OUT/$name.txt" 2>&1
  rc=$?
  line=$(grep '^device-test:' "$OUT/$name.txt" | tail -1 | sed 's/ (log:.*//; s/^device-test: //')
  if [ $rc -ne 0 ]; then
    fail "$name tests rc=$rc, ${line:-no summary} in $((SECONDS - t)) s (log: $OUT/$name/device-test.log)"
    grep -E '^--- FAIL|_test.go:' "$OUT/$name.txt" | head -8
    return 1
  fi
  note "$name tests: $line in $((SECONDS - t)) s"
}

# inspect_lib NAME DIR: the cubins and PTX in DIR's library, per architecture.
inspect_lib() {
  local name=$1 dir=$2 x
  cuobjdump --list-elf "$dir/libarc_gpu.so" >"$OUT/$name-elf.txt" 2>&1
  cuobjdump --list-ptx "$dir/libarc_gpu.so" >"$OUT/$name-ptx.txt" 2>&1
  x=$(mktemp -d) # the extracted cubins and PTX, counted and removed: they are tens of MB
  [ -d "$x" ] || return 1
  (cd "$x" && cuobjdump -xelf all "$ROOT/$dir/libarc_gpu.so" >/dev/null 2>&1 && cuobjdump -xptx all "$ROOT/$dir/libarc_gpu.so" >/dev/null 2>&1)
  # Per architecture: files and bytes of cubins (sm_*) and of PTX.
  note "$name elf: $(grep -o 'sm_[0-9]*[a-z]*' "$OUT/$name-elf.txt" | sort -V | uniq -c | awk '{ printf "%s%s x%s", (NR > 1 ? " " : ""), $2, $1 }')"
  note "$name ptx: $(grep -o '\(sm\|compute\)_[0-9]*[a-z]*' "$OUT/$name-ptx.txt" | sort -V | uniq -c | awk '{ printf "%s%s x%s", (NR > 1 ? " " : ""), $2, $1 }')"
  note "$name bytes: $(find "$x" -type f \( -name '*.cubin' -o -name '*.ptx' \) -printf '%s %f\n' |
    awk '{ a = $2; sub(/^.*\./, "", a); k = $2; sub(/\.[a-z]+$/, "", k); sub(/^.*\./, "", k); t[k "." a] += $1 }
      END { for (k in t) printf "%s %.2f MiB\n", k, t[k] / 1048576 }' | sort -V | paste -sd, - | sed 's/,/, /g')"
  rm -rf "$x"
}

has() { [[ " $steps " == *" $1 "* ]]; }

if has build; then build_lib all "$ALL" ""; fi

if has inspect && need_lib "$ALL" inspect; then
  inspect_lib all "$ALL"
  for a in $(make -s --no-print-directory gpu-arch | grep -o 'code=sm_[0-9]*[a-z]*' | cut -d= -f2); do
    grep -q "\.$a\.cubin" "$OUT/all-elf.txt" || fail "inspect: no $a cubin in $ALL/libarc_gpu.so"
  done
  grep -q 'compute_80\|sm_80\.ptx' "$OUT/all-ptx.txt" || fail "inspect: no compute_80 PTX in $ALL/libarc_gpu.so"
fi

if has sass && need_lib "$ALL" sass; then run_tests sass "$ALL"; fi

if has ptx; then
  if build_lib ptx80 "$PTX" "$PTX_ARCH"; then
    inspect_lib ptx80 "$PTX"
    if grep -q 'cubin' "$OUT/ptx80-elf.txt"; then fail "ptx: $PTX/libarc_gpu.so holds a cubin"; fi
  fi
fi

if has jit && need_lib "$PTX" jit; then
  # A fresh cache, large enough for every kernel: the driver compiles the
  # PTX once (timed alone with one short test), and the full run loads it.
  export CUDA_FORCE_PTX_JIT=1 CUDA_CACHE_PATH=$ROOT/build/arch-jit-cache CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_DISABLE=0
  rm -rf "$CUDA_CACHE_PATH"
  t=$SECONDS
  if GPUTEST_ARGS='-test.run ^TestAPIErrors$' run_tests jit-first "$PTX"; then
    note "jit: the driver's compile and one test $((SECONDS - t)) s, cache $(du -sh "$CUDA_CACHE_PATH" 2>/dev/null | cut -f1)"
  fi
  run_tests jit "$PTX"
  unset CUDA_FORCE_PTX_JIT CUDA_CACHE_PATH CUDA_CACHE_MAXSIZE CUDA_CACHE_DISABLE
fi

if has base; then build_lib base "$BASE" "$BASE_ARCH"; fi

echo "== arch_check summary ($((SECONDS - T0)) s; logs in $OUT)"
printf '%s\n' "${summary[@]}" | tee "$OUT/summary.txt"
if [ "$failed" -eq 0 ]; then echo "arch_check: PASS"; else echo "arch_check: $failed FAILED"; fi
exit $((failed != 0))
