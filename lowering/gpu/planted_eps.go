//go:build arc_planted_eps

package gpu

// A wrong lowering on purpose: never in a release build.
func init() {
	plantedEps = func(eps float32) float32 { return 2 * eps }
}
