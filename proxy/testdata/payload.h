/* PJRT_Error_ForEachPayload for the fake plugin and the host, whose header
 * (go-xla's, C API 0.83) predates it: its arguments, and its place in the
 * table (the proxy's pjrt_abi.h holds the same offset). */
#ifndef ARC_TESTDATA_PAYLOAD_H
#define ARC_TESTDATA_PAYLOAD_H
#include <stddef.h>

#define ARC_PJRT_ERROR_FOR_EACH_PAYLOAD_OFFSET 1096

typedef struct arc_payload_args {
  size_t struct_size;
  void *extension_start;
  const PJRT_Error *error;
  void *visitor;
  void *user_arg;
} arc_payload_args;
#endif
