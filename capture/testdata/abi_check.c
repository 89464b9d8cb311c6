/* abi_check.c: capture.h against the pjrt_c_api.h that go-xla ships. It only
 * compiles when every slot and field the compile-only plugin touches sits where
 * XLA's header puts it. */
#include <stddef.h>

#include "pjrt_c_api.h"
#include "capture.h"

#define SAME(cap_type, cap_field, xla_type, xla_field) \
  _Static_assert(offsetof(cap_type, cap_field) == offsetof(xla_type, xla_field), #xla_type "." #xla_field)
#define SLOT(index, xla_field) \
  _Static_assert(offsetof(cap_api, slot) + (index) * sizeof(void *) == offsetof(PJRT_Api, xla_field), #xla_field)

_Static_assert(PJRT_API_MAJOR == 0 && PJRT_API_MINOR == 83, "capture.c reports PJRT C API 0.83");
_Static_assert(sizeof(cap_api) == sizeof(PJRT_Api), "PJRT_Api has CAP_API_SLOTS slots");
SAME(cap_api, pjrt_api_version, PJRT_Api, pjrt_api_version);
SAME(cap_api, pjrt_api_version.major_version, PJRT_Api, pjrt_api_version.major_version);
SAME(cap_api, pjrt_api_version.minor_version, PJRT_Api, pjrt_api_version.minor_version);

SLOT(CAP_ERROR_DESTROY, PJRT_Error_Destroy);
SLOT(CAP_ERROR_MESSAGE, PJRT_Error_Message);
SLOT(CAP_ERROR_GET_CODE, PJRT_Error_GetCode);
SLOT(CAP_PLUGIN_INITIALIZE, PJRT_Plugin_Initialize);
SLOT(CAP_PLUGIN_ATTRIBUTES, PJRT_Plugin_Attributes);
SLOT(CAP_CLIENT_CREATE, PJRT_Client_Create);
SLOT(CAP_CLIENT_DESTROY, PJRT_Client_Destroy);
SLOT(CAP_CLIENT_PLATFORM_NAME, PJRT_Client_PlatformName);
SLOT(CAP_CLIENT_PROCESS_INDEX, PJRT_Client_ProcessIndex);
SLOT(CAP_CLIENT_PLATFORM_VERSION, PJRT_Client_PlatformVersion);
SLOT(CAP_CLIENT_DEVICES, PJRT_Client_Devices);
SLOT(CAP_CLIENT_ADDRESSABLE_DEVICES, PJRT_Client_AddressableDevices);
SLOT(CAP_CLIENT_COMPILE, PJRT_Client_Compile);
SLOT(CAP_CLIENT_DEFAULT_DEVICE_ASSIGNMENT, PJRT_Client_DefaultDeviceAssignment);
SLOT(CAP_DEVICE_LOCAL_HARDWARE_ID, PJRT_Device_LocalHardwareId);

SAME(cap_error_destroy_args, error, PJRT_Error_Destroy_Args, error);
SAME(cap_error_message_args, error, PJRT_Error_Message_Args, error);
SAME(cap_error_message_args, message, PJRT_Error_Message_Args, message);
SAME(cap_error_message_args, message_size, PJRT_Error_Message_Args, message_size);
SAME(cap_error_code_args, error, PJRT_Error_GetCode_Args, error);
SAME(cap_error_code_args, code, PJRT_Error_GetCode_Args, code);
_Static_assert(sizeof(int) == sizeof(PJRT_Error_Code), "PJRT_Error_Code is an int");
SAME(cap_plugin_attributes_args, attributes, PJRT_Plugin_Attributes_Args, attributes);
SAME(cap_plugin_attributes_args, num_attributes, PJRT_Plugin_Attributes_Args, num_attributes);
SAME(cap_client_create_args, client, PJRT_Client_Create_Args, client);
SAME(cap_client_destroy_args, client, PJRT_Client_Destroy_Args, client);
SAME(cap_client_string_args, client, PJRT_Client_PlatformName_Args, client);
SAME(cap_client_string_args, name, PJRT_Client_PlatformName_Args, platform_name);
SAME(cap_client_string_args, name_size, PJRT_Client_PlatformName_Args, platform_name_size);
SAME(cap_client_string_args, client, PJRT_Client_PlatformVersion_Args, client);
SAME(cap_client_string_args, name, PJRT_Client_PlatformVersion_Args, platform_version);
SAME(cap_client_string_args, name_size, PJRT_Client_PlatformVersion_Args, platform_version_size);
SAME(cap_client_process_index_args, process_index, PJRT_Client_ProcessIndex_Args, process_index);
SAME(cap_client_devices_args, client, PJRT_Client_Devices_Args, client);
SAME(cap_client_devices_args, devices, PJRT_Client_Devices_Args, devices);
SAME(cap_client_devices_args, num_devices, PJRT_Client_Devices_Args, num_devices);
SAME(cap_client_devices_args, devices, PJRT_Client_AddressableDevices_Args, addressable_devices);
SAME(cap_client_devices_args, num_devices, PJRT_Client_AddressableDevices_Args, num_addressable_devices);
SAME(cap_device_hardware_id_args, device, PJRT_Device_LocalHardwareId_Args, device);
SAME(cap_device_hardware_id_args, local_hardware_id, PJRT_Device_LocalHardwareId_Args, local_hardware_id);
SAME(cap_default_assignment_args, num_replicas, PJRT_Client_DefaultDeviceAssignment_Args, num_replicas);
SAME(cap_default_assignment_args, num_partitions, PJRT_Client_DefaultDeviceAssignment_Args, num_partitions);
SAME(cap_default_assignment_args, default_assignment_size, PJRT_Client_DefaultDeviceAssignment_Args,
     default_assignment_size);
SAME(cap_default_assignment_args, default_assignment, PJRT_Client_DefaultDeviceAssignment_Args, default_assignment);
SAME(cap_program, code, PJRT_Program, code);
SAME(cap_program, code_size, PJRT_Program, code_size);
SAME(cap_compile_args, client, PJRT_Client_Compile_Args, client);
SAME(cap_compile_args, program, PJRT_Client_Compile_Args, program);
SAME(cap_compile_args, executable, PJRT_Client_Compile_Args, executable);
