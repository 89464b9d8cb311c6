"""JAX through arc's standalone PJRT plugin: a shard_map psum on 2 GPUs.

Runs the same jitted psums twice, each in a process of its own: once on JAX's
own CUDA plugin (ARC_DISABLE=1), once through arc (the arc_jax wheel installed)
(quantization off), and checks that the results are equal bit for bit and
that arc's custom calls are in the programs it dumped. Prints PASS/FAIL lines
and "N passed, M failed"; exits 1 on any failure.

    python jax_psum.py [--cuda-plugin .../jax_plugins/xla_cuda13/xla_cuda_plugin.so] --dump /tmp/arc-jax
"""

import argparse
import glob
import os
import subprocess
import sys

SIZES = [8, 2048, 131072, 8388608]  # elements per shard
DTYPES = ["float16", "bfloat16", "float32"]


def child(mode: str, out: str) -> None:
    """Runs the psums on one backend and saves the results."""
    os.environ["JAX_PLATFORMS"] = "cuda"  # arc_jax, installed, is JAX's cuda backend
    if mode == "native":
        os.environ["ARC_DISABLE"] = "1"  # JAX's own CUDA plugin alone
    import jax
    import numpy as np
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

    devices = jax.devices()
    print(f"{mode}: backend {jax.default_backend()}, devices {devices}", file=sys.stderr)
    mesh = Mesh(np.array(devices[:2]), ("tp",))
    shard_map = getattr(jax, "shard_map", None)
    if shard_map is None:
        from jax.experimental.shard_map import shard_map
    psum = jax.jit(shard_map(lambda a: jax.lax.psum(a, "tp"), mesh=mesh, in_specs=P("tp"), out_specs=P("tp")))
    results = {}
    rng = np.random.default_rng(6)
    for dtype in DTYPES:
        for n in SIZES:
            host = rng.standard_normal((2 * n,), dtype=np.float32).astype(jax.numpy.dtype(dtype))
            x = jax.device_put(host, NamedSharding(mesh, P("tp")))
            y = np.asarray(psum(x))
            results[f"{dtype}_{n}"] = np.frombuffer(np.ascontiguousarray(y).tobytes(), dtype=np.uint8)
    results["devices"] = np.array([len(devices)])
    np.savez(out, **results)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuda-plugin", help="the real plugin (default: arc_jax finds the one JAX installed)")
    ap.add_argument("--dump", required=True)
    ap.add_argument("--child", choices=["native", "arc"])
    ap.add_argument("--out")
    args = ap.parse_args()
    if args.child:
        child(args.child, args.out)
        return 0

    import numpy as np

    os.makedirs(args.dump, exist_ok=True)
    env = dict(os.environ)
    if args.cuda_plugin:
        env["ARC_PJRT_PLUGIN"] = args.cuda_plugin
    env.update(
        ARC_TARGET=env.get("ARC_TARGET", "cuda:nvlink"),
        ARC_QUANT="none",
        ARC_DUMP_DIR=args.dump,
        ARC_PYTHON=sys.executable,
    )
    passed = failed = 0
    outs = {}
    for mode in ("native", "arc"):
        out = os.path.join(args.dump, f"{mode}.npz")
        cmd = [sys.executable, __file__, "--child", mode, "--dump", args.dump, "--out", out]
        rc = subprocess.run(cmd, env=env).returncode
        if rc != 0:
            print(f"FAIL jax {mode}: exit status {rc}")
            failed += 1
        else:
            outs[mode] = np.load(out)
    if len(outs) == 2 and outs["native"]["devices"][0] < 2:
        # One GPU: the psum spans one device, which JAX compiles to no
        # all-reduce; the multi-process step (mp) covers one GPU.
        print(f"SKIP jax: {outs['native']['devices'][0]} device, no all-reduce to lower (needs 2 GPUs)")
        print(f"{passed} passed, {failed} failed")
        return 1 if failed else 0
    if len(outs) == 2:
        for key in outs["native"].files:
            if key == "devices":
                continue
            same = np.array_equal(outs["native"][key], outs["arc"][key])
            print(f"{'PASS' if same else 'FAIL'} jax psum {key}: arc {'equals' if same else 'differs from'} native")
            passed += same
            failed += not same
    lowered = [f for f in glob.glob(os.path.join(args.dump, "arc-*-after.mlir"))
               if 'arc_allreduce' in open(f).read()]
    ok = len(lowered) > 0
    print(f"{'PASS' if ok else 'FAIL'} jax dumps: {len(lowered)} program(s) in {args.dump} call arc_allreduce")
    passed += ok
    failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
