/* standalone.c: pjrt_c_api_arc_plugin.so, the proxy as a PJRT plugin of its own.
 *
 * Any PJRT client loads it like any plugin (gomlx: GOMLX_BACKEND=xla:/abs/path,
 * JAX: register_plugin). It wraps the plugin named by ARC_PJRT_PLUGIN and
 * runs arc's pipeline in an arc process kept alive for the plugin's life,
 *   arc serve
 * fed framed requests over pipes (subprocess.h; restarted when it dies, each
 * request with a time limit). An arc binary without `serve` gets one
 * process per compile instead:
 *   arc compile --target T [--NAME VALUE]... [--device-assignment A] [--device-coords C] -
 * ARC_BIN names the binary; by default it is `arc` next to this plugin, then
 * `arc` on PATH. No Go runtime lives in this library.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proxy.h"
#include "subprocess.h"

typedef struct arc_bin {
  char *path;
  int timeout_ms;
  pthread_mutex_t mu;
  arc_worker worker;
  int one_shot; /* the binary has no `serve`: a process per compile */
} arc_bin;

/* run_once runs `arc compile` on one program, each setting of the request
 * header (below) given as its flag: --NAME VALUE. (Such an arc, older than
 * `serve`, reads no ARC_* variables.) */
static int run_once(arc_bin *b, const char *header, const char *in, size_t in_size, char **out, size_t *out_size,
                    char **err) {
  char *lines = strdup(header);
  size_t count = 0;
  for (const char *c = lines; c && *c; c++) count += *c == '\n';
  char **argv = calloc(2 * count + 4, sizeof *argv);
  char **flags = calloc(count + 1, sizeof *flags);
  if (lines == NULL || argv == NULL || flags == NULL) abort();
  int n = 0, k = 0;
  argv[n++] = b->path;
  argv[n++] = "compile";
  char *save = NULL;
  for (char *line = strtok_r(lines, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
    char *eq = strchr(line, '=');
    if (eq == NULL) continue;
    *eq = '\0';
    argv[n++] = flags[k++] = arc_strdupf("--%s", line);
    argv[n++] = eq + 1;
  }
  argv[n++] = "-";
  argv[n] = NULL;
  int rc = arc_run(argv, in, in_size, b->timeout_ms, out, out_size, err);
  for (int i = 0; i < k; i++) free(flags[i]);
  free(flags);
  free(argv);
  free(lines);
  return rc;
}

/* header is a request's first frame: one "name=value" line per setting, as
 * `arc compile` names its flags: the target, the program's own settings
 * (which may name the target again: the later line wins), the device
 * assignment, coordinates and processes. The worker reads every other option from
 * the ARC_* variables it inherited. NULL when a setting holds a newline. */
static char *header(const arc_settings *s) {
  const struct {
    const char *name, *value;
  } one[] = {{"target", s->target},
             {"device-assignment", s->device_assignment},
             {"device-coords", s->device_coords},
             {"device-processes", s->device_processes}};
  size_t cap = 1 + (s->program ? strlen(s->program) + 1 : 0);
  for (size_t i = 0; i < sizeof one / sizeof one[0]; i++) {
    if (one[i].value && strchr(one[i].value, '\n')) return NULL;
    if (one[i].value) cap += strlen(one[i].name) + strlen(one[i].value) + 2;
  }
  char *h = malloc(cap);
  if (h == NULL) abort();
  size_t n = (size_t)snprintf(h, cap, "%s=%s\n", one[0].name, one[0].value ? one[0].value : "");
  if (s->program) n += (size_t)snprintf(h + n, cap - n, "%s", s->program);
  if (n > 0 && h[n - 1] != '\n') n += (size_t)snprintf(h + n, cap - n, "\n");
  for (size_t i = 1; i < sizeof one / sizeof one[0]; i++)
    if (one[i].value) n += (size_t)snprintf(h + n, cap - n, "%s=%s\n", one[i].name, one[i].value);
  return h;
}

static int run_arc(void *ctx, const arc_settings *s, const char *in, size_t in_size, char **out, size_t *out_size,
                   char **err) {
  arc_bin *b = ctx;
  char *h = header(s);
  if (h == NULL) {
    *err = strdup("a setting holds a newline");
    return -1;
  }
  pthread_mutex_lock(&b->mu);
  int rc;
  if (b->one_shot) {
    pthread_mutex_unlock(&b->mu);
    rc = run_once(b, h, in, in_size, out, out_size, err);
  } else {
    const char *frames[] = {h, in};
    size_t sizes[] = {strlen(h), in_size};
    rc = arc_worker_call(&b->worker, frames, sizes, 2, b->timeout_ms, out, out_size, err);
    int unsupported = rc < 0 && b->worker.hello == NULL && *err != NULL && strstr(*err, "unknown command") != NULL;
    if (unsupported) b->one_shot = 1; /* an arc older than `serve` */
    pthread_mutex_unlock(&b->mu);
    if (unsupported) {
      free(*err);
      *err = NULL;
      rc = run_once(b, h, in, in_size, out, out_size, err);
    }
  }
  free(h);
  if (rc != 0 && *err != NULL && strncmp(*err, "arc: ", 5) == 0) memmove(*err, *err + 5, strlen(*err + 5) + 1);
  return rc;
}

/* find_arc returns the arc binary's path, or NULL with *err set. */
static char *find_arc(const char *home, char **err) {
  const char *bin = getenv("ARC_BIN");
  if (bin != NULL && *bin != '\0') {
    if (access(bin, X_OK) == 0) return strdup(bin);
    *err = arc_strdupf("ARC_BIN=%s is not an executable", bin);
    return NULL;
  }
  char *beside = home ? arc_strdupf("%s/arc", home) : NULL;
  if (beside != NULL && access(beside, X_OK) == 0) return beside;
  free(beside);
  char *found = arc_which("arc");
  if (found == NULL)
    *err = arc_strdupf("the arc binary is neither next to the plugin (%s) nor on PATH: build it with `make build` "
                       "and set ARC_BIN=/path/to/arc",
                       home ? home : "?");
  return found;
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const void *api;
static arc_bin bin; /* lives as long as the process */

__attribute__((visibility("default"))) const void *GetPjrtApi(void);

static void init(void) {
  arc_proxy_config c;
  arc_proxy_config_from_env(&c);
  char *home = arc_module_dir((const void *)GetPjrtApi);
  c.home = home;
  char *err = NULL;
  bin.path = find_arc(home, &err);
  if (bin.path != NULL) {
    char *argv[] = {bin.path, "serve", NULL};
    arc_worker_init(&bin.worker, "the arc worker (arc serve)", argv);
    pthread_mutex_init(&bin.mu, NULL);
    bin.timeout_ms = c.timeout_ms;
    c.transform = run_arc;
    c.transform_ctx = &bin;
    api = arc_proxy_open(&c, &err);
  }
  if (api == NULL) {
    fprintf(stderr, "arc: %s\n", err);
    api = arc_proxy_error_api(err);
  }
  free(err);
  free(home);
}

const void *GetPjrtApi(void) {
  pthread_once(&once, init);
  return api;
}

/* arc_plugin_detect_target is arc_detect_target with this plugin's
 * directory, for `python -m arc_jax check`: the target the plugin would
 * pick, without loading the real plugin. */
__attribute__((visibility("default"))) char *arc_plugin_detect_target(char **err);
char *arc_plugin_detect_target(char **err) {
  char *home = arc_module_dir((const void *)GetPjrtApi);
  char *t = arc_detect_target(home, err);
  free(home);
  return t;
}
