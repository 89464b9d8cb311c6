/* pjrt_abi.h: arc's own declarations of the part of the PJRT C API
 * (xla/pjrt/c/pjrt_c_api.h and pjrt_c_api_gpu_extension.h) that the proxy
 * touches.
 *
 * ABI-compatible with XLA's headers on LP64 targets: the asserts below pin the
 * layouts, and testdata/abi_check.c checks every offset against the
 * pjrt_c_api.h that go-xla ships (and, on the GPU machine, jaxlib's). PJRT_Api
 * is only read up to PJRT_Device_LocalHardwareId; the proxy copies the rest of
 * a plugin's table by its struct_size without naming it.
 */
#ifndef ARC_PJRT_ABI_H
#define ARC_PJRT_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct PJRT_Error arc_pjrt_error; /* opaque: the plugin's or the proxy's */
typedef struct PJRT_Client arc_pjrt_client;
typedef struct PJRT_LoadedExecutable arc_pjrt_executable;
typedef struct PJRT_Device arc_pjrt_device;
typedef struct PJRT_DeviceDescription arc_pjrt_device_description;

enum { ARC_PJRT_EXT_GPU_CUSTOM_CALL = 0 }; /* PJRT_Extension_Type_Gpu_Custom_Call */

/* PJRT_Error_Code values the proxy returns. */
enum {
  ARC_PJRT_INVALID_ARGUMENT = 3,
  ARC_PJRT_NOT_FOUND = 5,
  ARC_PJRT_FAILED_PRECONDITION = 9,
  ARC_PJRT_UNIMPLEMENTED = 12,
  ARC_PJRT_INTERNAL = 13
};

typedef struct arc_pjrt_ext { /* PJRT_Extension_Base */
  size_t struct_size;
  int type;
  struct arc_pjrt_ext *next;
} arc_pjrt_ext;

typedef struct arc_pjrt_version { /* PJRT_Api_Version */
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  int major_version;
  int minor_version;
} arc_pjrt_version;

typedef struct arc_pjrt_error_destroy_args {
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  arc_pjrt_error *error;
} arc_pjrt_error_destroy_args;

typedef struct arc_pjrt_error_message_args {
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  const arc_pjrt_error *error;
  const char *message; /* out */
  size_t message_size; /* out */
} arc_pjrt_error_message_args;

typedef struct arc_pjrt_error_code_args {
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  const arc_pjrt_error *error;
  int code; /* out */
} arc_pjrt_error_code_args;

typedef struct arc_pjrt_program { /* PJRT_Program */
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  char *code;
  size_t code_size;
  const char *format;
  size_t format_size;
} arc_pjrt_program;

typedef struct arc_pjrt_compile_args { /* PJRT_Client_Compile_Args */
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  arc_pjrt_client *client;
  const arc_pjrt_program *program;
  const char *compile_options;
  size_t compile_options_size;
  arc_pjrt_executable *executable; /* out */
} arc_pjrt_compile_args;

/* ---- client creation (PJRT_Client_Create_Args and the key-value store) ---- */

typedef arc_pjrt_error *(*arc_pjrt_callback_error)(int code, const char *message, size_t message_size);

enum { ARC_PJRT_NAMED_STRING = 0, ARC_PJRT_NAMED_INT64 = 1, ARC_PJRT_NAMED_INT64_LIST = 2 };

typedef struct arc_pjrt_named_value { /* PJRT_NamedValue */
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  const char *name;
  size_t name_size;
  int type;
  union {
    const char *string_value;
    int64_t int64_value;
    const int64_t *int64_array_value;
    float float_value;
    bool bool_value;
  };
  size_t value_size;
} arc_pjrt_named_value;

typedef struct arc_pjrt_kv_get_args { /* PJRT_KeyValueGetCallback_Args */
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  const char *key;
  size_t key_size;
  int timeout_in_ms;
  arc_pjrt_callback_error *callback_error;
  void *user_arg;
  char *value;       /* out */
  size_t value_size; /* out */
  void (*value_deleter_callback)(char *value); /* out */
} arc_pjrt_kv_get_args;

typedef struct arc_pjrt_kv_try_get_args { /* PJRT_KeyValueTryGetCallback_Args */
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  const char *key;
  size_t key_size;
  arc_pjrt_callback_error *callback_error;
  void *user_arg;
  char *value;       /* out */
  size_t value_size; /* out */
  void (*value_deleter_callback)(char *value); /* out */
} arc_pjrt_kv_try_get_args;

typedef struct arc_pjrt_kv_put_args { /* PJRT_KeyValuePutCallback_Args */
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  const char *key;
  size_t key_size;
  const char *value;
  size_t value_size;
  arc_pjrt_callback_error *callback_error;
  void *user_arg;
} arc_pjrt_kv_put_args;

typedef arc_pjrt_error *(*arc_pjrt_kv_get_fn)(arc_pjrt_kv_get_args *);
typedef arc_pjrt_error *(*arc_pjrt_kv_try_get_fn)(arc_pjrt_kv_try_get_args *);
typedef arc_pjrt_error *(*arc_pjrt_kv_put_fn)(arc_pjrt_kv_put_args *);

typedef struct arc_pjrt_client_create_args { /* PJRT_Client_Create_Args */
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  const arc_pjrt_named_value *create_options;
  size_t num_options;
  arc_pjrt_kv_get_fn kv_get_callback;
  void *kv_get_user_arg;
  arc_pjrt_kv_put_fn kv_put_callback;
  void *kv_put_user_arg;
  arc_pjrt_client *client; /* out */
  arc_pjrt_kv_try_get_fn kv_try_get_callback; /* present when struct_size covers it */
  void *kv_try_get_user_arg;
} arc_pjrt_client_create_args;

typedef struct arc_pjrt_client_destroy_args {
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  arc_pjrt_client *client;
} arc_pjrt_client_destroy_args;

/* ---- what the proxy asks of a client and its devices ---------------------- */

typedef struct arc_pjrt_client_platform_name_args {
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  arc_pjrt_client *client;
  const char *platform_name; /* out */
  size_t platform_name_size; /* out */
} arc_pjrt_client_platform_name_args;

typedef struct arc_pjrt_client_process_index_args {
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  arc_pjrt_client *client;
  int process_index; /* out */
} arc_pjrt_client_process_index_args;

typedef struct arc_pjrt_client_devices_args { /* PJRT_Client_Devices_Args */
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  arc_pjrt_client *client;
  arc_pjrt_device *const *devices; /* out */
  size_t num_devices;              /* out */
} arc_pjrt_client_devices_args;

typedef struct arc_pjrt_device_get_description_args {
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  arc_pjrt_device *device;
  arc_pjrt_device_description *device_description; /* out */
} arc_pjrt_device_get_description_args;

typedef struct arc_pjrt_device_description_int_args { /* _Id_Args and _ProcessIndex_Args */
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  arc_pjrt_device_description *device_description;
  int value; /* out: id or process_index */
} arc_pjrt_device_description_int_args;

typedef struct arc_pjrt_device_description_attributes_args {
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  arc_pjrt_device_description *device_description;
  size_t num_attributes;                  /* out */
  const arc_pjrt_named_value *attributes; /* out */
} arc_pjrt_device_description_attributes_args;

typedef struct arc_pjrt_device_is_addressable_args {
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  arc_pjrt_device *device;
  bool is_addressable; /* out */
} arc_pjrt_device_is_addressable_args;

typedef struct arc_pjrt_device_local_hardware_id_args {
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  arc_pjrt_device *device;
  int local_hardware_id; /* out */
} arc_pjrt_device_local_hardware_id_args;

typedef void arc_pjrt_error_destroy_fn(arc_pjrt_error_destroy_args *);
typedef void arc_pjrt_error_message_fn(arc_pjrt_error_message_args *);
typedef arc_pjrt_error *arc_pjrt_error_code_fn(arc_pjrt_error_code_args *);
typedef arc_pjrt_error *arc_pjrt_compile_fn(arc_pjrt_compile_args *);
typedef arc_pjrt_error *arc_pjrt_any_fn(void *args);

typedef arc_pjrt_error *arc_pjrt_client_create_fn(arc_pjrt_client_create_args *);
typedef arc_pjrt_error *arc_pjrt_client_destroy_fn(arc_pjrt_client_destroy_args *);

/* PJRT_Api up to PJRT_Device_LocalHardwareId, the last member the proxy
 * needs; the members after PJRT_Client_Compile exist only where the table's
 * struct_size covers them (ARC_PJRT_HAS). */
typedef struct arc_pjrt_api {
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  arc_pjrt_version pjrt_api_version;
  arc_pjrt_error_destroy_fn *error_destroy;
  arc_pjrt_error_message_fn *error_message;
  arc_pjrt_error_code_fn *error_get_code;
  arc_pjrt_any_fn *plugin_initialize;
  arc_pjrt_any_fn *plugin_attributes;
  arc_pjrt_any_fn *event_fns[5]; /* Destroy, IsReady, Error, Await, OnReady */
  arc_pjrt_client_create_fn *client_create;
  arc_pjrt_client_destroy_fn *client_destroy;
  arc_pjrt_error *(*client_platform_name)(arc_pjrt_client_platform_name_args *);
  arc_pjrt_error *(*client_process_index)(arc_pjrt_client_process_index_args *);
  arc_pjrt_any_fn *client_platform_version;
  arc_pjrt_error *(*client_devices)(arc_pjrt_client_devices_args *);
  arc_pjrt_any_fn *client_fns[4]; /* AddressableDevices, LookupDevice, LookupAddressableDevice, AddressableMemories */
  arc_pjrt_compile_fn *client_compile;
  arc_pjrt_any_fn *client_default_device_assignment;
  arc_pjrt_any_fn *client_buffer_from_host_buffer;
  arc_pjrt_error *(*device_description_id)(arc_pjrt_device_description_int_args *);
  arc_pjrt_error *(*device_description_process_index)(arc_pjrt_device_description_int_args *);
  arc_pjrt_error *(*device_description_attributes)(arc_pjrt_device_description_attributes_args *);
  arc_pjrt_any_fn *device_description_fns[3]; /* Kind, DebugString, ToString */
  arc_pjrt_error *(*device_get_description)(arc_pjrt_device_get_description_args *);
  arc_pjrt_error *(*device_is_addressable)(arc_pjrt_device_is_addressable_args *);
  arc_pjrt_error *(*device_local_hardware_id)(arc_pjrt_device_local_hardware_id_args *);
} arc_pjrt_api;

/* PJRT_Error_ForEachPayload, a member far past the ones above (the 133rd
 * function of PJRT_Api, appended in C API 0.9x): clients that find it (the
 * table's struct_size covers it; jaxlib 0.11 does) call it on every error
 * they get, so the proxy must answer it for its own errors, or the real
 * plugin reads them as its own. */
#define ARC_PJRT_ERROR_FOR_EACH_PAYLOAD_OFFSET 1096

typedef struct arc_pjrt_error_payload_args {
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  const arc_pjrt_error *error;
  void *visitor; /* void (*)(const char *key, size_t, const char *value, size_t, void *user_arg) */
  void *user_arg;
} arc_pjrt_error_payload_args;

typedef arc_pjrt_error *arc_pjrt_error_payload_fn(arc_pjrt_error_payload_args *);

/* arc_pjrt_payload_fn is the table's PJRT_Error_ForEachPayload member, or
 * NULL where the table is too short to hold it. */
static inline arc_pjrt_error_payload_fn **arc_pjrt_payload_fn(const void *api, size_t struct_size) {
  if (struct_size < ARC_PJRT_ERROR_FOR_EACH_PAYLOAD_OFFSET + sizeof(void *)) return NULL;
  return (arc_pjrt_error_payload_fn **)((char *)(uintptr_t)api + ARC_PJRT_ERROR_FOR_EACH_PAYLOAD_OFFSET);
}

/* ARC_PJRT_HAS reports whether a plugin's table holds member. */
#define ARC_PJRT_HAS(api, member) \
  ((api)->struct_size >= offsetof(arc_pjrt_api, member) + sizeof(((arc_pjrt_api *)0)->member) && (api)->member != NULL)

/* The GPU custom-call extension (pjrt_c_api_gpu_extension.h, version 3). */
typedef struct arc_pjrt_register_custom_call_args {
  size_t struct_size;
  const char *function_name;
  size_t function_name_size;
  int api_version; /* 0: untyped call, 1: typed FFI */
  void *handler_instantiate;
  void *handler_prepare;
  void *handler_initialize;
  void *handler_execute;
  uint32_t traits; /* read only when the extension sets custom_call_handles_traits */
} arc_pjrt_register_custom_call_args;

typedef struct arc_pjrt_gpu_custom_call {
  arc_pjrt_ext base;
  arc_pjrt_error *(*custom_call)(arc_pjrt_register_custom_call_args *args);
  bool custom_call_handles_traits; /* present when base.struct_size covers it */
} arc_pjrt_gpu_custom_call;

#define ARC_PJRT_STRUCT_SIZE(type, last) (offsetof(type, last) + sizeof(((type *)0)->last))

_Static_assert(sizeof(arc_pjrt_ext) == 24, "PJRT_Extension_Base");
_Static_assert(ARC_PJRT_STRUCT_SIZE(arc_pjrt_version, minor_version) == 24, "PJRT_Api_Version");
_Static_assert(offsetof(arc_pjrt_api, error_destroy) == 40, "PJRT_Api.PJRT_Error_Destroy");
_Static_assert(offsetof(arc_pjrt_api, plugin_initialize) == 64, "PJRT_Api.PJRT_Plugin_Initialize");
_Static_assert(offsetof(arc_pjrt_api, client_create) == 120, "PJRT_Api.PJRT_Client_Create");
_Static_assert(offsetof(arc_pjrt_api, client_compile) == 200, "PJRT_Api.PJRT_Client_Compile");
_Static_assert(offsetof(arc_pjrt_api, device_description_id) == 224, "PJRT_Api.PJRT_DeviceDescription_Id");
_Static_assert(offsetof(arc_pjrt_api, device_local_hardware_id) == 288, "PJRT_Api.PJRT_Device_LocalHardwareId");
_Static_assert(sizeof(arc_pjrt_named_value) == 56, "PJRT_NamedValue");
_Static_assert(ARC_PJRT_STRUCT_SIZE(arc_pjrt_client_create_args, client) == 72, "PJRT_Client_Create_Args before try-get");
_Static_assert(ARC_PJRT_STRUCT_SIZE(arc_pjrt_client_create_args, kv_try_get_user_arg) == 88,
               "PJRT_Client_Create_Args");
_Static_assert(ARC_PJRT_STRUCT_SIZE(arc_pjrt_kv_get_args, value_deleter_callback) == 80, "PJRT_KeyValueGetCallback_Args");
_Static_assert(ARC_PJRT_STRUCT_SIZE(arc_pjrt_kv_put_args, user_arg) == 64, "PJRT_KeyValuePutCallback_Args");
_Static_assert(ARC_PJRT_STRUCT_SIZE(arc_pjrt_program, format_size) == 48, "PJRT_Program");
_Static_assert(ARC_PJRT_STRUCT_SIZE(arc_pjrt_compile_args, executable) == 56, "PJRT_Client_Compile_Args");
_Static_assert(ARC_PJRT_STRUCT_SIZE(arc_pjrt_error_message_args, message_size) == 40, "PJRT_Error_Message_Args");
_Static_assert(ARC_PJRT_STRUCT_SIZE(arc_pjrt_error_code_args, code) == 28, "PJRT_Error_GetCode_Args");
_Static_assert(ARC_PJRT_STRUCT_SIZE(arc_pjrt_register_custom_call_args, handler_execute) == 64,
               "PJRT_Gpu_Register_Custom_Call_Args before traits");
_Static_assert(ARC_PJRT_STRUCT_SIZE(arc_pjrt_register_custom_call_args, traits) == 68,
               "PJRT_Gpu_Register_Custom_Call_Args");
_Static_assert(ARC_PJRT_STRUCT_SIZE(arc_pjrt_gpu_custom_call, custom_call) == 32, "PJRT_Gpu_Custom_Call v2");
_Static_assert(ARC_PJRT_STRUCT_SIZE(arc_pjrt_gpu_custom_call, custom_call_handles_traits) == 33,
               "PJRT_Gpu_Custom_Call v3");

#endif
