/* hostcodec.h: the kernels' codec arithmetic on the CPU (hostcodec.cc). */
#ifndef ARC_HOSTCODEC_H
#define ARC_HOSTCODEC_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
int host_block_bytes(int codec, int dtype, int cast);
void host_encode_block(int codec, int dtype, int cast, const float *x, uint8_t *dst);
void host_decode_block(int codec, int dtype, int cast, const uint8_t *src, float *y);
uint16_t host_narrow16(int dtype, float f);
float host_widen16(int dtype, uint16_t h);
uint8_t host_e4m3(float f);
float host_e4m3_to_f32(uint8_t c);
#ifdef __cplusplus
}
#endif
#endif
