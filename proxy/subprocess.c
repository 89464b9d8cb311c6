/* subprocess.c: child processes of a PJRT plugin (subprocess.h). */
#define _GNU_SOURCE
#include "subprocess.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
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

int arc_env_ms(const char *name, int def) {
  const char *v = getenv(name);
  if (v == NULL || *v == '\0') return def;
  char *end = NULL;
  errno = 0;
  long n = strtol(v, &end, 10);
  if (errno != 0 || *end != '\0' || n < 0 || n > INT_MAX) {
    fprintf(stderr, "arc: %s=%s is not a time in milliseconds; using %d\n", name, v, def);
    return def;
  }
  return (int)n;
}

static long long now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* deadline_after is the monotonic time timeout_ms from now; 0: none. */
static long long deadline_after(int timeout_ms) { return timeout_ms > 0 ? now_ms() + timeout_ms : 0; }

/* poll_timeout is what poll may wait for before deadline: -1 forever, 0 when past. */
static int poll_timeout(long long deadline) {
  if (deadline == 0) return -1;
  long long left = deadline - now_ms();
  return left <= 0 ? 0 : left > INT_MAX ? INT_MAX : (int)left;
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

/* ---- SIGPIPE ------------------------------------------------------------------
 * A child that exits before reading all its input must not kill the host
 * with SIGPIPE: block it in this thread while writing, and consume one raised
 * here. */

typedef struct {
  sigset_t old;
  int was_pending;
} pipe_guard;

static void sigpipe_block(pipe_guard *g) {
  sigset_t set, pending;
  sigemptyset(&set);
  sigaddset(&set, SIGPIPE);
  sigpending(&pending);
  g->was_pending = sigismember(&pending, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &set, &g->old);
}

static void sigpipe_restore(pipe_guard *g) {
  sigset_t set, pending;
  sigemptyset(&set);
  sigaddset(&set, SIGPIPE);
  sigpending(&pending);
  if (!g->was_pending && sigismember(&pending, SIGPIPE)) {
    struct timespec zero = {0, 0};
    sigtimedwait(&set, NULL, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &g->old, NULL);
}

/* ---- starting and ending children --------------------------------------------- */

/* host_reaps_children reports whether the host's SIGCHLD disposition can
 * take a child's exit status from waitpid: ignored (or SA_NOCLDWAIT) children
 * are reaped by the kernel, and a handler may reap them itself. */
static int host_reaps_children(void) {
  struct sigaction sa;
  if (sigaction(SIGCHLD, NULL, &sa) != 0) return 1;
  return sa.sa_handler != SIG_DFL || (sa.sa_flags & SA_NOCLDWAIT) != 0;
}

/* spawn starts argv with its stdin, stdout and stderr on new pipes (our ends
 * in fds: write, read, read; close-on-exec, so no other child inherits them)
 * and, when status_fd >= 0, that descriptor as its fd 3. */
static int spawn(char *const argv[], int status_fd, pid_t *pid, int fds[3], char **err) {
  int pin[2] = {-1, -1}, pout[2] = {-1, -1}, perr[2] = {-1, -1};
  if (pipe2(pin, O_CLOEXEC) || pipe2(pout, O_CLOEXEC) || pipe2(perr, O_CLOEXEC)) {
    *err = arc_strdupf("cannot run %s: pipe: %s", argv[0], strerror(errno));
    for (int i = 0; i < 2; i++) {
      if (pin[i] >= 0) close(pin[i]);
      if (pout[i] >= 0) close(pout[i]);
      if (perr[i] >= 0) close(perr[i]);
    }
    return -1;
  }
  fcntl(pin[1], F_SETFL, O_NONBLOCK);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, pin[0], 0);
  posix_spawn_file_actions_adddup2(&fa, pout[1], 1);
  posix_spawn_file_actions_adddup2(&fa, perr[1], 2);
  if (status_fd >= 0) posix_spawn_file_actions_adddup2(&fa, status_fd, 3);
  /* Its own process group (a time limit kills the child and its children),
   * SIGCHLD at its default (ignored signals survive exec), no blocked signals. */
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, def;
  sigemptyset(&none);
  sigemptyset(&def);
  sigaddset(&def, SIGCHLD);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &def);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
  int rc = posix_spawn(pid, argv[0], &fa, &attr, argv, environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&fa);
  close(pin[0]);
  close(pout[1]);
  close(perr[1]);
  if (rc != 0) {
    *err = arc_strdupf("cannot run %s: %s", argv[0], strerror(rc));
    close(pin[1]);
    close(pout[0]);
    close(perr[0]);
    return -1;
  }
  fds[0] = pin[1];
  fds[1] = pout[0];
  fds[2] = perr[0];
  return 0;
}

/* reap waits for pid; it returns 0 with *status set, or -1 when the status
 * is gone (the kernel or a host handler reaped the child). */
static int reap(pid_t pid, int *status) {
  for (;;) {
    if (waitpid(pid, status, 0) == pid) return 0;
    if (errno != EINTR) return -1;
  }
}

static void kill_group(pid_t pid) {
  kill(-pid, SIGKILL); /* the group the child leads */
  kill(pid, SIGKILL);  /* in case it left it */
}

/* ---- filters: arc_run ----------------------------------------------------------- */

enum { PUMP_OK = 0, PUMP_ERROR = -1, PUMP_TIMEOUT = -2 };

/* pump writes in to fd_in and drains the nread descriptors in rfd (closing
 * and setting each to -1 at its end) into rbuf until all close or the
 * deadline passes. */
static int pump(int fd_in, const char *in, size_t in_size, int *rfd, buffer *rbuf, int nread, long long deadline) {
  size_t written = 0;
  if (in_size == 0) {
    close(fd_in);
    fd_in = -1;
  }
  for (;;) {
    struct pollfd p[4];
    int n = 0, idx[4], i_in = -1;
    if (fd_in >= 0) p[i_in = n++] = (struct pollfd){fd_in, POLLOUT, 0};
    for (int i = 0; i < nread; i++) {
      if (rfd[i] < 0) continue;
      idx[n] = i;
      p[n++] = (struct pollfd){rfd[i], POLLIN, 0};
    }
    if (n == (fd_in >= 0)) break; /* every output closed */
    int r = poll(p, n, poll_timeout(deadline));
    if (r < 0) {
      if (errno == EINTR) continue;
      if (fd_in >= 0) close(fd_in);
      return PUMP_ERROR;
    }
    if (r == 0) {
      if (fd_in >= 0) close(fd_in);
      return PUMP_TIMEOUT;
    }
    for (int k = 0; k < n; k++) {
      if (!p[k].revents) continue;
      if (k == i_in) {
        if (p[k].revents & POLLOUT) {
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
      } else if (read_or_close(&rbuf[idx[k]], &rfd[idx[k]]) < 0) {
        if (fd_in >= 0) close(fd_in);
        return PUMP_ERROR;
      }
    }
  }
  if (fd_in >= 0) close(fd_in);
  return PUMP_OK;
}

/* The wrapper that reports the exit status on fd 3 (the program gets no fd 3). */
static const char status_script[] = "\"$0\" \"$@\" 3>&-; echo $? >&3";

int arc_run(char *const argv[], const char *in, size_t in_size, int timeout_ms, char **out, size_t *out_size,
            char **err) {
  *out = NULL;
  *err = NULL;
  int wrapped = host_reaps_children();
  int st[2] = {-1, -1};
  char **run_argv = (char **)argv;
  if (wrapped) {
    size_t n = 0;
    while (argv[n] != NULL) n++;
    run_argv = calloc(n + 4, sizeof *run_argv);
    if (run_argv == NULL || pipe2(st, O_CLOEXEC) != 0) {
      free(run_argv);
      *err = arc_strdupf("cannot run %s: %s", argv[0], strerror(errno ? errno : ENOMEM));
      return -1;
    }
    run_argv[0] = "/bin/sh";
    run_argv[1] = "-c";
    run_argv[2] = (char *)status_script;
    for (size_t i = 0; i < n; i++) run_argv[3 + i] = argv[i];
  }
  pid_t pid;
  int fds[3];
  int rc = spawn(run_argv, st[1], &pid, fds, err);
  if (wrapped) {
    free(run_argv);
    close(st[1]);
  }
  if (rc != 0) {
    if (st[0] >= 0) close(st[0]);
    return -1;
  }

  buffer bufs[3] = {{0}, {0}, {0}}; /* stdout, stderr, status */
  int rfd[3] = {fds[1], fds[2], st[0]};
  pipe_guard g;
  sigpipe_block(&g);
  int io = pump(fds[0], in, in_size, rfd, bufs, wrapped ? 3 : 2, deadline_after(timeout_ms));
  sigpipe_restore(&g);
  int io_errno = errno;
  for (int i = 0; i < 3; i++)
    if (rfd[i] >= 0) close(rfd[i]);
  /* Past the limit, or when reading failed (the wait below has no limit):
   * the child and all it started go. */
  if (io != PUMP_OK) kill_group(pid);

  int status = 0;
  int have_status = reap(pid, &status) == 0;
  if (wrapped) { /* the shell's report is the program's status */
    char *s = trimmed(&bufs[2]);
    bufs[2].data = NULL;
    char *end = NULL;
    long code = strtol(s, &end, 10);
    have_status = *s != '\0' && *end == '\0' && code >= 0 && code < 256;
    status = have_status ? (code > 128 ? (int)(code - 128) : (int)code << 8) : 0; /* as a wait status */
    free(s);
  }
  if (io == PUMP_TIMEOUT) {
    *err = arc_strdupf("%s did not finish within %d ms and was killed (ARC_COMPILE_TIMEOUT_MS sets the limit)", argv[0],
                       timeout_ms);
  } else if (io != PUMP_OK) {
    *err = arc_strdupf("reading from %s: %s", argv[0], strerror(io_errno));
  } else if (!have_status) {
    *err = arc_strdupf("%s: its exit status was lost", argv[0]);
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    char *msg = trimmed(&bufs[1]);
    bufs[1].data = NULL;
    if (WIFEXITED(status) && *msg != '\0') {
      *err = msg; /* the program's own message */
      msg = NULL;
    } else if (WIFEXITED(status)) {
      *err = arc_strdupf("%s exited with status %d", argv[0], WEXITSTATUS(status));
    } else {
      *err = arc_strdupf("%s was killed by signal %d%s%s", argv[0], WTERMSIG(status), *msg ? ": " : "", msg);
    }
    free(msg);
  }
  if (*err != NULL) {
    free(bufs[0].data);
    free(bufs[1].data);
    return -1;
  }
  free(bufs[1].data);
  if (bufs[0].data == NULL) bufs[0].data = calloc(1, 1);
  else bufs[0].data[bufs[0].size] = '\0';
  if (bufs[0].data == NULL) {
    *err = strdup("out of memory");
    return -1;
  }
  *out = bufs[0].data;
  *out_size = bufs[0].size;
  return 0;
}

/* ---- workers ---------------------------------------------------------------------- */

#define ERR_TAIL 8192 /* bytes of a worker's stderr kept for messages */
_Static_assert(ERR_TAIL > 4096, "keep_err reads 4 KB chunks");

void arc_worker_init(arc_worker *w, const char *name, char *const argv[]) {
  memset(w, 0, sizeof *w);
  size_t n = 0;
  while (argv[n] != NULL) n++;
  w->argv = calloc(n + 1, sizeof *w->argv);
  if (w->argv == NULL) abort();
  for (size_t i = 0; i < n; i++) w->argv[i] = strdup(argv[i]);
  w->name = name;
  w->in = w->out = w->err = -1;
}

/* keep_err appends what the worker's stderr has to its tail; at its end the
 * descriptor is closed. */
static void keep_err(arc_worker *w) {
  char chunk[4096];
  ssize_t n = read(w->err, chunk, sizeof chunk);
  if (n <= 0) {
    if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
      close(w->err);
      w->err = -1;
    }
    return;
  }
  if (w->err_tail == NULL) {
    w->err_tail = calloc(1, ERR_TAIL + 1);
    if (w->err_tail == NULL) return;
  }
  size_t k = (size_t)n; /* < ERR_TAIL: the chunk is smaller */
  if (w->err_len + k > ERR_TAIL) {
    size_t drop = w->err_len + k - ERR_TAIL;
    memmove(w->err_tail, w->err_tail + drop, w->err_len - drop);
    w->err_len -= drop;
  }
  memcpy(w->err_tail + w->err_len, chunk, k);
  w->err_len += k;
  w->err_tail[w->err_len] = '\0';
}

void arc_worker_stop(arc_worker *w) {
  if (w->pid > 0) {
    kill_group(w->pid);
    int status;
    reap(w->pid, &status);
  }
  if (w->in >= 0) close(w->in);
  if (w->out >= 0) close(w->out);
  if (w->err >= 0) close(w->err);
  w->in = w->out = w->err = -1;
  w->pid = 0;
}

/* worker_alive reports whether the started worker has not exited. */
static int worker_alive(arc_worker *w) {
  if (w->pid <= 0) return 0;
  int status;
  pid_t r = waitpid(w->pid, &status, WNOHANG);
  if (r == 0) return 1;
  if (r == w->pid || (r < 0 && errno == ECHILD)) { /* exited (and reaped) */
    w->pid = 0;
    arc_worker_stop(w);
  }
  return w->pid > 0;
}

/* The writes of one exchange: a list of byte ranges. */
typedef struct {
  const char *data[34];
  size_t size[34];
  int n, i;
  size_t off;
} wqueue;

enum { IO_OK = 0, IO_FAIL = -1, IO_TIMEOUT = -2, IO_EPIPE = -3 };

/* exchange writes q to the worker and, when want is set, reads one frame
 * into *frame (malloc'd, NUL-terminated), draining its stderr meanwhile. */
static int exchange(arc_worker *w, wqueue *q, int want, long long deadline, char **frame, size_t *frame_size,
                    const char **why) {
  unsigned char hdr[4];
  size_t got = 0, len = 0;
  char *body = NULL;
  *why = NULL;
  for (;;) {
    int writing = q->i < q->n;
    int reading = want && (body == NULL || got < 4 + len);
    if (!writing && !reading) break;
    struct pollfd p[3];
    int n = 0, i_in = -1, i_out = -1, i_err = -1;
    if (writing) p[i_in = n++] = (struct pollfd){w->in, POLLOUT, 0};
    if (reading) p[i_out = n++] = (struct pollfd){w->out, POLLIN, 0};
    if (w->err >= 0) p[i_err = n++] = (struct pollfd){w->err, POLLIN, 0};
    int r = poll(p, n, poll_timeout(deadline));
    if (r < 0) {
      if (errno == EINTR) continue;
      *why = strerror(errno);
      goto fail;
    }
    if (r == 0) {
      free(body);
      return IO_TIMEOUT;
    }
    if (i_err >= 0 && p[i_err].revents) keep_err(w);
    if (i_in >= 0 && p[i_in].revents) {
      ssize_t k = write(w->in, q->data[q->i] + q->off, q->size[q->i] - q->off);
      if (k < 0 && errno != EAGAIN && errno != EINTR) {
        free(body);
        if (errno == EPIPE) return IO_EPIPE;
        *why = "it stopped reading its input";
        return IO_FAIL;
      }
      if (k > 0) {
        q->off += (size_t)k;
        while (q->i < q->n && q->off == q->size[q->i]) {
          q->i++;
          q->off = 0;
        }
      }
    }
    if (i_out >= 0 && p[i_out].revents) {
      ssize_t k;
      if (got < 4) {
        k = read(w->out, hdr + got, 4 - got);
      } else {
        k = read(w->out, body + (got - 4), len - (got - 4));
      }
      if (k == 0) {
        if (got == 0 && q->n > 0) { /* it died before answering: maybe before this request came */
          free(body);
          return IO_EPIPE;
        }
        *why = "it closed its output";
        goto fail;
      }
      if (k < 0) {
        if (errno == EINTR || errno == EAGAIN) continue;
        *why = strerror(errno);
        goto fail;
      }
      got += (size_t)k;
      if (got == 4 && body == NULL) {
        len = (size_t)hdr[0] | (size_t)hdr[1] << 8 | (size_t)hdr[2] << 16 | (size_t)hdr[3] << 24;
        if (len > ARC_FRAME_MAX) {
          *why = "it sent a frame larger than the protocol allows";
          goto fail;
        }
        body = malloc(len + 1);
        if (body == NULL) {
          *why = "out of memory";
          goto fail;
        }
      }
    }
  }
  if (want) {
    body[len] = '\0';
    *frame = body;
    *frame_size = len;
  }
  return IO_OK;
fail:
  free(body);
  return IO_FAIL;
}

/* worker_failure builds the message for a worker that failed, with its stderr. */
static char *worker_failure(arc_worker *w, const char *what, const char *why) {
  const char *tail = w->err_tail != NULL ? w->err_tail : "";
  while (*tail == '\n') tail++;
  size_t n = strlen(tail);
  while (n > 0 && (tail[n - 1] == '\n' || tail[n - 1] == ' ')) n--;
  return n > 0 ? arc_strdupf("%s %s: %s; it wrote: %.*s", w->name, what, why, (int)n, tail)
               : arc_strdupf("%s %s: %s", w->name, what, why);
}

static int worker_start(arc_worker *w, int timeout_ms, char **err) {
  arc_worker_stop(w);
  free(w->hello);
  w->hello = NULL;
  w->err_len = 0;
  if (w->err_tail != NULL) w->err_tail[0] = '\0';
  int fds[3];
  if (spawn(w->argv, -1, &w->pid, fds, err) != 0) {
    w->pid = 0;
    return -1;
  }
  w->starts++;
  w->in = fds[0];
  w->out = fds[1];
  w->err = fds[2];
  fcntl(w->err, F_SETFL, O_NONBLOCK);
  wqueue none = {.n = 0};
  const char *why = NULL;
  size_t size = 0;
  int io = exchange(w, &none, 1, deadline_after(timeout_ms), &w->hello, &size, &why);
  if (io == IO_OK) return 0;
  if (io == IO_TIMEOUT) {
    *err = worker_failure(w, "did not start", "no announcement within the time limit (ARC_COMPILE_TIMEOUT_MS)");
  } else {
    for (int i = 0; i < 50 && w->err >= 0; i++) { /* what it said before it went */
      struct pollfd p = {w->err, POLLIN, 0};
      if (poll(&p, 1, 20) <= 0) break;
      keep_err(w);
    }
    *err = worker_failure(w, "did not start", why ? why : "it failed");
  }
  arc_worker_stop(w);
  return -1;
}

int arc_worker_call(arc_worker *w, const char *const frames[], const size_t sizes[], int nframes, int timeout_ms,
                    char **out, size_t *out_size, char **err) {
  *out = NULL;
  *err = NULL;
  if (nframes < 1 || nframes > 16) {
    *err = strdup("arc_worker_call: 1 to 16 frames");
    return -1;
  }
  for (int i = 0; i < nframes; i++) {
    if (sizes[i] > ARC_FRAME_MAX) {
      *err = arc_strdupf("a request of %zu bytes is larger than %s takes", sizes[i], w->name);
      return -1;
    }
  }
  unsigned char hdrs[16][4];
  pipe_guard g;
  sigpipe_block(&g);
  int rc = -1;
  for (int attempt = 0; attempt < 2; attempt++) {
    if (!worker_alive(w) && worker_start(w, timeout_ms, err) != 0) break;
    wqueue q = {.n = 0};
    for (int i = 0; i < nframes; i++) {
      uint32_t n = (uint32_t)sizes[i];
      hdrs[i][0] = n & 0xff;
      hdrs[i][1] = n >> 8 & 0xff;
      hdrs[i][2] = n >> 16 & 0xff;
      hdrs[i][3] = n >> 24 & 0xff;
      q.data[q.n] = (const char *)hdrs[i];
      q.size[q.n++] = 4;
      if (sizes[i] > 0) {
        q.data[q.n] = frames[i];
        q.size[q.n++] = sizes[i];
      }
    }
    char *frame = NULL;
    size_t size = 0;
    const char *why = NULL;
    int io = exchange(w, &q, 1, deadline_after(timeout_ms), &frame, &size, &why);
    if (io == IO_EPIPE && attempt == 0) { /* it died idle, or on this request: once more with a fresh one */
      arc_worker_stop(w);
      continue;
    }
    if (io == IO_EPIPE) {
      io = IO_FAIL;
      why = "it closed its output";
    }
    if (io == IO_TIMEOUT) {
      *err = arc_strdupf("%s did not answer within %d ms and was killed (ARC_COMPILE_TIMEOUT_MS sets the limit)",
                         w->name, timeout_ms);
      arc_worker_stop(w);
    } else if (io != IO_OK) {
      *err = worker_failure(w, "failed", why ? why : "its input closed");
      arc_worker_stop(w);
    } else if (size < 1 || (frame[0] != 0 && frame[0] != 1)) {
      *err = worker_failure(w, "failed", "it answered with a malformed frame");
      free(frame);
      arc_worker_stop(w);
    } else if (frame[0] == 1) {
      *err = arc_strdupf("%.*s", (int)(size - 1), frame + 1);
      free(frame);
      rc = 1;
    } else {
      memmove(frame, frame + 1, size); /* the NUL comes along */
      *out = frame;
      *out_size = size - 1;
      rc = 0;
    }
    break;
  }
  sigpipe_restore(&g);
  if (rc != 0 && *err == NULL) *err = strdup("out of memory");
  return rc;
}

/* ---- paths ------------------------------------------------------------------------ */

char *arc_which(const char *name) {
  const char *path = getenv("PATH");
  if (path == NULL || strchr(name, '/') != NULL) return NULL;
  while (*path) {
    size_t n = strcspn(path, ":");
    if (n > 0 && path[0] == '/') { /* an empty or relative entry would search the current directory */
      char *candidate = arc_strdupf("%.*s/%s", (int)n, path, name);
      if (candidate != NULL && access(candidate, X_OK) == 0) return candidate;
      free(candidate);
    }
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
