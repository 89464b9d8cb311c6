/* subprocess.h: run a filter program (stdin to stdout) from inside a PJRT plugin. */
#ifndef ARC_SUBPROCESS_H
#define ARC_SUBPROCESS_H

#include <stddef.h>

/* arc_run starts argv[0] (a path; no PATH search) with argv, writes in to its
 * stdin and collects its stdout. It returns 0 when the child exits with status
 * 0, with *out (malloc'd, NUL-terminated) and *out_size set. Otherwise it
 * returns nonzero and sets *err (malloc'd): the child's stderr, or why it
 * could not run. Safe in threaded hosts: posix_spawn, and SIGPIPE is kept from
 * the process while writing. */
int arc_run(char *const argv[], const char *in, size_t in_size, char **out, size_t *out_size, char **err);

/* arc_which returns a malloc'd path of an executable named name, found in the
 * directories of $PATH, or NULL. */
char *arc_which(const char *name);

/* arc_module_dir returns the malloc'd directory of the shared object (or
 * executable) that holds addr, or NULL. */
char *arc_module_dir(const void *addr);

/* arc_strdupf is a malloc'd printf. */
char *arc_strdupf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
