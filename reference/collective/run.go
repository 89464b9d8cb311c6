package collective

import (
	"fmt"

	"github.com/arcpass/arc/reference/codec"
	"github.com/arcpass/arc/reference/num"
)

// Run simulates the all-reduce rank by rank, with the data movement of the
// kernels: every rank computes its output only from its own input and the
// bytes it received. It returns each rank's output. Block ownership is
// contiguous (rank r of P owns blocks [r*nb/P, (r+1)*nb/P)); FORMATS.md
// leaves it free, as it changes no bit.
func Run(s Spec, inputs [][]byte) ([][]byte, error) {
	c, _, err := s.check(inputs)
	if err != nil {
		return nil, err
	}
	x := make([][]float32, s.World) // each rank's input, widened in its registers
	for r, in := range inputs {
		x[r] = num.Widen(s.DType, in)
	}
	net := fabric{}
	var out [][]float32
	switch s.Algo {
	case "oneshot":
		out = oneshot(s, inputs, net)
	case "twoshot":
		out = twoshot(s.World, c, x, net)
	case "hier":
		out = hier(s.World, c, x, net)
	}
	if len(net) != 0 {
		panic(fmt.Sprintf("collective: %d messages never received", len(net)))
	}
	outputs := make([][]byte, s.World)
	for r, o := range out {
		outputs[r] = num.Narrow(s.DType, o)
	}
	return outputs, nil
}

// oneshot: every rank reads every peer's input and sums in rank order.
func oneshot(s Spec, inputs [][]byte, net fabric) [][]float32 {
	w := s.World
	for src := range w {
		for dst := range w {
			if dst != src {
				net.send(0, src, dst, inputs[src])
			}
		}
	}
	out := make([][]float32, w)
	for r := range w {
		for src := range w {
			bytes := inputs[r]
			if src != r {
				bytes = net.recv(0, src, r)
			}
			v := num.Widen(s.DType, bytes)
			if src == 0 {
				out[r] = v
			} else {
				addTo(out[r], v)
			}
		}
	}
	return out
}

// twoshot: reduce-scatter with the codec to each block's owner, which sums
// the decoded blocks in rank order; all-gather of the owner's encoded sum.
func twoshot(w int, c codec.Codec, x [][]float32, net fabric) [][]float32 {
	n := len(x[0])
	parts := split(n, w, c.BlockBytes())
	for r := range w {
		enc := codec.Encode(c, x[r])
		for o, p := range parts {
			net.send(0, r, o, enc[p.b0:p.b1])
		}
	}
	for o, p := range parts {
		sum := reduce(c, p.n(), func(src int) []byte { return net.recv(0, src, o) }, 0, w)
		enc := codec.Encode(c, sum)
		for r := range w {
			net.send(1, o, r, enc) // to itself too: every rank decodes the same bytes
		}
	}
	return gather(w, n, c, parts, net, 1, func(int) int { return 0 })
}

// hier: two halves of h = w/2 ranks. Reduce-scatter inside each half; each
// owner swaps its encoded half-sum with its partner (r+h) mod w, which owns
// the same blocks, and both add the two in half order; all-gather inside
// the half.
func hier(w int, c codec.Codec, x [][]float32, net fabric) [][]float32 {
	n, h := len(x[0]), w/2
	parts := split(n, h, c.BlockBytes())
	for r := range w {
		enc := codec.Encode(c, x[r])
		for l, p := range parts {
			net.send(0, r, r/h*h+l, enc[p.b0:p.b1])
		}
	}
	kept := make([][]byte, w) // each owner's encoded half-sum, as sent
	for o := range w {
		half := o / h * h
		p := parts[o%h]
		sum := reduce(c, p.n(), func(src int) []byte { return net.recv(0, src, o) }, half, half+h)
		kept[o] = codec.Encode(c, sum)
		net.send(1, o, (o+h)%w, kept[o])
	}
	for o := range w {
		halves := [2][]byte{}
		halves[o/h] = kept[o]
		halves[1-o/h] = net.recv(1, (o+h)%w, o)
		sum := reduce(c, parts[o%h].n(), func(g int) []byte { return halves[g] }, 0, 2)
		enc := codec.Encode(c, sum)
		for l := range h {
			net.send(2, o, o/h*h+l, enc)
		}
	}
	return gather(w, n, c, parts, net, 2, func(r int) int { return r / h * h })
}

// reduce decodes the blocks from(lo), ..., from(hi-1) (cnt values each)
// and sums them in that order, starting from the first.
func reduce(c codec.Codec, cnt int, from func(int) []byte, lo, hi int) []float32 {
	sum := codec.Decode(c, from(lo), cnt)
	for k := lo + 1; k < hi; k++ {
		addTo(sum, codec.Decode(c, from(k), cnt))
	}
	return sum
}

// gather: each rank r decodes the part that rank base(r)+i sent it in step
// and places it at the part's elements.
func gather(w, n int, c codec.Codec, parts []part, net fabric, step int, base func(int) int) [][]float32 {
	out := make([][]float32, w)
	for r := range w {
		out[r] = make([]float32, n)
		for i, p := range parts {
			copy(out[r][p.e0:p.e1], codec.Decode(c, net.recv(step, base(r)+i, r), p.n()))
		}
	}
	return out
}

// part is the run of whole blocks one owner reduces: elements [e0, e1),
// encoded bytes [b0, b1).
type part struct{ e0, e1, b0, b1 int }

func (p part) n() int { return p.e1 - p.e0 }

// split cuts n elements into k contiguous parts of whole blocks.
func split(n, k, blockBytes int) []part {
	nb := codec.Blocks(n)
	parts := make([]part, k)
	for i := range parts {
		lo, hi := i*nb/k, (i+1)*nb/k
		parts[i] = part{min(lo*bs, n), min(hi*bs, n), lo * blockBytes, hi * blockBytes}
	}
	return parts
}

// addTo adds v to acc element by element, rounding each sum once.
func addTo(acc, v []float32) {
	for i := range acc {
		acc[i] += v[i]
	}
}

// fabric holds the messages in flight, each received exactly once.
type fabric map[route][]byte

type route struct{ step, from, to int }

func (f fabric) send(step, from, to int, b []byte) {
	k := route{step, from, to}
	if _, dup := f[k]; dup {
		panic(fmt.Sprintf("collective: second message %+v", k))
	}
	f[k] = b
}

func (f fabric) recv(step, from, to int) []byte {
	k := route{step, from, to}
	b, ok := f[k]
	if !ok {
		panic(fmt.Sprintf("collective: no message %+v", k))
	}
	delete(f, k)
	return b
}
