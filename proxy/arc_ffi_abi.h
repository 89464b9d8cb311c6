/* arc_ffi_abi.h: arc's own declarations of the part of the XLA FFI C API
 * (xla/ffi/api/c_api.h, API 0.x) that arc's handler touches.
 *
 * They are ABI-compatible with XLA's header: same layouts on LP64, checked by
 * the asserts below and, where XLA's header is at hand, by
 * runtime/pjrt/ffitest/abi_check.cc. Only fields whose position has been
 * stable across XLA releases are named: the first five function slots of
 * XLA_FFI_Api (later slots moved between releases), the call frame, buffers
 * and attributes. Field names follow XLA's, prefixed arc_xla_ so both headers
 * can meet in one translation unit.
 */
#ifndef ARC_FFI_ABI_H
#define ARC_FFI_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct XLA_FFI_Error arc_xla_error; /* opaque, owned by XLA */
typedef struct arc_xla_context arc_xla_context;

enum { ARC_XLA_EXTENSION_METADATA = 1 };
enum { ARC_XLA_STAGE_EXECUTE = 3 };
/* XLA_FFI_HANDLER_TRAITS_COMMAND_BUFFER_COMPATIBLE: XLA may record the call into a CUDA graph */
enum { ARC_XLA_TRAIT_COMMAND_BUFFER_COMPATIBLE = 1 };
enum { ARC_XLA_ARG_BUFFER = 1, ARC_XLA_RET_BUFFER = 1 };
enum { ARC_XLA_ATTR_ARRAY = 1, ARC_XLA_ATTR_DICTIONARY = 2, ARC_XLA_ATTR_SCALAR = 3, ARC_XLA_ATTR_STRING = 4 };

/* XLA_FFI_DataType values arc reads (they equal xla::PrimitiveType). */
enum {
  ARC_XLA_S8 = 2, ARC_XLA_S16 = 3, ARC_XLA_S32 = 4, ARC_XLA_S64 = 5,
  ARC_XLA_U8 = 6, ARC_XLA_U16 = 7, ARC_XLA_U32 = 8, ARC_XLA_U64 = 9,
  ARC_XLA_F16 = 10, ARC_XLA_F32 = 11, ARC_XLA_BF16 = 16
};

/* XLA_FFI_Error_Code values arc returns. */
enum { ARC_XLA_INVALID_ARGUMENT = 3, ARC_XLA_FAILED_PRECONDITION = 9, ARC_XLA_UNIMPLEMENTED = 12, ARC_XLA_INTERNAL = 13 };

typedef struct arc_xla_extension {
  size_t struct_size;
  int type;
  struct arc_xla_extension *next;
} arc_xla_extension;

typedef struct arc_xla_api_version {
  size_t struct_size;
  arc_xla_extension *extension_start;
  int major_version;
  int minor_version;
} arc_xla_api_version;

typedef struct arc_xla_metadata {
  size_t struct_size;
  arc_xla_api_version api_version;
  uint32_t traits;
} arc_xla_metadata;

typedef struct arc_xla_metadata_extension {
  arc_xla_extension extension_base;
  arc_xla_metadata *metadata;
} arc_xla_metadata_extension;

typedef struct arc_xla_error_create_args {
  size_t struct_size;
  arc_xla_extension *extension_start;
  const char *message;
  int errc;
} arc_xla_error_create_args;

typedef struct arc_xla_stream_get_args {
  size_t struct_size;
  arc_xla_extension *extension_start;
  arc_xla_context *ctx;
  void *stream; /* out: cudaStream_t / hipStream_t */
} arc_xla_stream_get_args;

typedef struct arc_xla_api {
  size_t struct_size;
  arc_xla_extension *extension_start;
  arc_xla_api_version api_version;
  void *internal_api;
  arc_xla_error *(*error_create)(arc_xla_error_create_args *args);
  void *error_get_message;
  void *error_destroy;
  void *handler_register;
  arc_xla_error *(*stream_get)(arc_xla_stream_get_args *args);
  /* later slots differ between XLA releases; arc never reads them */
} arc_xla_api;

typedef struct arc_xla_buffer {
  size_t struct_size;
  arc_xla_extension *extension_start;
  int dtype;
  void *data;
  int64_t rank;
  int64_t *dims;
} arc_xla_buffer;

typedef struct arc_xla_byte_span {
  const char *ptr;
  size_t len;
} arc_xla_byte_span;

typedef struct arc_xla_scalar {
  int dtype;
  void *value;
} arc_xla_scalar;

typedef struct arc_xla_array {
  int dtype;
  size_t size;
  void *data;
} arc_xla_array;

typedef struct arc_xla_args {
  size_t struct_size;
  arc_xla_extension *extension_start;
  int64_t size;
  int *types;
  void **args;
} arc_xla_args;

typedef struct arc_xla_rets {
  size_t struct_size;
  arc_xla_extension *extension_start;
  int64_t size;
  int *types;
  void **rets;
} arc_xla_rets;

typedef struct arc_xla_attrs {
  size_t struct_size;
  arc_xla_extension *extension_start;
  int64_t size;
  int *types;
  arc_xla_byte_span **names;
  void **attrs;
} arc_xla_attrs;

typedef struct arc_xla_call_frame {
  size_t struct_size;
  arc_xla_extension *extension_start;
  const arc_xla_api *api;
  arc_xla_context *ctx;
  int stage;
  arc_xla_args args;
  arc_xla_rets rets;
  arc_xla_attrs attrs;
  void *future; /* out; arc's handler is synchronous and leaves it null */
} arc_xla_call_frame;

/* The FFI API version arc's handler is written against (XLA accepts 0.1 and later). */
#define ARC_XLA_API_MAJOR 0
#define ARC_XLA_API_MINOR 1

/* Struct sizes as XLA's *_STRUCT_SIZE macros compute them (offset + size of the last field). */
#define ARC_XLA_STRUCT_SIZE(type, last) (offsetof(type, last) + sizeof(((type *)0)->last))

#if defined(__cplusplus)
#define ARC_XLA_ASSERT(cond) static_assert(cond, #cond)
#else
#define ARC_XLA_ASSERT(cond) _Static_assert(cond, #cond)
#endif

/* Layouts of XLA's header on LP64 targets (x86-64, aarch64). */
ARC_XLA_ASSERT(sizeof(arc_xla_extension) == 24);
ARC_XLA_ASSERT(ARC_XLA_STRUCT_SIZE(arc_xla_api_version, minor_version) == 24);
ARC_XLA_ASSERT(ARC_XLA_STRUCT_SIZE(arc_xla_metadata, traits) == 36);
ARC_XLA_ASSERT(ARC_XLA_STRUCT_SIZE(arc_xla_metadata_extension, metadata) == 32);
ARC_XLA_ASSERT(ARC_XLA_STRUCT_SIZE(arc_xla_error_create_args, errc) == 28);
ARC_XLA_ASSERT(ARC_XLA_STRUCT_SIZE(arc_xla_stream_get_args, stream) == 32);
ARC_XLA_ASSERT(offsetof(arc_xla_api, error_create) == 48);
ARC_XLA_ASSERT(offsetof(arc_xla_api, stream_get) == 80);
ARC_XLA_ASSERT(ARC_XLA_STRUCT_SIZE(arc_xla_buffer, dims) == 48);
ARC_XLA_ASSERT(sizeof(arc_xla_scalar) == 16 && sizeof(arc_xla_array) == 24 && sizeof(arc_xla_byte_span) == 16);
ARC_XLA_ASSERT(offsetof(arc_xla_call_frame, stage) == 32);
ARC_XLA_ASSERT(offsetof(arc_xla_call_frame, args) == 40);
ARC_XLA_ASSERT(offsetof(arc_xla_call_frame, rets) == 80);
ARC_XLA_ASSERT(offsetof(arc_xla_call_frame, attrs) == 120);
ARC_XLA_ASSERT(ARC_XLA_STRUCT_SIZE(arc_xla_call_frame, attrs) == 168);

#ifdef __cplusplus
}
#endif
#endif
