package worker

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/arcpass/arc"
)

func frame(b []byte) []byte {
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(b))), b...)
}

func readAll(t *testing.T, b []byte) [][]byte {
	t.Helper()
	var out [][]byte
	r := bytes.NewReader(b)
	for {
		f, err := readFrame(r)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, f)
	}
}

func program(t *testing.T) []byte {
	_, file, _, _ := runtime.Caller(0)
	b, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "testdata", "allreduce_2rep.mlir"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestServe: the answers are what `arc compile` gives for the same flags,
// errors included, one per request, after the announcement.
func TestServe(t *testing.T) {
	prog := program(t)
	var in bytes.Buffer
	in.Write(frame([]byte("target=cuda:nvlink\nforce=0=oneshot\ndevice-assignment=1;0\n")))
	in.Write(frame(prog))
	in.Write(frame([]byte("target=tpu:v6e-8\nquant=none\n")))
	in.Write(frame(prog))
	in.Write(frame([]byte("target=cuda:nvlink\n")))
	in.Write(frame([]byte("module { not stablehlo")))
	in.Write(frame([]byte("target=nowhere\n")))
	in.Write(frame(prog))
	in.Write(frame([]byte("colour=blue\n")))
	in.Write(frame(prog))
	var out bytes.Buffer
	if err := Serve(&in, &out); err != nil {
		t.Fatal(err)
	}
	got := readAll(t, out.Bytes())
	if len(got) != 6 || string(got[0]) != Hello {
		t.Fatalf("%d frames, first %q", len(got), got[0])
	}
	for i, opt := range []arc.Options{
		{Target: "cuda:nvlink", Force: []string{"0=oneshot"}, DeviceAssignment: "1;0"},
		{Target: "tpu:v6e-8", Quant: "none"},
	} {
		want, _, err := arc.Compile("<stdin>", prog, opt)
		if err != nil {
			t.Fatal(err)
		}
		if a := got[1+i]; a[0] != 0 || string(a[1:]) != string(want) {
			t.Errorf("answer %d: %q, want arc.Compile's", i+1, a)
		}
	}
	for i, want := range []string{"<stdin>:1:", "bad options: ", `arc serve: setting "colour" (compiler option arc_colour): arc has no setting colour`} {
		if a := got[3+i]; a[0] != 1 || !strings.HasPrefix(string(a[1:]), want) {
			t.Errorf("answer %d: %q, want an error starting %q", 3+i, a, want)
		}
	}
}

func TestServeBrokenStreams(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"truncated header", "\x05\x00", "a truncated frame header"},
		{"truncated frame", "\x05\x00\x00\x00ab", "a truncated frame of 5 bytes"},
		{"no program", string(frame([]byte("target=none\n"))), "a request without its program"},
		{"huge frame", "\xff\xff\xff\xff", "a frame of 4294967295 bytes, more than the protocol allows"},
	} {
		var out bytes.Buffer
		err := Serve(strings.NewReader(tc.in), &out)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	var out, errs bytes.Buffer
	if code := Main([]string{"extra"}, strings.NewReader(""), &out, &errs); code != 2 || !strings.Contains(errs.String(), "usage") {
		t.Errorf("Main with arguments: %d %q", code, errs.String())
	}
	if code := Main(nil, strings.NewReader(""), &out, &errs); code != 0 {
		t.Errorf("Main at end of input: %d", code)
	}
}

// TestOptionsTakeTheEnvironment: every setting the request does not name
// comes from its ARC_* variable, so the standalone plugin takes every option
// the in-process one does; a setting the request names wins.
func TestOptionsTakeTheEnvironment(t *testing.T) {
	t.Setenv("ARC_MIN_BYTES", "64K")
	t.Setenv("ARC_CAST_BF16_TO_FP16", "true")
	t.Setenv("ARC_QUANT", "int4")
	opt, err := options("target=cuda:nvlink\nquant=int8\n")
	if err != nil {
		t.Fatal(err)
	}
	if opt.Target != "cuda:nvlink" || opt.Quant != "int8" || opt.MinBytes != 64<<10 || !opt.CastBF16ToFP16 {
		t.Errorf("options %+v", opt)
	}
	t.Setenv("ARC_MAX_BYTES", "lots")
	if _, err := options("target=cuda:nvlink\n"); err == nil || !strings.Contains(err.Error(), "ARC_MAX_BYTES") {
		t.Errorf("a bad variable: %v", err)
	}
}
