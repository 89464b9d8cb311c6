/* capture.h: the part of the PJRT C API (xla/pjrt/c/pjrt_c_api.h) that the
 * compile-only plugin implements, declared here so that the package builds
 * without XLA's headers. testdata/abi_check.c pins every offset below against
 * the pjrt_c_api.h that go-xla ships (capture_test.go compiles it). */
#ifndef ARC_CAPTURE_H
#define ARC_CAPTURE_H

#include <stddef.h>

typedef struct PJRT_Error PJRT_Error;
typedef struct PJRT_Client PJRT_Client;
typedef struct PJRT_Device PJRT_Device;

typedef struct cap_ext { /* PJRT_Extension_Base */
  size_t struct_size;
  int type;
  struct cap_ext *next;
} cap_ext;

/* PJRT_Api: the version, then one function pointer per slot. */
enum { CAP_API_SLOTS = 120 };
typedef struct {
  size_t struct_size;
  cap_ext *extension_start;
  struct {
    size_t struct_size;
    cap_ext *extension_start;
    int major_version, minor_version;
  } pjrt_api_version;
  void *slot[CAP_API_SLOTS];
} cap_api;

/* The slots the plugin implements, by position in PJRT_Api. */
enum {
  CAP_ERROR_DESTROY = 0,
  CAP_ERROR_MESSAGE = 1,
  CAP_ERROR_GET_CODE = 2,
  CAP_PLUGIN_INITIALIZE = 3,
  CAP_PLUGIN_ATTRIBUTES = 4,
  CAP_CLIENT_CREATE = 10,
  CAP_CLIENT_DESTROY = 11,
  CAP_CLIENT_PLATFORM_NAME = 12,
  CAP_CLIENT_PROCESS_INDEX = 13,
  CAP_CLIENT_PLATFORM_VERSION = 14,
  CAP_CLIENT_DEVICES = 15,
  CAP_CLIENT_ADDRESSABLE_DEVICES = 16,
  CAP_CLIENT_COMPILE = 20,
  CAP_CLIENT_DEFAULT_DEVICE_ASSIGNMENT = 21,
  CAP_DEVICE_LOCAL_HARDWARE_ID = 31
};

/* Every argument struct starts with these two fields. */
#define CAP_ARGS_HEAD \
  size_t struct_size; \
  cap_ext *extension_start

typedef struct { CAP_ARGS_HEAD; PJRT_Error *error; } cap_error_destroy_args;
typedef struct { CAP_ARGS_HEAD; const PJRT_Error *error; const char *message; size_t message_size; } cap_error_message_args;
typedef struct { CAP_ARGS_HEAD; const PJRT_Error *error; int code; } cap_error_code_args;
typedef struct { CAP_ARGS_HEAD; } cap_plugin_initialize_args;
typedef struct { CAP_ARGS_HEAD; const void *attributes; size_t num_attributes; } cap_plugin_attributes_args;
typedef struct {
  CAP_ARGS_HEAD;
  const void *create_options;
  size_t num_options;
  void *kv_get_callback, *kv_get_user_arg, *kv_put_callback, *kv_put_user_arg;
  PJRT_Client *client; /* out */
} cap_client_create_args;
typedef struct { CAP_ARGS_HEAD; PJRT_Client *client; } cap_client_destroy_args;
typedef struct { CAP_ARGS_HEAD; PJRT_Client *client; const char *name; size_t name_size; } cap_client_string_args;
typedef struct { CAP_ARGS_HEAD; PJRT_Client *client; int process_index; } cap_client_process_index_args;
typedef struct { CAP_ARGS_HEAD; PJRT_Client *client; PJRT_Device *const *devices; size_t num_devices; } cap_client_devices_args;
typedef struct { CAP_ARGS_HEAD; PJRT_Device *device; int local_hardware_id; } cap_device_hardware_id_args;
typedef struct {
  CAP_ARGS_HEAD;
  PJRT_Client *client;
  int num_replicas, num_partitions;
  size_t default_assignment_size;
  int *default_assignment; /* out: num_replicas * num_partitions device ids */
} cap_default_assignment_args;
typedef struct {
  CAP_ARGS_HEAD;
  char *code;
  size_t code_size;
  const char *format;
  size_t format_size;
} cap_program;
typedef struct {
  CAP_ARGS_HEAD;
  PJRT_Client *client;
  const cap_program *program;
  const char *compile_options;
  size_t compile_options_size;
  void *executable; /* out */
} cap_compile_args;

/* The plugin's entry points for Go. */
const cap_api *capture_api(void);
void capture_set_devices(int n);
char *capture_take(size_t *size); /* the last program compiled (malloc'd), or NULL */

#endif
