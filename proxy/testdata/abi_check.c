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
SAME(arc_pjrt_api, client_create, PJRT_Api, PJRT_Client_Create);
SAME(arc_pjrt_api, client_destroy, PJRT_Api, PJRT_Client_Destroy);
SAME(arc_pjrt_api, client_platform_name, PJRT_Api, PJRT_Client_PlatformName);
SAME(arc_pjrt_api, client_process_index, PJRT_Api, PJRT_Client_ProcessIndex);
SAME(arc_pjrt_api, client_platform_version, PJRT_Api, PJRT_Client_PlatformVersion);
SAME(arc_pjrt_api, client_devices, PJRT_Api, PJRT_Client_Devices);
SAME(arc_pjrt_api, client_fns[0], PJRT_Api, PJRT_Client_AddressableDevices);
SAME(arc_pjrt_api, client_fns[3], PJRT_Api, PJRT_Client_AddressableMemories);
SAME(arc_pjrt_api, client_compile, PJRT_Api, PJRT_Client_Compile);
SAME(arc_pjrt_api, client_default_device_assignment, PJRT_Api, PJRT_Client_DefaultDeviceAssignment);
SAME(arc_pjrt_api, device_description_id, PJRT_Api, PJRT_DeviceDescription_Id);
SAME(arc_pjrt_api, device_description_process_index, PJRT_Api, PJRT_DeviceDescription_ProcessIndex);
SAME(arc_pjrt_api, device_description_attributes, PJRT_Api, PJRT_DeviceDescription_Attributes);
SAME(arc_pjrt_api, device_description_fns[2], PJRT_Api, PJRT_DeviceDescription_ToString);
SAME(arc_pjrt_api, device_get_description, PJRT_Api, PJRT_Device_GetDescription);
SAME(arc_pjrt_api, device_is_addressable, PJRT_Api, PJRT_Device_IsAddressable);
SAME(arc_pjrt_api, device_local_hardware_id, PJRT_Api, PJRT_Device_LocalHardwareId);
SAME(arc_pjrt_named_value, name, PJRT_NamedValue, name);
SAME(arc_pjrt_named_value, type, PJRT_NamedValue, type);
SAME(arc_pjrt_named_value, int64_array_value, PJRT_NamedValue, int64_array_value);
SAME_SIZE(arc_pjrt_named_value, value_size, PJRT_NamedValue);
SAME(arc_pjrt_client_create_args, create_options, PJRT_Client_Create_Args, create_options);
SAME(arc_pjrt_client_create_args, kv_get_callback, PJRT_Client_Create_Args, kv_get_callback);
SAME(arc_pjrt_client_create_args, kv_put_user_arg, PJRT_Client_Create_Args, kv_put_user_arg);
SAME(arc_pjrt_client_create_args, client, PJRT_Client_Create_Args, client);
SAME(arc_pjrt_client_create_args, kv_try_get_callback, PJRT_Client_Create_Args, kv_try_get_callback);
SAME_SIZE(arc_pjrt_client_create_args, kv_try_get_user_arg, PJRT_Client_Create_Args);
SAME_SIZE(arc_pjrt_client_destroy_args, client, PJRT_Client_Destroy_Args);
SAME(arc_pjrt_kv_get_args, timeout_in_ms, PJRT_KeyValueGetCallback_Args, timeout_in_ms);
SAME(arc_pjrt_kv_get_args, callback_error, PJRT_KeyValueGetCallback_Args, callback_error);
SAME(arc_pjrt_kv_get_args, value, PJRT_KeyValueGetCallback_Args, value);
SAME_SIZE(arc_pjrt_kv_get_args, value_deleter_callback, PJRT_KeyValueGetCallback_Args);
SAME(arc_pjrt_kv_try_get_args, callback_error, PJRT_KeyValueTryGetCallback_Args, callback_error);
SAME(arc_pjrt_kv_try_get_args, value, PJRT_KeyValueTryGetCallback_Args, value);
SAME_SIZE(arc_pjrt_kv_try_get_args, value_deleter_callback, PJRT_KeyValueTryGetCallback_Args);
SAME(arc_pjrt_kv_put_args, value, PJRT_KeyValuePutCallback_Args, value);
SAME(arc_pjrt_kv_put_args, callback_error, PJRT_KeyValuePutCallback_Args, callback_error);
SAME_SIZE(arc_pjrt_kv_put_args, user_arg, PJRT_KeyValuePutCallback_Args);
SAME_SIZE(arc_pjrt_client_platform_name_args, platform_name_size, PJRT_Client_PlatformName_Args);
SAME_SIZE(arc_pjrt_client_process_index_args, process_index, PJRT_Client_ProcessIndex_Args);
SAME(arc_pjrt_client_devices_args, devices, PJRT_Client_Devices_Args, devices);
SAME_SIZE(arc_pjrt_client_devices_args, num_devices, PJRT_Client_Devices_Args);
SAME_SIZE(arc_pjrt_device_get_description_args, device_description, PJRT_Device_GetDescription_Args);
SAME(arc_pjrt_device_description_int_args, value, PJRT_DeviceDescription_Id_Args, id);
SAME_SIZE(arc_pjrt_device_description_int_args, value, PJRT_DeviceDescription_Id_Args);
SAME(arc_pjrt_device_description_int_args, value, PJRT_DeviceDescription_ProcessIndex_Args, process_index);
SAME_SIZE(arc_pjrt_device_description_int_args, value, PJRT_DeviceDescription_ProcessIndex_Args);
SAME(arc_pjrt_device_description_attributes_args, num_attributes, PJRT_DeviceDescription_Attributes_Args,
     num_attributes);
SAME_SIZE(arc_pjrt_device_description_attributes_args, attributes, PJRT_DeviceDescription_Attributes_Args);
SAME_SIZE(arc_pjrt_device_is_addressable_args, is_addressable, PJRT_Device_IsAddressable_Args);
SAME_SIZE(arc_pjrt_device_local_hardware_id_args, local_hardware_id, PJRT_Device_LocalHardwareId_Args);
_Static_assert((int)ARC_PJRT_NAMED_STRING == (int)PJRT_NamedValue_kString, "named value type");
_Static_assert((int)ARC_PJRT_NAMED_INT64 == (int)PJRT_NamedValue_kInt64, "named value type");
_Static_assert((int)ARC_PJRT_NAMED_INT64_LIST == (int)PJRT_NamedValue_kInt64List, "named value type");
_Static_assert((int)ARC_PJRT_NOT_FOUND == (int)PJRT_Error_Code_NOT_FOUND, "error code");
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
