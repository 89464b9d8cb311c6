package oracle

import (
	"hash/fnv"
	"math"
)

// value is one SSA value on every process: the sampled elements of its
// tensor (raw bits, one uint64 each) per process, indexed by the process's
// flattened index.
type value struct {
	elem  elemType
	procs [][]uint64
}

// sampleLen is how many elements of a tensor of n elements the oracle
// interprets: all of them up to limit; above it, the first limit/32 whole
// blocks of 32 and the short last block, if any. All-reduces act element by
// element and arc's kernels block by block (each block's bits depend on that
// block alone, docs/FORMATS.md), so the sample is a smaller tensor with the
// same blocks. A dynamic dimension counts as limit elements.
func sampleLen(n int64, limit int) int {
	if n < 0 {
		return limit
	}
	if n <= int64(limit) {
		return int(n)
	}
	return limit/32*32 + int(n%32)
}

// leafValue fills an opaque value: deterministic pseudo-random elements keyed
// by the seed, the value's identity, the process and the element index, so
// that the original and the lowered module see the same inputs.
func leafValue(seed uint64, key string, elem elemType, n, procs int) *value {
	h := fnv.New64a()
	h.Write([]byte(key))
	h.Write([]byte{0})
	h.Write([]byte(elem.name))
	base := h.Sum64() ^ seed*0x9E3779B97F4A7C15
	v := &value{elem: elem, procs: make([][]uint64, procs)}
	for p := range procs {
		bits := make([]uint64, n)
		for i := range bits {
			bits[i] = randomElem(elem, mix(base^uint64(p)*0xBF58476D1CE4E5B9^uint64(i)*0x94D049BB133111EB))
		}
		v.procs[p] = bits
	}
	return v
}

// mix is splitmix64's finalizer.
func mix(z uint64) uint64 {
	z += 0x9E3779B97F4A7C15
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// randomElem draws one element from 64 random bits. Floats are finite and of
// moderate size, |x| in [1/8, 8) with 24 random significand bits before
// rounding to the type, or a zero of either sign (1 in 64): sums over the
// largest groups stay far from overflow, so that any difference is the
// lowering's, not the range's. Integers take every bit pattern.
func randomElem(e elemType, r uint64) uint64 {
	switch e.class {
	case 'f':
		sign := 1.0
		if r&1 != 0 {
			sign = -1
		}
		if r>>1&63 == 0 {
			return e.fromFloat(math.Copysign(0, sign))
		}
		exp := int(r>>7%6) - 3
		frac := float64(r>>16&(1<<24-1)) / (1 << 24)
		return e.fromFloat(sign * math.Ldexp(1+frac, exp))
	case 'b':
		return r >> 13 & 1
	}
	return r & e.mask()
}
