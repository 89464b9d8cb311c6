package main

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func runAccuracyCLI(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, stdio{strings.NewReader(""), &out, &errOut})
	return code, out.String(), errOut.String()
}

// TestAccuracyDocIsCurrent: docs/ACCURACY.md shows what `arc accuracy`
// prints today.
func TestAccuracyDocIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole table takes a few seconds")
	}
	doc, err := os.ReadFile("../../docs/ACCURACY.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)\\$ arc accuracy\n```\n```text\n(.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("docs/ACCURACY.md: no ```text block after the \"$ arc accuracy\" block")
	}
	code, out, stderr := runAccuracyCLI("accuracy")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if out != string(m[1]) {
		t.Errorf("docs/ACCURACY.md is stale; regenerate its table with: go run ./cmd/arc accuracy\nnow:\n%s", out)
	}
}

func TestAccuracyDetail(t *testing.T) {
	code, out, stderr := runAccuracyCLI("accuracy", "--algo", "twoshot", "--codec", "int8", "--world", "8",
		"--dtype", "bf16", "--dist", "gaussian", "--elems", "4096", "--seed", "3")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"twoshot int8 bf16 world 8, gaussian inputs, 4096 values per rank, seed 3",
		"bits per value      8.5 (bf16: 16)", "ranks agree         yes"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	m := regexp.MustCompile(`relative L2 error\s+(\S+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no relative L2 error in\n%s", out)
	}
	if v, err := strconv.ParseFloat(m[1], 64); err != nil || v <= 0 || v > 0.012 {
		t.Errorf("int8 relative L2 error %q, want in (0, 0.012]", m[1])
	}
}

func TestAccuracyJSON(t *testing.T) {
	code, out, stderr := runAccuracyCLI("accuracy", "--codec", "int4", "--dtype", "f16", "--dist", "outliers", "--elems", "2048", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got []struct {
		Algo, Codec, DType, Dist string
		World                    int
		RelL2                    *float64 `json:"rel_l2"`
		SNR                      *float64 `json:"snr_db"`
		Bits                     float64  `json:"bits_per_value"`
		Agree                    bool     `json:"ranks_agree"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in\n%s", err, out)
	}
	var worlds []string
	for _, r := range got {
		worlds = append(worlds, r.Algo+"/"+strconv.Itoa(r.World))
		if r.Codec != "int4" || r.DType != "f16" || r.Dist != "outliers" || r.Bits != 4.5 || !r.Agree ||
			r.RelL2 == nil || *r.RelL2 <= 0 || *r.RelL2 > 0.2 || r.SNR == nil {
			t.Errorf("unexpected entry %+v", r)
		}
	}
	if want := "twoshot/2 twoshot/4 twoshot/8 hier/4 hier/8"; strings.Join(worlds, " ") != want {
		t.Errorf("entries %v, want %s", worlds, want)
	}
}

func TestAccuracyTableFilters(t *testing.T) {
	code, out, stderr := runAccuracyCLI("accuracy", "--codec", "none", "--dtype", "f32", "--elems", "1000")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"f32, gaussian inputs", "f32, outliers inputs", "f32, llm inputs", "f32, large inputs", "oneshot  -          32"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "twoshot") || strings.Contains(out, "\nf16, ") {
		t.Errorf("--codec none --dtype f32 printed other rows:\n%s", out)
	}
}

// TestAccuracyOfTheCast: --cast-bf16-to-fp16 keeps the cast's rows, bf16
// under fp, which stay as close as the uncast kernel beyond f16's range.
func TestAccuracyOfTheCast(t *testing.T) {
	code, out, stderr := runAccuracyCLI("accuracy", "--cast-bf16-to-fp16", "--dist", "large", "--elems", "4096", "--world", "8", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got []struct {
		Algo, Codec, DType string
		Cast               bool     `json:"cast_bf16_to_fp16"`
		RelL2              *float64 `json:"rel_l2"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in\n%s", err, out)
	}
	if len(got) != 2 {
		t.Fatalf("%d rows, want twoshot and hier:\n%s", len(got), out)
	}
	for _, r := range got {
		if r.Codec != "fp" || r.DType != "bf16" || !r.Cast || r.RelL2 == nil || *r.RelL2 > 0.003 {
			t.Errorf("unexpected row %+v (rel L2 %v)", r, r.RelL2)
		}
	}
	_, table, _ := runAccuracyCLI("accuracy", "--codec", "fp", "--dtype", "bf16", "--dist", "tiny", "--elems", "4096")
	if !strings.Contains(table, "twoshot  fp         16") || !strings.Contains(table, "twoshot  fp+cast 16.25") {
		t.Errorf("--codec fp shows fp and fp+cast:\n%s", table)
	}
}

func TestAccuracyUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--algo", "threeshot"}, "unknown --algo"},
		{[]string{"--codec", "int2"}, "unknown --codec"},
		{[]string{"--dtype", "f64"}, "unknown dtype"},
		{[]string{"--dist", "uniform"}, "unknown --dist"},
		{[]string{"--dist", "large", "--dtype", "f16"}, "--dist large is beyond f16's range"},
		{[]string{"--cast-bf16-to-fp16", "--dtype", "f16"}, "casts bf16 only"},
		{[]string{"--elems", "0"}, "--elems must be"},
		{[]string{"--algo", "hier", "--world", "2"}, "hier runs codecs fp,int8,int6,int4,int4r,fp8 at worlds [4 8]"},
		{[]string{"--algo", "oneshot", "--codec", "int8"}, "oneshot runs codecs - at worlds"},
		{[]string{"extra"}, "takes no arguments"},
		{[]string{"--world", "x"}, "invalid argument"},
		{[]string{"--elems", "1T"}, "invalid argument"},
		{[]string{"--algo", "lowprec", "--codec", "int8"}, "--algo lowprec is the fp8 codec"},
	} {
		code, out, stderr := runAccuracyCLI(append([]string{"accuracy"}, c.args...)...)
		if code != exitUsage || out != "" || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, stderr, c.msg)
		}
	}
	if code, out, _ := runAccuracyCLI("accuracy", "--help"); code != exitOK || !strings.Contains(out, "usage: arc accuracy") {
		t.Errorf("--help: exit %d, %q", code, out)
	}
}
