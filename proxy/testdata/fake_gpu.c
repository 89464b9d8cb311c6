/* fake_gpu.c: stands in for libarc_gpu.so in arc's CPU tests.
 *
 * arc_ffi_allreduce answers XLA's metadata handshake (FFI API 0.1, traits 1: command-buffer compatible)
 * and nothing else. arc_detect_link reports the topology in $FAKE_GPU_LINK,
 * "devices,peer,nvlink,arch" (for example "2,1,1,sm_90"), or fails when it is
 * "fail".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arc_ffi.h"

typedef struct ext {
  size_t struct_size;
  int type;
  struct ext *next;
} ext;
typedef struct {
  size_t struct_size;
  struct {
    size_t struct_size;
    ext *extension_start;
    int major, minor;
  } api_version;
  uint32_t traits;
} metadata;
typedef struct {
  ext base;
  metadata *metadata;
} metadata_ext;
typedef struct {
  size_t struct_size;
  ext *extension_start;
} frame_head;

struct XLA_FFI_Error *arc_ffi_allreduce(struct XLA_FFI_CallFrame *frame) {
  ext *e = ((frame_head *)frame)->extension_start;
  if (e == NULL || e->type != 1) return (struct XLA_FFI_Error *)frame; /* only the handshake is faked */
  metadata *m = ((metadata_ext *)e)->metadata;
  m->api_version.major = 0;
  m->api_version.minor = 1;
  m->traits = 1;
  return NULL;
}

int arc_detect_link(arc_link_info *info) {
  const char *spec = getenv("FAKE_GPU_LINK");
  memset(info, 0, sizeof *info);
  if (spec == NULL || strcmp(spec, "fail") == 0) return 3;
  if (sscanf(spec, "%d,%d,%d,%31s", &info->devices, &info->peer, &info->nvlink, info->arch) != 4) return 1;
  return 0;
}

const char *arc_ffi_device_error(void) { return "fake: no device"; }
