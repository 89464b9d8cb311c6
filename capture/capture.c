/* capture.c: a compile-only PJRT plugin. A client has as many devices as Go
 * asked for; Compile keeps the program text and fails, so nothing runs. Every
 * other call fails as unimplemented. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"

enum { CODE_CANCELLED = 1, CODE_INVALID_ARGUMENT = 3, CODE_UNIMPLEMENTED = 12, MAX_DEVICES = 256 };

struct PJRT_Error {
  int code;
  char message[160];
};
struct PJRT_Device {
  int id;
};
struct PJRT_Client {
  int ndev;
  PJRT_Device store[MAX_DEVICES];
  PJRT_Device *devices[MAX_DEVICES];
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int next_devices = 1;
static char *captured;
static size_t captured_size;

static PJRT_Error *fail(int code, const char *message) {
  PJRT_Error *e = calloc(1, sizeof *e);
  if (e == NULL) abort();
  e->code = code;
  snprintf(e->message, sizeof e->message, "%s", message);
  return e;
}

static void error_destroy(cap_error_destroy_args *a) { free(a->error); }
static void error_message(cap_error_message_args *a) {
  a->message = a->error->message;
  a->message_size = strlen(a->error->message);
}
static PJRT_Error *error_get_code(cap_error_code_args *a) {
  a->code = a->error->code;
  return NULL;
}
static PJRT_Error *plugin_initialize(cap_plugin_initialize_args *a) {
  (void)a;
  return NULL;
}
static PJRT_Error *plugin_attributes(cap_plugin_attributes_args *a) {
  a->attributes = NULL;
  a->num_attributes = 0;
  return NULL;
}

static PJRT_Error *client_create(cap_client_create_args *a) {
  PJRT_Client *c = calloc(1, sizeof *c);
  if (c == NULL) abort();
  pthread_mutex_lock(&mu);
  c->ndev = next_devices;
  pthread_mutex_unlock(&mu);
  for (int i = 0; i < c->ndev; i++) {
    c->store[i].id = i;
    c->devices[i] = &c->store[i];
  }
  a->client = c;
  return NULL;
}
static PJRT_Error *client_destroy(cap_client_destroy_args *a) {
  free(a->client);
  return NULL;
}
static PJRT_Error *client_platform_name(cap_client_string_args *a) {
  a->name = "capture";
  a->name_size = strlen(a->name);
  return NULL;
}
static PJRT_Error *client_platform_version(cap_client_string_args *a) {
  a->name = "compile-only";
  a->name_size = strlen(a->name);
  return NULL;
}
static PJRT_Error *client_process_index(cap_client_process_index_args *a) {
  a->process_index = 0;
  return NULL;
}
static PJRT_Error *client_devices(cap_client_devices_args *a) {
  a->devices = a->client->devices;
  a->num_devices = (size_t)a->client->ndev;
  return NULL;
}
static PJRT_Error *device_local_hardware_id(cap_device_hardware_id_args *a) {
  a->local_hardware_id = a->device->id;
  return NULL;
}

static PJRT_Error *client_default_device_assignment(cap_default_assignment_args *a) {
  size_t n = (size_t)a->num_replicas * (size_t)a->num_partitions;
  if (n > (size_t)a->client->ndev || n > a->default_assignment_size)
    return fail(CODE_INVALID_ARGUMENT, "capture: more replicas than devices");
  for (size_t i = 0; i < n; i++) a->default_assignment[i] = (int)i;
  return NULL;
}

static PJRT_Error *client_compile(cap_compile_args *a) {
  char *copy = malloc(a->program->code_size + 1);
  if (copy == NULL) abort();
  memcpy(copy, a->program->code, a->program->code_size);
  copy[a->program->code_size] = 0;
  pthread_mutex_lock(&mu);
  free(captured);
  captured = copy;
  captured_size = a->program->code_size;
  pthread_mutex_unlock(&mu);
  return fail(CODE_CANCELLED, "capture: program kept, not compiled (compile-only plugin)");
}

static PJRT_Error *unimplemented(void *args) {
  (void)args;
  return fail(CODE_UNIMPLEMENTED, "capture: not implemented by the compile-only plugin");
}

static cap_api api;
static pthread_once_t api_once = PTHREAD_ONCE_INIT;

static void init_api(void) {
  api.struct_size = sizeof api;
  api.pjrt_api_version.struct_size = sizeof api.pjrt_api_version;
  api.pjrt_api_version.major_version = 0;
  api.pjrt_api_version.minor_version = 83; /* the pjrt_c_api.h go-xla ships; checked by the ABI test */
  for (int i = 0; i < CAP_API_SLOTS; i++) api.slot[i] = (void *)unimplemented;
  api.slot[CAP_ERROR_DESTROY] = (void *)error_destroy;
  api.slot[CAP_ERROR_MESSAGE] = (void *)error_message;
  api.slot[CAP_ERROR_GET_CODE] = (void *)error_get_code;
  api.slot[CAP_PLUGIN_INITIALIZE] = (void *)plugin_initialize;
  api.slot[CAP_PLUGIN_ATTRIBUTES] = (void *)plugin_attributes;
  api.slot[CAP_CLIENT_CREATE] = (void *)client_create;
  api.slot[CAP_CLIENT_DESTROY] = (void *)client_destroy;
  api.slot[CAP_CLIENT_PLATFORM_NAME] = (void *)client_platform_name;
  api.slot[CAP_CLIENT_PROCESS_INDEX] = (void *)client_process_index;
  api.slot[CAP_CLIENT_PLATFORM_VERSION] = (void *)client_platform_version;
  api.slot[CAP_CLIENT_DEVICES] = (void *)client_devices;
  api.slot[CAP_CLIENT_ADDRESSABLE_DEVICES] = (void *)client_devices; /* every device is addressable */
  api.slot[CAP_CLIENT_COMPILE] = (void *)client_compile;
  api.slot[CAP_CLIENT_DEFAULT_DEVICE_ASSIGNMENT] = (void *)client_default_device_assignment;
  api.slot[CAP_DEVICE_LOCAL_HARDWARE_ID] = (void *)device_local_hardware_id;
}

const cap_api *capture_api(void) {
  pthread_once(&api_once, init_api);
  return &api;
}

void capture_set_devices(int n) {
  pthread_mutex_lock(&mu);
  next_devices = n;
  pthread_mutex_unlock(&mu);
}

char *capture_take(size_t *size) {
  pthread_mutex_lock(&mu);
  char *p = captured;
  *size = captured_size;
  captured = NULL;
  captured_size = 0;
  pthread_mutex_unlock(&mu);
  return p;
}
