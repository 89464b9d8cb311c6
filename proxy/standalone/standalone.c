/* standalone.c: pjrt_c_api_arc_plugin.so, the proxy as a PJRT plugin of its own.
 *
 * Any PJRT client loads it like any plugin (gomlx: GOMLX_BACKEND=xla:/abs/path,
 * JAX: register_plugin). It wraps the plugin named by ARC_PJRT_PLUGIN and
 * runs arc's pipeline by calling the arc binary:
 *   arc compile --target T [--quant Q] [--profile P] [--force F]... -
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

static int run_arc(void *ctx, const arc_settings *s, const char *in, size_t in_size, char **out, size_t *out_size,
                   char **err) {
  char *force = s->force ? strdup(s->force) : NULL;
  int forces = 0;
  for (const char *c = force; c && *c; c++) forces += *c == ',';
  char **argv = calloc(12 + 2 * (forces + 1), sizeof *argv);
  int n = 0;
  argv[n++] = (char *)ctx;
  argv[n++] = "compile";
  argv[n++] = "--target";
  argv[n++] = (char *)s->target;
  if (s->quant != NULL) {
    argv[n++] = "--quant";
    argv[n++] = (char *)s->quant;
  }
  if (s->profile != NULL) {
    argv[n++] = "--profile";
    argv[n++] = (char *)s->profile;
  }
  char *save = NULL;
  for (char *f = force ? strtok_r(force, ",", &save) : NULL; f != NULL; f = strtok_r(NULL, ",", &save)) {
    argv[n++] = "--force";
    argv[n++] = f;
  }
  argv[n++] = "-";
  argv[n] = NULL;
  int rc = arc_run(argv, in, in_size, out, out_size, err);
  free(argv);
  free(force);
  if (rc != 0 && strncmp(*err, "arc: ", 5) == 0) memmove(*err, *err + 5, strlen(*err + 5) + 1);
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

__attribute__((visibility("default"))) const void *GetPjrtApi(void);

static void init(void) {
  arc_proxy_config c;
  arc_proxy_config_from_env(&c);
  char *home = arc_module_dir((const void *)GetPjrtApi);
  c.home = home;
  char *err = NULL;
  char *bin = find_arc(home, &err);
  if (bin != NULL) {
    c.transform = run_arc;
    c.transform_ctx = bin; /* lives as long as the process */
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
