#!/usr/bin/env bash
# examples.sh: both examples on the GPU machine (2 x H200, no Go there), each
# with arc's quantization off and int8, against native all-reduces. Run it from
# the repository root in one device call, carrying the prebuilt binaries:
#
#   make device-bin-examples          # here: .devbin/examples/{tpmlp,decoder}
#   bash devtest/examples.sh       # there, with .devbin/examples carried
#
# It builds libarc_gpu.so with make (the library of `make gpu`) unless
# ARC_GPU_LIB names one, and writes under $OUT (default build/examples-gpu):
#   summary.txt           one row per run, the checks, and what failed
#   make-gpu.log          the library's build
#   EXAMPLE-QUANT.log     each run's full output
#   dumps.tar.gz          arc's dumps of each run (each program before and
#                         after arc) and the cross-check of --dump-only
# A run that fails is logged and the next one starts; the exit status is 0
# only when every run passed and every check held.
#
# Environment (all optional): PLUGIN (the CUDA PJRT plugin), EXAMPLES, QUANTS,
# STEPS, WARMUP, RUN_TIMEOUT (seconds per run), EXTRA_ARGS (flags for every run),
# BIN (where the binaries are).
set -u
cd "$(dirname "$0")/.."
root=$PWD
out=${OUT:-$root/build/examples-gpu}
work=$(mktemp -d)
mkdir -p "$out" "$work/dumps"
summary=$out/summary.txt
: >"$summary"
say() { echo "$*" | tee -a "$summary"; }
failures=0
fail() { say "FAIL: $*"; failures=$((failures + 1)); }

# Multicast NVLink can take the host's shared GPUs down: keep it off (KINDS.md).
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export GOMLX_NO_AUTO_INSTALL=1 GOPJRT_CUDA_CHECKS=0
# A kernel waiting for a peer that never comes gives up instead of hanging the run.
export ARC_TIMEOUT_MS=${ARC_TIMEOUT_MS:-10000}

plugin=${PLUGIN:-/opt/torch/.venv/lib/python3.12/site-packages/jax_plugins/xla_cuda13/xla_cuda_plugin.so}
bin=${BIN:-$root/.devbin/examples}
examples=${EXAMPLES:-tpmlp decoder}
quants=${QUANTS:-none int8}
steps=${STEPS:-20}
warmup=${WARMUP:-5}
run_timeout=${RUN_TIMEOUT:-120}

say "arc examples on the GPU machine, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
say "git: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
say "gpus: $(nvidia-smi -L 2>/dev/null | tr '\n' ';' || echo 'nvidia-smi failed')"
say "plugin: $plugin"
[ -f "$plugin" ] || fail "no PJRT plugin at $plugin (set PLUGIN)"
for e in $examples; do
	[ -x "$bin/$e" ] || fail "no binary $bin/$e: run make device-bin-examples and carry .devbin/examples"
done

# arc's GPU kernels.
if [ -n "${ARC_GPU_LIB:-}" ]; then
	say "libarc_gpu.so: $ARC_GPU_LIB (given)"
else
	export ARC_GPU_LIB=$root/build/libarc_gpu.so
	start=$(date +%s)
	if make -j"$(nproc)" build/libarc_gpu.so >"$out/make-gpu.log" 2>&1; then
		say "libarc_gpu.so: built with make in $(($(date +%s) - start)) s"
	else
		fail "make build/libarc_gpu.so failed (tail of make-gpu.log below)"
		tail -n 15 "$out/make-gpu.log" | sed 's/^/  | /' | tee -a "$summary"
	fi
fi
[ -f "$ARC_GPU_LIB" ] || fail "no $ARC_GPU_LIB: arc cannot register its kernels"

# field KEY LINE: the value of KEY=... in a RESULT line.
field() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

rows=()
for e in $examples; do
	for q in $quants; do
		log=$out/$e-$q.log
		dump=$work/dumps/$e-$q
		mkdir -p "$dump"
		args=(--plugin "$plugin" --target cuda:nvlink --quant "$q" --tp 2 --steps "$steps" --warmup "$warmup")
		[ "$q" = none ] && args+=(--dump "$work/dumps/$e.gpu.mlir")
		# shellcheck disable=SC2206 # EXTRA_ARGS is a list of flags
		args+=(${EXTRA_ARGS:-})
		echo "== $e --quant $q" >&2
		start=$(date +%s)
		ARC_DUMP_DIR=$dump timeout -k 10 "$run_timeout" "$bin/$e" "${args[@]}" >"$log" 2>&1
		rc=$?
		secs=$(($(date +%s) - start))
		result=$(grep '^RESULT ' "$log" | tail -n 1)
		if [ -z "$result" ]; then
			[ $rc -eq 124 ] && why="timed out after ${run_timeout} s" || why="exit $rc"
			fail "$e --quant $q: no result ($why, ${secs} s); tail of $e-$q.log:"
			tail -n 12 "$log" | sed 's/^/  | /' | tee -a "$summary"
			rows+=("$(printf '%-8s %-5s %4s %9s %9s %7s %8s %8s %12s %9s %6s %6s %4s' "$e" "$q" "$rc" - - - - - - - - - no)")
			continue
		fi
		pass=$(field pass "$result")
		[ "$pass" = yes ] || fail "$e --quant $q: pass=$pass (exit $rc): $result"
		rows+=("$(printf '%-8s %-5s %4s %9s %9s %7s %7.1f%% %7.1f%% %12s %9s %6s %6s %4s' "$e" "$q" "$rc" \
			"$(field native_ms "$result")" "$(field arc_ms "$result")" "$(field speedup "$result")" \
			"$(awk -v s="$(field native_ar_share "$result")" 'BEGIN{print 100*s}')" \
			"$(awk -v s="$(field arc_ar_share "$result")" 'BEGIN{print 100*s}')" \
			"$(field final_rel_l2 "$result")" "$(field final_tol "$result")" "$(field within_tol "$result")" \
			"$(field ranks_agree "$result")" "$pass")")
	done
	# The program --dump-only writes on a CPU must be the one the GPU run handed to PJRT.
	if [ -f "$work/dumps/$e.gpu.mlir" ]; then
		if "$bin/$e" --dump-only --tp 2 --dump "$work/dumps/$e.cpu.mlir" >>"$out/$e-none.log" 2>&1 &&
			cmp -s "$work/dumps/$e.gpu.mlir" "$work/dumps/$e.cpu.mlir"; then
			say "check: $e --dump-only --tp 2 writes the program the GPU run handed to PJRT, byte for byte"
		else
			fail "$e: --dump-only --tp 2 differs from the GPU run's --dump (both in dumps.tar.gz)"
		fi
	fi
done

say ""
say "step times are medians of $steps steps after $warmup warmup; ar% is the all-reduce share of the step"
say "(the step minus the same program without its all-reduces). rel_l2 is the last output's error against"
say "native (the logits for decoder); tol applies to quant none: one unit in the last place per all-reduce."
say "$(printf '%-8s %-5s %4s %9s %9s %7s %8s %8s %12s %9s %6s %6s %4s' example quant exit native_ms arc_ms speedup native_ar arc_ar rel_l2 tol within agree pass)"
for r in "${rows[@]}"; do say "$r"; done
tar -czf "$out/dumps.tar.gz" -C "$work" dumps 2>/dev/null || fail "could not pack the dumps"
rm -rf "$work"
say ""
if [ $failures -eq 0 ]; then
	say "all runs passed"
	exit 0
fi
say "$failures failure(s)"
exit 1
