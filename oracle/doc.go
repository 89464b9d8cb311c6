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
