/* fake_gpu.c: stands in for libarc_gpu.so in arc's CPU tests.
 *
 * arc_ffi_allreduce answers XLA's metadata handshake (FFI API 0.1, traits 1: command-buffer compatible)
 * and nothing else. arc_detect_link reports the topology in $FAKE_GPU_LINK,
 * "devices,peer,nvlink,arch" (for example "2,1,1,sm_90"), or fails when it is
 * "fail". arc_runtime_attach and arc_runtime_detach log what they receive to
 * $FAKE_PJRT_DIR/attach.log and, given a store, use it as the handler's
 * rendezvous would: put a key, get it back, put it again (refused), try-get a
 * key nobody put, and get every other process's key. Built with
 * -DFAKE_GPU_NO_ATTACH it lacks them, as a libarc_gpu.so older than them;
 * FAKE_GPU_ATTACH_FAIL=1 makes attach refuse.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arc_ffi.h"

typedef struct ext {
  size_t struct_size;
  int type;
  struct ext *next;
} ext;
typedef struct {
  size_t struct_size;
  struct {
    size_t struct_size;
    ext *extension_start;
    int major, minor;
  } api_version;
  uint32_t traits;
} metadata;
typedef struct {
  ext base;
  metadata *metadata;
} metadata_ext;
typedef struct {
  size_t struct_size;
  ext *extension_start;
} frame_head;

struct XLA_FFI_Error *arc_ffi_allreduce(struct XLA_FFI_CallFrame *frame) {
  ext *e = ((frame_head *)frame)->extension_start;
  if (e == NULL || e->type != 1) return (struct XLA_FFI_Error *)frame; /* only the handshake is faked */
  metadata *m = ((metadata_ext *)e)->metadata;
  m->api_version.major = 0;
  m->api_version.minor = 1;
  m->traits = 1;
  return NULL;
}

int arc_detect_link(arc_link_info *info) {
  const char *spec = getenv("FAKE_GPU_LINK");
  memset(info, 0, sizeof *info);
  if (spec == NULL || strcmp(spec, "fail") == 0) return 3;
  if (sscanf(spec, "%d,%d,%d,%31s", &info->devices, &info->peer, &info->nvlink, info->arch) != 4) return 1;
  return 0;
}

static const char *device_error = "fake: no device";
const char *arc_ffi_device_error(void) { return device_error; }

static void log_text(const char *text) {
  const char *dir = getenv("FAKE_PJRT_DIR");
  if (dir == NULL) return;
  char path[4096];
  snprintf(path, sizeof path, "%s/attach.log", dir);
  FILE *f = fopen(path, "ab");
  if (f == NULL) return;
  fputs(text, f);
  fclose(f);
}

static void table(char *s, size_t cap, const arc_runtime_info *info) {
  size_t n = (size_t)snprintf(s, cap, "process=%d/%d platform=%s devices=", info->process_index, info->process_count,
                              info->platform);
  for (int i = 0; i < info->ndevices && n < cap - 64; i++) {
    const arc_device_entry *d = &info->devices[i];
    n += (size_t)snprintf(s + n, cap - n, "%s%lld:%d:%d:%d", i ? "," : "", d->global_id, d->process_index,
                          d->local_hardware_id, d->slice_index);
    for (int k = 0; k < d->ncoords; k++) n += (size_t)snprintf(s + n, cap - n, "%c%d", k ? '.' : '@', d->coords[k]);
  }
}

static char *shown(int rc, char *value, size_t size, char *err) {
  char *out = NULL;
  if (rc == 0 && value == NULL) out = strdup("ok");
  if (rc == 0 && value != NULL && asprintf(&out, "%.*s", (int)size, value) < 0) out = NULL;
  if (rc == 1 && asprintf(&out, "not found") < 0) out = NULL;
  if (rc < 0 && asprintf(&out, "error %s", err ? err : "?") < 0) out = NULL;
  free(value);
  free(err);
  return out;
}

static int attach(const arc_runtime_info *info) {
  char line[4096];
  table(line, sizeof line, info);
  char kv[2048] = " kv=none";
  const arc_kv_store *s = &info->kv;
  if (s->put != NULL && s->get != NULL) {
    char key[64], val[64];
    snprintf(key, sizeof key, "arc-rt/test/%d", info->process_index);
    snprintf(val, sizeof val, "hello from %d", info->process_index);
    char *err = NULL, *value = NULL;
    size_t size = 0;
    int rc = s->put(s->ctx, key, strlen(key), val, strlen(val), &err);
    char *put = shown(rc, NULL, 0, err);
    err = NULL;
    rc = s->get(s->ctx, key, strlen(key), 1000, &value, &size, &err);
    char *got = shown(rc, value, size, err);
    err = NULL;
    value = NULL;
    rc = s->put(s->ctx, key, strlen(key), val, strlen(val), &err); /* the store has no overwrite */
    char *again = shown(rc, NULL, 0, err);
    char *tried = strdup("absent");
    if (s->try_get != NULL) {
      free(tried);
      err = NULL;
      value = NULL;
      rc = s->try_get(s->ctx, "arc-rt/nobody", 13, &value, &size, &err);
      tried = shown(rc, value, size, err);
    }
    char peers[1024] = "";
    size_t pn = 0;
    for (int p = 0; p < info->process_count && pn < sizeof peers - 128; p++) { /* the others' keys, as a rendezvous */
      if (p == info->process_index) continue;
      snprintf(key, sizeof key, "arc-rt/test/%d", p);
      err = NULL;
      value = NULL;
      rc = s->get(s->ctx, key, strlen(key), 10000, &value, &size, &err);
      char *peer = shown(rc, value, size, err);
      pn += (size_t)snprintf(peers + pn, sizeof peers - pn, " peer %d [%s]", p, peer ? peer : "");
      free(peer);
    }
    snprintf(kv, sizeof kv, " kv: put [%s] get [%s] put again [%s] try_get [%s]%s", put ? put : "", got ? got : "",
             again ? again : "", tried ? tried : "", peers);
    free(put);
    free(got);
    free(again);
    free(tried);
  }
  char out[8192];
  snprintf(out, sizeof out, "attach size=%zu %s%s\n", info->struct_size, line, kv);
  log_text(out);
  if (getenv("FAKE_GPU_ATTACH_FAIL") != NULL) {
    device_error = "fake: attach refused";
    return 3;
  }
  return 0;
}

static void detach(const arc_runtime_info *info) {
  char line[4096], out[4200];
  table(line, sizeof line, info);
  snprintf(out, sizeof out, "detach %s\n", line);
  log_text(out);
}

#ifndef FAKE_GPU_NO_ATTACH
int arc_runtime_attach(const arc_runtime_info *info) { return attach(info); }
void arc_runtime_detach(const arc_runtime_info *info) { detach(info); }
#else
void (*fake_gpu_keep[])(void) = {(void (*)(void))attach, (void (*)(void))detach};
#endif
