package tpu

import "strings"

// InitArgsVar is the variable libtpu reads its flags from when its client
// starts: the user's value (passes.Options.Env) is extended, never replaced.
const InitArgsVar = "LIBTPU_INIT_ARGS"

// LibtpuRingFlag makes XLA on TPU run each all-reduce as a one-dimensional ring in replica-group order, instead of
// the 2-D ring it picks on v6e; without it the ring order arc writes has no effect.
const LibtpuRingFlag = "--xla_tpu_force_1d_allreduce_at_chunk_count=1"

// MergeLibtpuArgs returns a LIBTPU_INIT_ARGS value that adds flags (each "--name=value" or "--name") to the user's
// existing value without losing anything: a flag the user already sets, in any form, is not added (the user's
// setting wins), a flag is never added twice, and the user's text is kept byte for byte.
//
// It reads the value the way libtpu does. libtpu splits LIBTPU_INIT_ARGS on single spaces, with no quoting (its
// GetLibTpuInitArguments is absl::StrSplit(env, ' ')), and hands the pieces to absl's flag parser, which takes
// --name=value, -name=value, --name value, --name and, for booleans, --noname, stops at a bare "--", and lets the
// last setting of a flag win. So the added flags go first: anything later, including flags the user sets through
// --flagfile or after a "--" arc cannot see into, still overrides them.
func MergeLibtpuArgs(existing string, flags ...string) string {
	set := map[string]bool{}
	for _, arg := range strings.Split(existing, " ") {
		if arg == "--" {
			break // absl reads no flags after it
		}
		if name, ok := flagName(arg); ok {
			set[name] = true
			if positive, negated := strings.CutPrefix(name, "no"); negated {
				set[positive] = true // --nofoo sets the boolean foo
			}
		}
	}
	var added []string
	for _, f := range flags {
		name, ok := flagName(f)
		if !ok || strings.Contains(f, " ") || set[name] {
			continue
		}
		set[name] = true
		added = append(added, f)
	}
	switch {
	case len(added) == 0:
		return existing
	case existing == "":
		return strings.Join(added, " ")
	}
	return strings.Join(added, " ") + " " + existing
}

// flagName returns the name an absl command-line argument sets: "-name" or "--name", up to any "=".
func flagName(arg string) (string, bool) {
	rest, ok := strings.CutPrefix(arg, "-")
	if !ok {
		return "", false
	}
	rest = strings.TrimPrefix(rest, "-")
	name, _, _ := strings.Cut(rest, "=")
	return name, name != ""
}
