/* subprocess.c: run a filter program from inside a PJRT plugin (subprocess.h). */
#define _GNU_SOURCE
#include "subprocess.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

char *arc_strdupf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  if (vasprintf(&s, fmt, ap) < 0) s = NULL;
  va_end(ap);
  return s;
}

/* A growing byte buffer. */
typedef struct {
  char *data;
  size_t size, cap;
} buffer;

static int buffer_read(buffer *b, int fd) {
  if (b->cap - b->size < 65536 + 1) {
    size_t cap = b->cap ? b->cap * 2 : 131072;
    char *d = realloc(b->data, cap);
    if (d == NULL) return -1;
    b->data = d;
    b->cap = cap;
  }
  ssize_t n = read(fd, b->data + b->size, b->cap - b->size - 1);
  if (n > 0) b->size += (size_t)n;
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return 1;
  return (int)(n > 0); /* 0 at EOF or on error */
}

static char *trimmed(buffer *b) {
  while (b->size > 0 && (b->data[b->size - 1] == '\n' || b->data[b->size - 1] == ' ')) b->size--;
  if (b->data == NULL) return strdup("");
  b->data[b->size] = '\0';
  return b->data;
}

/* read_or_close reads what *fd has into b; at its end it closes *fd and sets
 * it to -1. It returns -1 when out of memory. */
static int read_or_close(buffer *b, int *fd) {
  int r = buffer_read(b, *fd);
  if (r == 0) {
    close(*fd);
    *fd = -1;
  }
  return r < 0 ? -1 : 0;
}

/* pump writes in to fd_in and drains fd_out and fd_err until both close. */
static int pump(int fd_in, const char *in, size_t in_size, int fd_out, buffer *out, int fd_err, buffer *errb) {
  size_t written = 0;
  if (in_size == 0) {
    close(fd_in);
    fd_in = -1;
  }
  while (fd_out >= 0 || fd_err >= 0) {
    struct pollfd p[3];
    int n = 0, i_in = -1, i_out = -1, i_err = -1;
    if (fd_in >= 0) p[i_in = n++] = (struct pollfd){fd_in, POLLOUT, 0};
    if (fd_out >= 0) p[i_out = n++] = (struct pollfd){fd_out, POLLIN, 0};
    if (fd_err >= 0) p[i_err = n++] = (struct pollfd){fd_err, POLLIN, 0};
    if (poll(p, n, -1) < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (i_in >= 0 && p[i_in].revents) {
      if (p[i_in].revents & POLLOUT) {
        ssize_t w = write(fd_in, in + written, in_size - written);
        if (w > 0) written += (size_t)w;
        if (w < 0 && errno != EAGAIN && errno != EINTR) written = in_size; /* the child stopped reading */
      } else {
        written = in_size; /* POLLERR/POLLHUP: the child closed its stdin */
      }
      if (written == in_size) {
        close(fd_in);
        fd_in = -1;
      }
    }
    if (i_out >= 0 && p[i_out].revents && read_or_close(out, &fd_out) < 0) return -1;
    if (i_err >= 0 && p[i_err].revents && read_or_close(errb, &fd_err) < 0) return -1;
  }
  if (fd_in >= 0) close(fd_in);
  return 0;
}

int arc_run(char *const argv[], const char *in, size_t in_size, char **out, size_t *out_size, char **err) {
  int pin[2] = {-1, -1}, pout[2] = {-1, -1}, perr[2] = {-1, -1};
  buffer ob = {0}, eb = {0};
  *out = NULL;
  *err = NULL;
  if (pipe2(pin, O_CLOEXEC) || pipe2(pout, O_CLOEXEC) || pipe2(perr, O_CLOEXEC)) {
    *err = arc_strdupf("cannot run %s: pipe: %s", argv[0], strerror(errno));
    goto fail;
  }
  fcntl(pin[1], F_SETFL, O_NONBLOCK);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, pin[0], 0);
  posix_spawn_file_actions_adddup2(&fa, pout[1], 1);
  posix_spawn_file_actions_adddup2(&fa, perr[1], 2);
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(pin[0]);
  close(pout[1]);
  close(perr[1]);
  pin[0] = pout[1] = perr[1] = -1;
  if (rc != 0) {
    *err = arc_strdupf("cannot run %s: %s", argv[0], strerror(rc));
    goto fail;
  }

  /* A child that exits before reading all its input must not kill the host
   * with SIGPIPE: block it in this thread, and consume one raised here. */
  sigset_t pipe_set, old_set, pending;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  sigpending(&pending);
  int was_pending = sigismember(&pending, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
  int io = pump(pin[1], in, in_size, pout[0], &ob, perr[0], &eb);
  pin[1] = pout[0] = perr[0] = -1;
  sigpending(&pending);
  if (!was_pending && sigismember(&pending, SIGPIPE)) {
    struct timespec zero = {0, 0};
    sigtimedwait(&pipe_set, NULL, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &old_set, NULL);

  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (io != 0) {
    *err = arc_strdupf("reading from %s: %s", argv[0], strerror(errno));
    goto fail;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    char *msg = trimmed(&eb);
    eb.data = NULL;
    if (*msg != '\0') {
      *err = msg;
    } else {
      free(msg);
      *err = WIFEXITED(status) ? arc_strdupf("%s exited with status %d", argv[0], WEXITSTATUS(status))
                               : arc_strdupf("%s was killed by signal %d", argv[0], WTERMSIG(status));
    }
    goto fail;
  }
  free(eb.data);
  if (ob.data == NULL) ob.data = calloc(1, 1);
  else ob.data[ob.size] = '\0';
  *out = ob.data;
  *out_size = ob.size;
  return 0;

fail:
  for (int i = 0; i < 2; i++) {
    if (pin[i] >= 0) close(pin[i]);
    if (pout[i] >= 0) close(pout[i]);
    if (perr[i] >= 0) close(perr[i]);
  }
  free(ob.data);
  free(eb.data);
  if (*err == NULL) *err = strdup("out of memory");
  return -1;
}

char *arc_which(const char *name) {
  const char *path = getenv("PATH");
  if (path == NULL || strchr(name, '/') != NULL) return NULL;
  while (*path) {
    size_t n = strcspn(path, ":");
    char *candidate = arc_strdupf("%.*s/%s", (int)n, n ? path : ".", name);
    if (candidate != NULL && access(candidate, X_OK) == 0) return candidate;
    free(candidate);
    path += n + (path[n] == ':');
  }
  return NULL;
}

char *arc_module_dir(const void *addr) {
  Dl_info info;
  if (dladdr(addr, &info) == 0 || info.dli_fname == NULL) return NULL;
  /* The main executable may be named "" here; the kernel knows its path. */
  char *real = realpath(info.dli_fname[0] ? info.dli_fname : "/proc/self/exe", NULL);
  if (real == NULL) return NULL;
  char *slash = strrchr(real, '/');
  if (slash != NULL) *slash = '\0';
  return real;
}
