//go:build cgo

package gputest

/*
#cgo CXXFLAGS: -I${SRCDIR}/.. -std=c++17 -O2
#include "hostcodec.h"
*/
import "C"

import "unsafe"

// The codec numbers of arc_codec (arc_gpu.h).
const (
	codecFP    = 1
	codecInt8  = 2
	codecInt6  = 3
	codecInt4  = 4
	codecInt4R = 5
	codecFP8   = 6
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
