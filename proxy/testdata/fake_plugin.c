/* fake_plugin.c: a tiny PJRT plugin for arc's CPU tests, built with go-xla's
 * pjrt_c_api.h. Enough of the API for go-xla to create a client and compile;
 * Compile records what it receives instead of compiling.
 *
 * Records go to $FAKE_PJRT_DIR (read on each call):
 *   compile-N.mlir     the N-th program the plugin received (N from 1)
 *   compile-N.options  the compile options (serialized CompileOptionsProto) it came with
 *   register.log       one line per GPU custom-call registration, with the
 *                      metadata the handler reported when called as XLA does
 *   create.log         one line per client creation: the options and which
 *                      key-value callbacks the plugin received, LIBTPU_INIT_ARGS
 *                      when set; with the option num_nodes > 1 the plugin puts
 *                      "fake:<process>" in the store and reads it back, as XLA's
 *                      GPU plugin shares its topology
 * Behaviour switches, read once in GetPjrtApi:
 *   FAKE_PJRT_OLD=1          report a table without PJRT_Client_Compile
 *   FAKE_PJRT_NO_GPU_EXT=1   no GPU custom-call extension
 *   FAKE_PJRT_REGISTER_FAIL=1  the extension refuses registrations
 *   FAKE_PJRT_TOPOLOGY=P;D;D...  the client is process P of a job whose devices
 *                      are each D = ID:PROCESS:HW[:SLICE[:X,Y,Z]] (HW of the
 *                      devices of other processes is ignored); default
 *                      "0;0:0:0;1:0:1": two local devices, no attributes
 * A program that contains FAKE_COMPILE_ERROR fails to compile.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pjrt_c_api.h"
#include "payload.h"

struct PJRT_Error {
  uint64_t magic; /* fake_magic: an error this plugin made */
  PJRT_Error_Code code;
  char *msg;
};
static const uint64_t fake_magic = 0xfa4e0e770a11ULL;
struct PJRT_Client {
  int unused;
};
struct PJRT_DeviceDescription {
  int id, process, slice;
  int64_t coords[3];
  int ncoords;
  PJRT_NamedValue attrs[2];
  size_t nattrs;
};
struct PJRT_Device {
  struct PJRT_DeviceDescription desc;
  int hw;
  bool addressable;
};
struct PJRT_Executable {
  int unused;
};
struct PJRT_LoadedExecutable {
  struct PJRT_Executable exe;
};

static PJRT_Error *fail(PJRT_Error_Code code, const char *fmt, const char *arg) {
  PJRT_Error *e = calloc(1, sizeof *e);
  e->magic = fake_magic;
  e->code = code;
  if (asprintf(&e->msg, fmt, arg) < 0) e->msg = NULL;
  return e;
}

static void record(const char *name, const char *mode, const char *data, size_t size) {
  const char *dir = getenv("FAKE_PJRT_DIR");
  if (dir == NULL) return;
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, mode);
  if (f == NULL) return;
  fwrite(data, 1, size, f);
  fclose(f);
}

static void error_destroy(PJRT_Error_Destroy_Args *a) {
  if (a->error == NULL) return;
  free(a->error->msg);
  free(a->error);
}
static void error_message(PJRT_Error_Message_Args *a) {
  a->message = a->error->msg;
  a->message_size = strlen(a->error->msg);
}
static PJRT_Error *error_get_code(PJRT_Error_GetCode_Args *a) {
  a->code = a->error->code;
  return NULL;
}
/* As a real plugin, this one reads any error it is given as its own: one
 * it did not make is a crash there, an abort here. */
static PJRT_Error *error_for_each_payload(arc_payload_args *a) {
  if (a->error->magic != fake_magic) {
    fprintf(stderr, "fake plugin: PJRT_Error_ForEachPayload on an error it did not make\n");
    abort();
  }
  return NULL;
}

static PJRT_Error *plugin_initialize(PJRT_Plugin_Initialize_Args *a) {
  (void)a;
  return NULL;
}
static PJRT_Error *plugin_attributes(PJRT_Plugin_Attributes_Args *a) {
  a->attributes = NULL;
  a->num_attributes = 0;
  return NULL;
}

static struct PJRT_Client the_client;
enum { MAX_DEVICES = 64 };
static struct PJRT_Device device_store[MAX_DEVICES];
static PJRT_Device *devices[MAX_DEVICES], *local_devices[MAX_DEVICES];
static size_t ndevices, nlocal;
static int process_index;

/* topology reads FAKE_PJRT_TOPOLOGY (see the top of the file). */
static void topology(void) {
  const char *spec = getenv("FAKE_PJRT_TOPOLOGY");
  if (spec == NULL || *spec == '\0') spec = "0;0:0:0;1:0:1";
  process_index = atoi(spec);
  ndevices = nlocal = 0;
  for (const char *d = strchr(spec, ';'); d != NULL && ndevices < MAX_DEVICES; d = strchr(d, ';')) {
    d++;
    struct PJRT_Device *dev = &device_store[ndevices];
    memset(dev, 0, sizeof *dev);
    long long x = 0, y = 0, z = 0;
    int slice = -1;
    int n = sscanf(d, "%d:%d:%d:%d:%lld,%lld,%lld", &dev->desc.id, &dev->desc.process, &dev->hw, &slice, &x, &y, &z);
    if (n < 3) break;
    dev->desc.slice = slice;
    dev->addressable = dev->desc.process == process_index;
    PJRT_NamedValue *a = dev->desc.attrs;
    if (n >= 4) {
      a->struct_size = PJRT_NamedValue_STRUCT_SIZE;
      a->name = "slice_index";
      a->name_size = 11;
      a->type = PJRT_NamedValue_kInt64;
      a->int64_value = slice;
      a->value_size = 1;
      a++;
    }
    if (n == 7) {
      dev->desc.coords[0] = x;
      dev->desc.coords[1] = y;
      dev->desc.coords[2] = z;
      a->struct_size = PJRT_NamedValue_STRUCT_SIZE;
      a->name = "coords";
      a->name_size = 6;
      a->type = PJRT_NamedValue_kInt64List;
      a->int64_array_value = dev->desc.coords;
      a->value_size = 3;
      a++;
    }
    dev->desc.nattrs = (size_t)(a - dev->desc.attrs);
    devices[ndevices++] = dev;
    if (dev->addressable) local_devices[nlocal++] = dev;
  }
}

static void log_line(const char *name, const char *fmt, const char *a, const char *b) {
  char line[1024];
  int n = snprintf(line, sizeof line, fmt, a, b);
  record(name, "ab", line, (size_t)(n < (int)sizeof line ? n : (int)sizeof line - 1));
}

static PJRT_Error *callback_error(PJRT_Error_Code code, const char *msg, size_t size) {
  PJRT_Error *e = calloc(1, sizeof *e);
  e->code = code;
  e->msg = strndup(msg, size);
  return e;
}
static PJRT_CallbackError callback_error_fn = callback_error;

/* kv_probe uses the store as XLA's GPU plugin does at creation: put a key, get it back. */
static void kv_probe(PJRT_Client_Create_Args *a) {
  char key[32], value[32];
  snprintf(key, sizeof key, "fake:%d", process_index);
  snprintf(value, sizeof value, "process %d", process_index);
  PJRT_KeyValuePutCallback_Args put = {.struct_size = PJRT_KeyValuePutCallback_Args_STRUCT_SIZE,
                                       .key = key,
                                       .key_size = strlen(key),
                                       .value = value,
                                       .value_size = strlen(value),
                                       .callback_error = &callback_error_fn,
                                       .user_arg = a->kv_put_user_arg};
  PJRT_Error *e = a->kv_put_callback(&put);
  log_line("create.log", "kv put %s: %s\n", key, e ? e->msg : "ok");
  PJRT_KeyValueGetCallback_Args get = {.struct_size = PJRT_KeyValueGetCallback_Args_STRUCT_SIZE,
                                       .key = key,
                                       .key_size = strlen(key),
                                       .timeout_in_ms = 1000,
                                       .callback_error = &callback_error_fn,
                                       .user_arg = a->kv_get_user_arg};
  PJRT_Error *g = a->kv_get_callback(&get);
  char got[64] = "";
  if (g == NULL) {
    snprintf(got, sizeof got, "%.*s", (int)get.value_size, get.value);
    get.value_deleter_callback(get.value);
  }
  log_line("create.log", "kv get %s: %s\n", key, g ? g->msg : got);
}

static PJRT_Error *client_create(PJRT_Client_Create_Args *a) {
  topology();
  char opts[512] = "";
  size_t n = 0;
  for (size_t i = 0; i < a->num_options && n < sizeof opts - 64; i++)
    n += (size_t)snprintf(opts + n, sizeof opts - n, "%s%.*s", i ? "," : "", (int)a->create_options[i].name_size,
                          a->create_options[i].name);
  int try_get = a->struct_size >= offsetof(PJRT_Client_Create_Args, kv_try_get_user_arg) + sizeof(void *) &&
                a->kv_try_get_callback != NULL;
  char kv[64]; /* pointers, not calls: a client with no store may leave garbage */
  snprintf(kv, sizeof kv, "get=%s put=%s try_get=%s", a->kv_get_callback ? "set" : "null",
           a->kv_put_callback ? "set" : "null", try_get ? "set" : "null");
  log_line("create.log", "create options=[%s] %s\n", opts, kv);
  const char *tpu = getenv("LIBTPU_INIT_ARGS"); /* what libtpu would read now */
  if (tpu != NULL) log_line("create.log", "LIBTPU_INIT_ARGS=%s%s\n", tpu, "");
  /* As XLA's GPU plugin: the store is used only when the job has several nodes. */
  long long nodes = 0;
  for (size_t i = 0; i < a->num_options; i++)
    if (strncmp(a->create_options[i].name, "num_nodes", a->create_options[i].name_size) == 0)
      nodes = a->create_options[i].int64_value;
  if (nodes > 1) kv_probe(a);
  a->client = &the_client;
  return NULL;
}
static PJRT_Error *client_destroy(PJRT_Client_Destroy_Args *a) {
  (void)a;
  log_line("create.log", "destroy%s%s\n", "", "");
  return NULL;
}
static PJRT_Error *client_platform_name(PJRT_Client_PlatformName_Args *a) {
  a->platform_name = "fake";
  a->platform_name_size = 4;
  return NULL;
}
static PJRT_Error *client_platform_version(PJRT_Client_PlatformVersion_Args *a) {
  a->platform_version = "0";
  a->platform_version_size = 1;
  return NULL;
}
static PJRT_Error *client_process_index(PJRT_Client_ProcessIndex_Args *a) {
  a->process_index = process_index;
  return NULL;
}
static PJRT_Error *client_devices(PJRT_Client_Devices_Args *a) {
  a->devices = devices;
  a->num_devices = ndevices;
  return NULL;
}
static PJRT_Error *client_addressable_devices(PJRT_Client_AddressableDevices_Args *a) {
  a->addressable_devices = local_devices;
  a->num_addressable_devices = nlocal;
  return NULL;
}
static PJRT_Error *device_local_hardware_id(PJRT_Device_LocalHardwareId_Args *a) {
  a->local_hardware_id = a->device->hw;
  return NULL;
}
static PJRT_Error *device_is_addressable(PJRT_Device_IsAddressable_Args *a) {
  a->is_addressable = a->device->addressable;
  return NULL;
}
static PJRT_Error *device_get_description(PJRT_Device_GetDescription_Args *a) {
  a->device_description = &a->device->desc;
  return NULL;
}
static PJRT_Error *description_id(PJRT_DeviceDescription_Id_Args *a) {
  a->id = a->device_description->id;
  return NULL;
}
static PJRT_Error *description_process_index(PJRT_DeviceDescription_ProcessIndex_Args *a) {
  a->process_index = a->device_description->process;
  return NULL;
}
static PJRT_Error *description_attributes(PJRT_DeviceDescription_Attributes_Args *a) {
  a->attributes = a->device_description->attrs;
  a->num_attributes = a->device_description->nattrs;
  return NULL;
}
static PJRT_Error *client_default_device_assignment(PJRT_Client_DefaultDeviceAssignment_Args *a) {
  for (size_t i = 0; i < a->default_assignment_size; i++)
    a->default_assignment[i] = ndevices ? devices[i % ndevices]->desc.id : (int)i;
  return NULL;
}

static int compiles;

static PJRT_Error *client_compile(PJRT_Client_Compile_Args *a) {
  const PJRT_Program *p = a->program;
  char name[64];
  int n = __atomic_add_fetch(&compiles, 1, __ATOMIC_SEQ_CST);
  snprintf(name, sizeof name, "compile-%d.mlir", n);
  record(name, "wb", p->code, p->code_size);
  snprintf(name, sizeof name, "compile-%d.options", n);
  record(name, "wb", a->compile_options, a->compile_options_size);
  if (memmem(p->code, p->code_size, "FAKE_COMPILE_ERROR", 18) != NULL)
    return fail(PJRT_Error_Code_INVALID_ARGUMENT, "fake: %s", "cannot compile this program");
  a->executable = calloc(1, sizeof(struct PJRT_LoadedExecutable));
  return NULL;
}
static PJRT_Error *loaded_get_executable(PJRT_LoadedExecutable_GetExecutable_Args *a) {
  a->executable = &a->loaded_executable->exe;
  return NULL;
}
static PJRT_Error *loaded_destroy(PJRT_LoadedExecutable_Destroy_Args *a) {
  free(a->executable);
  return NULL;
}
static PJRT_Error *executable_destroy(PJRT_Executable_Destroy_Args *a) {
  (void)a; /* owned by its loaded executable */
  return NULL;
}
static PJRT_Error *executable_name(PJRT_Executable_Name_Args *a) {
  a->executable_name = "fake";
  a->executable_name_size = 4;
  return NULL;
}
static PJRT_Error *executable_num_outputs(PJRT_Executable_NumOutputs_Args *a) {
  a->num_outputs = 1;
  return NULL;
}
static PJRT_Error *executable_memory_stats(PJRT_Executable_GetCompiledMemoryStats_Args *a) {
  size_t skip = offsetof(PJRT_Executable_GetCompiledMemoryStats_Args, generated_code_size_in_bytes);
  memset((char *)a + skip, 0, a->struct_size - skip);
  return NULL;
}

/* Any other call fails with the slot's index, so a test sees what is missing. */
static PJRT_Error *unimplemented(void *args) {
  (void)args;
  return fail(PJRT_Error_Code_UNIMPLEMENTED, "fake: %s", "not implemented");
}

/* The GPU custom-call extension, as pjrt_c_api_gpu_extension.h (version 3) lays it out. */
typedef struct {
  size_t struct_size;
  const char *function_name;
  size_t function_name_size;
  int api_version;
  void *handler_instantiate, *handler_prepare, *handler_initialize, *handler_execute;
  uint32_t traits;
} register_args;
typedef struct {
  PJRT_Extension_Base base;
  PJRT_Error *(*custom_call)(register_args *);
  bool custom_call_handles_traits;
} gpu_custom_call;

/* The XLA FFI metadata handshake, as xla/ffi/api/c_api.h lays it out. */
typedef struct ffi_ext {
  size_t struct_size;
  int type;
  struct ffi_ext *next;
} ffi_ext;
typedef struct {
  size_t struct_size;
  ffi_ext *extension_start;
  int major, minor;
} ffi_version;
typedef struct {
  size_t struct_size;
  ffi_version api_version;
  uint32_t traits;
} ffi_metadata;
typedef struct {
  ffi_ext base;
  ffi_metadata *metadata;
} ffi_metadata_ext;
typedef struct {
  size_t struct_size;
  ffi_ext *extension_start;
  const void *api;
  void *ctx;
  int stage;
  char args_rets_attrs[128];
  void *future;
} ffi_call_frame;

static int refuse_registration;

static PJRT_Error *register_custom_call(register_args *a) {
  if (refuse_registration) return fail(PJRT_Error_Code_INTERNAL, "fake: %s", "registration refused");
  /* Ask the handler for its metadata, as XLA's registry does. */
  ffi_metadata meta = {sizeof meta, {sizeof(ffi_version), NULL, -1, -1}, 99};
  ffi_metadata_ext ext = {{sizeof ext, 1, NULL}, &meta};
  ffi_call_frame frame;
  memset(&frame, 0, sizeof frame);
  frame.struct_size = offsetof(ffi_call_frame, future);
  frame.extension_start = &ext.base;
  frame.stage = 3;
  void *(*handler)(ffi_call_frame *) = (void *(*)(ffi_call_frame *))a->handler_execute;
  void *err = handler ? handler(&frame) : (void *)1;
  char line[512];
  int n = snprintf(line, sizeof line,
                   "register name=%.*s api_version=%d struct_size=%zu execute=%s metadata=%d.%d traits=%u error=%s\n",
                   (int)a->function_name_size, a->function_name, a->api_version, a->struct_size,
                   a->handler_execute ? "set" : "null", meta.api_version.major, meta.api_version.minor, meta.traits,
                   err ? "yes" : "no");
  record("register.log", "ab", line, (size_t)n);
  return NULL;
}

static gpu_custom_call custom_call_ext = {
    {0, PJRT_Extension_Type_Gpu_Custom_Call, NULL}, register_custom_call, true};

/* The table as newer plugins have it: go-xla's header ends before
 * PJRT_Error_ForEachPayload, which the table holds at its byte offset. */
static struct {
  PJRT_Api known;
  void *later[(ARC_PJRT_ERROR_FOR_EACH_PAYLOAD_OFFSET - sizeof(PJRT_Api)) / sizeof(void *) + 1];
} table;
#define api table.known

const PJRT_Api *GetPjrtApi(void) {
  if (api.struct_size != 0) return &api;
  void **slot = (void **)&api.PJRT_Error_Destroy;
  void **end = (void **)((char *)&table + sizeof table);
  for (; slot < end; slot++) *slot = (void *)unimplemented;
  api.struct_size = sizeof table;
  *(void **)((char *)&table + ARC_PJRT_ERROR_FOR_EACH_PAYLOAD_OFFSET) = (void *)error_for_each_payload;
  api.pjrt_api_version.struct_size = PJRT_Api_Version_STRUCT_SIZE;
  api.pjrt_api_version.major_version = PJRT_API_MAJOR;
  api.pjrt_api_version.minor_version = PJRT_API_MINOR;
  if (getenv("FAKE_PJRT_OLD") != NULL) api.struct_size = offsetof(PJRT_Api, PJRT_Client_Compile);
  if (getenv("FAKE_PJRT_NO_GPU_EXT") == NULL) api.extension_start = &custom_call_ext.base;
  refuse_registration = getenv("FAKE_PJRT_REGISTER_FAIL") != NULL;
  topology();
  custom_call_ext.base.struct_size = offsetof(gpu_custom_call, custom_call_handles_traits) + 1;

  api.PJRT_Error_Destroy = error_destroy;
  api.PJRT_Error_Message = error_message;
  api.PJRT_Error_GetCode = error_get_code;
  api.PJRT_Plugin_Initialize = plugin_initialize;
  api.PJRT_Plugin_Attributes = plugin_attributes;
  api.PJRT_Client_Create = client_create;
  api.PJRT_Client_Destroy = client_destroy;
  api.PJRT_Client_PlatformName = client_platform_name;
  api.PJRT_Client_PlatformVersion = client_platform_version;
  api.PJRT_Client_ProcessIndex = client_process_index;
  api.PJRT_Client_Devices = client_devices;
  api.PJRT_Client_AddressableDevices = client_addressable_devices;
  api.PJRT_Client_DefaultDeviceAssignment = client_default_device_assignment;
  api.PJRT_Client_Compile = client_compile;
  api.PJRT_Device_LocalHardwareId = device_local_hardware_id;
  api.PJRT_Device_IsAddressable = device_is_addressable;
  api.PJRT_Device_GetDescription = device_get_description;
  api.PJRT_DeviceDescription_Id = description_id;
  api.PJRT_DeviceDescription_ProcessIndex = description_process_index;
  api.PJRT_DeviceDescription_Attributes = description_attributes;
  api.PJRT_LoadedExecutable_GetExecutable = loaded_get_executable;
  api.PJRT_LoadedExecutable_Destroy = loaded_destroy;
  api.PJRT_Executable_Destroy = executable_destroy;
  api.PJRT_Executable_Name = executable_name;
  api.PJRT_Executable_NumOutputs = executable_num_outputs;
  api.PJRT_Executable_GetCompiledMemoryStats = executable_memory_stats;
  return &api;
}
