"""What arc adds to JAX's compile time (docs/RUNTIME.md's compile-cost figure).

Times the compile of 20 distinct small jitted programs (jit(f).lower(x).compile(),
each program new, so no cache answers) natively and through arc's
standalone plugin, each configuration in fresh processes:

  nocoll  elementwise programs with no collective, one process: arc must pass
          them through untouched (no converter, no arc process), and needs no
          libarc_gpu.so (ARC_TARGET=auto with none to be found)
  coll    a shard_map psum in each program, 2 processes (jax.distributed on
          localhost, both on GPU 0): arc converts the bytecode, runs its
          pipeline and lowers the psum to arc_allreduce (compile only: nothing
          runs, so libarc_gpu.so may be a stand-in)

Prints one line per configuration (median, mean, first compile) and the
differences, and writes them to --out as JSON.

    python jax_compile_cost.py [--cuda-plugin .../xla_cuda_plugin.so] --out /tmp/cost [--n 20]
"""

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time


def programs(n: int, coll: bool):
    """n distinct functions; with coll each holds a psum over axis "x"."""
    import jax
    import jax.numpy as jnp

    fs = []
    for i in range(n):
        k = float(i + 1)
        if coll:
            def f(a, k=k, i=i):
                b = jnp.sin(a) * k + i
                return jax.lax.psum(b, "x") * (1.0 / k)
        else:
            def f(a, k=k, i=i):
                return jnp.tanh(jnp.sin(a) * k + i) * (1.0 / k)
        fs.append(f)
    return fs


def child(args) -> None:
    mode, kind = args.child.split("-")
    os.environ["JAX_PLATFORMS"] = "cuda"  # arc_jax, installed, is JAX's cuda backend
    if mode == "native":
        os.environ["ARC_DISABLE"] = "1"  # JAX's own CUDA plugin alone
    import jax
    import numpy as np

    if kind == "coll":
        jax.distributed.initialize(coordinator_address=f"127.0.0.1:{args.port}", num_processes=2,
                                   process_id=args.process, local_device_ids=[0])
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

    devices = jax.devices()
    fs = programs(args.n + 1, kind == "coll")
    times = []
    shard_map = getattr(jax, "shard_map", None)
    if shard_map is None:
        from jax.experimental.shard_map import shard_map
    mesh = Mesh(np.array(devices), ("x",))
    for i, f in enumerate(fs):
        n = 1024 + 64 * i  # a new shape too: nothing is reused between programs
        if kind == "coll":
            g = jax.jit(shard_map(f, mesh=mesh, in_specs=P("x"), out_specs=P("x")))
            x = jax.ShapeDtypeStruct((len(devices) * n,), np.float32, sharding=NamedSharding(mesh, P("x")))
        else:
            g = jax.jit(f)
            x = jax.ShapeDtypeStruct((n,), np.float32)
        lowered = g.lower(x)
        t0 = time.perf_counter()
        lowered.compile()
        times.append(time.perf_counter() - t0)
    # The first program warms the backend up (client, first compile); it is reported apart.
    out = {"mode": mode, "kind": kind, "devices": len(devices), "warmup_s": times[0], "times_s": times[1:]}
    if args.process == 0:
        with open(args.result, "w") as f:
            json.dump(out, f)
    if kind == "coll":
        jax.distributed.shutdown()


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuda-plugin", help="the real plugin (default: arc_jax finds the one JAX installed)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--child")
    ap.add_argument("--process", type=int, default=0)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--result")
    args = ap.parse_args()
    if args.child:
        child(args)
        return 0

    os.makedirs(args.out, exist_ok=True)
    env = dict(os.environ)
    if args.cuda_plugin:
        env["ARC_PJRT_PLUGIN"] = args.cuda_plugin
    env.setdefault("ARC_TARGET", "cuda:nvlink")
    env.update(ARC_PYTHON=sys.executable,
               XLA_PYTHON_CLIENT_PREALLOCATE="false", TF_CPP_MIN_LOG_LEVEL="2")
    results = {}
    for kind in ("nocoll", "coll"):
        for mode in ("native", "arc"):
            name = f"{mode}-{kind}"
            result = os.path.join(args.out, name + ".json")
            cenv = dict(env)
            if mode == "arc":
                cenv["ARC_DUMP_DIR"] = os.path.join(args.out, "dump-" + name)
            if mode == "arc" and kind == "nocoll":
                cenv.update(ARC_TARGET="auto", ARC_GPU_LIB="/nonexistent/libarc_gpu.so")
            port = free_port()
            procs = []
            for p in range(2 if kind == "coll" else 1):
                cmd = [sys.executable, __file__, "--child", name, "--out", args.out, "--n", str(args.n),
                       "--process", str(p), "--port", str(port), "--result", result]
                log = open(os.path.join(args.out, f"{name}-{p}.log"), "w")
                procs.append(subprocess.Popen(cmd, env=cenv, stdout=log, stderr=subprocess.STDOUT))
            rcs = [pr.wait(timeout=300) for pr in procs]
            if any(rcs):
                print(f"FAIL {name}: exit status {rcs} (logs in {args.out})")
                continue
            with open(result) as f:
                results[name] = json.load(f)
            r = results[name]
            ts = r["times_s"]
            print(f"{name}: {len(ts)} programs on {r['devices']} device(s): median {1e3 * statistics.median(ts):.1f} ms, "
                  f"mean {1e3 * statistics.mean(ts):.1f} ms, first (warm-up) {1e3 * r['warmup_s']:.1f} ms")
    summary = {}
    for kind in ("nocoll", "coll"):
        a, b = results.get(f"native-{kind}"), results.get(f"arc-{kind}")
        if a and b:
            ma, mb = statistics.median(a["times_s"]), statistics.median(b["times_s"])
            summary[kind] = {"native_median_ms": 1e3 * ma, "arc_median_ms": 1e3 * mb,
                             "added_ms": 1e3 * (mb - ma), "ratio": mb / ma}
            print(f"{kind}: arc adds {1e3 * (mb - ma):+.1f} ms per compile (median), {100 * (mb / ma - 1):+.1f}%")
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump({"results": results, "summary": summary}, f, indent=1)
    return 0 if len(results) == 4 else 1


if __name__ == "__main__":
    sys.exit(main())
