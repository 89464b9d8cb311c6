/* abi_check.c: compiles only if arc's PJRT declarations (pjrt_abi.h) lay out
 * every member the proxy uses where the PJRT C API header puts it. */
#include <stddef.h>

#include "pjrt_abi.h"
#include "pjrt_c_api.h"

#define SAME(arc, arc_member, xla, xla_member) \
  _Static_assert(offsetof(arc, arc_member) == offsetof(xla, xla_member), #xla "." #xla_member)
#define SAME_SIZE(arc, arc_last, xla) _Static_assert(ARC_PJRT_STRUCT_SIZE(arc, arc_last) == xla##_STRUCT_SIZE, #xla)

SAME(arc_pjrt_ext, type, PJRT_Extension_Base, type);
SAME(arc_pjrt_ext, next, PJRT_Extension_Base, next);
SAME_SIZE(arc_pjrt_version, minor_version, PJRT_Api_Version);
SAME(arc_pjrt_api, extension_start, PJRT_Api, extension_start);
SAME(arc_pjrt_api, pjrt_api_version, PJRT_Api, pjrt_api_version);
SAME(arc_pjrt_api, error_destroy, PJRT_Api, PJRT_Error_Destroy);
SAME(arc_pjrt_api, error_message, PJRT_Api, PJRT_Error_Message);
SAME(arc_pjrt_api, error_get_code, PJRT_Api, PJRT_Error_GetCode);
SAME(arc_pjrt_api, plugin_initialize, PJRT_Api, PJRT_Plugin_Initialize);
SAME(arc_pjrt_api, plugin_attributes, PJRT_Api, PJRT_Plugin_Attributes);
SAME(arc_pjrt_api, event_fns, PJRT_Api, PJRT_Event_Destroy);
SAME(arc_pjrt_api, client_fns, PJRT_Api, PJRT_Client_Create);
SAME(arc_pjrt_api, client_fns[9], PJRT_Api, PJRT_Client_AddressableMemories);
SAME(arc_pjrt_api, client_compile, PJRT_Api, PJRT_Client_Compile);
SAME(arc_pjrt_error_destroy_args, error, PJRT_Error_Destroy_Args, error);
SAME_SIZE(arc_pjrt_error_destroy_args, error, PJRT_Error_Destroy_Args);
SAME(arc_pjrt_error_message_args, message, PJRT_Error_Message_Args, message);
SAME_SIZE(arc_pjrt_error_message_args, message_size, PJRT_Error_Message_Args);
SAME_SIZE(arc_pjrt_error_code_args, code, PJRT_Error_GetCode_Args);
SAME(arc_pjrt_program, code, PJRT_Program, code);
SAME(arc_pjrt_program, code_size, PJRT_Program, code_size);
SAME(arc_pjrt_program, format, PJRT_Program, format);
SAME_SIZE(arc_pjrt_program, format_size, PJRT_Program);
SAME(arc_pjrt_compile_args, client, PJRT_Client_Compile_Args, client);
SAME(arc_pjrt_compile_args, program, PJRT_Client_Compile_Args, program);
SAME_SIZE(arc_pjrt_compile_args, executable, PJRT_Client_Compile_Args);
_Static_assert((int)ARC_PJRT_EXT_GPU_CUSTOM_CALL == (int)PJRT_Extension_Type_Gpu_Custom_Call, "extension type");
_Static_assert((int)ARC_PJRT_INVALID_ARGUMENT == (int)PJRT_Error_Code_INVALID_ARGUMENT, "error code");
_Static_assert((int)ARC_PJRT_FAILED_PRECONDITION == (int)PJRT_Error_Code_FAILED_PRECONDITION, "error code");
