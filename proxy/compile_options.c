/* compile_options.c: the device assignment of a CompileOptionsProto (compile_options.h). */
#define _GNU_SOURCE
#include "compile_options.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WIRE_VARINT = 0, WIRE_FIXED64 = 1, WIRE_BYTES = 2, WIRE_FIXED32 = 5 };

typedef struct {
  const unsigned char *p, *end;
} reader;

typedef struct {
  long long *ids;
  size_t n, cap;
} id_list;

/* What the reader gathers over every occurrence of the messages. */
typedef struct {
  arc_compile_options *o;
  int has_assignment;
  long long replica_count, computation_count;
  id_list *devices; /* one list per computation_devices entry */
  size_t ndevices, cap;
  const char *why;
} acc;

static int varint(reader *r, uint64_t *v) {
  uint64_t x = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (r->p == r->end) return -1;
    unsigned char b = *r->p++;
    if (shift == 63 && b > 1) return -1; /* more than 64 bits */
    x |= (uint64_t)(b & 0x7f) << shift;
    if ((b & 0x80) == 0) {
      *v = x;
      return 0;
    }
  }
  return -1;
}

/* field reads one tag and its value: a varint in *v, or a length-delimited
 * payload in *sub; fixed-size values are skipped. */
static int field(reader *r, int *num, int *wire, uint64_t *v, reader *sub, acc *a) {
  uint64_t tag;
  if (varint(r, &tag) != 0) {
    a->why = "a truncated or overlong tag";
    return -1;
  }
  *num = (int)(tag >> 3);
  *wire = (int)(tag & 7);
  if ((tag >> 3) == 0 || (tag >> 3) > 536870911u) {
    a->why = "a field number out of range";
    return -1;
  }
  switch (*wire) {
  case WIRE_VARINT:
    if (varint(r, v) != 0) {
      a->why = "a truncated varint";
      return -1;
    }
    return 0;
  case WIRE_FIXED64:
  case WIRE_FIXED32: {
    size_t n = *wire == WIRE_FIXED64 ? 8 : 4;
    if ((size_t)(r->end - r->p) < n) {
      a->why = "a truncated fixed-size field";
      return -1;
    }
    r->p += n;
    return 0;
  }
  case WIRE_BYTES: {
    uint64_t len;
    if (varint(r, &len) != 0 || len > (uint64_t)(r->end - r->p)) {
      a->why = "a length-delimited field longer than its message";
      return -1;
    }
    sub->p = r->p;
    sub->end = r->p + len;
    r->p += len;
    return 0;
  }
  }
  a->why = "a wire type arc does not read (groups, or not protobuf)";
  return -1;
}

static int push(id_list *l, long long id) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 16;
    long long *ids = realloc(l->ids, cap * sizeof *ids);
    if (ids == NULL) return -1;
    l->ids = ids;
    l->cap = cap;
  }
  l->ids[l->n++] = id;
  return 0;
}

/* computation_device reads DeviceAssignmentProto.ComputationDevice. */
static int computation_device(reader r, id_list *l, acc *a) {
  while (r.p < r.end) {
    int num, wire;
    uint64_t v;
    reader sub;
    if (field(&r, &num, &wire, &v, &sub, a) != 0) return -1;
    if (num != 1) continue;
    if (wire == WIRE_VARINT) {
      if (push(l, (long long)v) != 0) return -1;
    } else if (wire == WIRE_BYTES) { /* packed */
      while (sub.p < sub.end) {
        if (varint(&sub, &v) != 0) {
          a->why = "a truncated packed replica_device_ids";
          return -1;
        }
        if (push(l, (long long)v) != 0) return -1;
      }
    }
  }
  return 0;
}

/* device_assignment reads DeviceAssignmentProto. */
static int device_assignment(reader r, acc *a) {
  a->has_assignment = 1;
  while (r.p < r.end) {
    int num, wire;
    uint64_t v;
    reader sub;
    if (field(&r, &num, &wire, &v, &sub, a) != 0) return -1;
    if ((num == 1 || num == 2) && wire == WIRE_VARINT) {
      long long n = (int32_t)(uint32_t)v; /* int32: a negative value is sign-extended to 64 bits */
      if (num == 1) a->replica_count = n;
      else a->computation_count = n;
    } else if (num == 3 && wire == WIRE_BYTES) {
      if (a->ndevices == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 8;
        id_list *d = realloc(a->devices, cap * sizeof *d);
        if (d == NULL) return -1;
        a->devices = d;
        a->cap = cap;
      }
      id_list *l = &a->devices[a->ndevices++];
      memset(l, 0, sizeof *l);
      if (computation_device(sub, l, a) != 0) return -1;
    }
  }
  return 0;
}

/* build_options reads ExecutableBuildOptionsProto. */
static int build_options(reader r, acc *a) {
  while (r.p < r.end) {
    int num, wire;
    uint64_t v;
    reader sub;
    if (field(&r, &num, &wire, &v, &sub, a) != 0) return -1;
    if (num == 4 && wire == WIRE_VARINT) a->o->num_replicas = (long long)v;
    else if (num == 5 && wire == WIRE_VARINT) a->o->num_partitions = (long long)v;
    else if (num == 9 && wire == WIRE_BYTES && device_assignment(sub, a) != 0) return -1;
  }
  return 0;
}

static char *assignment_text(acc *a) {
  size_t cap = 1, n = 0;
  for (size_t c = 0; c < a->ndevices; c++) cap += a->devices[c].n * 21;
  char *s = malloc(cap);
  if (s == NULL) return NULL;
  s[0] = '\0';
  for (long long r = 0; r < a->replica_count; r++) {
    for (long long c = 0; c < a->computation_count; c++) {
      const char *sep = c > 0 ? "," : r > 0 ? ";" : "";
      n += (size_t)snprintf(s + n, cap - n, "%s%lld", sep, a->devices[c].ids[r]);
    }
  }
  return s;
}

int arc_read_compile_options(const char *data, size_t size, arc_compile_options *o, char **err) {
  memset(o, 0, sizeof *o);
  *err = NULL;
  acc a = {.o = o};
  reader r = {(const unsigned char *)data, (const unsigned char *)data + size};
  int rc = 0;
  while (rc == 0 && r.p < r.end) {
    int num, wire;
    uint64_t v;
    reader sub;
    if (field(&r, &num, &wire, &v, &sub, &a) != 0) rc = -1;
    else if (num == 3 && wire == WIRE_BYTES && build_options(sub, &a) != 0) rc = -1;
  }
  if (rc == 0 && a.has_assignment) {
    long long R = a.replica_count, C = a.computation_count;
    if (R < 0 || C < 0 || (long long)a.ndevices != C) {
      a.why = "a device assignment whose computation_count is not the number of its computation_devices";
      rc = -1;
    }
    for (size_t c = 0; rc == 0 && c < a.ndevices; c++) {
      if ((long long)a.devices[c].n != R) {
        a.why = "a device assignment whose computation_devices do not each list replica_count devices";
        rc = -1;
      }
    }
    if (rc == 0 && R > 0 && C > 0) {
      if (R * C > (1 << 24)) {
        a.why = "a device assignment of more than 16M devices";
        rc = -1;
      } else if ((o->device_assignment = assignment_text(&a)) == NULL) {
        a.why = "out of memory";
        rc = -1;
      } else {
        o->replicas = (int)R;
        o->partitions = (int)C;
      }
    }
  }
  for (size_t c = 0; c < a.ndevices; c++) free(a.devices[c].ids);
  free(a.devices);
  if (rc != 0) {
    arc_compile_options_free(o);
    if (asprintf(err, "the compile options are not a CompileOptionsProto arc can read: %s",
                 a.why ? a.why : "out of memory") < 0)
      *err = NULL;
  }
  return rc;
}

void arc_compile_options_free(arc_compile_options *o) {
  free(o->device_assignment);
  o->device_assignment = NULL;
}
