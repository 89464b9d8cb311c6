// Package lowering holds arc's target lowerings, one package per target:
// cuda and rocm (both rewrite all-reduces into arc's custom calls through
// arccall) and tpu (ring-ordered replica groups). Its tests run the whole
// pipeline of every target over testdata/*.mlir and compare the lowered
// modules and the reports with golden files (go test ./lowering/... -update
// rewrites them).
package lowering
