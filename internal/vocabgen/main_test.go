package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedFilesAreCurrent fails when a generated file on disk is not
// what package abi's tables give: run go generate ./abi.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join("..", "..", f.path))
		if err != nil {
			t.Fatal(err)
		}
		want := f.gen()
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./abi", f.path)
		}
		if !strings.Contains(string(want), "Code generated") || !strings.Contains(string(want), "DO NOT EDIT.") {
			t.Errorf("%s lacks the line that marks it generated", f.path)
		}
	}
}
