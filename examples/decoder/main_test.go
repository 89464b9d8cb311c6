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
		{Args: []string{"--heads", "6", "--hidden", "96", "--tp", "4"}, Msg: "--heads 6 do not split over --tp 4"},
		{Args: []string{"--heads", "5"}, Msg: "--hidden 2048 is not a whole number of --heads 5"},
		{Args: []string{"--vocab", "1001"}, Msg: "--vocab 1001 does not split over --tp 2"},
		{Args: []string{"--ffn", "7"}, Msg: "--ffn 7 does not split over --tp 2"},
		{Args: []string{"--seq", "-1"}, Msg: "must be positive"},
	})
}

// TestDumpOnlySizes: the flags shape the program: 3 blocks, 4 heads of 16 over 2 ranks.
func TestDumpOnlySizes(t *testing.T) {
	var out, errs bytes.Buffer
	args := []string{"--dump-only", "--dump", "-", "--tp", "2", "--layers", "3", "--hidden", "64", "--heads", "4",
		"--ffn", "128", "--vocab", "100", "--batch", "2", "--seq", "8", "--dtype", "f16"}
	if code := run(args, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	p := out.String()
	for _, want := range []string{
		"module @decoder attributes {stablehlo.num_replicas = 2}",
		"%tokens: tensor<2x8xi32>",
		"%embed: tensor<100x64xf16>",
		"%b2_attn_wq: tensor<64x32xf16>", // 2 of 4 heads of 16 per rank
		"%b2_attn_wo: tensor<32x64xf16>",
		"%b2_mlp_w1: tensor<64x64xf16>", // 128 over 2 ranks
		"%lm_head: tensor<64x50xf16>",   // the vocabulary over 2 ranks
		"tensor<16x50xf16>",             // this rank's logits
	} {
		if !strings.Contains(p, want) {
			t.Errorf("program lacks %q", want)
		}
	}
	if n := strings.Count(p, `"stablehlo.all_reduce"`); n != 6 {
		t.Errorf("%d all-reduces, want two per block (6)", n)
	}
}

// TestOnGPUs: a small decoder through arc and natively on 2 GPUs (skips without them).
func TestOnGPUs(t *testing.T) {
	exampletest.RunOnGPUs(t, run, "--layers", "2", "--hidden", "512", "--heads", "8", "--ffn", "2048",
		"--vocab", "4096", "--batch", "2", "--seq", "128")
}
