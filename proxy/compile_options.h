/* compile_options.h: what arc reads of the serialized CompileOptionsProto a
 * PJRT client passes to PJRT_Client_Compile (xla/pjrt/proto/compile_options.proto):
 *
 *   CompileOptionsProto.executable_build_options (3): ExecutableBuildOptionsProto
 *     num_replicas (4), num_partitions (5),
 *     device_assignment (9): DeviceAssignmentProto (xla_data.proto)
 *       replica_count (1), computation_count (2),
 *       computation_devices (3, repeated) { replica_device_ids (1, repeated int64) }
 *   CompileOptionsProto.env_option_overrides (7, map<string, OptionOverrideProto>):
 *     entries { key (1), value (2): string_field (1), bool_field (2), int_field (3), double_field (4) }
 *
 * env_option_overrides is where a client's per-program compiler options go
 * (JAX's `compile(compiler_options={...})`). XLA refuses names it does not
 * know, so arc takes its own keys, arc_NAME, out of them: the real compile
 * gets the options without those entries, byte for byte otherwise.
 *
 * A small reader of protobuf's wire format: varints, fixed 32/64-bit fields
 * and length-delimited fields, packed or unpacked repeated integers, fields it
 * does not know skipped, and a message field that occurs twice merged as
 * protobuf merges it (scalars: the last wins; repeated fields: appended).
 */
#ifndef ARC_COMPILE_OPTIONS_H
#define ARC_COMPILE_OPTIONS_H

#include <stddef.h>

typedef struct arc_compile_options {
  long long num_replicas;   /* 0 when absent */
  long long num_partitions; /* 0 when absent */
  /* The device assignment in arc's text form, "a,b;c,d": replicas separated
   * by ';', each replica's partitions by ',', every entry a PJRT global device
   * id. NULL when the options carry none. malloc'd. */
  char *device_assignment;
  int replicas, partitions; /* the assignment's shape */
  /* arc's own compiler options, one "NAME=VALUE\n" line per arc_NAME key in
   * the order given, NAME as `arc compile` names its flag (arc_min_bytes is
   * min-bytes). NULL when there is none. malloc'd. */
  char *arc_settings;
  /* The serialized options without arc's keys, for the real compile: set
   * (malloc'd) only when arc_settings is. */
  char *stripped;
  size_t stripped_size;
} arc_compile_options;

/* arc_read_compile_options reads size bytes of a serialized
 * CompileOptionsProto into o. It returns 0, or -1 with *err (malloc'd) when
 * the bytes are not a well-formed message or the assignment is inconsistent
 * (computation_count lists, each of replica_count ids, as XLA's
 * DeviceAssignment::Deserialize requires), or an arc_ key names no setting
 * arc could have (not arc_ and [a-z0-9_]) or holds a newline. */
int arc_read_compile_options(const char *data, size_t size, arc_compile_options *o, char **err);

void arc_compile_options_free(arc_compile_options *o);

#endif
