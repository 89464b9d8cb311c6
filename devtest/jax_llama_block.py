"""StableHLO fixtures of one Llama block, tensor parallel, printed on the CPU.

One decoder layer of llama_jax.py (the model jax_llama.py runs: the same
functions), through shard_map over tp = 2, 4 and 8 of 8 host devices, bf16 and
f32: each row-parallel matmul's psum is followed by the residual add and the
next RMSNorm (h = x + psum(p); y = h * rsqrt(mean(h*h, -1) + eps) * w, in f32
and cast back), the pattern a fused all-reduce + RMSNorm pass matches. The text
is exactly `jax.jit(f).lower(...).as_text()`, unedited, one file per
configuration: DIR/jax_llama_block_tp{N}_{bf16,f32}.mlir, and DIR/block.json
with what each holds. Attention is "xla" (cuDNN's has no CPU lowering); with
8 shards each of the 4 KV heads is held by 2 of them.

    JAX_PLATFORMS=cpu XLA_FLAGS=--xla_force_host_platform_device_count=8 python jax_llama_block.py DIR
(the script sets both when they are missing)
"""

import argparse
import json
import os
import re
import sys

DEVICES = 8


def environment(devices=DEVICES):
    """The CPU platform with this many devices, before JAX is imported
    (jax_norm_blocks.py's too)."""
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    os.environ.setdefault("ARC_DISABLE", "1")  # an installed arc_jax has nothing to do on the CPU
    flag = f"--xla_force_host_platform_device_count={devices}"
    if "xla_force_host_platform_device_count" not in os.environ.get("XLA_FLAGS", ""):
        os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " " + flag).strip()


def lower(cfg, tp, dtype):
    """The layer's StableHLO text on tp of the host devices."""
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

    import llama_jax as lj

    mesh = Mesh(np.array(jax.devices()[:tp]), (lj.AXIS,))
    dt = {"bf16": jnp.bfloat16, "f32": jnp.float32}[dtype]

    def spec(shape, s, t=dt):
        return jax.ShapeDtypeStruct(shape, t, sharding=NamedSharding(mesh, s))

    pspec = lj.param_specs(cfg)["layers"][0]
    p = {k: spec(shape, pspec[k]) for k, shape in lj.layer_shapes(cfg, tp).items()}
    row = (cfg.batch, 1, cfg.hidden)
    cache = spec(lj.cache_shape(cfg, tp), lj.cache_spec())
    args = (p, spec((cfg.hidden,), P()), spec(row, P()), spec(row, P()), cache, cache, spec((), P(), jnp.int32))
    return lj.sharded_layer(cfg, mesh, "xla").lower(*args).as_text()


def describe(text):
    return {
        "bytes": len(text),
        "all_reduce": len(re.findall(r"stablehlo\.all_reduce", text)),
        "rsqrt": len(re.findall(r"stablehlo\.rsqrt", text)),
        "dot_general": len(re.findall(r"stablehlo\.dot_general", text)),
        "manual_computation": "sdy.manual_computation" in text,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="directory for the .mlir files and block.json")
    ap.add_argument("--tps", default="2,4,8")
    ap.add_argument("--dtypes", default="bf16,f32")
    args = ap.parse_args()
    tps = [int(x) for x in args.tps.split(",")]
    dtypes = args.dtypes.split(",")
    if any(tp < 2 or tp > DEVICES for tp in tps) or not set(dtypes) <= {"bf16", "f32"}:
        ap.error(f"tps must lie in 2..{DEVICES}, dtypes in bf16,f32")
    environment()
    import jax

    import llama_jax as lj

    cfg = lj.Config()
    os.makedirs(args.out, exist_ok=True)
    summary, passed, failed = {"jax": jax.__version__, "config": vars(cfg), "files": {}}, 0, 0

    def check(ok, what):
        nonlocal passed, failed
        print(f"{'PASS' if ok else 'FAIL'} block {what}", flush=True)
        passed += bool(ok)
        failed += not ok

    try:
        have, backend = len(jax.devices()), jax.default_backend()
    except Exception as e:  # noqa: BLE001
        have, backend = 0, f"no backend ({type(e).__name__}: {e})"
    check(backend == "cpu" and have >= max(tps), f"{have} {backend} devices")
    for tp in tps:
        for dtype in dtypes:
            name = f"jax_llama_block_tp{tp}_{dtype}.mlir"
            try:
                cfg.check(tp)
                text = lower(cfg, tp, dtype)
            except Exception as e:  # noqa: BLE001  (one configuration's failure is its own)
                summary["files"][name] = {"error": f"{type(e).__name__}: {e}"[:2000]}
                check(False, f"{name}: {type(e).__name__}: {str(e)[:300]}")
                continue
            with open(os.path.join(args.out, name), "w") as f:
                f.write(text)
            d = describe(text)
            summary["files"][name] = d
            check(d["all_reduce"] == 2 and d["rsqrt"] >= 2,
                  f"{name}: {d['bytes']} bytes, {d['all_reduce']} all_reduce (want 2), {d['rsqrt']} rsqrt (want 2 or more), "
                  f"{d['dot_general']} dot_general, shard_map as sdy.manual_computation: {d['manual_computation']}")
    summary.update(passed=passed, failed=failed)
    with open(os.path.join(args.out, "block.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
