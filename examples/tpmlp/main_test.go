package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/arcpass/arc/examples/internal/exampletest"
)

func TestShippedModelIsWhatTheProgramWrites(t *testing.T) { exampletest.CheckProgram(t, run) }

func TestShippedModelCompilesForEveryTarget(t *testing.T) { exampletest.CheckReports(t) }

func TestShippedModelInspect(t *testing.T) { exampletest.CheckInspect(t) }

func TestFlags(t *testing.T) {
	exampletest.CheckUsageErrors(t, run, []exampletest.UsageError{
		{Args: []string{"--ffn", "100", "--tp", "8", "--dump-only", "--dump", "-"}, Msg: "--ffn 100 does not split over --tp 8"},
		{Args: []string{"--layers", "0"}, Msg: "must be positive"},
	})
}

// TestDumpOnlySizes: the flags shape the program: 2 blocks of hidden 64 over 4 ranks.
func TestDumpOnlySizes(t *testing.T) {
	var out, errs bytes.Buffer
	args := []string{"--dump-only", "--dump", "-", "--tp", "4", "--layers", "2", "--hidden", "64", "--ffn", "256", "--batch", "2", "--seq", "8"}
	if code := run(args, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	p := out.String()
	for _, want := range []string{
		"module @tpmlp attributes {stablehlo.num_replicas = 4}",
		"%l1_mlp_w1: tensor<64x64xbf16>", // 256 columns over 4 ranks
		"%l1_mlp_w2: tensor<64x64xbf16>", // 256 rows over 4 ranks
		"-> tensor<16x64xbf16>",          // 2x8 tokens, hidden 64
		"dense<[[0, 1, 2, 3]]>",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("program lacks %q", want)
		}
	}
	if n := strings.Count(p, `"stablehlo.all_reduce"`); n != 2 {
		t.Errorf("%d all-reduces, want one per block (2)", n)
	}
}

// TestOnGPUs: a small stack through arc and natively on 2 GPUs (skips without them).
func TestOnGPUs(t *testing.T) {
	exampletest.RunOnGPUs(t, run, "--layers", "2", "--hidden", "1024", "--ffn", "4096", "--batch", "2", "--seq", "128")
}
