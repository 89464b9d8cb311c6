/* subprocess.h: child processes of a PJRT plugin: filters run once (stdin to
 * stdout) and workers kept alive and fed framed requests over pipes. */
#ifndef ARC_SUBPROCESS_H
#define ARC_SUBPROCESS_H

#include <stddef.h>
#include <sys/types.h>

/* arc_run starts argv[0] (a path; no PATH search) with argv, writes in to its
 * stdin and collects its stdout. It returns 0 when the child exits with status
 * 0, with *out (malloc'd, NUL-terminated) and *out_size set. Otherwise it
 * returns nonzero and sets *err (malloc'd): the child's stderr, or why it
 * could not run. With timeout_ms > 0 a child still running after that long is
 * killed (its whole process group) and the run fails saying so.
 *
 * Safe in threaded hosts: posix_spawn, SIGPIPE kept from the process while
 * writing, the child in a process group of its own with SIGCHLD at its
 * default and no blocked signals. The exit status is read correctly whatever
 * the host did to SIGCHLD: when the host ignores it or handles it (where a
 * handler may reap the child first), the child runs under /bin/sh, which
 * reports the status on a pipe of its own. */
int arc_run(char *const argv[], const char *in, size_t in_size, int timeout_ms, char **out, size_t *out_size,
            char **err);

/* ---- workers: long-lived children fed framed requests ------------------------
 *
 * A frame is a 4-byte little-endian length, then that many bytes. A worker
 * announces itself with one frame when it is ready, then answers each
 * request (one or more frames) with one frame whose first byte is 0 (the
 * rest is the result) or 1 (the rest is an error message). The protocol is
 * docs/RUNTIME.md's; proxy/worker (Go) and arc_mlir_to_text.py --serve
 * speak it. */

#define ARC_FRAME_MAX (1u << 31) /* larger frames are refused */

typedef struct arc_worker {
  char **argv;    /* owned */
  const char *name; /* for messages: "the arc worker", ... */
  char *hello;    /* the worker's announcement, once started (owned) */
  pid_t pid;      /* 0 when not running */
  int in, out, err; /* our ends of its stdin, stdout, stderr */
  char *err_tail; /* the last bytes it wrote on stderr (owned; NUL-terminated) */
  size_t err_len;
  int starts;     /* how many times it was started */
} arc_worker;

/* arc_worker_init prepares w to run argv (copied); nothing starts yet. */
void arc_worker_init(arc_worker *w, const char *name, char *const argv[]);

/* arc_worker_call sends the request frames (nframes of them) and reads the
 * answer. It starts the worker when it is not running (waiting up to
 * timeout_ms for its announcement too), and restarts it once when it is
 * found dead on sending. It returns 0 with *out (malloc'd, NUL-terminated),
 * 1 when the worker answered with an error (in *err), or -1 when the worker
 * could not be started or failed (died, broke the protocol, ran past
 * timeout_ms): *err says why, with what it wrote on stderr, and the worker
 * is killed so that the next call starts a fresh one. Not thread-safe: hold a
 * lock around calls on one worker. */
int arc_worker_call(arc_worker *w, const char *const frames[], const size_t sizes[], int nframes, int timeout_ms,
                    char **out, size_t *out_size, char **err);

/* arc_worker_stop kills a running worker and reaps it. */
void arc_worker_stop(arc_worker *w);

/* arc_which returns a malloc'd path of an executable named name, found in the
 * absolute directories of $PATH (empty and relative entries, which name the
 * current directory, are skipped), or NULL. */
char *arc_which(const char *name);

/* arc_module_dir returns the malloc'd directory of the shared object (or
 * executable) that holds addr, or NULL. */
char *arc_module_dir(const void *addr);

/* arc_strdupf is a malloc'd printf. */
char *arc_strdupf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* arc_env_ms reads a time limit in milliseconds from the variable name: unset
 * or empty gives def, "0" no limit (returned as 0); anything else that is not
 * a non-negative integer gives def and a warning on stderr. */
int arc_env_ms(const char *name, int def);

#endif
