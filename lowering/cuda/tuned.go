package cuda

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"github.com/arcpass/arc/passes"
)

// tunedFS holds the profiles `arc tune` measured on real machines, one file
// per target named like the target ("cuda:nvlink" -> cuda-nvlink.json).
// docs/BENCHMARKS.md records the command that wrote each.
//
//go:embed profiles
var tunedFS embed.FS

// tunedFile is where a target's measured profile lives in tunedFS.
func tunedFile(target string) string {
	return "profiles/" + strings.ReplaceAll(target, ":", "-") + ".json"
}

// tunedProfile reads the measured profile of a target from fsys, or returns
// nil when there is none.
func tunedProfile(fsys fs.FS, target string) (*passes.Profile, error) {
	data, err := fs.ReadFile(fsys, tunedFile(target))
	if err != nil {
		return nil, nil // not measured yet: the estimates stand
	}
	p, err := passes.ParseProfile(tunedFile(target), data)
	if err != nil {
		return nil, err
	}
	if p.Target != target {
		return nil, fmt.Errorf("%s: profile is for target %q", tunedFile(target), p.Target)
	}
	return p, nil
}

// withTuned lays the target's measured costs over its estimated profile:
// each world, dtype and lowering the tune run measured takes the measured
// cost; everything else keeps the estimate. A measured file that does not
// load leaves the estimates alone (TestTunedProfilesLoad keeps that from
// shipping).
func withTuned(est *passes.Profile) *passes.Profile {
	load, _ := tunedCache.LoadOrStore(est.Target, sync.OnceValues(func() (*passes.Profile, error) {
		return tunedProfile(tunedFS, est.Target)
	}))
	tuned, err := load.(func() (*passes.Profile, error))()
	if err != nil || tuned == nil {
		return est
	}
	return passes.Overlay(est, tuned)
}

// tunedCache parses each embedded profile once: every compile (and every
// Decide without a profile) builds the target's built-in profile.
var tunedCache sync.Map // target -> func() (*passes.Profile, error)
