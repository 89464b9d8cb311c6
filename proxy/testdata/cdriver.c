/* cdriver.c: runs pieces of the proxy's C core for arc's CPU tests
 * (proxy/ctests_test.go), one command per run:
 *
 *   cdriver options FILE            the device assignment of a serialized CompileOptionsProto, and arc's
 *                                   compiler options with the options left without them (hex)
 *   cdriver run MS [SIGCHLD] -- ARGV  arc_run with stdin passed on; SIGCHLD: default, ignore, nocldwait, handler
 *   cdriver worker MS REQ... -- ARGV   arc_worker_call once per REQ (one frame each), then arc_worker_stop
 *   cdriver libtpu [EXISTING]       arc_merge_libtpu_args(EXISTING, ARC_LIBTPU_RING_FLAG); no EXISTING: NULL
 *   cdriver which NAME              arc_which
 *   cdriver mentions FILE           arc_mentions_collective
 *
 * Results go to stdout in a form the test compares.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compile_options.h"
#include "proxy.h"
#include "subprocess.h"

static char *slurp(FILE *f, size_t *size) {
  size_t cap = 4096, n = 0;
  char *b = malloc(cap);
  size_t k;
  while ((k = fread(b + n, 1, cap - n, f)) > 0) {
    n += k;
    if (n == cap) b = realloc(b, cap *= 2);
  }
  *size = n;
  return b;
}

static void on_sigchld(int sig) {
  (void)sig;
  int saved = errno;
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
  errno = saved;
}

static void sigchld(const char *m) {
  struct sigaction sa = {0};
  sigemptyset(&sa.sa_mask);
  if (strcmp(m, "ignore") == 0) sa.sa_handler = SIG_IGN;
  else if (strcmp(m, "nocldwait") == 0) sa.sa_handler = SIG_DFL, sa.sa_flags = SA_NOCLDWAIT;
  else if (strcmp(m, "handler") == 0) sa.sa_handler = on_sigchld, sa.sa_flags = SA_RESTART;
  else sa.sa_handler = SIG_DFL;
  sigaction(SIGCHLD, &sa, NULL);
}

static char **after_dashes(int argc, char **argv) {
  for (int i = 0; i < argc; i++)
    if (strcmp(argv[i], "--") == 0) return argv + i + 1;
  fprintf(stderr, "cdriver: no --\n");
  exit(2);
}

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  const char *cmd = argv[1];
  if (strcmp(cmd, "options") == 0 && argc == 3) {
    FILE *f = fopen(argv[2], "rb");
    if (f == NULL) return 2;
    size_t size;
    char *data = slurp(f, &size);
    fclose(f);
    arc_compile_options o;
    char *err = NULL;
    if (arc_read_compile_options(data, size, &o, &err) != 0) {
      printf("error: %s\n", err);
      return 0;
    }
    printf("replicas=%lld partitions=%lld shape=%dx%d assignment=%s\n", o.num_replicas, o.num_partitions, o.replicas,
           o.partitions, o.device_assignment ? o.device_assignment : "(none)");
    if (o.arc_settings != NULL) {
      printf("arc=");
      for (const char *c = o.arc_settings; *c; c++) putchar(*c == '\n' ? '|' : *c);
      printf("\nstripped=");
      for (size_t i = 0; i < o.stripped_size; i++) printf("%02x", (unsigned char)o.stripped[i]);
      printf("\n");
    }
    arc_compile_options_free(&o);
    return 0;
  }
  if (strcmp(cmd, "run") == 0 && argc >= 4) {
    int ms = atoi(argv[2]);
    if (strcmp(argv[3], "--") != 0) sigchld(argv[3]);
    char **child = after_dashes(argc, argv);
    size_t in_size;
    char *in = slurp(stdin, &in_size);
    char *out = NULL, *err = NULL;
    size_t out_size = 0;
    int rc = arc_run(child, in, in_size, ms, &out, &out_size, &err);
    printf("rc=%d\nout=%s\nerr=%s\n", rc, out ? out : "", err ? err : "");
    return 0;
  }
  if (strcmp(cmd, "worker") == 0 && argc >= 4) {
    int ms = atoi(argv[2]);
    char **child = after_dashes(argc, argv);
    arc_worker w;
    arc_worker_init(&w, "the test worker", child);
    for (int i = 3; i < argc && strcmp(argv[i], "--") != 0; i++) {
      const char *frames[] = {argv[i]};
      size_t sizes[] = {strlen(argv[i])};
      char *out = NULL, *err = NULL;
      size_t out_size = 0;
      int rc = arc_worker_call(&w, frames, sizes, 1, ms, &out, &out_size, &err);
      printf("%d: rc=%d starts=%d hello=%s out=%s err=%s\n", i - 2, rc, w.starts, w.hello ? w.hello : "",
             out ? out : "", err ? err : "");
      free(out);
      free(err);
    }
    arc_worker_stop(&w);
    return 0;
  }
  if (strcmp(cmd, "libtpu") == 0) {
    char *m = arc_merge_libtpu_args(argc > 2 ? argv[2] : NULL, ARC_LIBTPU_RING_FLAG);
    printf("%s\n", m);
    return 0;
  }
  if (strcmp(cmd, "flag") == 0) {
    printf("%s\n", ARC_LIBTPU_RING_FLAG);
    return 0;
  }
  if (strcmp(cmd, "which") == 0 && argc == 3) {
    char *p = arc_which(argv[2]);
    printf("%s\n", p ? p : "(none)");
    return 0;
  }
  if (strcmp(cmd, "mentions") == 0 && argc == 3) {
    FILE *f = fopen(argv[2], "rb");
    if (f == NULL) return 2;
    size_t size;
    char *data = slurp(f, &size);
    printf("%d\n", arc_mentions_collective(data, size));
    return 0;
  }
  fprintf(stderr, "cdriver: bad command\n");
  return 2;
}
