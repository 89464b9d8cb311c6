package tpu

import "testing"

func TestMergeLibtpuArgs(t *testing.T) {
	const ring = LibtpuRingFlag
	for _, c := range []struct {
		name     string
		existing string
		flags    []string
		want     string
	}{
		{"empty", "", []string{ring}, ring},
		{"kept after ours", "--xla_foo=1 --xla_bar", []string{ring}, ring + " --xla_foo=1 --xla_bar"},
		{"user value wins", "--xla_tpu_force_1d_allreduce_at_chunk_count=2", []string{ring},
			"--xla_tpu_force_1d_allreduce_at_chunk_count=2"},
		{"single dash", "-xla_tpu_force_1d_allreduce_at_chunk_count=2", []string{ring},
			"-xla_tpu_force_1d_allreduce_at_chunk_count=2"},
		{"value as next argument", "--xla_tpu_force_1d_allreduce_at_chunk_count 2", []string{ring},
			"--xla_tpu_force_1d_allreduce_at_chunk_count 2"},
		{"negated boolean", "--noxla_enable_async", []string{"--xla_enable_async=true"}, "--noxla_enable_async"},
		{"boolean without value", "--xla_enable_async", []string{"--xla_enable_async=false"}, "--xla_enable_async"},
		{"same flag twice in one call", "", []string{ring, ring}, ring},
		{"only missing ones", "--xla_a=1", []string{"--xla_a=2", "--xla_b=3"}, "--xla_b=3 --xla_a=1"},
		{"idempotent", ring + " --xla_a=1", []string{ring}, ring + " --xla_a=1"},
		// absl reads no flags after a bare "--": the user's setting there is not a setting, and ours, first, counts.
		{"after --", "--xla_a=1 -- --xla_tpu_force_1d_allreduce_at_chunk_count=2", []string{ring},
			ring + " --xla_a=1 -- --xla_tpu_force_1d_allreduce_at_chunk_count=2"},
		// libtpu splits on spaces only, without quoting: quotes stay in the values and never protect a space.
		{"quoted value", `--xla_dump_to="/tmp/a b"`, []string{"--xla_dump_to=/x", ring}, ring + ` --xla_dump_to="/tmp/a b"`},
		{"quoted flag is not a flag", `"--xla_tpu_force_1d_allreduce_at_chunk_count=2"`, []string{ring},
			ring + ` "--xla_tpu_force_1d_allreduce_at_chunk_count=2"`},
		{"tab does not separate", "--xla_a=1\t--xla_tpu_force_1d_allreduce_at_chunk_count=2", []string{ring},
			ring + " --xla_a=1\t--xla_tpu_force_1d_allreduce_at_chunk_count=2"},
		{"user spacing kept", "  --xla_a=1   --xla_b=2 ", []string{ring}, ring + "   --xla_a=1   --xla_b=2 "},
		{"not flags are not added", "--xla_a=1", []string{"xla_b=1", "--", "-", "--=1", "--xla_c=1 --xla_d=2"}, "--xla_a=1"},
		{"nothing to add", "--xla_a=1", nil, "--xla_a=1"},
	} {
		if got := MergeLibtpuArgs(c.existing, c.flags...); got != c.want {
			t.Errorf("%s: MergeLibtpuArgs(%q, %q)\n got %q\nwant %q", c.name, c.existing, c.flags, got, c.want)
		}
	}
}
