package cuda

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/arcpass/arc/passes"
)

// TestTunedProfilesLoad: every profile a tune run left in profiles/
// loads, is for the target its name says, and shows in that target's
// built-in profile.
func TestTunedProfilesLoad(t *testing.T) {
	files, err := fs.Glob(tunedFS, "profiles/*.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		target := strings.Replace(strings.TrimSuffix(strings.TrimPrefix(f, "profiles/"), ".json"), "-", ":", 1)
		tuned, err := tunedProfile(tunedFS, target)
		if err != nil || tuned == nil {
			t.Fatalf("%s: %v", f, err)
		}
		var built *passes.Profile
		for _, tg := range Targets() {
			if tg.Name() == target {
				built = passes.ProfileOf(tg)
			}
		}
		if built == nil {
			t.Fatalf("%s names no CUDA target", f)
		}
		for w, byType := range tuned.Costs {
			for dt, costs := range byType {
				for key, c := range costs {
					if got := built.Costs[w][dt][key]; got.At(1<<20) != c.At(1<<20) {
						t.Errorf("%s: built-in %s[%s][%s] at 1 MiB is %.2f us, the tuned file says %.2f", f, w, dt, key, got.At(1<<20), c.At(1<<20))
					}
				}
			}
		}
	}
}

func TestTunedProfile(t *testing.T) {
	good := `{"target": "cuda:nvlink", "source": "test", "costs": {"2": {"f16": {"native": {"points": [[4096, 20], [1048576, 30]]}}}}}`
	for _, tc := range []struct {
		name, file, want string
		found            bool
	}{
		{name: "absent"},
		{name: "good", file: good, found: true},
		{name: "syntax", file: "{\n  \"target\": ,", want: "profiles/cuda-nvlink.json:2:"},
		{name: "other target", file: strings.Replace(good, "cuda:nvlink", "cuda:pcie", 1), want: `profile is for target "cuda:pcie"`},
		{name: "no native", file: strings.Replace(good, "native", "oneshot", 1), want: `no "native" cost`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			if tc.file != "" {
				fsys["profiles/cuda-nvlink.json"] = &fstest.MapFile{Data: []byte(tc.file)}
			}
			p, err := tunedProfile(fsys, "cuda:nvlink")
			switch {
			case tc.want != "":
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("error %v, want one containing %q", err, tc.want)
				}
			case err != nil:
				t.Fatal(err)
			case (p != nil) != tc.found:
				t.Errorf("profile %v, want found=%v", p, tc.found)
			}
		})
	}
}

// TestOverlay: measured costs replace estimated ones key by key; worlds,
// dtypes and lowerings the tune run did not measure keep the estimates.
