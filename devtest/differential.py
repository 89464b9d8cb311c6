"""arc against the native executor: a differential check on the GPU machine.

Every program runs twice on the same inputs: the original through JAX's own
CUDA plugin (ARC_DISABLE=1, "native") and through arc (the arc_jax wheel
installed: the same plugin behind arc's proxy), in N processes on one GPU
(jax.distributed, local_device_ids=[0], MPS), one device per process, as a
user runs JAX across hosts. arc runs in the settings a user has: no ARC_TARGET
(the target detected from the devices) and each GPU target by name (the
program's `arc_target` compiler option), fusion on and off (`arc_fuse`), no
`--quant`. Each process runs its programs one after another and saves its
outputs; the parent compares arc with native output by output:

  bit-identical   where every sum is exact whatever its order: the corpus's
                  inputs are small random integers (exact addends), a psum of
                  two addends is one correctly rounded addition in any order
  within a bound  elsewhere, derived from the order of additions
                  (docs/ACCURACY.md, "The differential check"): a psum within
                  2 (gamma_{W-1} + u) sum|x_i| in its type, h from its sum,
                  and y and the mean square checked against float64 from the
                  process's own h (each side on its own: both must hold)

A program that native runs and arc refuses, or that gives another shape, is a
mismatch; one that native cannot run is skipped, with the reason.

Programs: every module under the corpus folders (testdata/, examples/) whose
replicas x partitions is the process count, with exact-addend inputs; and
programs generated from a seed (psum over random shapes, dtypes and sizes from
1 element to 64 MiB, several operands, several all-reduces, a while loop; a
residual add and RMSNorm in JAX's spellings with random weights, epsilons,
rows, the weight before or after the convert back, second readers, the mean
over another axis, eps outside the sqrt), built by JAX as users write them.

Outputs, under --out: differential.json (every run and verdict),
differential.md (the table: programs, processes, targets, fusion, counts),
failures.txt (each mismatch with the command that reproduces it), and the
processes' logs (logs.tar.gz).

    python differential.py --out DIR [--procs 1,2,4] [--seed 1] [--generated 24]
        [--corpus testdata,examples] [--configs detect,cuda:nvlink,...] [--fuse on,off]
        [--only NAME,...] [--budget 480]
"""

import argparse
import hashlib
import json
import math
import os
import re
import socket
import subprocess
import sys
import tarfile
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TARGETS = ["detect", "cuda:nvlink", "cuda:pcie", "cuda:pcie-nop2p", "cuda:pcie-2numa"]
DTYPES = ["float32", "float16", "bfloat16"]
MAX_BYTES = 64 << 20

# ---- inputs: deterministic, the same in every process and in the parent ----------


def rng_for(*key):
    import numpy as np

    h = hashlib.sha256(repr(key).encode()).digest()
    return np.random.default_rng(int.from_bytes(h[:8], "little"))


def np_dtype(name):
    import numpy as np
    import ml_dtypes

    return {"bfloat16": np.dtype(ml_dtypes.bfloat16), "float16": np.dtype(np.float16), "float32": np.dtype(np.float32),
            "float64": np.dtype(np.float64), "int32": np.dtype(np.int32), "int64": np.dtype(np.int64),
            "int8": np.dtype(np.int8), "uint8": np.dtype(np.uint8), "uint32": np.dtype(np.uint32),
            "int16": np.dtype(np.int16), "uint16": np.dtype(np.uint16), "uint64": np.dtype(np.uint64),
            "bool": np.dtype(np.bool_)}.get(name) or np.dtype(name)


def make_input(key, dtype, shape, fill):
    """fill: "normal" N(0,1); "int" small random integers in [-4, 4] (exact
    addends: sums of up to 64 of them and their squares summed over 8192
    elements are exact in every float type); "weight" 1 + 0.1 N(0,1)."""
    import numpy as np

    r = rng_for(*key)
    dt = np_dtype(dtype)
    if dt == np.bool_:
        return r.integers(0, 2, size=shape).astype(np.bool_)
    if dt.kind in "iu":
        lo = 0 if dt.kind == "u" else -4
        return r.integers(lo, 5, size=shape).astype(dt)
    if fill == "int":
        x = r.integers(-4, 5, size=shape).astype(np.float32)
    elif fill == "weight":
        x = (1 + 0.1 * r.standard_normal(size=shape)).astype(np.float32)
    else:
        x = r.standard_normal(size=shape).astype(np.float32)
    return x.astype(dt)


# ---- generated programs ------------------------------------------------------------


def log_size(r, lo, hi):
    return int(round(math.exp(r.uniform(math.log(lo), math.log(hi)))))


def shape_of(r, elems):
    """A random shape of about elems elements, rank 0 to 3."""
    if elems <= 1:
        return [] if r.random() < 0.5 else [1]
    rank = int(r.integers(1, 4))
    dims = [elems]
    for _ in range(rank - 1):
        d = int(r.integers(1, 8))
        dims = [max(1, dims[0] // d), d] + dims[1:]
    return dims


def generate(seed, procs, count):
    """count program specs for procs processes, from seed: dicts the child
    builds with JAX and the parent checks."""
    r = rng_for("generate", seed, procs)
    specs = []
    # First, the shape of the fused norm's reported failure: a small psum
    # (one block of arc's kernel), then norms whose rows span segments
    # (hidden 4096 and 8192, several rows), both results returned.
    issue = [{"kind": "psum", "dtype": "float32", "shape": [8], "fill": "normal"},
             {"kind": "norm", "dtype": "bfloat16", "shape": [8, 4096], "eps": 1e-6, "mean": "mean", "weight": "io",
              "variant": "plain", "residual": "arg", "fill": "normal"},
             {"kind": "norm", "dtype": "float32", "shape": [4, 8192], "eps": 1e-6, "mean": "mean", "weight": "f32",
              "variant": "plain", "residual": "made", "fill": "normal"}]
    for i, s in enumerate(issue[:count]):
        s.update(name=f"gen{seed}-p{procs}-{i:03d}-{s['kind']}", seed=seed, index=i)
        specs.append(s)
    kinds = ["psum", "norm", "psum", "norm", "multi", "loop", "norm"]
    for i in range(len(specs), count):
        kind = kinds[i % len(kinds)]
        name = f"gen{seed}-p{procs}-{i:03d}-{kind}"
        dtype = DTYPES[int(r.integers(0, 3))]
        isz = np_dtype(dtype).itemsize
        s = {"name": name, "kind": kind, "dtype": dtype, "seed": seed, "index": i}
        if kind == "psum":
            if i % 14 == 0:  # the largest size, once in a while
                elems = MAX_BYTES // isz
            elif i % 14 == 7:
                elems = int(r.integers(1, 4))  # a scalar or a few elements
            else:
                elems = log_size(r, 1, (4 << 20) // isz)
            s["shape"] = shape_of(r, elems)
            s["fill"] = "int" if r.random() < 0.25 else "normal"
        elif kind == "norm":
            rows = [1, 3, 8, 33][int(r.integers(0, 4))]
            n = [64, 96, 1000, 2112, 4096, 8192][int(r.integers(0, 6))]
            s["shape"] = [rows, n]
            s["eps"] = float([1e-5, 1e-6, 0.25, float(r.uniform(1e-7, 1e-2))][int(r.integers(0, 4))])
            s["mean"] = ["mean", "mul", "div"][int(r.integers(0, 3))]  # jnp.mean, * (1/N), / N
            s["weight"] = ["io", "f32"][int(r.integers(0, 2))]  # the weight after or before the convert back
            # what else the program does: nothing, a second reader of the mean
            # square, a reader of h, eps outside the sqrt, the mean over rows
            s["variant"] = ["plain", "plain", "plain", "ms_reader", "h_reader", "eps_outside", "rows_axis"][
                int(r.integers(0, 7))]
            s["residual"] = ["arg", "arg", "made"][int(r.integers(0, 3))]  # an argument, or made in the program
            s["fill"] = "normal"
            s["square"] = ["mul", "jnp"][int(r.integers(0, 2))]  # h * h, or jnp.square (JAX prints chlo.square)
        elif kind == "multi":
            a = shape_of(r, log_size(r, 1, 65536))
            b = shape_of(r, log_size(r, 1, 65536))
            s["shape"], s["shape2"] = a, b
            s["dtype2"] = DTYPES[int(r.integers(0, 3))]
            s["fill"] = "normal"
        else:  # loop: a psum in a while loop; halving keeps the values exact
            s["shape"] = shape_of(r, log_size(r, 8, 65536))
            s["trips"] = int(r.integers(2, 5))
            s["fill"] = "int"
        specs.append(s)
    return specs


def generate_layernorms(seed, procs, count):
    """count LayerNorm programs for procs processes, from seed (a stream of
    their own, so generate's programs keep their names): a psum, the
    residual add, then LayerNorm as flax writes it, the mean of the squared
    deviations or the fast variance, with a bias or without, rows whose mean
    is far from zero (the fast variance's cancellation) or not."""
    r = rng_for("generate-layernorm", seed, procs)
    specs = []
    for i in range(count):
        rows = [1, 3, 8, 33][int(r.integers(0, 4))]
        n = [64, 96, 1000, 2112, 4096, 8192][int(r.integers(0, 6))]
        specs.append({"name": f"ln{seed}-p{procs}-{i:03d}-layernorm", "kind": "layernorm", "seed": seed, "index": i,
                      "dtype": DTYPES[int(r.integers(0, 3))], "shape": [rows, n],
                      "eps": float([1e-5, 1e-6, 0.25][int(r.integers(0, 3))]),
                      "variance": ["deviations", "fast"][int(r.integers(0, 2))],
                      "bias": bool(r.integers(0, 2)), "offset": float([0, 0, 4, 64][int(r.integers(0, 4))]),
                      "fill": "normal"})
    return specs


def gen_inputs(s, procs):
    """The global inputs of a generated program: per argument, an array whose
    leading dimension holds the processes' blocks, and whether it is split
    across processes (else every process has it whole)."""
    import numpy as np

    key = ("gen", s["seed"], s["index"], procs)
    shape = list(s["shape"])
    if s["kind"] == "norm":
        rows, n = shape
        args = [(make_input(key + ("x",), s["dtype"], [procs * rows, n], "normal"), True),
                (make_input(key + ("r",), s["dtype"], [procs * rows, n], "normal"), True),
                (make_input(key + ("w",), s["dtype"], [n], "weight"), False)]
        return args
    if s["kind"] == "layernorm":
        rows, n = shape
        key = key + ("layernorm",)  # its own inputs, not generate's program of its index
        res = make_input(key + ("r",), s["dtype"], [procs * rows, n], "normal")
        res = (res.astype(np.float32) + np.float32(s["offset"])).astype(res.dtype)  # a row mean far from zero
        return [(make_input(key + ("x",), s["dtype"], [procs * rows, n], "normal"), True), (res, True),
                (make_input(key + ("w",), s["dtype"], [n], "weight"), False),
                (make_input(key + ("b",), s["dtype"], [n], "normal"), False)]
    block = [procs * (shape[0] if shape else 1)] + shape[1:]
    args = [(make_input(key + ("x",), s["dtype"], block, s["fill"]), True)]
    if s["kind"] == "multi":
        s2 = list(s["shape2"])
        args.append((make_input(key + ("y",), s["dtype2"], [procs * (s2[0] if s2 else 1)] + s2[1:], s["fill"]), True))
    return args


def local_block(a, procs, p):
    n = a.shape[0] // procs
    return a[p * n:(p + 1) * n]


# ---- the child: build, compile and run every program of its job --------------------


def build_generated(s, procs, jax, jnp, lax, mesh, P):
    """The jitted function of a generated program and its outputs' names."""
    shard_map = getattr(jax, "shard_map", None)
    if shard_map is None:
        from jax.experimental.shard_map import shard_map
    ax = "x"
    shape = list(s["shape"])
    scalar = not shape

    def unblock(a):  # the process's block back to the program's shape
        return a.reshape(()) if scalar else a

    def block(a):
        return a.reshape((1,)) if scalar else a

    if s["kind"] == "psum":
        def f(x):
            return block(lax.psum(unblock(x), ax))
        return shard_map(f, mesh=mesh, in_specs=(P(ax),), out_specs=P(ax)), ["sum"]
    if s["kind"] == "multi":
        def f(x, y):
            a, b = lax.psum((unblock(x), y.reshape(()) if not s["shape2"] else y), ax)
            c = lax.psum(a * 2, ax)
            return block(a), (b.reshape((1,)) if not s["shape2"] else b), block(c)
        return shard_map(f, mesh=mesh, in_specs=(P(ax), P(ax)), out_specs=(P(ax), P(ax), P(ax))), ["sum", "sum2", "sum_twice"]
    if s["kind"] == "loop":
        trips = s["trips"]

        def f(x):
            def body(i, v):
                return (lax.psum(v, ax) * jnp.asarray(0.5, v.dtype)).astype(v.dtype)
            return block(lax.fori_loop(0, trips, body, unblock(x)))
        # the carry is a sum in every process after the first trip: no
        # varying-axes types for it
        return shard_map(f, mesh=mesh, in_specs=(P(ax),), out_specs=P(ax), check_vma=False), ["loop"]
    if s["kind"] == "layernorm":
        dt = jnp.dtype(s["dtype"])

        def layernorm(x, r, w, b):
            h = lax.psum(x, ax) + r
            hf = h.astype(jnp.float32)
            mean = jnp.mean(hf, axis=-1, keepdims=True)
            if s["variance"] == "fast":  # flax's use_fast_variance
                var = jnp.maximum(0.0, jnp.mean(jnp.square(hf), axis=-1, keepdims=True) - jnp.square(mean))
            else:
                var = jnp.mean(jnp.square(hf - mean), axis=-1, keepdims=True)
            y = (hf - mean) * lax.rsqrt(var + jnp.float32(s["eps"])) * w.astype(jnp.float32)
            if s["bias"]:
                y = y + b.astype(jnp.float32)
            return y.astype(dt), h

        return shard_map(layernorm, mesh=mesh, in_specs=(P(ax), P(ax), P(), P()), out_specs=(P(ax), P(ax))), ["y", "h"]
    # norm
    dt = jnp.dtype(s["dtype"])
    eps = s["eps"]
    rows, n = shape

    def norm(x, r, w):
        sm = lax.psum(x, ax)
        res = r if s["residual"] == "arg" else (r * jnp.asarray(0.5, dt))
        h = sm + res
        hf = h.astype(jnp.float32)
        axis = 0 if s["variant"] == "rows_axis" else -1
        sq = jnp.square(hf) if s.get("square") == "jnp" else hf * hf
        if s["mean"] == "mean":
            ms = jnp.mean(sq, axis=axis, keepdims=True)
        elif s["mean"] == "mul":
            ms = jnp.sum(sq, axis=axis, keepdims=True) * jnp.float32(1.0 / sq.shape[axis])
        else:
            ms = jnp.sum(sq, axis=axis, keepdims=True) / jnp.float32(sq.shape[axis])
        if s["variant"] == "eps_outside":
            z = hf / (jnp.sqrt(ms) + jnp.float32(eps))
        else:
            z = hf * lax.rsqrt(ms + jnp.float32(eps))
        if s["weight"] == "f32":
            y = (z * w.astype(jnp.float32)).astype(dt)
        else:
            y = z.astype(dt) * w
        outs = [y, h]
        if s["variant"] == "ms_reader":
            outs.append(ms)
        if s["variant"] == "h_reader":
            outs.append(hf * jnp.float32(2))
        return tuple(outs)

    names = ["y", "h"] + (["ms"] if s["variant"] == "ms_reader" else []) + (["h2"] if s["variant"] == "h_reader" else [])
    out_specs = tuple(P(ax) for _ in names)
    return shard_map(norm, mesh=mesh, in_specs=(P(ax), P(ax), P()), out_specs=out_specs), names


def module_info(text, ir, ctx):
    """The replicas, partitions and main's argument types of a module, as
    MLIR's own parser reads it."""
    with ctx:
        m = ir.Module.parse(text)
        attrs = m.operation.attributes
        nr = ir.IntegerAttr(attrs["mhlo.num_replicas"]).value if "mhlo.num_replicas" in attrs else 1
        npart = ir.IntegerAttr(attrs["mhlo.num_partitions"]).value if "mhlo.num_partitions" in attrs else 1
        main = None
        for op in m.body.operations:
            if op.operation.name == "func.func":
                name = ir.StringAttr(op.operation.attributes["sym_name"]).value
                if name == "main" or main is None and name != "main":
                    main = op
                if name == "main":
                    break
        args = []
        if main is not None:
            ftype = ir.FunctionType(ir.TypeAttr(main.operation.attributes["function_type"]).value)
            for t in ftype.inputs:
                rt = ir.RankedTensorType(t)
                args.append((str(rt.element_type), list(rt.shape)))
    return m, nr, npart, args


MLIR_ELEM = {"f32": "float32", "f16": "float16", "bf16": "bfloat16", "f64": "float64", "i32": "int32", "i64": "int64",
             "i8": "int8", "ui8": "uint8", "ui32": "uint32", "i16": "int16", "ui16": "uint16", "ui64": "uint64",
             "i1": "bool"}


def corpus_input(path, k, dev, elem, shape):
    """Argument k of a corpus module on device dev: exact addends."""
    return make_input(("corpus", os.path.relpath(path, ROOT), k, dev), MLIR_ELEM[elem], shape, "int")


def dumps_in(d):
    try:
        return {f for f in os.listdir(d) if f.endswith("-after.mlir")}
    except OSError:
        return set()


def dump_facts(d, names):
    """What arc's dumps of one compile say: its calls, fused calls, reasons."""
    calls = fused = 0
    reasons = []
    for f in sorted(names):
        try:
            t = open(os.path.join(d, f)).read()
        except OSError:
            continue
        calls += len(re.findall(r'call_target_name = "arc_allreduce"|custom_call @arc_allreduce', t))
        fused += len(re.findall(r'norm = \\?"rmsnorm\\?"', t))
        reasons += re.findall(r'arc\.reason = "([^"]*)"', t)[:4]
    return {"calls": calls, "fused": fused, "reasons": reasons[:4], "dumps": sorted(names)}


def wait_for_gpu(limit=60.0):
    """cuInit until it succeeds: after processes of a hung group are killed,
    MPS refuses new clients for a while (CUDA_ERROR_MPS_SERVER_NOT_READY)."""
    import ctypes

    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return
    end = time.time() + limit
    while cuda.cuInit(0) != 0 and time.time() < end:
        time.sleep(1)


def child(args):
    import numpy as np

    args.procs = int(args.procs)

    wait_for_gpu()
    os.environ["JAX_PLATFORMS"] = "cuda"
    if args.mode == "native":
        os.environ["ARC_DISABLE"] = "1"
    import jax
    import jax.numpy as jnp
    from jax import lax
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

    if args.procs > 1:
        jax.distributed.initialize(coordinator_address=f"127.0.0.1:{args.port}", num_processes=args.procs,
                                   process_id=args.process, local_device_ids=[0])
    from jax._src import compiler
    from jax._src.interpreters import mlir
    from jax._src.lib import xla_client as xc
    from jax._src.lib.mlir import ir

    devices = sorted(jax.devices(), key=lambda d: d.id)
    backend = devices[0].client
    mesh = Mesh(np.array(devices), ("x",))
    me = args.process
    mine = jax.local_devices()[0]  # this process's device
    job = json.load(open(args.job))
    dump_dir = os.environ.get("ARC_DUMP_DIR", "")
    progress = open(args.progress, "a")
    print(f"process {me}: {len(devices)} devices, {len(job)} runs, jax {jax.__version__}", file=sys.stderr, flush=True)

    def save(run_id, outs, info):
        # raw bytes: numpy's files do not keep ml_dtypes' bfloat16
        info["outs"] = {k: {"dtype": str(v.dtype), "shape": list(v.shape)} for k, v in outs.items()}
        np.savez(os.path.join(args.res, f"{run_id}.p{me}.npz"),
                 **{k: np.ascontiguousarray(v).view(np.uint8).reshape(-1) for k, v in outs.items()})
        json.dump(info, open(os.path.join(args.res, f"{run_id}.p{me}.json"), "w"))

    def options(cfg):
        o = {}
        if args.mode == "arc":
            if cfg["target"] != "detect":
                o["arc_target"] = cfg["target"]
            o["arc_fuse"] = "true" if cfg["fuse"] else "false"
        return o

    def run_generated(s, cfg):
        f, names = build_generated(s, args.procs, jax, jnp, lax, mesh, P)
        arrays = []
        for a, split in gen_inputs(s, args.procs):
            sh = NamedSharding(mesh, P("x") if split else P())
            arrays.append(jax.make_array_from_callback(a.shape, sh, lambda idx, a=a: a[idx]))
        lowered = jax.jit(f).lower(*arrays)
        exe = lowered.compile(compiler_options=options(cfg) or None)
        outs = exe(*arrays)
        outs = outs if isinstance(outs, (tuple, list)) else [outs]
        got = {}
        for name, o in zip(names, outs):
            shard = [x for x in o.addressable_shards][0]
            got[name] = np.asarray(shard.data)
        return got

    def run_corpus(path, cfg):
        text = open(path).read()
        ctx = mlir.make_ir_context()
        module, nr, npart, argtypes = module_info(text, ir, ctx)
        nd = nr * npart
        devs = devices[:nd]
        assign = np.array(devs, dtype=object).reshape(nr, npart)
        opts = compiler.get_compile_options(num_replicas=nr, num_partitions=npart, device_assignment=assign,
                                            env_options_overrides=options(cfg) or None, backend=backend)
        opts.executable_build_options.use_spmd_partitioning = npart > 1
        with ctx:
            exe = backend.compile_and_load(module, executable_devices=xc.DeviceList(tuple(devs)), compile_options=opts)
        arrays = []
        if npart == 1:
            # Replicas: each device gets arguments of its own, of the
            # argument's shape, wrapped as a replicated array (the executable
            # reads each device's own buffer).
            for k, (elem, shape) in enumerate(argtypes):
                x = corpus_input(path, k, mine.id, elem, shape)
                buf = jax.device_put(x, mine)
                arrays.append(jax.make_array_from_single_device_arrays(tuple(shape), NamedSharding(mesh, P()), [buf]))
        else:
            # Partitions: global arguments, split as the executable wants them.
            from jax._src.sharding_impls import GSPMDSharding

            shardings = exe.get_parameter_shardings()
            for k, (elem, shape) in enumerate(argtypes):
                g = corpus_input(path, k, "global", elem, shape)
                sh = GSPMDSharding(tuple(devs), shardings[k])
                arrays.append(jax.make_array_from_callback(tuple(shape), sh, lambda idx, g=g: g[idx]))
        res = exe.execute_sharded(arrays)
        outs = res.disassemble_into_single_device_arrays()
        got = {}
        for i, o in enumerate(outs):
            local = [a for a in o if list(a.devices())[0] == mine]
            got[f"out{i}"] = np.asarray((local or o)[0])
        return got

    for run in job:
        rid, cfg = run["id"], run["config"]
        progress.write(f"start {rid}\n")
        progress.flush()
        before = dumps_in(dump_dir) if dump_dir else set()
        t0 = time.time()
        info = {"id": rid, "ok": True}
        outs = {}
        try:
            if run["program"].get("path"):
                outs = run_corpus(os.path.join(ROOT, run["program"]["path"]), cfg)
            else:
                outs = run_generated(run["program"], cfg)
        except Exception as e:  # noqa: BLE001 - every failure is a finding
            info["ok"] = False
            info["error"] = f"{type(e).__name__}: {e}"[:2000]
            info["trace"] = traceback.format_exc()[-2000:]
        info["seconds"] = round(time.time() - t0, 3)
        if dump_dir:
            info["arc"] = dump_facts(dump_dir, dumps_in(dump_dir) - before)
        save(rid, outs, info)
        progress.write(f"done {rid}\n")
        progress.flush()
        if not info["ok"] and "arc_allreduce" in info.get("error", ""):
            # arc's communicator is unusable after a failure: the next runs
            # start in fresh processes (the parent sees EXIT_FRESH)
            os._exit(EXIT_FRESH)
    if args.procs > 1:
        jax.distributed.shutdown()


# ---- the parent: jobs, processes, verdicts --------------------------------------------


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def corpus(folders, procs_list, ir, mlir):
    """The corpus modules that run on one of procs_list, with their device
    counts; others are listed with the reason."""
    found, skipped = [], []
    for folder in folders:
        for base, _, files in os.walk(os.path.join(ROOT, folder)):
            for f in sorted(files):
                if not f.endswith(".mlir"):
                    continue
                path = os.path.join(base, f)
                rel = os.path.relpath(path, ROOT)
                try:
                    text = open(path).read()
                    ctx = mlir.make_ir_context()
                    _, nr, npart, args = module_info(text, ir, ctx)
                except Exception as e:  # noqa: BLE001
                    skipped.append((rel, f"reading it: {str(e).splitlines()[0][:160] if str(e) else type(e).__name__}"))
                    continue
                nd = nr * npart
                if nd not in procs_list:
                    skipped.append((rel, f"{nr} x {npart} devices"))
                    continue
                bad = [e for e, shape in args if e not in MLIR_ELEM or any(d < 0 for d in shape)]
                if bad:
                    skipped.append((rel, f"argument types {bad}"))
                    continue
                found.append({"name": rel, "path": rel, "devices": nd})
    return found, skipped


class Mps:
    """The MPS daemon the processes share. A kernel that spins forever (a
    hang) stays on the GPU after its process is killed, and MPS then refuses
    or faults every new client: after a hang every group kills its
    processes, the daemon restarts, and the groups go on from where they
    were (only the group whose run hung records it)."""

    def __init__(self, manage):
        self.manage = manage
        self.cv = threading.Condition()
        self.gen = 0
        self.busy = False

    def ready(self):
        with self.cv:
            self.cv.wait_for(lambda: not self.busy)
            return self.gen

    def restart(self, why):
        with self.cv:
            if self.busy:
                self.cv.wait_for(lambda: not self.busy)
                return
            self.busy = True
            self.gen += 1
        print(f"restarting MPS: {why}", flush=True)
        time.sleep(1.5)  # every group sees the new generation and kills its processes
        if self.manage:
            subprocess.run("echo quit | nvidia-cuda-mps-control", shell=True, timeout=60)
            time.sleep(2)
            subprocess.run(["nvidia-cuda-mps-control", "-d"], timeout=60)
        for _ in range(60):  # until a new client can start
            probe = subprocess.run([sys.executable, "-c", "import ctypes,sys; sys.exit(ctypes.CDLL('libcuda.so.1').cuInit(0))"],
                                   timeout=60)
            if probe.returncode == 0:
                break
            time.sleep(1)
        with self.cv:
            self.busy = False
            self.cv.notify_all()


# A child's exit code after a run in which arc failed: its processes'
# communicators are unusable, so the rest of its runs start in new ones.
EXIT_FRESH = 3


def launch(args, procs, mode, runs, tag):
    """Runs runs in procs fresh processes; a run that hangs past
    --run-timeout is recorded and the rest start again in new processes."""
    res = os.path.join(args.work, "res", tag)
    os.makedirs(res, exist_ok=True)
    hung = []
    todo = list(runs)
    failures = 0  # launches in a row where no run started
    while todo:
        gen = args.mps.ready()
        port = free_port()
        job = os.path.join(args.work, f"job-{tag}.json")
        json.dump(todo, open(job, "w"))
        progress = os.path.join(args.work, f"progress-{tag}")
        open(progress, "w").close()
        ps = []
        for p in range(procs):
            env = dict(os.environ)
            env.update(XLA_PYTHON_CLIENT_PREALLOCATE="false", TF_CPP_MIN_LOG_LEVEL="2", PYTHONUNBUFFERED="1",
                       # native NCCL with several ranks on one GPU: each process poses as a host
                       NCCL_HOSTID=f"arc-diff-{tag}-{p}", NCCL_NET="Socket", NCCL_SOCKET_IFNAME="lo",
                       NCCL_P2P_DISABLE="1", NCCL_SHM_DISABLE="1", ARC_PYTHON=sys.executable,
                       # the same GEMM kernels in every compile: autotuning picks by timing,
                       # so two compiles of one program may otherwise round differently
                       XLA_FLAGS=(os.environ.get("XLA_FLAGS", "") + " --xla_gpu_autotune_level=0").strip())
            env.pop("ARC_TARGET", None)
            env.pop("ARC_QUANT", None)
            if mode == "arc":
                env["ARC_DUMP_DIR"] = os.path.join(args.work, "dumps", f"{tag}-{p}")
                # arc's watchdog (10 minutes by default) fails a call that waits
                # for a peer before the harness counts it as a hang: the log then
                # says which rank waited for which
                env.setdefault("ARC_TIMEOUT_MS", str(int(args.run_timeout * 500)))
                # a call that fails says so itself, not the process's next call:
                # the failure is the program's that had it
                env.setdefault("ARC_SYNC_CALLS", "1")
            cmd = [sys.executable, __file__, "--child", "--mode", mode, "--procs", str(procs), "--process", str(p),
                   "--port", str(port), "--job", job, "--res", res, "--progress", progress + (f".{p}" if p else "")]
            log = open(os.path.join(args.work, "logs", f"{tag}-{p}.log"), "a")
            ps.append(subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True))
        hang = restarted = fresh = False
        while time.time() < args.deadline and any(p.poll() is None for p in ps):
            time.sleep(0.2)
            if args.mps.gen != gen:
                restarted = True  # another group hung: MPS restarts
                break
            tokens = open(progress).read().split()
            if len(tokens) >= 2 and tokens[-2] == "start" and os.path.getmtime(progress) < time.time() - args.run_timeout:
                hang = True  # the run in progress hangs
                break
            if any(p.poll() == EXIT_FRESH for p in ps):
                fresh = True  # arc failed in a run, which is recorded: go on in new processes
                break
            if any(p.poll() not in (None, 0) for p in ps):
                # A process died: the others would wait for it in a collective.
                # Another group's hang kills MPS's clients before the daemon's
                # restart is announced: wait for the announcement a moment, so
                # that such a death is not taken for this run's.
                for _ in range(25):
                    if args.mps.gen != gen or args.mps.busy:
                        restarted = True
                        break
                    time.sleep(0.2)
                break
        for p in ps:
            if p.poll() is None:
                os.killpg(p.pid, 9)
                p.wait()
        done, started = set(), None
        tokens = open(progress).read().split()
        for kind, rid in zip(tokens[0::2], tokens[1::2]):
            if kind == "done":
                done.add(rid)
            else:
                started = rid
        rest = [r for r in todo if r["id"] not in done]
        if not rest:
            break
        if time.time() >= args.deadline:
            hung += [(r["id"], "not run: out of time") for r in rest]
            break
        if restarted or fresh:
            todo = rest
            continue
        if hang:
            args.mps.restart(f"{tag} hung at {rest[0]['id']}")
        if started is not None:
            failures = 0
        else:
            failures += 1
            if failures >= 3:
                hung += [(r["id"], "not run: the processes failed to start") for r in rest]
                break
            args.mps.restart(f"{tag} failed to start")
            continue
        first = rest[0]
        hung.append((first["id"], "hung or killed its processes" if first["id"] == started else "its processes exited"))
        todo = rest[1:]
    return res, hung


U = {"float32": 2.0 ** -24, "float16": 2.0 ** -11, "bfloat16": 2.0 ** -8, "float64": 2.0 ** -53}
TINY = {"float32": 2.0 ** -149, "float16": 2.0 ** -24, "bfloat16": 2.0 ** -133, "float64": 0.0}


def gamma(n, u):
    return n * u / (1 - n * u) if n * u < 1 else math.inf


def f64(a):
    import numpy as np

    return np.asarray(a).astype(np.float64)


def identical(a, b):
    import numpy as np

    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind == "f" or a.dtype.name == "bfloat16":
        an, bn = np.isnan(f64(a)), np.isnan(f64(b))
        if not np.array_equal(an, bn):
            return False
        return np.array_equal(a.view(np.uint8).reshape(-1)[~np.repeat(an.reshape(-1), a.itemsize)],
                              b.view(np.uint8).reshape(-1)[~np.repeat(bn.reshape(-1), b.itemsize)])
    return np.array_equal(a, b)


def within(got, want, bound):
    """|got - want| <= bound elementwise; the first element that is not."""
    import numpy as np

    d = np.abs(f64(got) - f64(want))
    bad = ~(d <= bound)
    if not bad.any():
        return True, ""
    i = int(np.argmax(bad.reshape(-1)))
    return False, (f"element {i}: {f64(got).reshape(-1)[i]!r} vs {f64(want).reshape(-1)[i]!r}, "
                   f"difference {d.reshape(-1)[i]:.3g} over the bound {np.broadcast_to(bound, d.shape).reshape(-1)[i]:.3g} "
                   f"({int(bad.sum())} of {bad.size} elements)")


def norm_reference(h, w, s):
    """y and the mean square from a process's own h, in float64, as the
    program computes them (its constants as f32)."""
    import numpy as np

    hf = f64(h)
    axis = 0 if s["variant"] == "rows_axis" else -1
    n = hf.shape[axis]
    ss = (hf * hf).sum(axis=axis, keepdims=True)
    if s["mean"] == "mul":
        ms = ss * float(np.float32(1.0 / n))
    else:
        ms = ss / n
    eps = float(np.float32(s["eps"]))
    z = hf / (np.sqrt(ms) + eps) if s["variant"] == "eps_outside" else hf / np.sqrt(ms + eps)
    return z * f64(w), ms


def layernorm_reference(h, w, b, s):
    """y from a process's own h, in float64, and the bound of a float32
    computation of it in the program's order, element by element
    (docs/ACCURACY.md, "LayerNorm"): the mean's error from any order of its
    sum, the deviations', the variance's (the fast one's cancels against
    the mean's square), and rsqrt's, then the weight, the bias and the
    output's rounding."""
    import numpy as np

    u = U["float32"]
    a = f64(h)
    n = a.shape[-1]
    mean = a.mean(axis=-1, keepdims=True)
    d = a - mean
    var = (d * d).mean(axis=-1, keepdims=True)  # both variances' exact value
    eps = float(np.float32(s["eps"]))
    k = 1 / np.sqrt(var + eps)
    wf, bf = f64(w), (f64(b) if s["bias"] else 0.0)
    y = d * k * wf + bf
    dm = (gamma(n, u) + 2 * u) * np.abs(a).mean(axis=-1, keepdims=True)  # the mean's error
    dd = dm * (1 + u) + u * np.abs(d)  # each deviation's
    if s["variance"] == "fast":
        m2 = (a * a).mean(axis=-1, keepdims=True)
        dv = (gamma(n + 1, u) + 2 * u) * m2 + 2 * np.abs(mean) * dm + dm * dm + 2 * u * mean * mean
    else:
        dv = gamma(n + 2, u) * var + (2 * np.abs(d) * dd + dd * dd).mean(axis=-1, keepdims=True) * (1 + gamma(n + 2, u))
    rest = var + eps - dv
    # k computed / k exact is within [sqrt((V+e)/(V+e+dV)), sqrt((V+e)/(V+e-dV))], then rsqrt's 2 ulp and + eps's rounding
    relk = np.where(rest > 0, np.sqrt((var + eps) / np.maximum(rest, 1e-300)) - 1, np.inf) + 6 * u
    ut = U[s["dtype"]]
    bound = (np.abs(wf) * k * (dd + np.abs(d) * relk) * (1 + 3 * u) + 3 * u * np.abs(d * k * wf)
             + u * np.abs(bf) + ut * np.abs(y) + TINY[s["dtype"]])
    return y, bound


def settled(key, a, n):
    """The check of an output that needs no bound: another shape or type
    (a mismatch), or the same bits; None when the bits differ."""
    if a is None or a.shape != n.shape or a.dtype != n.dtype:
        return (key, False, "shape", f"arc {None if a is None else (a.shape, a.dtype)} vs native {(n.shape, n.dtype)}")
    if identical(a, n):
        return (key, True, "identical", "")
    return None


def verdict_generated(s, procs, native, arc):
    """Checks of one generated program's outputs, each a (name, ok, how, why)."""
    import numpy as np

    checks = []
    args = gen_inputs(s, procs)
    dt = s["dtype"]
    u32, ut = U["float32"], U[dt]
    for p in range(procs):
        for name in native[p]:
            a, n = arc[p].get(name), native[p][name]
            if c := settled(f"p{p}.{name}", a, n):
                checks.append(c)
                continue
            # what each output may differ by
            if s["kind"] in ("psum", "multi", "loop") or name == "h":
                if s["kind"] == "loop" or s.get("fill") == "int" and s["kind"] != "norm":
                    checks.append((f"p{p}.{name}", False, "identical", "exact addends, yet the bits differ"))
                    continue
                if procs <= 2:
                    checks.append((f"p{p}.{name}", False, "identical", "a sum of two addends, yet the bits differ"))
                    continue
                x = args[0][0] if name in ("sum", "h", "sum_twice") else args[1][0]
                odt = dt if name != "sum2" else s["dtype2"]
                blocks = f64(x).reshape((procs, -1) + x.shape[1:])
                mag = np.abs(blocks).sum(axis=0).reshape(n.shape)
                if name == "sum_twice":  # psum(2 psum(x)): both sums' errors, the first's doubled W times
                    mag = mag * 4 * procs
                w = procs
                bound = 2 * (gamma(w - 1, U[odt]) + U[odt]) * mag + w * TINY[odt]
                if name == "h":
                    hb = np.maximum(np.abs(f64(a)), np.abs(f64(n)))
                    bound = bound + 2 * ut * hb
                ok, why = within(a, n, bound)
                checks.append((f"p{p}.{name}", ok, "sum bound", why))
                continue
            if s["kind"] == "layernorm":  # y: each side against float64 from its own h
                bad = []
                for side, outs in (("arc", arc[p]), ("native", native[p])):
                    y_ref, bound = layernorm_reference(outs["h"], args[2][0], args[3][0], s)
                    ok, why = within(outs["y"], y_ref, bound)
                    if not ok:
                        bad.append(f"{side}: {why}")
                arc_bad = [b for b in bad if b.startswith("arc")]
                checks.append((f"p{p}.{name}", not arc_bad, "layernorm bound", "; ".join(bad)))
                continue
            # y, ms, h2: each side against float64 from its own h
            rows, nn = s["shape"]
            w = args[2][0]
            bad = []
            for side, outs in (("arc", arc[p]), ("native", native[p])):
                h = outs["h"]
                y_ref, ms_ref = norm_reference(h, w, s)
                nred = nn if s["variant"] != "rows_axis" else rows
                rel = gamma(nred, u32) / 2 + 7 * u32 + 2 * ut + (4 * u32 if s["variant"] == "eps_outside" else 0)
                if name == "y":
                    ok, why = within(outs["y"], y_ref, rel * np.abs(y_ref) + TINY[dt])
                elif name == "ms":
                    ok, why = within(outs["ms"], ms_ref, (gamma(nred, u32) + 2 * u32) * np.abs(ms_ref) + TINY["float32"])
                else:  # h2 = f32(h) * 2: exact from h
                    ok, why = within(outs["h2"], f64(h) * 2, 0.0)
                if not ok:
                    bad.append(f"{side}: {why}")
            arc_bad = [b for b in bad if b.startswith("arc")]
            checks.append((f"p{p}.{name}", not arc_bad, "norm bound", "; ".join(bad)))
    return checks


def exact_addends(path):
    """Whether every all-reduce of a corpus module sums block arguments, which
    the run fills with small integers: then any order of the additions gives
    the same bits. An all-reduce of values the program computed (a matmul of
    a norm's output) has addends with low bits, whose sum depends on the order
    once there are three or more."""
    with open(path) as f:
        text = f.read()
    args = set(re.findall(r"(%[\w.$-]+)\s*:\s*tensor<", text))  # only block arguments are written "%x: type"
    operands = []
    for m in re.finditer(r'all_reduce"?\s*\(([^)]*)\)', text):
        operands += [o.strip() for o in m.group(1).split(",") if o.strip()]
    return bool(operands) and all(o in args for o in operands)


def verdict_corpus(procs, native, arc, fused, exact=True):
    """Corpus modules run on integer inputs: identical, but where arc fused a
    norm (its dump says so), whose outputs are held to the norm's bound
    relative to native's (docs/ACCURACY.md), and, with three processes or
    more, where an all-reduce sums values the program computed (not exact):
    arc adds them in rank order, NCCL in its own, which the order of
    additions allows; those are reported, not judged."""
    import numpy as np

    checks = []
    for p in range(procs):
        for name in native[p]:
            a, n = arc[p].get(name), native[p][name]
            if c := settled(f"p{p}.{name}", a, n):
                checks.append(c)
                continue
            if fused and (a.dtype.kind == "f" or a.dtype.name == "bfloat16"):
                dt = a.dtype.name if a.dtype.name in U else "float32"
                nred = a.shape[-1] if a.ndim else 1
                rel = 2 * (gamma(nred, U["float32"]) / 2 + 7 * U["float32"] + 2 * U[dt])
                ok, why = within(a, n, rel * np.abs(f64(n)) + TINY[dt])
                if ok:
                    checks.append((f"p{p}.{name}", True, "norm bound", ""))
                else:
                    # An output computed from a fused norm's y by later ops: its
                    # difference grows through them, which no bound of the
                    # norm's own covers. Not judged; its size is reported.
                    d = np.abs(f64(a) - f64(n)) / np.maximum(np.abs(f64(n)), TINY[dt])
                    checks.append((f"p{p}.{name}", None, "downstream of a fused norm",
                                   f"max relative difference {float(d.max()):.3g}"))
                continue
            if not exact and procs > 2 and (a.dtype.kind == "f" or a.dtype.name == "bfloat16"):
                d = np.abs(f64(a) - f64(n)) / np.maximum(np.abs(f64(n)), TINY[a.dtype.name if a.dtype.name in TINY else "float32"])
                checks.append((f"p{p}.{name}", None, "order of additions",
                               f"addends computed by the program, summed in another order: max relative difference {float(d.max()):.3g}"))
                continue
            checks.append((f"p{p}.{name}", False, "identical", "exact addends, yet the bits differ"))
    return checks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="/tmp/arc-differential")
    ap.add_argument("--work", default="")
    ap.add_argument("--procs", default="1,2,4")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--generated", type=int, default=24, help="generated programs per process count")
    ap.add_argument("--layernorms", type=int, default=0,
                    help="generated LayerNorm programs per process count (names ln<seed>-...; a build whose kernels run LayerNorm)")
    ap.add_argument("--corpus", default="testdata,examples")
    ap.add_argument("--configs", default=",".join(TARGETS))
    ap.add_argument("--fuse", default="on,off")
    ap.add_argument("--only", default="", help="program names (or substrings) to run, comma-separated")
    ap.add_argument("--budget", type=float, default=480, help="seconds for everything")
    ap.add_argument("--run-timeout", type=float, default=90, help="seconds one run may take before it counts as a hang")
    ap.add_argument("--label", default="", help="a word for the table's title (the device, a planted defect)")
    ap.add_argument("--shards", type=int, default=3, help="groups of processes the arc runs of a process count split into")
    ap.add_argument("--gpu-groups", type=int, default=1,
                    help="groups of processes that run arc's kernels at once on the GPU (each group's grids fill it)")
    ap.add_argument("--processes", type=int, default=16, help="processes at a time (each compiles on a core)")
    ap.add_argument("--mps", action="store_true", help="restart the MPS daemon after a hang (differential.sh started it)")
    # child
    ap.add_argument("--child", action="store_true")
    ap.add_argument("--mode")
    ap.add_argument("--process", type=int, default=0)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--job")
    ap.add_argument("--res")
    ap.add_argument("--progress")
    args = ap.parse_args()
    if args.child:
        child(args)
        return 0
    return parent(args)


def parent(args):
    import numpy as np

    start = time.time()
    args.deadline = start + args.budget
    args.mps = Mps(args.mps)
    args.work = args.work or args.out + "-work"
    os.makedirs(args.out, exist_ok=True)
    for d in ("logs", "res", "dumps"):
        os.makedirs(os.path.join(args.work, d), exist_ok=True)
    from jax._src.interpreters import mlir
    from jax._src.lib.mlir import ir

    procs_list = [int(p) for p in args.procs.split(",")]
    folders = [f for f in args.corpus.split(",") if f]
    files, skipped = corpus(folders, procs_list, ir, mlir)
    configs = [{"target": t, "fuse": f == "on"} for t in args.configs.split(",") for f in args.fuse.split(",")]
    only = [o for o in args.only.split(",") if o]
    results, hangs = [], []
    plans = []  # (procs, programs, native runs, arc runs)
    for procs in procs_list:
        programs = ([f for f in files if f["devices"] == procs] + generate(args.seed, procs, args.generated)
                    + generate_layernorms(args.seed, procs, args.layernorms))
        if only:
            programs = [p for p in programs if any(o in p["name"] for o in only)]
        if not programs:
            continue
        native_runs, arc_runs = [], []
        for k, prog in enumerate(programs):
            native_runs.append({"id": f"n{k:04d}", "program": prog, "config": {"target": "native", "fuse": False}})
            for c, cfg in enumerate(configs):
                arc_runs.append({"id": f"a{k:04d}c{c:02d}", "program": prog, "config": cfg})
        print(f"== {procs} process(es): {len(programs)} programs, {len(native_runs)} native and {len(arc_runs)} arc runs",
              flush=True)
        plans.append((procs, programs, native_runs, arc_runs))
    # Every group of processes compiles on the CPU: run groups side by side,
    # the arc runs of a process count split into shards, about one process
    # per core at a time.
    lock = threading.Condition()
    free = [max(args.processes, max(procs_list))]  # processes that may start now
    # groups of processes running arc's kernels at once: arc sizes a rank's
    # grid to its share of the GPU among its group's ranks (gpu/arc_comm.cc,
    # grid_of), whose blocks must all be resident, since they wait for each
    # other; two groups' grids overfill the GPU, and their ranks starve one
    # another until the watchdog fails them
    gpu = [max(1, args.gpu_groups)]
    resdirs = {}

    def run_group(procs, mode, runs, tag):
        ranks = 1 if mode == "arc" and procs > 1 else 0
        with lock:  # all of a group's processes at once, or none
            lock.wait_for(lambda: free[0] >= procs and gpu[0] >= ranks)
            free[0] -= procs
            gpu[0] -= ranks
        try:
            res, h = launch(args, procs, mode, runs, tag)
        finally:
            with lock:
                free[0] += procs
                gpu[0] += ranks
                lock.notify_all()
        with lock:
            hangs.extend((procs, rid, why) for rid, why in h)
            for r in runs:
                resdirs[(procs, r["id"])] = res

    def load(procs, rid):
        res = resdirs.get((procs, rid))
        outs, infos = [], []
        for p in range(procs):
            f = os.path.join(res or "", f"{rid}.p{p}")
            if res is None or not os.path.exists(f + ".json") or not os.path.exists(f + ".npz"):
                return None, None
            info = json.load(open(f + ".json"))
            raw = np.load(f + ".npz")
            outs.append({k: raw[k].view(np_dtype(m["dtype"])).reshape(m["shape"])
                         for k, m in info.get("outs", {}).items()})
            infos.append(info)
        return outs, infos

    def run_all(groups):
        threads = [threading.Thread(target=run_group, args=g) for g in sorted(groups, key=lambda g: -len(g[2]))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    # Native first: a program native cannot run (or that hangs there) is
    # skipped, and arc's runs of it are not made.
    run_all([(procs, "native", native_runs, f"p{procs}-native") for procs, _, native_runs, _ in plans])
    groups = []
    for procs, _, _, arc_runs in plans:
        runnable = []
        for r in arc_runs:
            _, ninfo = load(procs, "n" + r["id"][1:5])
            if ninfo is not None and all(i["ok"] for i in ninfo):
                runnable.append(r)
        shards = max(1, min(args.shards, len(runnable)))
        for k in range(shards):
            if runnable[k::shards]:
                groups.append((procs, "arc", runnable[k::shards], f"p{procs}-arc{k}"))
    run_all(groups)

    for procs, programs, _, _ in plans:
        for k, prog in enumerate(programs):
            nouts, ninfo = load(procs, f"n{k:04d}")
            if ninfo is None:
                for c, cfg in enumerate(configs):
                    results.append({"procs": procs, "program": prog["name"], "kind": prog.get("kind", "corpus"),
                                    "target": cfg["target"], "fuse": cfg["fuse"], "seed": prog.get("seed"),
                                    "id": f"a{k:04d}c{c:02d}", "verdict": "skipped",
                                    "why": "native: no result (it hangs, or killed its processes)"})
    done_rows = {(r["procs"], r["id"]) for r in results}

    for procs, programs, _, _ in plans:
        for k, prog in enumerate(programs):
            nouts, ninfo = load(procs, f"n{k:04d}")
            for c, cfg in enumerate(configs):
                rid = f"a{k:04d}c{c:02d}"
                if (procs, rid) in done_rows:
                    continue
                row = {"procs": procs, "program": prog["name"], "kind": prog.get("kind", "corpus"),
                       "target": cfg["target"], "fuse": cfg["fuse"], "seed": prog.get("seed"), "id": rid}
                aouts, ainfo = load(procs, rid)
                hung = [why for hp, hid, why in hangs if hp == procs and hid == rid]
                if nouts is not None and aouts is None and hung and not hung[0].startswith("not run"):
                    row.update(verdict="mismatch", why=f"arc {hung[0]} where native ran")
                elif nouts is None or aouts is None:
                    row.update(verdict="not run", why="no result: " + (hung[0] if hung else "out of time"))
                elif not all(i["ok"] for i in ninfo):
                    row.update(verdict="skipped", why="native: " + ninfo[0].get("error", "?")[:300])
                elif not all(i["ok"] for i in ainfo):
                    row.update(verdict="mismatch", why="arc failed where native ran: " +
                               next(i.get("error", "?") for i in ainfo if not i["ok"])[:600])
                else:
                    facts = ainfo[0].get("arc", {})
                    row["arc"] = {"calls": facts.get("calls", 0), "fused": facts.get("fused", 0),
                                  "reasons": facts.get("reasons", [])}
                    row["seconds"] = {"native": ninfo[0].get("seconds"), "arc": ainfo[0].get("seconds")}
                    if prog.get("path"):
                        checks = verdict_corpus(procs, nouts, aouts, facts.get("fused", 0) > 0,
                                                exact_addends(os.path.join(ROOT, prog["path"])))
                    else:
                        checks = verdict_generated(prog, procs, nouts, aouts)
                    failed = [c for c in checks if c[1] is False]
                    unjudged = [c for c in checks if c[1] is None]
                    row["checks"] = len(checks)
                    row["how"] = sorted({c[2] for c in checks})
                    row["verdict"] = "mismatch" if failed else "unjudged" if unjudged else "ok"
                    if unjudged:
                        row["unjudged"] = "; ".join(f"{c[0]}: {c[3]}" for c in unjudged[:4])
                    row["why"] = "; ".join(f"{c[0]} ({c[2]}): {c[3]}" for c in failed[:3])
                    notes = [c[3] for c in checks if c[1] and c[3]]
                    if notes:
                        row["note"] = notes[0][:300]
                results.append(row)
    elapsed = time.time() - start
    report(args, results, skipped, hangs, elapsed)
    return 1 if any(r["verdict"] == "mismatch" for r in results) or hangs else 0


def report(args, results, skipped, hangs, elapsed):
    json.dump({"results": results, "skipped": skipped, "hangs": hangs, "seconds": elapsed,
               "argv": sys.argv[1:]}, open(os.path.join(args.out, "differential.json"), "w"), indent=1)
    from collections import Counter

    lines = [f"# The differential check{': ' + args.label if args.label else ''}", "",
             f"`python devtest/differential.py {' '.join(sys.argv[1:])}` ({elapsed:.0f} s)", "",
             "| processes | target | fusion | programs | ok | mismatch | unjudged (after a fused norm) | skipped (native fails) | not run | arc calls | fused |",
             "| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    groups = {}
    for r in results:
        groups.setdefault((r["procs"], r["target"], r["fuse"]), []).append(r)
    for (procs, target, fuse), rs in sorted(groups.items()):
        c = Counter(r["verdict"] for r in rs)
        calls = sum(r.get("arc", {}).get("calls", 0) for r in rs)
        fused = sum(r.get("arc", {}).get("fused", 0) for r in rs)
        lines.append(f"| {procs} | {target} | {'on' if fuse else 'off'} | {len(rs)} | {c['ok']} | {c['mismatch']} | "
                     f"{c['unjudged']} | {c['skipped']} | {c['not run']} | {calls} | {fused} |")
    total = Counter(r["verdict"] for r in results)
    lines += ["", f"Runs: {len(results)}; ok {total['ok']}, mismatch {total['mismatch']}, unjudged {total['unjudged']}, "
              f"skipped {total['skipped']}, not run {total['not run']}; hangs {len(hangs)}. Corpus modules left out: "
              f"{len(skipped)}.", ""]
    for r in results:
        if r["verdict"] == "unjudged":
            lines.append(f"Unjudged: {r['procs']}p {r['target']} {r['program']}: {r['unjudged']}")
    kinds = Counter((r["kind"], r["verdict"]) for r in results)
    lines.append("By kind: " + ", ".join(f"{k} {v}: {n}" for (k, v), n in sorted(kinds.items())))
    open(os.path.join(args.out, "differential.md"), "w").write("\n".join(lines) + "\n")
    with open(os.path.join(args.out, "failures.txt"), "w") as f:
        for r in results:
            if r["verdict"] in ("mismatch", "not run"):
                again = (f"python devtest/differential.py --procs {r['procs']} --seed {r['seed'] or args.seed} "
                         f"--only {r['program']} --configs {r['target']} --fuse {'on' if r['fuse'] else 'off'}"
                         + (f" --layernorms {args.layernorms}" if r["kind"] == "layernorm" else ""))
                f.write(f"{r['verdict'].upper()} {r['procs']}p {r['target']} fuse={'on' if r['fuse'] else 'off'} "
                        f"{r['program']}: {r['why']}\n  again: {again}\n")
        for procs, rid, why in hangs:
            f.write(f"HANG {procs}p {rid}: {why}\n")
        for rel, why in skipped:
            f.write(f"LEFT OUT {rel}: {why}\n")
    print(open(os.path.join(args.out, "differential.md")).read())
    fails = [r for r in results if r["verdict"] == "mismatch"]
    for r in fails[:20]:
        print(f"MISMATCH {r['procs']}p {r['target']} fuse={'on' if r['fuse'] else 'off'} {r['program']}: {r['why'][:400]}")
    with tarfile.open(os.path.join(args.out, "logs.tar.gz"), "w:gz") as t:
        t.add(os.path.join(args.work, "logs"), arcname="logs")


if __name__ == "__main__":
    sys.exit(main())
