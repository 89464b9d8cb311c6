package lowering_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/arcpass/arc/lowering"
	"github.com/arcpass/arc/passes"
)

func TestLookup(t *testing.T) {
	names := lowering.Names()
	if len(names) != 24 {
		t.Errorf("%d targets: %v", len(names), names)
	}
	for _, name := range names {
		tg, err := lowering.Lookup(name)
		if err != nil || tg.Name() != name {
			t.Errorf("Lookup(%q) = %v, %v", name, tg, err)
		}
		if got, _ := lowering.Lookup(" " + name + "\n"); got != tg {
			t.Errorf("Lookup does not trim %q", name)
		}
	}
	for _, bad := range []string{"", "cuda", "cuda:", "cuda:sxm", "tpu:v6e-2", "tpu:v5p-16", "TPU:v6e-8", "rocm:mi250"} {
		if _, err := lowering.Lookup(bad); err == nil || !strings.Contains(err.Error(), "unknown target") {
			t.Errorf("Lookup(%q): %v", bad, err)
		}
	}
}

// TestBuiltinProfilesCheck: every target with arc kernels has a usable
// built-in profile for itself; the others have none, and every target but
// none has a lowering pass.
func TestBuiltinProfilesCheck(t *testing.T) {
	for _, tg := range lowering.Targets() {
		name := tg.Name()
		p := passes.ProfileOf(tg)
		isGPU := strings.HasPrefix(name, "cuda:") || strings.HasPrefix(name, "rocm:")
		if (p != nil) != isGPU {
			t.Errorf("%s: built-in profile %v", name, p != nil)
		}
		if (tg.Lower() == nil) != (name == "none") {
			t.Errorf("%s: lowering pass %v", name, tg.Lower())
		}
		if p == nil {
			continue
		}
		if err := p.Check(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if p.Target != name || p.Source == "" {
			t.Errorf("%s: profile for %q from %q", name, p.Target, p.Source)
		}
		if strings.Contains(p.Source, "DESIGN.md") {
			t.Errorf("%s: the profile's source cites a file outside the repository: %s", name, p.Source)
		}
	}
}

// TestProxyDetectsOnlyKnownTargets: the C proxy picks --target from the
// devices it sees (proxy/proxy.c target_for) among the names the generated
// proxy/arc_targets.h gives; every name it can pick must be a registered
// target, and target_for spells none of its own.
func TestProxyDetectsOnlyKnownTargets(t *testing.T) {
	src, err := os.ReadFile("../proxy/proxy.c")
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(string(src), "static char *target_for(")
	body, _, _ = strings.Cut(body, "\n}\n")
	if own := regexp.MustCompile(`"((?:cuda|rocm|tpu):[^"]*)"`).FindAllString(body, -1); len(own) > 0 {
		t.Errorf("proxy.c's detection spells %v: read them from arc_targets.h", own)
	}
	header, err := os.ReadFile("../proxy/arc_targets.h")
	if err != nil {
		t.Fatal(err)
	}
	picks := regexp.MustCompile(`"((?:cuda|rocm|tpu):[^"]+)"`).FindAllStringSubmatch(string(header), -1)
	if len(picks) < 5 {
		t.Fatalf("found %d target names in proxy/arc_targets.h", len(picks))
	}
	for _, p := range picks {
		if _, err := lowering.Lookup(p[1]); err != nil {
			t.Errorf("proxy/arc_targets.h names %s: %v", p[1], err)
		}
	}
}
