package decision_test

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arcpass/arc/decision"
	"github.com/arcpass/arc/reference/norm"
)

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// handler is what gpu/arc_ffi.cc's parse_attrs and its handler take of a
// call.
type handler struct {
	kinds map[string]decision.Kind // each key, by the attribute type it reads
	// required are the keys whose absence it refuses (its checks name them
	// as !c->have_KEY).
	required []string
	// fused are the fused form's keys: those of the branches that set
	// c->norm or count towards have_norm_keys; norms is the table of
	// norm's values that mark the form, and fusedRequired how many keys it
	// counts.
	fused, optional []string // optional: fused keys it takes as +0 when absent
	norms           string
	fusedRequired   int
	// arity is the operands and results of each form, plain, fused and
	// fused with a bias ("nargs = c.norm ? (bias ? 4 : 3) : 1, nrets =
	// c.norm ? 2 : 1").
	arity [3][2]int
}

// readHandler reads gpu/arc_ffi.cc.
func readHandler(t *testing.T, src string) handler {
	t.Helper()
	start := strings.Index(src, "std::string parse_attrs(")
	if start < 0 {
		t.Fatal("gpu/arc_ffi.cc has no parse_attrs")
	}
	body := src[start:]
	body = body[:strings.Index(body, "\n}\n")]
	readIDs := src[strings.Index(src, "std::string read_ids("):]
	if !strings.Contains(readIDs[:strings.Index(readIDs, "\n}\n")], "ARC_XLA_ATTR_ARRAY") {
		t.Fatal("gpu/arc_ffi.cc's read_ids does not read an array")
	}
	h := handler{kinds: map[string]decision.Kind{}}
	// The loop's branches, one per group of keys (nested ifs sit deeper).
	branch := regexp.MustCompile(`\n    (?:\} else )?if \(((?:key == "\w+"(?:\s*\|\|\s*)?)+)\) \{`)
	for _, loc := range branch.FindAllStringSubmatchIndex(body, -1) {
		end := len(body)
		if next := strings.Index(body[loc[1]:], "\n    }"); next >= 0 {
			end = loc[1] + next
		}
		code := body[loc[1]:end]
		var kind decision.Kind
		switch {
		case strings.Contains(code, "read_f32("):
			kind = decision.F32
		case strings.Contains(code, "ARC_XLA_ATTR_STRING"):
			kind = decision.String
		case strings.Contains(code, "ARC_XLA_ATTR_SCALAR"):
			kind = decision.Int
		case strings.Contains(code, "read_ids("):
			kind = decision.IDs
		default:
			t.Fatalf("gpu/arc_ffi.cc: no attribute type in the branch of %s", body[loc[2]:loc[3]])
		}
		fused := strings.Contains(code, "c->norm =") || strings.Contains(code, "have_norm_keys++")
		optional := !fused && strings.Contains(code, "c->rms.") // a norm key it does not count
		for _, k := range regexp.MustCompile(`key == "(\w+)"`).FindAllStringSubmatch(body[loc[2]:loc[3]], -1) {
			h.kinds[k[1]] = kind
			if fused || optional {
				h.fused = append(h.fused, k[1])
			}
			if optional {
				h.optional = append(h.optional, k[1])
			}
		}
	}
	for _, k := range regexp.MustCompile(`!c->have_(\w+)`).FindAllStringSubmatch(body, -1) {
		h.required = append(h.required, k[1])
	}
	slices.Sort(h.required)
	h.required = slices.Compact(h.required)
	slices.Sort(h.fused)
	if m := regexp.MustCompile(`c->norm = lookup\((\w+),`).FindStringSubmatch(body); m != nil {
		h.norms = m[1]
	}
	if m := regexp.MustCompile(`c->norm && c->have_norm_keys != (\d+)`).FindStringSubmatch(body); m != nil {
		h.fusedRequired, _ = strconv.Atoi(m[1])
	}
	m := regexp.MustCompile(`nargs = c\.norm \? \(bias \? (\d+) : (\d+)\) : (\d+), nrets = c\.norm \? (\d+) : (\d+);`).FindStringSubmatch(src)
	if m == nil {
		t.Fatal("gpu/arc_ffi.cc: no operand and result counts (nargs, nrets) of either form")
	}
	n := make([]int, 5)
	for i := range n {
		n[i], _ = strconv.Atoi(m[i+1])
	}
	h.arity = [3][2]int{{n[2], n[4]}, {n[1], n[3]}, {n[0], n[3]}}
	return h
}

// TestHandlerReadsWhatArcWrites checks the call's contract with the
// runtime: the backend_config keys decision writes are the ones
// gpu/arc_ffi.cc reads, each of the attribute type the handler takes, and
// the ones it requires arc always writes; the fused form's keys are the
// ones the handler reads for it, all of them required there, and each form
// takes the operands and results the handler takes; and the call target is
// the name proxy/arc_ffi.h registers the handler under.
func TestHandlerReadsWhatArcWrites(t *testing.T) {
	h := readHandler(t, read(t, "../gpu/arc_ffi.cc"))
	if len(h.kinds) == 0 {
		t.Fatal("found no keys in gpu/arc_ffi.cc's parse_attrs")
	}
	var ours, ourRequired, ourFused, ourOptional []string
	for _, k := range decision.ConfigKeys(decision.AllReduce) {
		ours = append(ours, k.Name)
		if k.Required {
			ourRequired = append(ourRequired, k.Name)
		}
		if k.Fused {
			ourFused = append(ourFused, k.Name)
		}
		if k.Optional {
			ourOptional = append(ourOptional, k.Name)
		}
		if kind, ok := h.kinds[k.Name]; !ok {
			t.Errorf("decision writes %s, which gpu/arc_ffi.cc does not read", k.Name)
		} else if kind != k.Kind {
			t.Errorf("%s: gpu/arc_ffi.cc reads a %s, decision writes a %s", k.Name, kind, k.Kind)
		}
	}
	for k := range h.kinds {
		if !slices.Contains(ours, k) {
			t.Errorf("gpu/arc_ffi.cc reads %s, which decision does not write", k)
		}
	}
	if !slices.Equal(h.required, ourRequired) {
		t.Errorf("gpu/arc_ffi.cc requires %v, decision marks %v required", h.required, ourRequired)
	}
	if !slices.IsSorted(ours) {
		t.Errorf("keys %v are not in the order MLIR prints a dictionary", ours)
	}
	if !slices.Equal(h.fused, ourFused) {
		t.Errorf("gpu/arc_ffi.cc reads %v for the fused form, decision writes %v", h.fused, ourFused)
	}
	if h.norms != "kNormKinds" { // abi's tests hold the table to abi.NormKinds
		t.Errorf("gpu/arc_ffi.cc's fused form is marked by norm's values in %q, not kNormKinds", h.norms)
	}
	if !slices.Equal(h.optional, ourOptional) {
		t.Errorf("gpu/arc_ffi.cc takes %v of the fused form as +0 when absent, decision marks %v optional", h.optional, ourOptional)
	}
	if want := len(ourFused) - len(ourOptional) - 1; h.fusedRequired != want { // all but norm, which marks the form
		t.Errorf("gpu/arc_ffi.cc requires %d keys of the fused form besides norm, decision writes %d", h.fusedRequired, want)
	}
	for i, rc := range []*norm.Recipe{nil, {Norm: "layernorm"}, {Norm: "layernorm", Bias: true}} {
		ins, outs := decision.Arity(rc)
		if h.arity[i] != [2]int{ins, outs} {
			t.Errorf("%v: gpu/arc_ffi.cc takes %d operands and %d results, decision writes %d and %d", rc, h.arity[i][0], h.arity[i][1], ins, outs)
		}
	}

	hdr := read(t, "../proxy/arc_ffi.h")
	m := regexp.MustCompile(`#define ARC_FFI_ALLREDUCE_TARGET "([^"]*)"`).FindStringSubmatch(hdr)
	if m == nil || m[1] != decision.AllReduce {
		t.Errorf("proxy/arc_ffi.h registers the handler as %v, decision calls %q", m, decision.AllReduce)
	}
}
