package main

// go test ./... -update passes -update to every test binary: this one takes
// the flag too (package golden defines it), so that the command runs.
import _ "github.com/arcpass/arc/internal/golden"
