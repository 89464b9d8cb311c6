/* pjrt_abi.h: arc's own declarations of the part of the PJRT C API
 * (xla/pjrt/c/pjrt_c_api.h and pjrt_c_api_gpu_extension.h) that the proxy
 * touches.
 *
 * ABI-compatible with XLA's headers on LP64 targets: the asserts below pin the
 * layouts, and proxy/pjrttest checks every offset against the
 * pjrt_c_api.h that go-xla ships. PJRT_Api is only read up to
 * PJRT_Client_Compile; the proxy copies the rest of a plugin's table by its
 * struct_size without naming it.
 */
#ifndef ARC_PJRT_ABI_H
#define ARC_PJRT_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct PJRT_Error arc_pjrt_error; /* opaque: the plugin's or the proxy's */
typedef struct PJRT_Client arc_pjrt_client;
typedef struct PJRT_LoadedExecutable arc_pjrt_executable;

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

typedef void arc_pjrt_error_destroy_fn(arc_pjrt_error_destroy_args *);
typedef void arc_pjrt_error_message_fn(arc_pjrt_error_message_args *);
typedef arc_pjrt_error *arc_pjrt_error_code_fn(arc_pjrt_error_code_args *);
typedef arc_pjrt_error *arc_pjrt_compile_fn(arc_pjrt_compile_args *);
typedef arc_pjrt_error *arc_pjrt_any_fn(void *args);

/* PJRT_Api up to PJRT_Client_Compile, the last member the proxy needs. */
typedef struct arc_pjrt_api {
  size_t struct_size;
  arc_pjrt_ext *extension_start;
  arc_pjrt_version pjrt_api_version;
  arc_pjrt_error_destroy_fn *error_destroy;
  arc_pjrt_error_message_fn *error_message;
  arc_pjrt_error_code_fn *error_get_code;
  arc_pjrt_any_fn *plugin_initialize;
  arc_pjrt_any_fn *plugin_attributes;
  arc_pjrt_any_fn *event_fns[5];   /* Destroy, IsReady, Error, Await, OnReady */
  arc_pjrt_any_fn *client_fns[10]; /* Create ... AddressableMemories */
  arc_pjrt_compile_fn *client_compile;
} arc_pjrt_api;

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
_Static_assert(offsetof(arc_pjrt_api, client_compile) == 200, "PJRT_Api.PJRT_Client_Compile");
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
