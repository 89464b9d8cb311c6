package arc

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/arcpass/arc/passes"
)

// TestSettingsFromEnvAndMerge: the ARC_* variables set what the flags set,
// and explicit options win over them.
func TestSettingsFromEnvAndMerge(t *testing.T) {
	env := map[string]string{"ARC_TARGET": "cuda:nvlink", "ARC_QUANT": "int8", "ARC_MIN_BYTES": "64K",
		"ARC_CAST_BF16_TO_FP16": "true", "ARC_FORCE": "0=native, 1=oneshot", "ARC_DEVICE_ASSIGNMENT": "0;1", "ARC_PROFILE": " "}
	var o Options
	if err := o.SetFromEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok }); err != nil {
		t.Fatal(err)
	}
	want := Options{Target: "cuda:nvlink", Quant: "int8", MinBytes: 64 << 10, CastBF16ToFP16: true, Force: []string{"0=native", "1=oneshot"}, DeviceAssignment: "0;1"}
	if !reflect.DeepEqual(o, want) {
		t.Errorf("from the environment: %+v\nwant %+v", o, want)
	}
	o.Merge(Options{Quant: "int4", MaxBytes: 1 << 20, Force: []string{"2=twoshot"}})
	want.Quant, want.MaxBytes, want.Force = "int4", 1<<20, append(want.Force, "2=twoshot")
	if !reflect.DeepEqual(o, want) {
		t.Errorf("merged: %+v\nwant %+v", o, want)
	}
	bad := Options{}
	if err := bad.SetFromEnv(func(k string) (string, bool) { return "lots", k == "ARC_MAX_BYTES" }); err == nil || err.Error() != `ARC_MAX_BYTES="lots": bad size "lots": want a byte count such as 4096, 4K, 64K, 1M` {
		t.Errorf("a bad variable: %v", err)
	}
}

func TestParseForce(t *testing.T) {
	for s, want := range map[string]passes.Force{
		"0=oneshot":          {Lowering: "oneshot"},
		"12=twoshot:int4":    {Lowering: "twoshot", Codec: "int4"},
		"3=lowprec:fp8":      {Lowering: "lowprec", Codec: "fp8"},
		"4=quickreduce:int6": {Lowering: "quickreduce", Codec: "int6"},
		"5=native":           {Lowering: "native"},
		"6=ring":             {Lowering: "ring"},
		"all=twoshot:int8":   {Lowering: "twoshot", Codec: "int8"},
		"0=twoshot:INT8":     {Lowering: "twoshot", Codec: "int8"}, // codec words in any case, as --quant's
		"1=quickreduce:Fp":   {Lowering: "quickreduce", Codec: "fp"},
	} {
		i, got, err := parseForce(s)
		if err != nil || got != want || (i == passes.ForceAll) != strings.HasPrefix(s, "all=") {
			t.Errorf("parseForce(%q) = %d, %+v, %v; want %+v", s, i, got, err, want)
		}
	}
	for s, want := range map[string]string{
		"oneshot":         "want INDEX=LOWERING[:CODEC]",
		"x=oneshot":       "want INDEX=LOWERING[:CODEC]",
		"-1=oneshot":      "want INDEX=LOWERING[:CODEC]",
		"ALL=oneshot":     "want INDEX=LOWERING[:CODEC]",
		"all=fast":        `unknown lowering "fast"`,
		"0=":              `unknown lowering ""`,
		"0=fast":          `unknown lowering "fast"`,
		"0=twoshot:int3":  `unknown codec "int3"`,
		"0=twoshot:none":  `unknown codec "none"`,
		"0=oneshot:int8:": `unknown codec "int8:"`,
	} {
		if _, _, err := parseForce(s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseForce(%q): %v, want an error with %q", s, err, want)
		}
	}
}

// TestParseQuant: codec words in any case, and vLLM's spellings of
// VLLM_ROCM_QUICK_REDUCE_QUANTIZATION, whose FP is arc's fp.
func TestParseQuant(t *testing.T) {
	for in, want := range map[string]string{"": "none", "none": "none", "NONE": "none", "FP": "fp", "fp": "fp",
		"INT8": "int8", "Int6": "int6", "int4": "int4", "INT4": "int4", "int4R": "int4r", "FP8": "fp8", " int8 ": "int8"} {
		if got, err := ParseQuant(in); err != nil || got != want {
			t.Errorf("ParseQuant(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"int2", "fp16", "q4", "int 8"} {
		if _, err := ParseQuant(bad); err == nil {
			t.Errorf("ParseQuant(%q) succeeded", bad)
		}
	}
}

// TestEveryOptionIsASetting: every field of Options but the two that are
// not settings (PrintTo, LibtpuInitArgs) is one setting's, and every field
// of passes.Options is filled from the settings: an option added to one
// and not the other fails here. Each setting is set through Set from its
// text, so the table's parsing is the one the sources share.
func TestEveryOptionIsASetting(t *testing.T) {
	dir := t.TempDir()
	profile := filepath.Join(dir, "p.json")
	if err := os.WriteFile(profile, []byte(`{"target": "cuda:nvlink", "costs": {"2": {"f16": {"native": {"gbps": 10}}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	values := map[string]string{"target": "cuda:nvlink", "quant": "INT8", "profile": profile,
		"topology": "lowering/testdata/pcie-partial.topology.json", "cast-bf16-to-fp16": "yes", "min-bytes": "4K",
		"max-bytes": "1M", "force": "0=oneshot,all=twoshot", "device-assignment": "1;0", "device-coords": "0=0,0;1=1,0", "device-processes": "0=0;1=1",
		"strict": "1", "profile-any-target": "on", "fuse": "off", "print-after": "select", "dump-dir": dir, "verify-each": "true",
		"passes": "analyse,select"}
	var o Options
	fields := map[string]string{} // field -> setting
	for _, s := range Settings {
		v, ok := values[s.Name]
		if !ok {
			t.Fatalf("no test value for --%s", s.Name)
		}
		before := o
		if err := s.Set(&o, v); err != nil {
			t.Fatalf("--%s %s: %v", s.Name, v, err)
		}
		changed := changedFields(before, o)
		if len(changed) != 1 {
			t.Fatalf("--%s sets fields %v, want one", s.Name, changed)
		}
		if other, dup := fields[changed[0]]; dup {
			t.Fatalf("--%s and --%s both set %s", s.Name, other, changed[0])
		}
		fields[changed[0]] = s.Name
	}
	for _, f := range reflect.VisibleFields(reflect.TypeOf(o)) {
		if _, ok := fields[f.Name]; !ok && f.Name != "PrintTo" && f.Name != "LibtpuInitArgs" {
			t.Errorf("Options.%s is no setting's", f.Name)
		}
	}
	o.LibtpuInitArgs = "--xla_tpu_some_flag=1"
	st, pipe, err := prepare(o)
	if err != nil {
		t.Fatal(err)
	}
	po := reflect.ValueOf(st.Options)
	for i := range po.NumField() {
		if po.Field(i).IsZero() {
			t.Errorf("passes.Options.%s is not filled from the settings", po.Type().Field(i).Name)
		}
	}
	if !pipe.Partial || len(pipe.Passes) != 2 || len(pipe.PrintAfter) != 1 || pipe.DumpDir != dir || !pipe.VerifyEach {
		t.Errorf("pipeline %+v: the display settings did not reach it", pipe)
	}
	if st.Options.Quant != "int8" || st.Options.Force[passes.ForceAll] != (passes.Force{Lowering: "twoshot"}) {
		t.Errorf("quant %q, force %v", st.Options.Quant, st.Options.Force)
	}
}

// changedFields names the fields of Options that differ between a and b.
func changedFields(a, b Options) []string {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	var out []string
	for i := range va.NumField() {
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			out = append(out, va.Type().Field(i).Name)
		}
	}
	return out
}

// TestSetLines: a key=value list goes through the table as the flags do; a
// list it names replaces the list it had; errors name the setting as the
// caller spells it.
func TestSetLines(t *testing.T) {
	o := Options{Force: []string{"0=native"}, Quant: "int4"}
	if err := o.SetLines("target=rocm:mi300x\nforce=1=oneshot\n\nforce=2=twoshot,3=native\nquant=FP\ncast-bf16-to-fp16=1\n", func(n string) string { return n }); err != nil {
		t.Fatal(err)
	}
	want := Options{Target: "rocm:mi300x", Force: []string{"1=oneshot", "2=twoshot", "3=native"}, Quant: "fp", CastBF16ToFP16: true}
	if !reflect.DeepEqual(o, want) {
		t.Errorf("%+v\nwant %+v", o, want)
	}
	arcName := func(name string) string { return "compiler option arc_" + strings.ReplaceAll(name, "-", "_") }
	for lines, msg := range map[string]string{
		"colour=blue":              "compiler option arc_colour: arc has no setting colour",
		"min-bytes":                "compiler option arc_min_bytes: no value (want NAME=VALUE)",
		"min-bytes=lots":           `compiler option arc_min_bytes: bad size "lots"`,
		"force=0=fast":             `compiler option arc_force: unknown lowering "fast"`,
		"device-coords=0=x":        `compiler option arc_device_coords: "0=x": coordinates are small non-negative integers`,
		"device-processes=0=0;0=1": `compiler option arc_device_processes: device 0 is placed twice`,
	} {
		if err := new(Options).SetLines(lines, arcName); err == nil || !strings.HasPrefix(err.Error(), msg) {
			t.Errorf("%q: %v, want %q", lines, err, msg)
		}
	}
}
