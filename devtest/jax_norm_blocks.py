"""StableHLO fixtures of the norms open models put after an all-reduce, printed on the CPU.

Each block is a row-parallel matmul through shard_map whose psum is followed by
the residual add and a norm, returning both the norm's output y and the sum h:

  gemma       y = rmsnorm(h) * (1 + w), all in f32, cast back (Gemma's flax code)
  gemma_io    y = (1 + w) * cast(rmsnorm(h)): the weight in the I/O type (the
              Hugging Face Flax port)
  layernorm   y = (h - mean) * rsqrt(var + eps) * w + b, var the mean of the
              squared deviations (GPT-2, OPT, Phi)
  layernorm_fast
              the same with var = mean(h*h) - mean^2, clamped at 0 (flax's
              LayerNorm with use_fast_variance)
  rms_fp8     Llama's RMSNorm whose output feeds an FP8 matmul: y / scale,
              clipped to e4m3's range, converted to f8E4M3FN; y itself is
              returned too
  loss        a scalar psum (a loss over the shards)

The text is exactly `jax.jit(f).lower(...).as_text()`, one file per block, tp
and dtype: DIR/jax_{block}_tp{N}_{bf16,f32}.mlir, and DIR/blocks.json.

    JAX_PLATFORMS=cpu XLA_FLAGS=--xla_force_host_platform_device_count=4 python jax_norm_blocks.py DIR
(the script sets both when they are missing)
"""

import argparse
import json
import os
import re
import sys

import jax_llama_block

DEVICES = 4
ROWS, HIDDEN, INNER = 6, 384, 512  # several rows; a row of 384 is not a power of two
EPS = 1e-6
AXIS = "tp"
BLOCKS = ["gemma", "gemma_io", "layernorm", "layernorm_fast", "rms_fp8", "loss"]


def norms():
    """Each block's norm: f(h, w, b) -> the outputs after h."""
    import jax
    import jax.numpy as jnp

    def rms(h32):
        return h32 * jax.lax.rsqrt(jnp.mean(jnp.square(h32), axis=-1, keepdims=True) + EPS)

    def gemma(h, w, b):
        y = rms(h.astype(jnp.float32)) * (1 + w.astype(jnp.float32))
        return (y.astype(h.dtype),)

    def gemma_io(h, w, b):
        return ((1 + w) * rms(h.astype(jnp.float32)).astype(h.dtype),)

    def layernorm(h, w, b):
        x = h.astype(jnp.float32)
        mean = jnp.mean(x, axis=-1, keepdims=True)
        var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
        y = (x - mean) * jax.lax.rsqrt(var + EPS) * w.astype(jnp.float32) + b.astype(jnp.float32)
        return (y.astype(h.dtype),)

    def layernorm_fast(h, w, b):
        x = h.astype(jnp.float32)
        mean = jnp.mean(x, axis=-1, keepdims=True)
        var = jnp.maximum(0.0, jnp.mean(jnp.square(x), axis=-1, keepdims=True) - jnp.square(mean))
        y = (x - mean) * jax.lax.rsqrt(var + EPS) * w.astype(jnp.float32) + b.astype(jnp.float32)
        return (y.astype(h.dtype),)

    def rms_fp8(h, w, b):
        y = (rms(h.astype(jnp.float32)) * w.astype(jnp.float32)).astype(h.dtype)
        scale = jnp.float32(0.05)  # a static scale, as a calibrated FP8 matmul's input has
        q = jnp.clip(y.astype(jnp.float32) / scale, -448.0, 448.0).astype(jnp.float8_e4m3fn)
        return (y, q)

    return {"gemma": gemma, "gemma_io": gemma_io, "layernorm": layernorm, "layernorm_fast": layernorm_fast,
            "rms_fp8": rms_fp8}


def lower(block, tp, dtype):
    """The block's StableHLO text on tp of the host devices."""
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

    try:
        from jax import shard_map
    except ImportError:  # older JAX
        from jax.experimental.shard_map import shard_map
    mesh = Mesh(np.array(jax.devices()[:tp]), (AXIS,))
    dt = {"bf16": jnp.bfloat16, "f32": jnp.float32}[dtype]

    def spec(shape, s, t=dt):
        return jax.ShapeDtypeStruct(shape, t, sharding=NamedSharding(mesh, s))

    if block == "loss":
        def body(x, t):
            err = jnp.mean(jnp.square(x.astype(jnp.float32) - t.astype(jnp.float32)))
            return jax.lax.psum(err, AXIS) / tp

        f = shard_map(body, mesh=mesh, in_specs=(P(None, AXIS), P(None, AXIS)), out_specs=P())
        return jax.jit(f).lower(spec((ROWS, INNER), P(None, AXIS)), spec((ROWS, INNER), P(None, AXIS))).as_text()

    norm = norms()[block]

    def body(x, wo, resid, w, b):
        h = resid + jax.lax.psum(x @ wo, AXIS)
        return (h,) + norm(h, w, b)

    outs = 3 if block == "rms_fp8" else 2
    f = shard_map(body, mesh=mesh, in_specs=(P(None, AXIS), P(AXIS, None), P(), P(), P()),
                  out_specs=(P(),) * outs)
    args = (spec((ROWS, INNER), P(None, AXIS)), spec((INNER, HIDDEN), P(AXIS, None)), spec((ROWS, HIDDEN), P()),
            spec((HIDDEN,), P()), spec((HIDDEN,), P()))
    return jax.jit(f).lower(*args).as_text()


def describe(text):
    return {
        "bytes": len(text),
        "all_reduce": len(re.findall(r"stablehlo\.all_reduce", text)),
        "rsqrt": len(re.findall(r"stablehlo\.rsqrt", text)),
        "f8E4M3FN": "f8E4M3FN" in text,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="directory for the .mlir files and blocks.json")
    ap.add_argument("--tps", default="2,4")
    ap.add_argument("--dtypes", default="bf16,f32")
    ap.add_argument("--blocks", default=",".join(BLOCKS))
    args = ap.parse_args()
    jax_llama_block.environment(DEVICES)
    import jax

    os.makedirs(args.out, exist_ok=True)
    summary = {"jax": jax.__version__, "rows": ROWS, "hidden": HIDDEN, "eps": EPS, "files": {}}
    failed = 0
    for block in args.blocks.split(","):
        for tp in [int(t) for t in args.tps.split(",")]:
            for dtype in args.dtypes.split(","):
                name = f"jax_{block}_tp{tp}_{dtype}.mlir"
                try:
                    text = lower(block, tp, dtype)
                except Exception as e:  # one block's failure leaves the others
                    print(f"FAIL {name}: {type(e).__name__}: {e}")
                    failed += 1
                    continue
                with open(os.path.join(args.out, name), "w") as f:
                    f.write(text)
                summary["files"][name] = describe(text)
                print(f"wrote {name}: {summary['files'][name]}")
    with open(os.path.join(args.out, "blocks.json"), "w") as f:
        json.dump(summary, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
