package arc

import (
	"reflect"
	"testing"
)

// TestSettingsFromEnvAndMerge: the ARC_* variables set what the flags set,
// and explicit options win over them.
func TestSettingsFromEnvAndMerge(t *testing.T) {
	env := map[string]string{"ARC_TARGET": "cuda:nvlink", "ARC_QUANT": "int8", "ARC_MIN_BYTES": "64K",
		"ARC_CAST_BF16_TO_FP16": "false", "ARC_FORCE": "0=native, 1=oneshot", "ARC_DEVICE_ASSIGNMENT": "0;1", "ARC_PROFILE": " "}
	var o Options
	if err := o.SetFromEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok }); err != nil {
		t.Fatal(err)
	}
	want := Options{Target: "cuda:nvlink", Quant: "int8", MinBytes: 64 << 10, KeepBF16: true, Force: []string{"0=native", "1=oneshot"}, DeviceAssignment: "0;1"}
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
