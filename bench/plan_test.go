package bench

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseSizes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []int64
		err  string
	}{
		{in: "4K:64K", want: []int64{4 << 10, 8 << 10, 16 << 10, 32 << 10, 64 << 10}},
		{in: "4K:256M", want: func() (s []int64) {
			for n := int64(4 << 10); n <= 256<<20; n *= 2 {
				s = append(s, n)
			}
			return s
		}()},
		{in: "16, 4KiB,1m,2G", want: []int64{16, 4096, 1 << 20, 2 << 30}},
		{in: "48,96", want: []int64{48, 96}},
		{in: "1M:4K", err: "runs backwards"},
		{in: "4K,4K", err: "sizes must increase: 4K after 4K"},
		{in: "4,6,100", want: []int64{4, 6, 100}},
		{in: "4X", err: `bad size "4X"`},
		{in: "-4K", err: `bad size "-4K"`},
		{in: " , ", err: "no sizes given"},
	} {
		got, err := ParseSizes(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseSizes(%q) = %v, %v; want error containing %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseSizes(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestFormatSizeRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{{16, "16"}, {4096, "4K"}, {1536 << 10, "1536K"}, {1 << 20, "1M"}, {256 << 20, "256M"}, {3 << 30, "3G"}, {4112, "4112"}} {
		s := FormatSize(tc.n)
		back, err := ParseSize(s)
		if s != tc.want || err != nil || back != tc.n {
			t.Errorf("FormatSize(%d) = %q (parsed back: %d, %v), want %q", tc.n, s, back, err, tc.want)
		}
	}
}

func TestLowerings(t *testing.T) {
	got, err := ParseLowerings("native, oneshot,twoshot:int4r,lowprec:fp8,auto")
	if err != nil {
		t.Fatal(err)
	}
	var keys, labels []string
	for _, l := range got {
		keys = append(keys, l.Key())
		labels = append(labels, l.Label())
		if l != Auto && LoweringForKey(l.Key()) != l {
			t.Errorf("LoweringForKey(%q) = %q, want %q", l.Key(), LoweringForKey(l.Key()), l)
		}
	}
	if want := "native oneshot twoshot:int4r twoshot:fp8 "; strings.Join(keys, " ") != want {
		t.Errorf("keys %q, want %q", strings.Join(keys, " "), want)
	}
	if want := "native oneshot twoshot:int4r lowprec:fp8 auto"; strings.Join(labels, " ") != want {
		t.Errorf("labels %q, want %q", strings.Join(labels, " "), want)
	}
	if f := Lowering("twoshot:int8").ForceFlags(3); fmt.Sprint(f) != "[0=twoshot:int8 1=twoshot:int8 2=twoshot:int8]" {
		t.Errorf("ForceFlags = %v", f)
	}
	if f := Auto.ForceFlags(3); f != nil {
		t.Errorf("auto forces %v, want nothing", f)
	}
	for in, want := range map[string]string{
		"twoshot:int9":  `unknown lowering "twoshot:int9"`,
		"lowprec:int8":  `unknown lowering "lowprec:int8"`,
		"oneshot:fp":    `unknown lowering "oneshot:fp"`,
		"hier:fp8":      `unknown lowering "hier:fp8"`,
		"native,native": `lowering "native" listed twice`,
		"":              "no lowerings given",
	} {
		if _, err := ParseLowerings(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseLowerings(%q): %v, want an error containing %q", in, err, want)
		}
	}
}

func TestPlanCheck(t *testing.T) {
	ok := Plan{Sizes: []int64{4096}, DTypes: []string{"f16"}, Lowerings: []Lowering{"native"}, Chain: 1, Reps: 1, Jobs: 1}
	if err := ok.Check(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		edit func(*Plan)
		want string
	}{
		{func(p *Plan) { p.DTypes = []string{"f64"} }, `dtype "f64"`},
		{func(p *Plan) { p.Chain = 0 }, "--chain 0"},
		{func(p *Plan) { p.Reps = 0 }, "--reps 0"},
		{func(p *Plan) { p.Warmup = -1 }, "--warmup -1"},
		{func(p *Plan) { p.Jobs = 0 }, "--jobs 0"},
		{func(p *Plan) { p.Sizes = nil }, "no sizes"},
		{func(p *Plan) { p.Sizes = []int64{3} }, "--sizes: size 3 is not a whole number of f16 elements (2 bytes each)"},
		{func(p *Plan) { p.Sizes, p.DTypes = []int64{4, 6}, []string{"f16", "f32"} }, "size 6 is not a whole number of f32 elements (4 bytes each)"},
	} {
		p := ok
		tc.edit(&p)
		if err := p.Check(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Check: %v, want an error containing %q", err, tc.want)
		}
	}
}

// TestNativeLowerings: XLA's switches parse in any order and case into one
// canonical name, carry their XLA flags, and are native to arc.
func TestNativeLowerings(t *testing.T) {
	for in, want := range map[string]Lowering{
		"native": "native", "NATIVE+OneShot": "native+oneshot", "native+userbuf+symm": "native+symm+userbuf",
		"native+symm+oneshot+userbuf": "native+all", "native+all": "native+all", "TwoShot:INT8": "twoshot:int8",
		"twoshot:fp8": "lowprec:fp8",
	} {
		if got, err := ParseLowering(in); err != nil || got != want {
			t.Errorf("ParseLowering(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, want := range map[string]string{
		"native+fast":         `XLA's switches are native+{oneshot,symm,userbuf}`,
		"native+symm+symm":    "names symm twice",
		"native+":             "XLA's switches are",
		"native+all+oneshot":  "XLA's switches are",
		"lowprec:int8,native": `unknown lowering "lowprec:int8"`,
	} {
		if _, err := ParseLowerings(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseLowerings(%q): %v, want an error containing %q", in, err, want)
		}
	}
	all := Lowering("native+all")
	if got := fmt.Sprint(all.XLAFlags()); got != "[--xla_gpu_unsupported_use_all_reduce_one_shot_kernel=true "+
		"--xla_gpu_experimental_enable_nccl_symmetric_buffers=true --xla_gpu_enable_nccl_user_buffers=true]" {
		t.Errorf("native+all flags: %s", got)
	}
	if f := Lowering("native+symm").XLAFlags(); len(f) != 1 || f[0].Name != "xla_gpu_experimental_enable_nccl_symmetric_buffers" {
		t.Errorf("native+symm flags: %v", f)
	}
	if Native.XLAFlags() != nil || Lowering("oneshot").XLAFlags() != nil {
		t.Error("native or arc's oneshot carries XLA flags")
	}
	for _, l := range NativeLowerings {
		if !l.IsNative() || l.Key() != map[bool]string{true: "native", false: ""}[l == Native] {
			t.Errorf("%s: native %v, profile key %q", l, l.IsNative(), l.Key())
		}
		if f := l.ForceFlags(2); fmt.Sprint(f) != "[0=native 1=native]" {
			t.Errorf("%s forces %v, want native", l, f)
		}
	}
	if !Lowering("nccl-graph").IsNative() || Lowering("oneshot").IsNative() || Auto.IsNative() {
		t.Error("IsNative misreads nccl-graph, oneshot or auto")
	}
	userbuf := Plan{Sizes: []int64{4096, 64 << 20}, Lowerings: []Lowering{"native", "native+userbuf"}}
	if userbuf.CollectiveMemory() != 256<<20 {
		t.Errorf("collective memory for 64M: %d", userbuf.CollectiveMemory())
	}
	userbuf.Sizes = []int64{256 << 20}
	if !userbuf.NeedsCollectiveMemory() || userbuf.CollectiveMemory() != 1<<30 {
		t.Errorf("collective memory for 256M: %d", userbuf.CollectiveMemory())
	}
	if (Plan{Sizes: []int64{4096}, Lowerings: NativeLowerings[:3]}).CollectiveMemory() != 0 {
		t.Error("a plan without user buffers reserves collective memory")
	}
}

// TestDefaultLowerings: bench measures native's switches beside arc's
// lowerings; tune only what a profile holds.
func TestDefaultLowerings(t *testing.T) {
	for _, l := range TuneLowerings {
		if l.Key() == "" {
			t.Errorf("tune measures %s, which has no profile key", l)
		}
		if !slices.Contains(Lowerings, l) {
			t.Errorf("bench does not measure %s", l)
		}
	}
	for _, l := range NativeLowerings {
		if !slices.Contains(Lowerings, l) {
			t.Errorf("bench does not measure %s by default", l)
		}
	}
	if Lowerings[len(Lowerings)-1] != Auto {
		t.Error("auto is not last")
	}
}
