// proxy_go.c connects the C core's transform to arc's Go pipeline (proxy.go).
#include <stdint.h>

#include "_cgo_export.h"
#include "proxy.h"

static int go_transform(void *ctx, const arc_settings *s, const char *in, size_t in_size, char **out,
                        size_t *out_size, char **err) {
  return arcProxyTransform((uintptr_t)ctx, (arc_settings *)s, (char *)in, in_size, out, out_size, err);
}

void arc_proxy_use_go(arc_proxy_config *c, uintptr_t handle) {
  c->transform = go_transform;
  c->transform_ctx = (void *)handle;
}
