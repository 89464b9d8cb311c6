package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/arcpass/arc"
	"github.com/arcpass/arc/bench"
	"github.com/arcpass/arc/passes"
)

// variant is one way to run the model's all-reduces.
type variant struct {
	name   string
	native bench.Lowering // XLA's all-reduce, with the XLA flags of these switches ("" for arc's)
	quant  string         // auto: the codec arc's policy may use
	force  string         // a lowering arc forces on every all-reduce ("" for auto)
	// noFuse keeps the residual add and RMSNorm after each all-reduce out
	// of arc's kernel (auto-unfused): auto fuses them where it pays.
	noFuse bool
}

// isNative reports whether the variant leaves the all-reduces to XLA.
func (v variant) isNative() bool { return v.native != "" }

// parseVariants reads --variants: bench's lowering names (native and its
// switches, or an arc lowering forced on every all-reduce), auto and
// auto:CODEC, and auto-unfused (auto with --fuse=false).
func parseVariants(list string) ([]variant, error) {
	var out []variant
	for _, f := range strings.Split(list, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		if f == "" {
			continue
		}
		var v variant
		if f == "auto-unfused" {
			v = variant{name: f, quant: "none", noFuse: true}
		} else if q, ok := strings.CutPrefix(f, "auto"); ok && (q == "" || q[0] == ':') {
			q = strings.TrimPrefix(q, ":")
			if q == "" {
				q = "none"
			}
			if !slices.Contains(passes.Quants, q) {
				return nil, fmt.Errorf("--variants: %q: auto's codec must be one of %s", f, strings.Join(passes.Quants, ", "))
			}
			v = variant{name: "auto", quant: q}
			if q != "none" {
				v.name += ":" + q
			}
		} else {
			l, err := bench.ParseLowering(f)
			if err != nil {
				return nil, fmt.Errorf("--variants: %v", err)
			}
			v = variant{name: string(l)}
			if l.IsNative() {
				v.native = l
			} else {
				v.force = string(l)
			}
		}
		if slices.ContainsFunc(out, func(o variant) bool { return o.name == v.name }) {
			return nil, fmt.Errorf("--variants: %s listed twice", v.name)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--variants: none given")
	}
	return out, nil
}

// lower is the program this variant runs: the captured program itself for
// native, else arc's lowering of it for target; chose summarises what each
// all-reduce got ("-" for native).
func (v variant) lower(src, target string) (text, chose string, err error) {
	if v.isNative() {
		return src, "-", nil
	}
	opt := arc.Options{Target: target, Quant: v.quant}
	if v.noFuse {
		opt.Fuse = "false"
	}
	if v.force != "" {
		opt.Force = []string{"all=" + v.force}
	}
	out, rep, err := arc.Compile("llama", []byte(src), opt)
	if err != nil {
		return "", "", err
	}
	return string(out), summarize(rep.Collectives), nil
}

// summarize counts the lowerings the report's rows got, named as bench
// names them: "oneshot x160", "twoshot:int8 x120, oneshot x40", a fused
// one with its norm: "oneshot+rmsnorm x160".
func summarize(rows []passes.Row) string {
	count := map[string]int{}
	for _, r := range rows {
		name := r.Lowering
		switch {
		case name == "":
			name = "native"
		case name != "native" && name != "oneshot" && r.Codec != "":
			name += ":" + r.Codec
		}
		if r.Fuse != "" {
			name += "+" + r.Fuse
		}
		count[name]++
	}
	if len(count) == 0 {
		return "no all-reduce"
	}
	names := make([]string, 0, len(count))
	for n := range count {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if count[names[i]] != count[names[j]] {
			return count[names[i]] > count[names[j]]
		}
		return names[i] < names[j]
	})
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s x%d", n, count[n])
	}
	return strings.Join(parts, ", ")
}
