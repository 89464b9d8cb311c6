// ffi_abi_check.cc: compiles only if arc's XLA FFI declarations
// (gpu/arc_ffi_abi.h) lay out every member arc's handler uses where
// XLA's xla/ffi/api/c_api.h puts it. Built by gpu/ffitest when
// ARC_XLA_FFI_INCLUDE names a directory holding that header (jaxlib ships it
// under jaxlib/include).
#include <cstddef>

#include "arc_ffi_abi.h"
#include "xla/ffi/api/c_api.h"

#define SAME(arc, arc_member, xla, xla_member) \
  static_assert(offsetof(arc, arc_member) == offsetof(xla, xla_member), #xla "." #xla_member)

// The extension header is checked through XLA_FFI_Metadata_Extension's
// metadata member below: XLA renamed the header's own struct across versions.
SAME(arc_xla_api_version, major_version, XLA_FFI_Api_Version, major_version);
SAME(arc_xla_api_version, minor_version, XLA_FFI_Api_Version, minor_version);
SAME(arc_xla_metadata, api_version, XLA_FFI_Metadata, api_version);
SAME(arc_xla_metadata, traits, XLA_FFI_Metadata, traits);
SAME(arc_xla_metadata_extension, metadata, XLA_FFI_Metadata_Extension, metadata);
SAME(arc_xla_error_create_args, message, XLA_FFI_Error_Create_Args, message);
SAME(arc_xla_error_create_args, errc, XLA_FFI_Error_Create_Args, errc);
SAME(arc_xla_stream_get_args, ctx, XLA_FFI_Stream_Get_Args, ctx);
SAME(arc_xla_stream_get_args, stream, XLA_FFI_Stream_Get_Args, stream);
SAME(arc_xla_api, api_version, XLA_FFI_Api, api_version);
SAME(arc_xla_api, error_create, XLA_FFI_Api, XLA_FFI_Error_Create);
SAME(arc_xla_api, stream_get, XLA_FFI_Api, XLA_FFI_Stream_Get);
SAME(arc_xla_buffer, dtype, XLA_FFI_Buffer, dtype);
SAME(arc_xla_buffer, data, XLA_FFI_Buffer, data);
SAME(arc_xla_buffer, rank, XLA_FFI_Buffer, rank);
SAME(arc_xla_buffer, dims, XLA_FFI_Buffer, dims);
SAME(arc_xla_scalar, value, XLA_FFI_Scalar, value);
SAME(arc_xla_array, size, XLA_FFI_Array, size);
SAME(arc_xla_array, data, XLA_FFI_Array, data);
SAME(arc_xla_args, size, XLA_FFI_Args, size);
SAME(arc_xla_args, types, XLA_FFI_Args, types);
SAME(arc_xla_args, args, XLA_FFI_Args, args);
SAME(arc_xla_rets, rets, XLA_FFI_Rets, rets);
SAME(arc_xla_attrs, types, XLA_FFI_Attrs, types);
SAME(arc_xla_attrs, names, XLA_FFI_Attrs, names);
SAME(arc_xla_attrs, attrs, XLA_FFI_Attrs, attrs);
SAME(arc_xla_call_frame, extension_start, XLA_FFI_CallFrame, extension_start);
SAME(arc_xla_call_frame, api, XLA_FFI_CallFrame, api);
SAME(arc_xla_call_frame, ctx, XLA_FFI_CallFrame, ctx);
SAME(arc_xla_call_frame, stage, XLA_FFI_CallFrame, stage);
SAME(arc_xla_call_frame, args, XLA_FFI_CallFrame, args);
SAME(arc_xla_call_frame, rets, XLA_FFI_CallFrame, rets);
SAME(arc_xla_call_frame, attrs, XLA_FFI_CallFrame, attrs);
static_assert(ARC_XLA_STRUCT_SIZE(arc_xla_call_frame, attrs) == XLA_FFI_CallFrame_STRUCT_SIZE, "XLA_FFI_CallFrame");
static_assert(ARC_XLA_STRUCT_SIZE(arc_xla_metadata, traits) <= XLA_FFI_Metadata_STRUCT_SIZE, "XLA_FFI_Metadata");
static_assert(sizeof(XLA_FFI_Scalar) == sizeof(arc_xla_scalar) && sizeof(XLA_FFI_Array) == sizeof(arc_xla_array),
              "attribute values");
static_assert(int(XLA_FFI_Extension_Metadata) == ARC_XLA_EXTENSION_METADATA, "metadata extension");
static_assert(int(XLA_FFI_HANDLER_TRAITS_COMMAND_BUFFER_COMPATIBLE) == ARC_XLA_TRAIT_COMMAND_BUFFER_COMPATIBLE,
              "command-buffer trait");
static_assert(int(XLA_FFI_ExecutionStage_EXECUTE) == ARC_XLA_STAGE_EXECUTE, "execute stage");
static_assert(int(XLA_FFI_AttrType_STRING) == ARC_XLA_ATTR_STRING && int(XLA_FFI_AttrType_ARRAY) == ARC_XLA_ATTR_ARRAY &&
                  int(XLA_FFI_AttrType_SCALAR) == ARC_XLA_ATTR_SCALAR,
              "attribute types");
static_assert(int(XLA_FFI_DataType_F16) == ARC_XLA_F16 && int(XLA_FFI_DataType_BF16) == ARC_XLA_BF16 &&
                  int(XLA_FFI_DataType_F32) == ARC_XLA_F32 && int(XLA_FFI_DataType_S64) == ARC_XLA_S64,
              "data types");
static_assert(int(XLA_FFI_Error_Code_INVALID_ARGUMENT) == ARC_XLA_INVALID_ARGUMENT &&
                  int(XLA_FFI_Error_Code_INTERNAL) == ARC_XLA_INTERNAL,
              "error codes");
