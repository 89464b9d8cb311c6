# arc's build. `make test` is what CI runs (.ci/run); GPU targets run on the device machine.
GO      ?= go
export GOMLX_NO_AUTO_INSTALL := 1
export GOFLAGS := -buildvcs=false

.PHONY: all build test lint fuzz

all: build

build:
	$(GO) build -o bin/arc ./cmd/arc

# test: the whole CPU suite; every fuzz target's seeds run in it as tests.
# fuzz (CI runs it after test): a bounded search for new inputs.
test: lint
	$(GO) test ./...

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags xla ./cmd/arc # the XLA runner's side of the CLI, which go vet ./... leaves out

# Each target runs a count of inputs, not a duration (about 20 s each on a 2-core machine): with a
# duration, go1.26's fuzz coordinator can fail a clean run with a bare "context deadline exceeded" when
# the clock ends while a worker is mid-input (go.dev/issue/75804, fixed in Go 1.27); it failed CI once,
# no failing input written. A count has no clock to race; -fuzzminimizetime 50x bounds the time spent
# shrinking each new input (60 s by default). FUZZTIME=30s (or 1000x) sets them all.
FUZZ_PARSE     ?= 100000x
FUZZ_CODEC     ?= 400000x
FUZZ_COMPILE   ?= 20000x
FUZZ_NORM      ?= 5000x
ifdef FUZZTIME
FUZZ_PARSE   := $(FUZZTIME)
FUZZ_CODEC   := $(FUZZTIME)
FUZZ_COMPILE := $(FUZZTIME)
FUZZ_NORM    := $(FUZZTIME)
endif
fuzz:
	$(GO) test ./ir -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZ_PARSE) -fuzzminimizetime 50x
	$(GO) test ./reference/codec -run '^$$' -fuzz '^FuzzRoundTrip$$' -fuzztime $(FUZZ_CODEC) -fuzzminimizetime 50x
	$(GO) test . -run '^$$' -fuzz '^FuzzCompile$$' -fuzztime $(FUZZ_COMPILE) -fuzzminimizetime 50x
	$(GO) test . -run '^$$' -fuzz '^FuzzNorm$$' -fuzztime $(FUZZ_NORM) -fuzzminimizetime 50x

# ---- proxy: the PJRT proxy (docs/RUNTIME.md) ----
.PHONY: plugin runtime-devbin
PJRT_SRC := proxy/standalone/standalone.c $(filter-out proxy/proxy_go.c,$(wildcard proxy/*.c))

# plugin: the standalone PJRT proxy (plain C, no Go runtime inside), with the
# arc binary and the bytecode converter it runs beside it.
plugin: build/pjrt_c_api_arc_plugin.so build/arc_mlir_to_text.py
	$(GO) build -trimpath -ldflags='-s -w' -o build/arc ./cmd/arc

build/pjrt_c_api_arc_plugin.so: $(PJRT_SRC) proxy/*.h
	@mkdir -p build
	gcc -std=gnu11 -O2 -Wall -shared -fPIC -fvisibility=hidden -Iproxy -o $@ $(PJRT_SRC) -ldl -lpthread

build/arc_mlir_to_text.py: proxy/arc_mlir_to_text.py
	@mkdir -p build
	cp $< $@

# wheel: dist/arc_jax-*.whl, what a JAX user installs with pip (python/,
# docs/RUNTIME.md): the proxy, arc, libarc_gpu.so and the converter. It needs
# Go, gcc and nvcc; on a machine without Go, `make plugin` elsewhere, carry
# build/ and run python/build_wheel.py there after `make build/libarc_gpu.so`.
# wheel-files: what it packs, in build/. pyproject.toml's backend
# (python/arc_build.py: pip wheel ., python -m build) runs it and packs the
# same files with the same python/build_wheel.py. ARC_WHEEL_CPU_ONLY=1 leaves
# libarc_gpu.so out (no nvcc): a wheel labelled +cpuonly that cannot run
# arc's kernels, for testing the packaging only.
.PHONY: wheel wheel-files
wheel-files: plugin $(if $(filter 1,$(strip $(ARC_WHEEL_CPU_ONLY))),,build/libarc_gpu.so)
wheel: wheel-files
	python3 python/build_wheel.py --build build --out dist

# runtime-devbin: what devtest/run.sh needs on the GPU machine,
# which has no Go: the plugin, arc, the devtest driver and gomlx's graph tests.
runtime-devbin: plugin
	@mkdir -p .devbin
	cp build/pjrt_c_api_arc_plugin.so build/arc_mlir_to_text.py build/arc .devbin/
	$(GO) build -ldflags='-s -w' -o .devbin/devtest ./devtest
	cd $$($(GO) list -m -f '{{.Dir}}' github.com/gomlx/gomlx) && $(GO) test -c -ldflags='-s -w' -o $(CURDIR)/.devbin/gomlx_graph.test ./pkg/core/graph

# device-bin-differential (here): what devtest/differential.sh and
# differential_all.sh need on the GPU machine: the plugin, arc, the
# converter, an arc whose fused calls carry the epsilon doubled (-tags
# arc_planted_eps) and the fused kernel's source before its fix (98a4d52^),
# which the check must catch (docs/ACCURACY.md, "The differential check"),
# and arc's outputs of the corpus for StableHLO's verifier.
.PHONY: device-bin-differential
device-bin-differential: plugin
	@mkdir -p .devbin
	cp build/pjrt_c_api_arc_plugin.so build/arc_mlir_to_text.py build/arc .devbin/
	$(GO) build -tags arc_planted_eps -trimpath -ldflags='-s -w' -o .devbin/arc-planted-eps ./cmd/arc
	@mkdir -p .devbin/before && git show 98a4d52^:gpu/arc_fused.cu >.devbin/before/arc_fused.cu
	rm -rf .devbin/verify && ARC_VERIFY_DIR=$(CURDIR)/.devbin/verify $(GO) test . -run TestWriteOutputsForTheVerifier -count=1

# ---- gpu: arc's all-reduce kernels (docs/KERNELS.md) ----
# gpu (GPU machine): build/libarc_gpu.so from every gpu/*.cu and *.cc
# with nvcc, and the kernel benchmark when NCCL is found. hip-check (CI):
# the same sources compiled to gfx942 device code. device-bin (here) and
# device-test (GPU machine, which has no Go): the gputest binary and its run.
.PHONY: gpu gpu-arch kbench hip-check device-bin device-test
NVCC      ?= nvcc
# The GPUs a user may run arc on (docs/KERNELS.md, "Architectures"): machine
# code for Ampere sm_80 (A100) and sm_86 (A10, A40, RTX 30), Ada sm_89 (L4,
# L40S, RTX 40), Hopper sm_90, Blackwell sm_100 (B200) and sm_120 (RTX 50,
# RTX PRO 6000), each also run by the later minors of its major (sm_103
# runs sm_100's, sm_121 sm_120's); and compute_80 PTX, which the driver
# compiles when it loads the library on a GPU none of them fits (sm_110,
# those to come). No kernel uses arch-specific instructions (sm_90a,
# sm_100a). TestGPUArchList (docs/) keeps this list and the page's the same.
# GPU_ARCH=-arch=native builds for the machine's own GPUs alone (quicker).
GPU_SMS   ?= 80 86 89 90 100 120
GPU_PTX   ?= 80
GPU_ARCH  ?= $(foreach s,$(GPU_SMS),-gencode=arch=compute_$(s),code=sm_$(s)) \
	$(foreach p,$(GPU_PTX),-gencode=arch=compute_$(p),code=compute_$(p))
# -fmad=false: docs/FORMATS.md forbids contracting a*b+c into an FMA.
GPU_FLAGS ?= -O3 -fmad=false -std=c++17 -Xcompiler -fPIC $(NVCC_PAR)
# A file's architectures compiled at once (--threads 0), each one's kernels
# on all cores (-split-compile=0, nvcc 12.1+).
NVCC_PAR  ?= -split-compile=0 --threads 0
GPU_SRCS  := $(wildcard gpu/*.cu gpu/*.cc)
GPU_HDRS  := $(wildcard gpu/*.h gpu/*.cuh) proxy/arc_ffi.h proxy/arc_ffi_abi.h
# GPU_OUT: where the objects, the library and kbench go (a build of other
# GPU_ARCH in a folder of its own: devtest/arch_check.sh).
GPU_OUT   ?= build
GPU_OBJS  := $(patsubst gpu/%,$(GPU_OUT)/gpu/%.o,$(GPU_SRCS))
HIPCXX    ?= clang++-19
HIP_OPT   ?= -O3
HIP_FLAGS ?= -x hip --offload-arch=gfx942 -nogpulib --cuda-device-only -S $(HIP_OPT) -ffp-contract=off -std=c++17
HIP_ASMS  := $(patsubst gpu/%,build/hip/%.s,$(GPU_SRCS))
# NCCL for kbench: a system install or the one in a Python venv (nvidia-nccl wheels).
NCCL_HOME ?= $(patsubst %/include/nccl.h,%,$(firstword $(wildcard /usr/include/nccl.h /usr/local/cuda/include/nccl.h \
	/opt/*/.venv/lib/python3*/site-packages/nvidia/nccl/include/nccl.h \
	/usr/local/lib/python3*/dist-packages/nvidia/nccl/include/nccl.h /usr/lib/python3*/site-packages/nvidia/nccl/include/nccl.h)))

gpu: $(GPU_OUT)/libarc_gpu.so
	@if [ -n "$(NCCL_HOME)" ]; then $(MAKE) --no-print-directory kbench; else echo "gpu: NCCL not found (set NCCL_HOME): kbench skipped"; fi

# gpu-arch: the nvcc flags make gpu builds with, as make reads them.
gpu-arch:
	@echo $(GPU_ARCH)

# Every source compiles as CUDA (-x cu), so .cc files see arc_port.h's CUDA names too.
$(GPU_OUT)/gpu/%.o: gpu/% $(GPU_HDRS)
	@mkdir -p $(@D)
	$(NVCC) $(GPU_ARCH) $(GPU_FLAGS) -Iproxy -x cu -c $< -o $@

# -lrt: shm_open and shm_unlink (arc_shm.cc) live in librt before glibc 2.34.
$(GPU_OUT)/libarc_gpu.so: $(GPU_OBJS)
	$(NVCC) $(GPU_ARCH) -shared -o $@ $^ -lrt

kbench: $(GPU_OUT)/kbench
$(GPU_OUT)/kbench: gpu/kbench/kbench.cu $(GPU_OUT)/libarc_gpu.so
	$(NVCC) $(GPU_ARCH) $(GPU_FLAGS) -Igpu -Iproxy -I$(NCCL_HOME)/include -o $@ $< \
		-L$(GPU_OUT) -larc_gpu -Xlinker -rpath='$$ORIGIN' $(foreach d,lib lib64 lib/x86_64-linux-gnu,-L$(NCCL_HOME)/$(d) -Xlinker -rpath=$(NCCL_HOME)/$(d)) -l:libnccl.so.2

hip-check: $(HIP_ASMS)
	@echo "hip-check: $(words $(GPU_SRCS)) sources compile for gfx942"

build/hip/%.s: gpu/% $(GPU_HDRS)
	@mkdir -p $(@D)
	@$(HIPCXX) $(HIP_FLAGS) -Iproxy -o $@ $<

# device-bin (here): what device-test carries to the GPU machine, which has
# no Go: the kernel tests and runtime-devbin's programs, all in .devbin/.
device-bin: runtime-devbin
	@mkdir -p .devbin
	$(GO) test -c -o .devbin/gputest.test ./gpu/gputest

# device-test (GPU machine, from the repository root): the kernels against
# the Go reference (device-test-kernels), then the runtime's acceptance run
# (devtest/run.sh: ABI, gomlx graphs through both proxy forms at
# 16 B, 4 KB, 4 MB and 256 MB, gomlx's TestCollective, JAX). Logs go to $OUT
# (or build/); DEVTEST_ARGS overrides the graphs' flags (-forms, -configs split
# the matrix over several device calls: docs/RUNTIME.md).
device-test: build/libarc_gpu.so
	@$(MAKE) --no-print-directory device-test-kernels; k=$$?; \
	OUT=$${OUT:-$(CURDIR)/build}/runtime DEVTEST_ARGS="$${DEVTEST_ARGS:--sizes 16,4096,4194304,268435456}" \
		bash devtest/run.sh; r=$$?; \
	exit $$(( k != 0 || r != 0 ))

.PHONY: device-test-kernels
# device-test-kernels: the kernels alone (.devbin/gputest.test), against
# $(GPU_OUT)/libarc_gpu.so; GPUTEST_ARGS adds the test binary's flags
# (GPUTEST_ARGS='-test.run TestGolden|TestWorld2').
device-test-kernels: $(GPU_OUT)/libarc_gpu.so
	@log=$${OUT:-$(CURDIR)/build}/device-test.log; mkdir -p $$(dirname $$log); \
	cd gpu/gputest && ARC_GPU_LIB=$(abspath $(GPU_OUT))/libarc_gpu.so ARC_TIMEOUT_MS=$${ARC_TIMEOUT_MS:-10000} \
		$(CURDIR)/.devbin/gputest.test -test.v -test.timeout $${GPUTEST_TIMEOUT:-9m} $${GPUTEST_ARGS:-} >$$log 2>&1; rc=$$?; \
	grep -E '^(--- FAIL|FAIL|ok|PASS)|_test.go:' $$log | head -60; \
	echo "device-test: $$(grep -c -- '--- PASS' $$log) passed, $$(grep -c -- '--- FAIL' $$log) failed, $$(grep -c -- '--- SKIP' $$log) skipped (log: $$log)"; \
	exit $$rc

# ---- examples: gomlx models that opt into arc (examples/README.md) ----
.PHONY: examples-mlir device-bin-examples
EXAMPLES := tpmlp decoder llama

# examples-mlir: each example writes its shipped model.mlir on the CPU (the
# program gomlx hands to PJRT, captured by a compile-only plugin; flags as in
# examples/internal/exampletest.DumpArgs), then the golden reports and arc
# inspect tables of the new models are rewritten.
examples-mlir:
	@for e in $(EXAMPLES); do echo "examples/$$e/model.mlir"; \
		$(GO) run ./examples/$$e --dump-only --tp 8 --dump examples/$$e/model.mlir || exit 1; done
	$(GO) test $(addprefix ./examples/,$(EXAMPLES)) -run 'TestShippedModel(CompilesForEveryTarget|Inspect)' -update

# device-bin-examples: the examples for the GPU machine, which has no Go, in
# their own folder so that a run can carry them alone (.devbin/examples);
# devtest/examples.sh runs them there.
device-bin-examples:
	@mkdir -p .devbin/examples
	$(GO) build -trimpath -ldflags='-s -w' -o .devbin/examples/ $(addprefix ./examples/,$(EXAMPLES))

# ---- arc bench and arc tune on the GPU machine (docs/BENCHMARKS.md) ----
.PHONY: bench-bin device-bench
# bench-bin (here): arc with its XLA runner (-tags xla: the PJRT proxy, cgo),
# in a folder of its own so that a run can carry it alone (.devbin/bench);
# the GPU machine has no Go.
bench-bin:
	@mkdir -p .devbin/bench
	CGO_ENABLED=1 $(GO) build -tags xla -trimpath -ldflags='-s -w' -o .devbin/bench/arc ./cmd/arc

# device-bench (GPU machine, one call): make gpu, then arc bench at the XLA
# and kernel levels, peer and host-staged, and arc tune; results under $OUT.
device-bench:
	bash devtest/bench.sh
