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
