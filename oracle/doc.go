// Package oracle is the semantic oracle of arc's lowerings: a Go
// interpreter of the collective part of a StableHLO module, run on the
// original module and on arc's output, whose results are compared.
//
// # Model
//
// The oracle interprets all-reduces only. Every other op is "plain": arc
// never changes one, so plain ops keep their order, and each value gets an
// identity that does not depend on how the module spells it: a value a plain
// op defines (a result, a region or block argument) is a leaf, named by the
// op's position among the plain ops; the result of an all-reduce operand is
// "the N-th all-reduce of identity X". Leaves are opaque per-process tensors
// of deterministic pseudo-random elements, keyed by the seed, the identity,
// the process and the element; so both modules see the same inputs, an
// all-reduce of an all-reduce's result reads the interpreted result, and a
// multi-operand all-reduce split into calls is matched operand by operand.
// Each all-reduce is evaluated once, whatever loop or branch holds it.
//
// Check compares: the identities each plain op reads (arc's renaming of
// packed results), that every all-reduce operand of the original is reduced
// exactly once in the lowered module, its process groups as sets, and its
// results on every process. It also checks the lowering's channel ids as
// XLA's verifier does: an id the lowering makes up is held by one op alone,
// and an id the original holds only by ops of the kinds that held it there
// (one id on a send and an all-reduce is refused).
//
// # Semantics
//
// The process grid is num_replicas x num_partitions (a module without them
// runs on the first grid all its groups fit; when each fits a grid but none
// fits all, Prepare says so with a NoCommonGridError, and a lowering must
// leave every all-reduce as it is, as package spec does). An all_reduce
// splits it into process groups as StableHLO's spec defines
// (cross_replica, cross_replica_and_partition, flattened_ids, from
// channel_handle and use_global_device_ids; mesh-axes groups as package ir
// expands them), after checking the spec's constraints (C1-C7: unique ids,
// in range, covering every id; use_global_device_ids only with a channel;
// the computation's type, promotion and result type). Missing or empty
// replica_groups are one group of every replica, as XLA reads them. A
// process runs on the device XLA's default assignment gives it
// (ComputationPlacer: partition * num_replicas + replica) unless
// Options.Assignment says otherwise.
//
// A computation that is exactly `return op(arg0, arg1)` (either order) over
// tensor<E>, with op one of add, multiply, maximum, minimum, and, or, xor, is
// interpreted in E: operands converted to E (to_destination_type), each
// operation rounded once, maximum and minimum as IEEE 754-2019 (NaN wins,
// -0 < +0), integers wrapping. The spec leaves the schedule (the binary tree
// whose in-order traversal is the process group) implementation-defined;
// the oracle assumes the left fold ((x0 op x1) op x2) ... in process-group
// order, as StableHLO's reference interpreter computes it. Any other
// computation is opaque: its result is a hash of the computation's ops and of
// the operands in group order, which tells computations and orders apart
// without interpreting them.
//
// The oracle expands groups itself, and checks every expansion against
// package spec's (a DisagreementError is a bug in one of them).
//
// arc's custom call arc_allreduce (docs/LOWERINGS.md) is interpreted through
// reference/collective, the exact Go reference of the kernels: its devices
// array lists the global device ids of each group, group-major (calls
// without one: its groups), a process's rank is its device's position in
// its group, and collective.Run simulates the algorithm, codec and cast. The
// groups must partition the devices of the grid.
//
// # Fused calls: the oracle's own reading
//
// arc's fused call (docs/LOWERINGS.md, "Fusion": the all-reduce, the
// residual add h = x + s and the RMSNorm of h's rows, y) replaces an
// all-reduce and the ops after it. Its sum is checked as any call's. The
// ops it replaced are not read through the compiler's eyes (the matcher,
// passes.MatchNorm, which decides what to replace): the oracle reads the
// original module with a reader of its own (read.go), in the generic form
// go-xla prints and the pretty form JAX prints, from the tokens of each
// op's own text, attributes by name, locations, comments and other
// attributes skipped. It reads
//
//   - constant: its value, the generic form's value attribute (properties or
//     dictionary; a name given twice is refused) or the pretty form's literal
//     after its attribute dictionary, never another dense value the
//     dictionary holds; splats, nested lists and hex blobs, decimal literals
//     as MLIR reads them (the nearest double, then the nearest value of the
//     type, once), hexadecimal ones as the type's bits;
//   - add, subtract, multiply, divide, maximum, minimum, negate, abs, sqrt,
//     rsqrt, convert, reshape: operands and the types the op states;
//   - broadcast_in_dim: broadcast_dimensions (generic) or dims (pretty);
//   - reduce: its inputs and inits, dimensions (array or dense literal, or
//     the pretty form's across dimensions), and its computation: the op of
//     `applies OP`, or a region of one block whose arguments (its label's or
//     the pretty form's reducer(...)) one binary op combines and whose return
//     returns that op's result; any other computation is none it interprets;
//   - return (func.return, stablehlo.return), and func.func's arguments with
//     their types (the pretty form's header, the generic form's entry block).
//
// Package ir gives it the module's structure only: the ops, their spans,
// regions and blocks, and which definition each use refers to (the
// interpretation's scoping, above).
//
// The lowered module is aligned with the original block by block: an
// original op none of whose results the lowered block defines, or some of
// whose results a fused call defines there, was removed; the others pair
// with the lowered block's ops in order, and a fused call's results take the
// identities of the original's values of the same names in the same block,
// so names other functions shadow never mix. Each fused call is then
// interpreted from its h and y back, on its first rows on every process: the
// removed ops (each must be one the oracle reads and interprets, and one
// some fused call's results are computed by), and the ops they read whose
// values derive from constants and the call's operands alone; anything else
// is a leaf. The call's sum (reference/collective, from the call's operand)
// stands for the all-reduce's result; its residual and weight are leaves
// drawn in the types the call states, and must be read by the replaced ops
// in those types (the weight of another function's type is a mismatch).
// reference/norm.Apply computes the call's h and y from the same three
// values; they must equal the interpreted ones bit for bit.
//
// Elementwise ops compute in the types the program states, as StableHLO
// defines them: the exact result rounded once to nearest even (computed in
// double and rounded once to f32, bf16 or f16, which is the exact result's
// rounding for +, -, *, / and sqrt since a double holds 2p+2 bits of each),
// rsqrt as IEEE 754's rSqrt (correctly rounded, each midpoint decided
// exactly), maximum and minimum as IEEE 754-2019, convert rounding once. A
// reduction by add is added in one of the schedules StableHLO leaves to the
// implementation: the fused kernels' (reference/norm.SumSquares: the
// reduction's init, then per segment of 2048 elements the tree of 256
// partial sums of 8 consecutive terms, the segments in order), each addition
// rounded once; and each row's sum must be within twice the left fold's
// bound below ((n-1)(u A (1+u)^n + eta), for n terms of magnitudes adding to
// A) of the left fold ((init + x0) + x1) ..., the reference interpreter's
// schedule, so that the kernels' order is a reordering of the sum and
// nothing else. Reductions by maximum, minimum and multiply fold from the
// left. A matcher that reads another constant, takes a maximum for a sum or
// another function's weight for the program's therefore fuses a call the
// oracle finds computing something else.
//
// # Comparisons
//
// Ops left alone compare bit for bit. For calls of the exact kernels
// (oneshot, codec fp but for bf16 under the cast, which is lossy and held
// to a bf16 rounding of each block's largest value per codec round trip)
// the reference's output must equal docs/FORMATS.md's
// formula bit for bit (f32 sums in the call's rank order), and be within
// the rounding bound of a reordered sum of the original's result: the
// original's left fold in E and the reference's f32 sum each err by at most
// (n-1) (u A (1+u)^n + eta) from the exact sum (u the unit roundoff, eta
// half the smallest subnormal, A the sum of magnitudes), plus one rounding
// to the I/O type. For the quantized codecs (allowed by Options.Quant only),
// each codec round trip errs by at most a bound derived from its definition
// in docs/FORMATS.md (half a step of the block's scale, one for the clamped
// extreme; e4m3's relative precision; sqrt(32) times plain int4's for
// int4r's best of three), propagated through the algorithm's data path.
// Groups only reordered (TPU rings) compare bit for bit where the operation
// is exact in any order (max, min, and, or, xor, integers) and within twice
// the fold bound for float sums and products; an opaque computation
// reordered is a mismatch, since the order of a group is the order of the
// reduction.
//
// Elements whose magnitudes come near the type's range are not checked; the
// random operands stay far from it (|x| < 8).
//
// # Cost
//
// Options.MaxElems (default 256) bounds the elements of each tensor: a
// larger tensor is interpreted on its first whole blocks of 32 and its short
// last block. All-reduces are elementwise and the kernels' bits depend on
// each block alone, so the sample behaves as a smaller tensor with the same
// blocks. Grids above Options.MaxProcesses (default 4096) are not
// interpreted.
package oracle
