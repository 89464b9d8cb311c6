//go:build cgo

package gputest

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>

// The kernels' codec arithmetic compiled for the CPU (testdata/hostcodec.cc),
// built by the test with ctest.Build and loaded here: cgo would not see a
// change to the kernel headers it includes from gpu/.
static int (*h_block_bytes)(int, int, int);
static void (*h_encode_block)(int, int, int, const float *, uint8_t *);
static void (*h_decode_block)(int, int, int, const uint8_t *, float *);
static uint16_t (*h_narrow16)(int, float);
static float (*h_widen16)(int, uint16_t);
static uint8_t (*h_e4m3)(float);
static float (*h_e4m3_to_f32)(uint8_t);

#define HSYM(p, name) if (!(*(void **)&p = dlsym(lib, name))) return name;

static const char *hostcodec_open(const char *path) {
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) return dlerror();
	HSYM(h_block_bytes, "host_block_bytes");
	HSYM(h_encode_block, "host_encode_block");
	HSYM(h_decode_block, "host_decode_block");
	HSYM(h_narrow16, "host_narrow16");
	HSYM(h_widen16, "host_widen16");
	HSYM(h_e4m3, "host_e4m3");
	HSYM(h_e4m3_to_f32, "host_e4m3_to_f32");
	return NULL;
}
static int host_block_bytes(int c, int d, int cast) { return h_block_bytes(c, d, cast); }
static void host_encode_block(int c, int d, int cast, const float *x, uint8_t *dst) { h_encode_block(c, d, cast, x, dst); }
static void host_decode_block(int c, int d, int cast, const uint8_t *src, float *y) { h_decode_block(c, d, cast, src, y); }
static uint16_t host_narrow16(int d, float f) { return h_narrow16(d, f); }
static float host_widen16(int d, uint16_t h) { return h_widen16(d, h); }
static uint8_t host_e4m3(float f) { return h_e4m3(f); }
static float host_e4m3_to_f32(uint8_t c) { return h_e4m3_to_f32(c); }
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/arcpass/arc/abi"
)

// openHostCodec loads the host build of the codec arithmetic from path.
func openHostCodec(path string) error {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	if msg := C.hostcodec_open(cpath); msg != nil {
		return fmt.Errorf("load %s: %s", path, C.GoString(msg))
	}
	return nil
}

// The codec numbers of arc_codec that the tests name (abi's table, which
// gpu/arc_vocab.h is generated from).
var (
	codecFP   = abi.Codec("fp")
	codecInt8 = abi.Codec("int8")
	codecFP8  = abi.Codec("fp8")
)

// hostBlockBytes is the canonical size of one encoded block.
func hostBlockBytes(codec, dtype int, cast bool) int {
	return int(C.host_block_bytes(C.int(codec), C.int(dtype), cbool(cast)))
}

// hostEncode encodes one block of 32 values with the kernels' arithmetic,
// in the canonical layout of docs/FORMATS.md.
func hostEncode(codec, dtype int, cast bool, x *[32]float32) []byte {
	dst := make([]byte, hostBlockBytes(codec, dtype, cast))
	C.host_encode_block(C.int(codec), C.int(dtype), cbool(cast), (*C.float)(unsafe.Pointer(&x[0])),
		(*C.uint8_t)(unsafe.Pointer(&dst[0])))
	return dst
}

// hostDecode decodes one canonical block with the kernels' arithmetic.
func hostDecode(codec, dtype int, cast bool, src []byte) (y [32]float32) {
	C.host_decode_block(C.int(codec), C.int(dtype), cbool(cast), (*C.uint8_t)(unsafe.Pointer(&src[0])),
		(*C.float)(unsafe.Pointer(&y[0])))
	return y
}

func hostNarrow16(dtype int, f float32) uint16 {
	return uint16(C.host_narrow16(C.int(dtype), C.float(f)))
}
func hostWiden16(dtype int, h uint16) float32 {
	return float32(C.host_widen16(C.int(dtype), C.uint16_t(h)))
}
func hostE4M3(f float32) uint8      { return uint8(C.host_e4m3(C.float(f))) }
func hostE4M3ToF32(c uint8) float32 { return float32(C.host_e4m3_to_f32(C.uint8_t(c))) }

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}
