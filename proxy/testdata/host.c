/* host.c: a PJRT client for arc's CPU tests, the way JAX drives a plugin that
 * go-xla cannot imitate: a client created with a key-value store (one file
 * per key in a directory, shared by the processes of a test), compile
 * options given as bytes, and the host's SIGCHLD disposition chosen.
 *
 *   host PLUGIN [-kv DIR] [-node I/N] [-kv-garbage] [-old-create] [-sigchld MODE] [-repeat N] [PROGRAM OPTIONS]...
 *
 * It loads PLUGIN, creates a client, compiles each PROGRAM file (format
 * "mlir") with the serialized CompileOptionsProto in OPTIONS (a file; "-"
 * for none), destroys the client, and prints one line per step:
 * "create: ok", "compile 1: ok", "compile 2: error: ...". -node I/N adds
 * the create options node_id and num_nodes, as JAX does for a process of a
 * distributed job; -kv-garbage passes callbacks that crash when called, as
 * jaxlib's uninitialized ones without a store; -old-create passes the
 * creation arguments of a PJRT C API without kv_try_get; -repeat runs each
 * compile N times. MODE: ignore, handler, nocldwait (SIGCHLD).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pjrt_c_api.h"
#include "payload.h"

static const PJRT_Api *api;
static const char *kv_dir;

/* message reads e as jaxlib does (PJRT_Error_ForEachPayload first, where
 * the table has it), then destroys it. */
static char *message(PJRT_Error *e) {
  if (api->struct_size >= ARC_PJRT_ERROR_FOR_EACH_PAYLOAD_OFFSET + sizeof(void *)) {
    PJRT_Error *(*payloads)(arc_payload_args *) =
        *(PJRT_Error * (**)(arc_payload_args *))((const char *)api + ARC_PJRT_ERROR_FOR_EACH_PAYLOAD_OFFSET);
    arc_payload_args p = {.struct_size = sizeof p, .error = e};
    if (payloads != NULL && payloads(&p) != NULL) return strdup("PJRT_Error_ForEachPayload failed");
  }
  PJRT_Error_Message_Args m = {.struct_size = PJRT_Error_Message_Args_STRUCT_SIZE, .error = e};
  api->PJRT_Error_Message(&m);
  char *s = strndup(m.message, m.message_size);
  PJRT_Error_Destroy_Args d = {.struct_size = PJRT_Error_Destroy_Args_STRUCT_SIZE, .error = e};
  api->PJRT_Error_Destroy(&d);
  return s;
}

static char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  if (b == NULL || fread(b, 1, (size_t)n, f) != (size_t)n) {
    fclose(f);
    free(b);
    return NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return b;
}

/* ---- the store: DIR/<key in hex> ---- */

static char *key_path(const char *key, size_t n) {
  char *p = malloc(strlen(kv_dir) + 2 * n + 2);
  char *s = p + sprintf(p, "%s/", kv_dir);
  for (size_t i = 0; i < n; i++) s += sprintf(s, "%02x", (unsigned char)key[i]);
  return p;
}

static PJRT_Error *kv_put(PJRT_KeyValuePutCallback_Args *a) {
  char *path = key_path(a->key, a->key_size);
  char *tmp = NULL;
  if (asprintf(&tmp, "%s.tmp%d", path, getpid()) < 0) abort();
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0600);
  int ok = fd >= 0 && write(fd, a->value, a->value_size) == (ssize_t)a->value_size && close(fd) == 0;
  /* link() is atomic and fails when the key exists: no overwrite, as XLA's store. */
  int linked = ok && link(tmp, path) == 0;
  int exists = ok && !linked && errno == EEXIST;
  unlink(tmp);
  free(tmp);
  free(path);
  if (linked) return NULL;
  const char *msg = exists ? "key already exists" : "cannot write the key";
  return (*a->callback_error)(exists ? PJRT_Error_Code_ALREADY_EXISTS : PJRT_Error_Code_INTERNAL, msg, strlen(msg));
}

static void value_free(char *v) { free(v); }

static int kv_read(const char *key, size_t n, char **value, size_t *size) {
  char *path = key_path(key, n);
  *value = read_file(path, size);
  free(path);
  return *value != NULL;
}

static PJRT_Error *kv_get(PJRT_KeyValueGetCallback_Args *a) {
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (;;) {
    if (kv_read(a->key, a->key_size, &a->value, &a->value_size)) {
      a->value_deleter_callback = value_free;
      return NULL;
    }
    clock_gettime(CLOCK_MONOTONIC, &t);
    if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 > a->timeout_in_ms) {
      const char *msg = "key not found before the deadline";
      return (*a->callback_error)(PJRT_Error_Code_DEADLINE_EXCEEDED, msg, strlen(msg));
    }
    usleep(5000);
  }
}

static PJRT_Error *kv_try_get(PJRT_KeyValueTryGetCallback_Args *a) {
  if (kv_read(a->key, a->key_size, &a->value, &a->value_size)) {
    a->value_deleter_callback = value_free;
    return NULL;
  }
  const char *msg = "key not found";
  return (*a->callback_error)(PJRT_Error_Code_NOT_FOUND, msg, strlen(msg));
}

static void on_sigchld(int sig) {
  (void)sig;
  int saved = errno;
  while (waitpid(-1, NULL, WNOHANG) > 0) { /* a host that reaps every child */
  }
  errno = saved;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: host PLUGIN [-kv DIR] [-old-create] [-sigchld MODE] [-repeat N] [PROGRAM OPTIONS]...\n");
    return 2;
  }
  int i = 2, old_create = 0, repeat = 1, garbage = 0;
  long long node_id = -1, nodes = 0;
  for (; i < argc && argv[i][0] == '-' && argv[i][1] != '\0'; i++) {
    if (strcmp(argv[i], "-kv") == 0 && i + 1 < argc) kv_dir = argv[++i];
    else if (strcmp(argv[i], "-old-create") == 0) old_create = 1;
    else if (strcmp(argv[i], "-kv-garbage") == 0) garbage = 1;
    else if (strcmp(argv[i], "-node") == 0 && i + 1 < argc) sscanf(argv[++i], "%lld/%lld", &node_id, &nodes);
    else if (strcmp(argv[i], "-repeat") == 0 && i + 1 < argc) repeat = atoi(argv[++i]);
    else if (strcmp(argv[i], "-sigchld") == 0 && i + 1 < argc) {
      const char *m = argv[++i];
      struct sigaction sa = {0};
      sigemptyset(&sa.sa_mask);
      if (strcmp(m, "ignore") == 0) sa.sa_handler = SIG_IGN;
      else if (strcmp(m, "nocldwait") == 0) sa.sa_handler = SIG_DFL, sa.sa_flags = SA_NOCLDWAIT;
      else sa.sa_handler = on_sigchld, sa.sa_flags = SA_RESTART;
      sigaction(SIGCHLD, &sa, NULL);
    } else {
      fprintf(stderr, "host: bad flag %s\n", argv[i]);
      return 2;
    }
  }
  void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    printf("load: error: %s\n", dlerror());
    return 1;
  }
  const PJRT_Api *(*get)(void) = (const PJRT_Api *(*)(void))dlsym(h, "GetPjrtApi");
  api = get();
  PJRT_Plugin_Initialize_Args init = {.struct_size = PJRT_Plugin_Initialize_Args_STRUCT_SIZE};
  PJRT_Error *e = api->PJRT_Plugin_Initialize(&init);
  if (e != NULL) {
    printf("initialize: error: %s\n", message(e));
    return 1;
  }
  PJRT_Client_Create_Args c = {.struct_size = old_create ? offsetof(PJRT_Client_Create_Args, kv_try_get_callback)
                                                         : PJRT_Client_Create_Args_STRUCT_SIZE};
  PJRT_NamedValue opts[3] = {{.struct_size = PJRT_NamedValue_STRUCT_SIZE,
                              .name = "host_option",
                              .name_size = 11,
                              .type = PJRT_NamedValue_kInt64,
                              .int64_value = 1,
                              .value_size = 1},
                             {.struct_size = PJRT_NamedValue_STRUCT_SIZE,
                              .name = "node_id",
                              .name_size = 7,
                              .type = PJRT_NamedValue_kInt64,
                              .int64_value = node_id,
                              .value_size = 1},
                             {.struct_size = PJRT_NamedValue_STRUCT_SIZE,
                              .name = "num_nodes",
                              .name_size = 9,
                              .type = PJRT_NamedValue_kInt64,
                              .int64_value = nodes,
                              .value_size = 1}};
  c.create_options = opts;
  c.num_options = nodes > 0 ? 3 : 1;
  if (kv_dir != NULL) {
    c.kv_get_callback = kv_get;
    c.kv_put_callback = kv_put;
    if (!old_create) c.kv_try_get_callback = kv_try_get;
  }
  if (garbage) { /* called, these crash the host */
    c.kv_get_callback = (PJRT_KeyValueGetCallback)(uintptr_t)0x10;
    c.kv_put_callback = (PJRT_KeyValuePutCallback)(uintptr_t)0x10;
    c.kv_try_get_callback = (PJRT_KeyValueTryGetCallback)(uintptr_t)0x10;
  }
  if ((e = api->PJRT_Client_Create(&c)) != NULL) {
    printf("create: error: %s\n", message(e));
    return 1;
  }
  printf("create: ok\n");
  int n = 0, failed = 0;
  for (; i + 1 < argc; i += 2) {
    size_t code_size = 0, opt_size = 0;
    char *code = read_file(argv[i], &code_size);
    char *opts = strcmp(argv[i + 1], "-") == 0 ? calloc(1, 1) : read_file(argv[i + 1], &opt_size);
    if (code == NULL || opts == NULL) {
      printf("host: cannot read %s or %s\n", argv[i], argv[i + 1]);
      return 2;
    }
    for (int r = 0; r < repeat; r++) {
      PJRT_Program prog = {.struct_size = PJRT_Program_STRUCT_SIZE,
                           .code = code,
                           .code_size = code_size,
                           .format = "mlir",
                           .format_size = 4};
      PJRT_Client_Compile_Args ca = {.struct_size = PJRT_Client_Compile_Args_STRUCT_SIZE,
                                     .client = c.client,
                                     .program = &prog,
                                     .compile_options = opts,
                                     .compile_options_size = opt_size};
      n++;
      if ((e = api->PJRT_Client_Compile(&ca)) != NULL) {
        printf("compile %d: error: %s\n", n, message(e));
        failed++;
        continue;
      }
      printf("compile %d: ok\n", n);
      PJRT_LoadedExecutable_Destroy_Args d = {.struct_size = PJRT_LoadedExecutable_Destroy_Args_STRUCT_SIZE,
                                              .executable = ca.executable};
      api->PJRT_LoadedExecutable_Destroy(&d);
    }
    free(code);
    free(opts);
  }
  PJRT_Client_Destroy_Args d = {.struct_size = PJRT_Client_Destroy_Args_STRUCT_SIZE, .client = c.client};
  if ((e = api->PJRT_Client_Destroy(&d)) != NULL) printf("destroy: error: %s\n", message(e));
  else printf("destroy: ok\n");
  fflush(stdout);
  return failed ? 1 : 0;
}
