package collective

import (
	"runtime"
	"sync"

	"github.com/arcpass/arc/reference/codec"
	"github.com/arcpass/arc/reference/num"
)

const bs = codec.BlockSize

// Expected computes the output every rank must produce, block by block,
// straight from the formulas of docs/FORMATS.md, on all cores.
func Expected(s Spec, inputs [][]byte) ([]byte, error) {
	c, n, err := s.check(inputs)
	if err != nil {
		return nil, err
	}
	out := make([]byte, n*s.DType.Size())
	blocks := codec.Blocks(n)
	workers := min(runtime.GOMAXPROCS(0), (blocks+255)/256)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			r := newReducer(s, c, inputs)
			for b := w * blocks / workers; b < (w+1)*blocks/workers; b++ {
				r.block(out, b, min(bs, n-b*bs))
			}
		})
	}
	wg.Wait()
	return out, nil
}

// reducer computes output blocks; each goroutine has its own.
type reducer struct {
	s      Spec
	c      codec.Codec // nil for oneshot
	inputs [][]byte
	enc    []byte // one encoded block
	first  int    // the current block's first element
	cnt    int    // and its number of elements (< 32 for a short last block)
	x      [bs]float32
}

func newReducer(s Spec, c codec.Codec, inputs [][]byte) *reducer {
	r := &reducer{s: s, c: c, inputs: inputs}
	if c != nil {
		r.enc = make([]byte, c.BlockBytes())
	}
	return r
}

// block writes output block b, which holds cnt elements.
func (r *reducer) block(out []byte, b, cnt int) {
	r.first, r.cnt = b*bs, cnt
	var acc [bs]float32
	switch r.s.Algo {
	case "oneshot":
		r.sum(&acc, 0, r.s.World)
	case "twoshot":
		r.sum(&acc, 0, r.s.World)
		r.roundTrip(&acc)
	case "hier":
		h := r.s.World / 2
		var other [bs]float32
		r.sum(&acc, 0, h)
		r.sum(&other, h, r.s.World)
		r.roundTrip(&acc)
		r.roundTrip(&other)
		addTo(acc[:], other[:])
		r.roundTrip(&acc)
	}
	num.NarrowTo(out[r.first*r.s.DType.Size():], r.s.DType, acc[:cnt])
}

// sum sets acc to the sum of ranks lo..hi-1's inputs, each through the
// codec unless oneshot: ((v_lo + v_lo+1) + ...) + v_hi-1. It starts from
// v_lo itself, not from +0, which would turn a -0 sum into +0.
func (r *reducer) sum(acc *[bs]float32, lo, hi int) {
	r.load(acc, lo)
	for rank := lo + 1; rank < hi; rank++ {
		r.load(&r.x, rank)
		addTo(acc[:], r.x[:])
	}
}

// load widens rank's elements of the current block into x, through the
// codec unless oneshot.
func (r *reducer) load(x *[bs]float32, rank int) {
	*x = [bs]float32{}
	num.WidenTo(x[:r.cnt], r.s.DType, r.inputs[rank][r.first*r.s.DType.Size():])
	if r.c != nil {
		r.roundTrip(x)
	}
}

// roundTrip replaces v by dec(enc(v)). The missing positions of a short
// block encode as +0 whatever a previous decode left there.
func (r *reducer) roundTrip(v *[bs]float32) {
	clear(v[r.cnt:])
	r.c.EncodeBlock(r.enc, v)
	r.c.DecodeBlock(v, r.enc)
}
