"""JAX with one process per device through arc's standalone plugin.

N processes on localhost (jax.distributed.initialize), all on GPU 0
(local_device_ids=[0]: N global devices; start MPS first,
`nvidia-cuda-mps-control -d`). Each configuration runs in fresh processes:

  native   JAX's CUDA plugin; NCCL refuses two ranks on one GPU unless each
           process poses as a host of its own (NCCL_HOSTID per process,
           NCCL_NET=Socket over lo, no P2P, no SHM)
  arc      the arc_jax wheel, installed, wrapping that plugin
  cached   arc again with JAX's persistent compilation cache (--cache): the
           first run fills it, the second loads every executable from it (no
           program reaches arc) and must still run arc's kernels

  arc-TARGET  arc with ARC_TARGET=TARGET for this run (arc-cuda:pcie-nop2p);
              arc-detect: ARC_TARGET unset (one GPU detects cuda:pcie-nop2p)

Programs: a shard_map psum over all devices (f32, f16, bf16, several sizes),
and for N = 4 a 2x2 mesh built from a permuted device list with a psum over
one axis (subset groups). Checks, as PASS/FAIL lines: arc equals native bit
for bit where each sum has two addends (2 processes, the subset groups: one
addition, so every order agrees; NCCL's ring orders more otherwise), both are
within rounding of numpy's sum, arc equals the rank-order f32 sum
of docs/FORMATS.md bit for bit, arc_allreduce is in the dumps, the
cached run compiled nothing through arc and gives the same bits.

Options for the host-staged link (devtest/run.sh hostlink):
  --sizes 4K,256K,4M,32M  sizes in bytes per device instead of the element counts
  --integers   also psums of small integers (in [-4, 4]): every order of the
               additions gives the same bits, so arc equals native bit for bit
               at any process count (docs/ACCURACY.md, "The differential check")
  --quant int8,fp8,...  also psums of N(0, 1) values compiled with
               compiler_options {"arc_quant": C, "arc_force": "all=twoshot:C"}
               (arc's runs only), within the codec's relative L2 bound of the
               exact sum (docs/ACCURACY.md: int8 0.012, int6 0.045, int4 and
               int4r 0.18, fp8 0.07)
  --link host  every arc_allreduce in arc's dumps has link = "host"
  and always: every process holds the same bits of every psum (replicated).

    python jax_multiprocess.py --procs 2 [--cuda-plugin .../xla_cuda_plugin.so] --out /tmp/mp [--modes native,arc,cached]
"""

import argparse
import glob
import os
import socket
import subprocess
import sys

import functools
import json
import re

SIZES = [8, 2048, 131072]  # elements per device
DTYPES = ["float32", "float16", "bfloat16"]
PERMUTED = [3, 1, 0, 2]  # the device order of the 2x2 mesh (N = 4)
# Relative L2 bounds of the codecs on N(0, 1) (docs/ACCURACY.md, "Reading it"; int4r: int4's).
QUANT_BOUND = {"int8": 0.012, "int6": 0.045, "int4": 0.18, "int4r": 0.18, "fp8": 0.07}
QUANT_DTYPES = ["bfloat16", "float32"]
ITEMSIZE = {"float32": 4, "float16": 2, "bfloat16": 2}


def parse_bytes(s):
    m = re.fullmatch(r"(\d+)([KMG]?)", s.strip())
    if not m:
        raise ValueError(f"size {s!r}: want bytes, e.g. 4096, 256K, 32M")
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2)]


def elements(args, dtype):
    """The element counts per device of dtype's psums."""
    if not args.sizes:
        return SIZES
    return [parse_bytes(b) // ITEMSIZE[dtype] for b in args.sizes.split(",")]


@functools.lru_cache(maxsize=4)
def inputs(dtype, n, procs, kind="all"):
    """Every process's shard of a program's input, concatenated: N(0, 1)
    values, or for kind "int" integers in [-4, 4]. Callers do not write to it
    (the parent's checks ask for each several times)."""
    import numpy as np
    import jax.numpy as jnp

    rng = np.random.default_rng(16 + n + (1 << 40 if kind == "int" else 0))
    if kind == "int":
        return rng.integers(-4, 5, size=(procs * n,), dtype=np.int8).astype(jnp.dtype(dtype))
    return rng.standard_normal((procs * n,), dtype=np.float32).astype(jnp.dtype(dtype))


def child(args) -> None:
    os.environ["JAX_PLATFORMS"] = "cuda"  # arc_jax, installed, is JAX's cuda backend
    if args.mode == "native":
        os.environ["ARC_DISABLE"] = "1"  # JAX's own CUDA plugin alone
    import jax
    import numpy as np

    if args.cache:
        jax.config.update("jax_compilation_cache_dir", args.cache)
        jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
        jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    jax.distributed.initialize(coordinator_address=f"127.0.0.1:{args.port}", num_processes=args.procs,
                               process_id=args.process, local_device_ids=[0])
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

    shard_map = getattr(jax, "shard_map", None)
    if shard_map is None:
        from jax.experimental.shard_map import shard_map
    devices = jax.devices()
    print(f"process {args.process}: devices {devices}", file=sys.stderr)
    results = {}

    def run(name, mesh, spec, axes, host, options=None):
        f = jax.jit(shard_map(lambda a: jax.lax.psum(a, axes), mesh=mesh, in_specs=spec, out_specs=spec))
        x = jax.make_array_from_callback(host.shape, NamedSharding(mesh, spec), lambda idx: host[idx])
        y = f.lower(x).compile(compiler_options=options)(x) if options else f(x)
        for shard in y.addressable_shards:  # this process's device
            results[name] = np.frombuffer(np.ascontiguousarray(np.asarray(shard.data)).tobytes(), dtype=np.uint8)

    mesh = Mesh(np.array(devices), ("x",))
    for dtype in DTYPES:
        for n in elements(args, dtype):
            run(f"all_{dtype}_{n}", mesh, P("x"), "x", inputs(dtype, n, args.procs))
            if args.integers:
                run(f"int_{dtype}_{n}", mesh, P("x"), "x", inputs(dtype, n, args.procs, "int"))
    if args.quant and args.mode != "native":  # XLA refuses arc_ options: native has no codecs
        for codec in args.quant.split(","):
            for dtype in QUANT_DTYPES:
                for n in elements(args, dtype)[1:-1] or elements(args, dtype):  # the middle sizes (256 KiB, 4 MiB)
                    run(f"q{codec}_{dtype}_{n}", mesh, P("x"), "x", inputs(dtype, n, args.procs),
                        {"arc_quant": codec, "arc_force": f"all=twoshot:{codec}"})
    if args.procs == 4:
        sub = Mesh(np.array([devices[i] for i in PERMUTED]).reshape(2, 2), ("a", "b"))
        for dtype in DTYPES:
            run(f"subset_{dtype}", sub, P(("a", "b")), "b", inputs(dtype, 2048, 4))
    np.savez(args.result, **results)
    jax.distributed.shutdown()


def expected(name, procs):
    """numpy's sum of the inputs for this process's shard, as float64."""
    import numpy as np

    kind, dtype, *rest = name.split("_")
    if kind != "subset":
        n = int(rest[0])
        x = inputs(dtype, n, procs, "int" if kind == "int" else "all").astype(np.float64).reshape(procs, n)
        return np.broadcast_to(x.sum(axis=0), (procs, n))
    x = inputs(dtype, 2048, 4).astype(np.float64).reshape(2, 2, 2048)  # shards by mesh position [a][b]
    by_position = np.broadcast_to(x.sum(axis=1, keepdims=True), (2, 2, 2048)).reshape(4, 2048)
    # Process p holds device p, which sits at mesh position PERMUTED.index(p).
    return np.stack([by_position[PERMUTED.index(p)] for p in range(4)])


def rank_order_sum(name, procs):
    """The bytes of each process's shard of oneshot's result: the inputs
    widened to f32, summed ((x0 + x1) + x2) + ... in rank order, narrowed."""
    import numpy as np
    import jax.numpy as jnp

    _, dtype, n = name.split("_")
    x = inputs(dtype, int(n), procs).astype(np.float32).reshape(procs, int(n))
    acc = x[0].copy()
    for r in range(1, procs):
        acc = (acc + x[r]).astype(np.float32)
    out = acc.astype(jnp.dtype(dtype))
    return np.stack([np.frombuffer(out.tobytes(), dtype=np.uint8)] * procs)


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def launch(args, mode, tag, env):
    port = free_port()
    procs = []
    for p in range(args.procs):
        penv = dict(env)
        if mode.startswith("arc-"):  # arc-TARGET: this run's target; arc-detect: none set
            penv.pop("ARC_TARGET", None)
            if mode != "arc-detect":
                penv["ARC_TARGET"] = mode[len("arc-"):]
        if mode == "native":
            penv.update(NCCL_HOSTID=f"arc-devtest-host-{p}", NCCL_NET="Socket", NCCL_SOCKET_IFNAME="lo",
                        NCCL_P2P_DISABLE="1", NCCL_SHM_DISABLE="1")
        else:
            penv["ARC_DUMP_DIR"] = os.path.join(args.out, f"dump-{tag}-{p}")
        cmd = [sys.executable, __file__, "--child", "--mode", mode, "--procs", str(args.procs), "--process", str(p),
               "--port", str(port),
               "--out", args.out, "--result", os.path.join(args.out, f"{tag}-{p}.npz")]
        for flag in ("sizes", "quant"):
            if getattr(args, flag):
                cmd += [f"--{flag}", getattr(args, flag)]
        if args.integers:
            cmd.append("--integers")
        if mode == "cached":
            cmd += ["--cache", os.path.join(args.out, "cache")]
        log = open(os.path.join(args.out, f"{tag}-{p}.log"), "w")
        procs.append(subprocess.Popen(cmd, env=penv, stdout=log, stderr=subprocess.STDOUT))
    try:
        return [p.wait(timeout=args.timeout) for p in procs]
    except subprocess.TimeoutExpired:
        for p in procs:
            p.kill()
        return ["timeout"] * len(procs)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--cuda-plugin", help="the real plugin (default: arc_jax finds the one JAX installed)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--modes", default="native,arc,cached")
    ap.add_argument("--timeout", type=int, default=180)
    ap.add_argument("--child", action="store_true")
    ap.add_argument("--mode")
    ap.add_argument("--process", type=int)
    ap.add_argument("--port", type=int)
    ap.add_argument("--cache")
    ap.add_argument("--result")
    ap.add_argument("--sizes", help="bytes per device, comma-separated (4K, 32M): instead of the element counts")
    ap.add_argument("--integers", action="store_true", help="also psums of small integers: arc equals native bit for bit")
    ap.add_argument("--quant", help="codecs: also psums compiled with arc_quant and arc_force (arc's runs)")
    ap.add_argument("--link", help="every arc_allreduce in arc's dumps has this link")
    ap.add_argument("--json", help="write every check here")
    args = ap.parse_args()
    if args.child:
        child(args)
        return 0

    import numpy as np

    os.makedirs(args.out, exist_ok=True)
    env = dict(os.environ)
    if args.cuda_plugin:
        env["ARC_PJRT_PLUGIN"] = args.cuda_plugin
    env.setdefault("ARC_TARGET", "cuda:nvlink")
    env.update(ARC_QUANT="none", ARC_PYTHON=sys.executable,
               XLA_PYTHON_CLIENT_PREALLOCATE="false", TF_CPP_MIN_LOG_LEVEL="2")
    passed = failed = 0

    verdicts = []

    def check(ok, what):
        nonlocal passed, failed
        print(f"{'PASS' if ok else 'FAIL'} {what}", flush=True)
        passed += bool(ok)
        failed += not ok
        verdicts.append({"ok": bool(ok), "what": what})

    runs = []  # (tag, mode)
    for mode in args.modes.split(","):
        runs += [("cached-fill", "cached"), ("cached", "cached")] if mode == "cached" else [(mode.replace(":", "_"), mode)]
    outs = {}
    for tag, mode in runs:
        rcs = launch(args, mode, tag, env)
        ok = all(rc == 0 for rc in rcs)
        check(ok, f"{args.procs} processes, {tag}: exit status {rcs}")
        if ok:
            outs[tag] = [np.load(os.path.join(args.out, f"{tag}-{p}.npz")) for p in range(args.procs)]
    ref = outs.get("native")
    import jax.numpy as jnp

    for tag in [t for t, _ in runs if t != "cached-fill"]:
        if tag not in outs:
            continue
        for key in outs[tag][0].files:
            dtype = key.split("_")[1]
            got = np.stack([np.frombuffer(o[key].tobytes(), dtype=jnp.dtype(dtype)) for o in outs[tag]])
            if not key.startswith("subset_"):  # a replicated result: the same bits in every process
                same = all(np.array_equal(outs[tag][0][key], o[key]) for o in outs[tag])
                check(same, f"{tag} {key}: every process holds the same bits")
            want = expected(key, args.procs)
            if key.startswith("q"):
                codec = key.split("_")[0][1:]
                rel = float(np.linalg.norm(got.astype(np.float64) - want) / np.linalg.norm(want))
                check(rel <= QUANT_BOUND[codec], f"{tag} {key}: relative L2 {rel:.5f} within {codec}'s bound {QUANT_BOUND[codec]}")
                continue
            if key.startswith("int_"):
                if ref is not None and tag != "native" and key in ref[0].files:
                    same = all(np.array_equal(a[key], b[key]) for a, b in zip(ref, outs[tag]))
                    check(same, f"{tag} {key}: equals native bit for bit (integers: any order is exact)")
                check(np.array_equal(got.astype(np.float64), want), f"{tag} {key}: the exact sum")
                continue
            tol = {"float32": 1e-5, "float16": 2e-2, "bfloat16": 1e-1}[dtype]
            if tag == "native" or not key.startswith("all_") or not args.sizes:  # else the rank-order check below is stricter
                close = np.allclose(got.astype(np.float64), want, rtol=tol, atol=tol)
                check(close, f"{tag} {key}: within {tol} of numpy's sum")
            if tag == "native":
                continue
            if key.startswith("all_"):
                # arc's oneshot: f32 sums in rank order (process order here),
                # one rounding to the I/O type (docs/FORMATS.md).
                exact = np.stack([np.frombuffer(o[key].tobytes(), dtype=np.uint8) for o in outs[tag]])
                check(np.array_equal(exact, rank_order_sum(key, args.procs)), f"{tag} {key}: equals the reference sum in rank order bit for bit")
            if ref is not None and (args.procs == 2 or key.startswith("subset_")):
                # Two addends: one addition, which NCCL's ring does in the same
                # order; with more its ring starts each chunk at another rank.
                same = all(np.array_equal(a[key], b[key]) for a, b in zip(ref, outs[tag]))
                check(same, f"{tag} {key}: equals native bit for bit")
    for tag in [t for t, m in runs if m != "native" and t != "cached"]:
        if tag in outs:
            lowered = [f for f in glob.glob(os.path.join(args.out, f"dump-{tag}-*", "arc-*-after.mlir"))
                       if "arc_allreduce" in open(f).read()]
            check(len(lowered) > 0, f"{tag}: {len(lowered)} dumped program(s) call arc_allreduce")
            if args.link:
                links = {}
                for f in lowered:
                    for link in re.findall(r'link = "([a-z]+)"', open(f).read()):
                        links[link] = links.get(link, 0) + 1
                check(set(links) == {args.link}, f"{tag}: the calls' links in the dumps {links}, want {args.link} alone")
    if "cached" in outs:
        again = glob.glob(os.path.join(args.out, "dump-cached-[0-9]*", "arc-*-after.mlir"))  # not cached-fill's
        check(len(again) == 0, f"cached: {len(again)} program(s) went through arc (want 0: all from the cache)")
        same = all(np.array_equal(a[k], b[k]) for a, b in zip(outs["cached-fill"], outs["cached"])
                   for k in a.files) if "cached-fill" in outs else False
        check(same, "cached: results equal the run that filled the cache")
    print(f"{passed} passed, {failed} failed")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"procs": args.procs, "modes": args.modes, "passed": passed, "failed": failed, "checks": verdicts}, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
