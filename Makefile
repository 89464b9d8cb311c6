# arc's build. `make test` is what CI runs (.ci/run); GPU targets run on the device machine.
GO      ?= go
export GOMLX_NO_AUTO_INSTALL := 1
export GOFLAGS := -buildvcs=false

.PHONY: all build test lint fuzz

all: build

build:
	$(GO) build -o bin/arc ./cmd/arc

# test: the whole CPU suite, then a bounded run of each fuzz target.
test: lint
	$(GO) test ./...
	$(MAKE) fuzz

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

FUZZTIME ?= 20s
fuzz:
	@echo "fuzz targets: none yet"

# ---- runtime: the PJRT proxy (issue 6; docs/RUNTIME.md) ----
.PHONY: plugin runtime-devbin
PJRT_SRC := runtime/pjrt/standalone.c runtime/pjrt/proxy.c runtime/pjrt/subprocess.c

# plugin: the standalone PJRT proxy (plain C, no Go runtime inside), with the
# arc binary and the bytecode converter it runs beside it.
plugin: build/pjrt_c_api_arc_plugin.so build/arc_mlir_to_text.py
	$(GO) build -o build/arc ./cmd/arc

build/pjrt_c_api_arc_plugin.so: $(PJRT_SRC) runtime/pjrt/*.h runtime/gpu/arc_ffi.h
	@mkdir -p build
	gcc -std=gnu11 -O2 -Wall -shared -fPIC -fvisibility=hidden -Iruntime/gpu -o $@ $(PJRT_SRC) -ldl -lpthread

build/arc_mlir_to_text.py: runtime/pjrt/arc_mlir_to_text.py
	@mkdir -p build
	cp $< $@

# runtime-devbin: what runtime/pjrt/devtest/run.sh needs on the GPU machine,
# which has no Go: the plugin, arc, the devtest driver and gomlx's graph tests.
runtime-devbin: plugin
	@mkdir -p .devbin
	cp build/pjrt_c_api_arc_plugin.so build/arc_mlir_to_text.py build/arc .devbin/
	$(GO) build -ldflags='-s -w' -o .devbin/devtest ./runtime/pjrt/devtest
	cd $$($(GO) list -m -f '{{.Dir}}' github.com/gomlx/gomlx) && $(GO) test -c -ldflags='-s -w' -o $(CURDIR)/.devbin/gomlx_graph.test ./pkg/core/graph

# ---- examples: gomlx models that opt into arc (issue 8; examples/README.md) ----
.PHONY: examples-mlir device-bin-examples
EXAMPLES := tpmlp decoder

# examples-mlir: each example writes its shipped model.mlir on the CPU (the
# program gomlx hands to PJRT, captured by a compile-only plugin; flags as in
# examples/internal/shipped.DumpArgs), then the golden reports and arc
# inspect tables of the new models are rewritten.
examples-mlir:
	@for e in $(EXAMPLES); do echo "examples/$$e/model.mlir"; \
		$(GO) run ./examples/$$e --dump-only --tp 8 --dump examples/$$e/model.mlir || exit 1; done
	$(GO) test ./examples/... -run 'TestShippedModel(CompilesForEveryTarget|Inspect)' -update

# device-bin-examples: the examples for the GPU machine, which has no Go;
# examples/run_on_gpu.sh runs them there.
device-bin-examples:
	@mkdir -p .devbin
	$(GO) build -o .devbin/ $(addprefix ./examples/,$(EXAMPLES))
