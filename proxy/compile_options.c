/* compile_options.c: what arc reads of a CompileOptionsProto (compile_options.h). */
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
  char settings[4096]; /* arc's keys, as compile_options.h's arc_settings */
  size_t nsettings;
  int has_settings;
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

/* setting appends one "NAME=VALUE\n" line, or fails with why. */
static int setting(acc *a, const char *name, size_t name_len, const char *value, size_t value_len) {
  if (memchr(value, '\n', value_len) != NULL || memchr(value, '\0', value_len) != NULL) {
    a->why = "an arc_ compiler option whose value holds a newline or a NUL";
    return -1;
  }
  if (a->nsettings + name_len + value_len + 2 >= sizeof a->settings) {
    a->why = "arc_ compiler options longer than 4 KiB";
    return -1;
  }
  for (size_t i = 0; i < name_len; i++) a->settings[a->nsettings++] = name[i] == '_' ? '-' : name[i];
  a->settings[a->nsettings++] = '=';
  memcpy(a->settings + a->nsettings, value, value_len);
  a->nsettings += value_len;
  a->settings[a->nsettings++] = '\n';
  a->settings[a->nsettings] = '\0';
  a->has_settings = 1;
  return 0;
}

/* override reads one env_option_overrides entry. It returns 1 when its key
 * is arc_NAME (the setting appended), 0 for any other key, -1 on bad input. */
static int override(reader r, acc *a) {
  reader key = {0}, value = {0};
  while (r.p < r.end) {
    int num, wire;
    uint64_t v;
    reader sub;
    if (field(&r, &num, &wire, &v, &sub, a) != 0) return -1;
    if (num == 1 && wire == WIRE_BYTES) key = sub;
    else if (num == 2 && wire == WIRE_BYTES) value = sub;
  }
  size_t klen = (size_t)(key.end - key.p);
  if (klen < 4 || memcmp(key.p, "arc_", 4) != 0) return 0;
  const char *name = (const char *)key.p + 4;
  size_t name_len = klen - 4;
  for (size_t i = 0; i < name_len; i++) {
    char c = name[i];
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) name_len = 0;
  }
  if (name_len == 0) {
    a->why = "an arc_ compiler option whose name is not arc_ and a setting's name (arc_quant, arc_min_bytes)";
    return -1;
  }
  /* OptionOverrideProto: one of string (1), bool (2), int64 (3), double (4). */
  char buf[64];
  const char *text = "";
  size_t text_len = 0;
  while (value.p < value.end) {
    int num, wire;
    uint64_t v = 0;
    reader sub;
    if (field(&value, &num, &wire, &v, &sub, a) != 0) return -1;
    if (num == 1 && wire == WIRE_BYTES) {
      text = (const char *)sub.p;
      text_len = (size_t)(sub.end - sub.p);
    } else if (num == 2 && wire == WIRE_VARINT) {
      text = v ? "true" : "false";
      text_len = strlen(text);
    } else if (num == 3 && wire == WIRE_VARINT) {
      text_len = (size_t)snprintf(buf, sizeof buf, "%lld", (long long)v);
      text = buf;
    } else if (num == 4 && wire == WIRE_FIXED64) {
      const unsigned char *le = value.p - 8; /* field skipped the fixed64 */
      uint64_t bits = 0;
      for (int i = 0; i < 8; i++) bits |= (uint64_t)le[i] << (8 * i);
      double d;
      memcpy(&d, &bits, sizeof d);
      text_len = (size_t)snprintf(buf, sizeof buf, "%.17g", d);
      text = buf;
    }
  }
  return setting(a, name, name_len, text, text_len) == 0 ? 1 : -1;
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
  /* kept[i] is the i-th top-level field's bytes, unless it is an arc_ entry. */
  size_t nfields = 0, cap_fields = 0;
  struct span {
    const unsigned char *p;
    size_t n;
  } *kept = NULL;
  while (rc == 0 && r.p < r.end) {
    int num, wire;
    uint64_t v;
    reader sub;
    const unsigned char *start = r.p;
    int arc_key = 0;
    if (field(&r, &num, &wire, &v, &sub, &a) != 0) rc = -1;
    else if (num == 3 && wire == WIRE_BYTES && build_options(sub, &a) != 0) rc = -1;
    else if (num == 7 && wire == WIRE_BYTES && (arc_key = override(sub, &a)) < 0) rc = -1;
    if (rc == 0 && !arc_key) {
      if (nfields == cap_fields) {
        cap_fields = cap_fields ? 2 * cap_fields : 16;
        struct span *k = realloc(kept, cap_fields * sizeof *k);
        if (k == NULL) {
          rc = -1;
          break;
        }
        kept = k;
      }
      kept[nfields++] = (struct span){start, (size_t)(r.p - start)};
    }
  }
  if (rc == 0 && a.has_settings) {
    size_t n = 0;
    for (size_t i = 0; i < nfields; i++) n += kept[i].n;
    o->arc_settings = strdup(a.settings);
    o->stripped = malloc(n ? n : 1);
    if (o->arc_settings == NULL || o->stripped == NULL) {
      a.why = "out of memory";
      rc = -1;
    } else {
      for (size_t i = 0; i < nfields; i++) {
        memcpy(o->stripped + o->stripped_size, kept[i].p, kept[i].n);
        o->stripped_size += kept[i].n;
      }
    }
  }
  free(kept);
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
  free(o->arc_settings);
  free(o->stripped);
  o->device_assignment = o->arc_settings = o->stripped = NULL;
  o->stripped_size = 0;
}
