package gpu

// plantedEps is the identity: the fused call carries the epsilon the program
// adds. A build with the tag arc_planted_eps (planted_eps.go) doubles it, a
// deliberately wrong lowering that the differential check on the GPU machine
// must catch (docs/ACCURACY.md, "The differential check"). One ulp would be
// below any bound the order of additions gives: the program's own rsqrt on
// XLA errs by more.
var plantedEps = func(eps float32) float32 { return eps }
