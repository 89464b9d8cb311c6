"""A Llama-shaped decode step (llama_jax.py), tensor parallel, natively and
through arc: N processes on one GPU.

Each configuration (2 and 4 processes; native, arc, then arc with
ARC_FUSE=false: the residual add and RMSNorm after each all-reduce kept out
of arc's kernel) runs in fresh
processes: jax.distributed.initialize with local_device_ids=[0], all on GPU 0
(start MPS first: `nvidia-cuda-mps-control -d`), each process posing as a host
of its own for NCCL (NCCL_HOSTID, socket transport over lo), as
jax_multiprocess.py does. Every process builds the same bf16 model from fixed
seeds and runs 3 chained decode steps (KV cache filled to position 100) with
one compiled executable; arc's processes compile the same step twice more:
with compiler_options {"arc_quant": "int8", "arc_force": "all=twoshot:int8"}
(the decode step's all-reduces are 16 KiB, where arc's policy keeps int8 off
even under --quant, so the codec is forced), and with {"arc_quant": "int8"}
alone (compiled only: what the policy chose is reported). A CPU process
computes the same 3 steps in f32 from the same (bf16-valued) weights: the
reference.

Attention goes through cuDNN (jax.nn.dot_product_attention, implementation
"cudnn"): each process first runs cuDNN on its shard's decode shapes alone, the
processes agree through JAX's key-value store, and if any refused (or the step
with cuDNN fails to compile), the run says why and uses "xla".

Checks (PASS/FAIL lines): every process exits 0 and all ranks' logits agree
(within 1e-3 relative L2: each process autotunes its own GEMMs); native is within 5% (relative L2) of the f32 reference (the
model and the reference agree); arc's exact logits are within max(2 e, 1e-3)
of native's, e being native's own distance to the f32 reference, and no
further from the reference than 1.25 e + 1e-4 (without quantization arc changes
only the order of the all-reduce's additions, whose rounding is a part of
the bf16 model's rounding e; both bounds are relative L2 over all logits);
arc's dumps of the exact step call arc_allreduce with exact codecs only (none,
fp), those of the int8 step with codec "int8" only; the int8 logits are
within 5% relative L2 of the exact ones (docs/ACCURACY.md: twoshot int8 costs
0.75% relative L2 on a Gaussian sum, 1.7% with outlier channels; 4 all-reduces
a step add in quadrature to 1.5-3.4% on the reduced terms) and differ from
them (the codec ran); the fused and unfused arc logits are within the same
bound as arc's and native's (fusion only reorders each row's sum of
squares), the exact step's dump counts the fused calls, and the unfused
run's dump has none. Step times (median of --iters) are printed as one-GPU
figures: N processes share one H200, so they are not a speed claim.

    python jax_llama.py --out DIR [--tps 2,4] [--modes native,arc,arc-unfused] [--budget 220]
"""

import argparse
import glob
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.abspath(__file__)
POS0 = 100  # the KV cache holds positions 0..99: the first step writes 100
STEPS = 3  # chained decode steps compared
INT8_OPTIONS = {"arc_quant": "int8", "arc_force": "all=twoshot:int8"}
POLICY_OPTIONS = {"arc_quant": "int8"}
EXACT_CODECS = ("none", "fp")
LIVE = []  # the children running now, ended on SIGTERM


# ---- helpers --------------------------------------------------------------------


def rel_l2(a, b):
    """||a - b|| / ||b|| in float64."""
    import numpy as np

    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    nb = float(np.linalg.norm(b))
    return float(np.linalg.norm(a - b)) / (nb or 1.0)


def dump_files():
    d = os.environ.get("ARC_DUMP_DIR")
    return set(os.listdir(d)) if d and os.path.isdir(d) else set()


def read_dumps(names):
    """What arc made of one program, from its new dump files."""
    d = os.environ.get("ARC_DUMP_DIR")
    info = {"files": sorted(names), "arc_calls": 0, "fused_calls": 0, "codecs": [], "algos": [], "native_all_reduces": 0,
            "lowerings": [], "reasons": []}
    for name in sorted(names):
        if not name.endswith("-after.mlir"):
            continue
        text = open(os.path.join(d, name), errors="replace").read()
        for line in text.splitlines():
            if "arc_allreduce" in line and "custom_call" in line:
                info["arc_calls"] += 1
                info["codecs"] += re.findall(r'codec = "([^"]*)"', line)[:1]
                info["algos"] += re.findall(r'algo = "([^"]*)"', line)[:1]
                info["fused_calls"] += 'norm = "rmsnorm"' in line
        info["native_all_reduces"] += text.count('"stablehlo.all_reduce"') + text.count("stablehlo.all_reduce(")
        info["lowerings"] += re.findall(r'arc\.lowering = "([^"]*)"', text)
        info["reasons"] += re.findall(r'arc\.reason = "([^"]*)"', text)
    info["after_files"] = [n for n in sorted(names) if n.endswith("-after.mlir")]
    return info


# ---- the GPU child -----------------------------------------------------------------


def agree(args, mine: bool):
    """Every process's vote through JAX's key-value store: True when all are
    True (so all compile the same program). Without the store's API, this
    process's own vote."""
    try:
        from jax._src import distributed

        client = distributed.global_state.client
        client.key_value_set(f"jax_llama/cudnn/{args.process}", "1" if mine else "0")
        votes = [client.blocking_key_value_get(f"jax_llama/cudnn/{i}", 120000) for i in range(args.procs)]
        return all(v == "1" for v in votes), votes
    except Exception as e:  # noqa: BLE001  (private API: fall back to this process's vote)
        return mine, repr(e)


def probe_cudnn(cfg, tp):
    """cuDNN attention on this shard's decode shapes, alone on this process's
    GPU: (ok, why, relative error against XLA's attention)."""
    import jax
    import jax.numpy as jnp
    import numpy as np

    import llama_jax as lj

    nq, nkv = lj.local_shape(cfg, tp)
    rng = np.random.default_rng(5)
    dev = jax.local_devices()[0]
    q = jax.device_put(rng.standard_normal((cfg.batch, 1, nq, cfg.head_dim)).astype(jnp.bfloat16), dev)
    k = jax.device_put(rng.standard_normal((cfg.batch, cfg.cache, nkv, cfg.head_dim)).astype(jnp.bfloat16), dev)
    v = jax.device_put(rng.standard_normal((cfg.batch, cfg.cache, nkv, cfg.head_dim)).astype(jnp.bfloat16), dev)
    lengths = jax.device_put(np.full((cfg.batch,), POS0 + 1, np.int32), dev)

    def att(impl):
        fn = jax.jit(lambda q, k, v, n: jax.nn.dot_product_attention(q, k, v, key_value_seq_lengths=n,
                                                                      implementation=impl))
        return np.asarray(fn(q, k, v, lengths), np.float32)

    shapes = f"q {tuple(q.shape)}, kv {tuple(k.shape)} bf16, kv lengths {POS0 + 1}"
    try:
        got = att("cudnn")
    except Exception as e:  # noqa: BLE001  (cuDNN's refusal is the finding)
        return False, f"cuDNN refused {shapes}: {type(e).__name__}: {str(e)[:500]}", None
    err = rel_l2(got, att("xla"))
    if not np.all(np.isfinite(got)) or err > 5e-2:
        return False, f"cuDNN's attention on {shapes} is {err:.3g} (relative L2) from XLA's", err
    return True, f"cuDNN runs {shapes}", err


def gpu_child(args):
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

    import llama_jax as lj

    res = {"process": args.process, "procs": args.procs, "mode": args.mode, "t": {}}
    t0 = time.monotonic()

    def mark(what):
        res["t"][what] = round(time.monotonic() - t0, 2)
        save()

    def save(arrays=None):
        with open(args.result + ".json", "w") as f:
            json.dump(res, f, indent=1, default=str)
        if arrays is not None:
            np.savez(args.result + ".npz", **arrays)

    try:
        jax.distributed.initialize(coordinator_address=f"127.0.0.1:{args.port}", num_processes=args.procs,
                                   process_id=args.process, local_device_ids=[0],
                                   initialization_timeout=args.init_timeout, shutdown_timeout_seconds=30)
        tp = args.procs
        cfg = lj.Config()
        cfg.check(tp)
        devices = jax.devices()
        res["devices"] = [str(d) for d in devices]
        res["backend"] = jax.default_backend()
        mesh = Mesh(np.array(devices), (lj.AXIS,))
        mark("initialized")

        hp = lj.host_params(cfg, tp, jnp.bfloat16)
        hc = lj.host_cache(cfg, tp, jnp.bfloat16, POS0)
        toks = lj.host_tokens(cfg, STEPS)
        mark("weights made")

        impl, why, err = "xla", "asked for xla", None
        if args.impl == "cudnn":
            ok, why, err = probe_cudnn(cfg, tp)
            ok, votes = agree(args, ok)
            res["cudnn_votes"] = votes
            impl = "cudnn" if ok else "xla"
            if not ok and "refused" not in why and "from XLA" not in why:
                why = f"another process's cuDNN probe failed (votes {votes})"
        res.update(attention=impl, attention_why=why, cudnn_vs_xla=err)
        mark("attention chosen")

        params = lj.to_global(hp, lj.param_specs(cfg), mesh)
        caches0 = lj.to_global(hc, lj.cache_specs(cfg), mesh)
        rep = NamedSharding(mesh, P())
        tok = [jax.make_array_from_callback(t.shape, rep, lambda i, t=t: t[i]) for t in toks]
        pos = [jax.make_array_from_callback((), rep, lambda i, n=n: np.asarray(n, np.int32))
               for n in range(POS0, POS0 + STEPS)]
        del hp, hc

        def local(x):
            return np.asarray(x.addressable_shards[0].data)

        def compile_step(attn, options):
            before = dump_files()
            lowered = lj.sharded_step(cfg, mesh, attn).lower(params, caches0, tok[0], pos[0])
            compiled = lowered.compile(compiler_options=options) if options else lowered.compile()
            return compiled, read_dumps(dump_files() - before)

        def chain(compiled):
            caches, out = caches0, []
            for t in range(STEPS):
                logits, caches = compiled(params, caches, tok[t], pos[t])
                out.append(local(logits))
            return np.stack(out)

        def timing(compiled):
            times = []
            for i in range(args.warmup + args.iters):
                start = time.perf_counter()
                jax.block_until_ready(compiled(params, caches0, tok[0], pos[0]))
                if i >= args.warmup:
                    times.append(time.perf_counter() - start)
            times.sort()
            return {"median_ms": 1e3 * times[len(times) // 2], "min_ms": 1e3 * times[0],
                    "max_ms": 1e3 * times[-1], "n": len(times)}

        arrays = {}
        try:
            compiled, dumps = compile_step(impl, None)
            mark("exact compiled")
            arrays["exact"] = chain(compiled)
        except Exception as e:  # noqa: BLE001
            if impl != "cudnn":
                raise
            res["attention_why"] = f"the step with cuDNN attention failed: {type(e).__name__}: {str(e)[:500]}"
            res["attention"] = impl = "xla"
            compiled, dumps = compile_step(impl, None)
            mark("exact compiled (xla)")
            arrays["exact"] = chain(compiled)
        res["dumps_exact"] = dumps
        mark("exact ran")
        save(arrays)
        res["time_exact"] = timing(compiled)
        mark("exact timed")

        if args.mode == "arc":
            compiled8, res["dumps_int8"] = compile_step(impl, INT8_OPTIONS)
            mark("int8 compiled")
            arrays["int8"] = chain(compiled8)
            save(arrays)
            res["time_int8"] = timing(compiled8)
            mark("int8 timed")
            try:
                _, res["dumps_policy"] = compile_step(impl, POLICY_OPTIONS)
            except Exception as e:  # noqa: BLE001  (informational)
                res["dumps_policy"] = {"error": f"{type(e).__name__}: {e}"[:500]}
            mark("policy compiled")
        res["done"] = True
        save(arrays)
    except BaseException as e:  # noqa: BLE001  (recorded for the parent, then fail)
        res["error"] = f"{type(e).__name__}: {e}"[:2000]
        res["traceback"] = traceback.format_exc()[-4000:]
        save()
        print(res["traceback"], file=sys.stderr, flush=True)
        os._exit(1)  # not jax.distributed.shutdown(): its barrier would wait for the processes still running
    try:
        jax.distributed.shutdown()
    except Exception as e:  # noqa: BLE001  (the results are saved)
        print(f"jax.distributed.shutdown: {e}", file=sys.stderr)


def ref_child(args):
    """The same 3 steps in f32 on the CPU, one device (tp 1)."""
    import jax
    import numpy as np
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

    import llama_jax as lj

    cfg = lj.Config()
    mesh = Mesh(np.array(jax.devices()[:1]), (lj.AXIS,))
    params = lj.to_global(lj.host_params(cfg, 1, np.float32), lj.param_specs(cfg), mesh)
    caches = lj.to_global(lj.host_cache(cfg, 1, np.float32, POS0), lj.cache_specs(cfg), mesh)
    rep = NamedSharding(mesh, P())
    step = lj.sharded_step(cfg, mesh, "xla")
    out = []
    for t, tokens in enumerate(lj.host_tokens(cfg, STEPS)):
        logits, caches = step(params, caches, jax.device_put(tokens, rep), jax.device_put(np.int32(POS0 + t), rep))
        out.append(np.asarray(logits))
    np.savez(args.result + ".npz", ref=np.stack(out))
    with open(args.result + ".json", "w") as f:
        json.dump({"backend": jax.default_backend(), "done": True}, f)


# ---- the parent ---------------------------------------------------------------------


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def on_term(signum, frame):
    """timeout(1) ends the parent: end the children too (each leads a session
    of its own, out of timeout's reach)."""
    kill(list(LIVE))
    print(f"jax_llama: signal {signum}: children ended", file=sys.stderr, flush=True)
    os._exit(128 + signum)


def kill(procs):
    for p in procs:
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGKILL)  # each child leads its own session
            except OSError:
                pass
    for p in procs:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass


def launch(args, tag, mode, procs, env, timeout):
    """Runs one configuration: procs fresh processes. Returns their exit
    statuses ("timeout", "killed" for those ended by the parent)."""
    port = free_port()
    children = []
    for p in range(procs):
        penv = dict(env)
        penv.pop("ARC_DISABLE", None)
        penv.pop("JAX_PLATFORMS", None)
        # NCCL refuses two ranks on one GPU unless each poses as a host of its own.
        penv.update(NCCL_HOSTID=f"arc-jaxllama-host-{p}", NCCL_NET="Socket", NCCL_SOCKET_IFNAME="lo",
                    NCCL_P2P_DISABLE="1", NCCL_SHM_DISABLE="1")
        if mode == "native":
            penv["ARC_DISABLE"] = "1"
        else:
            if mode == "arc-unfused":
                penv["ARC_FUSE"] = "false"
            penv["ARC_DUMP_DIR"] = os.path.join(args.work, f"dump-{tag}-{p}")
        cmd = [sys.executable, SCRIPT, "--child", "gpu", "--mode", mode, "--procs", str(procs), "--process", str(p),
               "--port", str(port), "--result", os.path.join(args.work, f"{tag}-{p}"), "--impl", args.impl,
               "--iters", str(args.iters), "--warmup", str(args.warmup), "--init-timeout", str(args.init_timeout)]
        log = open(os.path.join(args.out, f"{tag}-{p}.log"), "w")
        children.append(subprocess.Popen(cmd, env=penv, stdout=log, stderr=subprocess.STDOUT, start_new_session=True))
        LIVE.append(children[-1])
        log.close()
    try:
        return wait_all(children, timeout)
    finally:
        for c in children:
            LIVE.remove(c)


def wait_all(children, timeout):
    """Exit statuses; "timeout" or "killed" for those the parent ended."""
    deadline, first_failure = time.monotonic() + timeout, None
    while any(c.poll() is None for c in children):
        now = time.monotonic()
        if first_failure is None and any(c.poll() not in (None, 0) for c in children):
            first_failure = now  # the others wait in collectives for the dead one: give them a little
        if now > deadline or (first_failure is not None and now - first_failure > 20):
            ended = [c.poll() for c in children]
            kill(children)
            return [rc if rc is not None else ("timeout" if now > deadline else "killed") for rc in ended]
        time.sleep(0.25)
    return [c.returncode for c in children]


def load_run(args, tag, procs):
    import numpy as np

    runs = []
    for p in range(procs):
        base = os.path.join(args.work, f"{tag}-{p}")
        rec = json.load(open(base + ".json")) if os.path.exists(base + ".json") else {}
        arrays = dict(np.load(base + ".npz")) if os.path.exists(base + ".npz") else {}
        runs.append((rec, arrays))
    return runs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="results: llama.json and logs (required)")
    ap.add_argument("--work", help="scratch: per-process results, dumps; default OUT/work")
    ap.add_argument("--tps", default="2,4", help="process counts (tensor-parallel sizes)")
    ap.add_argument("--modes", default="native,arc,arc-unfused", help="native, arc, arc-unfused (arc with ARC_FUSE=false)")
    ap.add_argument("--impl", default="cudnn", choices=["cudnn", "xla"], help="attention implementation asked for")
    ap.add_argument("--iters", type=int, default=30, help="timed steps (median)")
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--budget", type=float, default=220, help="seconds for the whole run")
    ap.add_argument("--run-timeout", type=float, default=100, help="seconds for one configuration")
    ap.add_argument("--init-timeout", type=int, default=90, help="jax.distributed.initialize's timeout")
    ap.add_argument("--no-ref", action="store_true", help="skip the f32 CPU reference")
    ap.add_argument("--child", choices=["gpu", "ref"], help=argparse.SUPPRESS)
    ap.add_argument("--mode", help=argparse.SUPPRESS)
    ap.add_argument("--procs", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--process", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--result", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child == "gpu":
        gpu_child(args)
        return 0
    if args.child == "ref":
        ref_child(args)
        return 0
    if not args.out:
        ap.error("--out is required")
    return parent(args)


def parent(args) -> int:
    import numpy as np

    import llama_jax as lj

    signal.signal(signal.SIGTERM, on_term)
    t_start = time.monotonic()
    deadline = t_start + args.budget
    os.makedirs(args.out, exist_ok=True)
    args.work = args.work or os.path.join(args.out, "work")
    os.makedirs(args.work, exist_ok=True)
    tps = [int(x) for x in args.tps.split(",")]
    modes = args.modes.split(",")
    for tp in tps:
        lj.Config().check(tp)
    env = dict(os.environ)
    env.setdefault("ARC_TARGET", "cuda:nvlink")
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
    env.update(ARC_QUANT="none", XLA_PYTHON_CLIENT_PREALLOCATE="false")

    checks, notes, report = [], [], {"config": vars(lj.Config()), "tps": tps, "modes": modes, "runs": {}}

    def check(ok, what):
        checks.append((bool(ok), what))
        print(f"{'PASS' if ok else 'FAIL'} llama {what}", flush=True)
        return bool(ok)

    def note(what):
        notes.append(what)
        print(f"INFO llama {what}", flush=True)

    ref_proc, ref_base = None, os.path.join(args.work, "ref")
    if not args.no_ref:
        renv = dict(env, JAX_PLATFORMS="cpu", ARC_DISABLE="1")
        with open(os.path.join(args.out, "ref.log"), "w") as log:
            ref_proc = subprocess.Popen([sys.executable, SCRIPT, "--child", "ref", "--result", ref_base], env=renv,
                                        stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            LIVE.append(ref_proc)

    results = {}
    for tp in tps:
        for mode in modes:
            tag = f"tp{tp}-{mode}"
            left = deadline - time.monotonic()
            if left < 20:
                check(False, f"{tag}: not run: the time budget ran out")
                continue
            rcs = launch(args, tag, mode, tp, env, min(args.run_timeout, left))
            runs = load_run(args, tag, tp)
            results[tag] = runs
            report["runs"][tag] = {"exit": rcs, "processes": [rec for rec, _ in runs]}
            check(all(rc == 0 for rc in rcs), f"{tag}: {tp} processes exit 0 ({rcs})")
            for p, (rec, _) in enumerate(runs):
                if rec.get("error"):
                    note(f"{tag} process {p}: {rec['error'][:400]}")
                elif not rec.get("done"):
                    last = max(rec.get("t", {}).items(), key=lambda kv: kv[1], default=("nothing", 0))
                    note(f"{tag} process {p}: did not finish; last step done: {last[0]} at {last[1]} s")
            logits = [a.get("exact") for _, a in runs]
            if all(x is not None for x in logits):
                # Replicated after each psum, but each process autotunes its own GEMMs: bits may differ.
                spread = max(rel_l2(x, logits[0]) for x in logits)
                bits = all(np.array_equal(logits[0], x) for x in logits[1:])
                check(spread <= 1e-3, f"{tag}: all ranks' logits agree: {spread:.3g} relative L2 at most "
                                      f"(bound 1e-3), bit for bit: {bits}")
                check(np.all(np.isfinite(logits[0])), f"{tag}: logits finite")
            else:
                check(False, f"{tag}: logits from every process ({sum(x is not None for x in logits)} of {tp})")
            rec0 = runs[0][0]
            if rec0.get("attention"):
                note(f"{tag}: attention {rec0['attention']}: {rec0.get('attention_why')}"
                     + (f" (cuDNN vs XLA {rec0['cudnn_vs_xla']:.2g})" if rec0.get("cudnn_vs_xla") is not None else ""))
                impls = {r["attention"] for r, _ in runs if r.get("attention")}
                check(len(impls) == 1, f"{tag}: every process used the same attention ({sorted(map(str, impls))})")

    ref = None
    if ref_proc is not None:
        try:
            rc = ref_proc.wait(timeout=max(5, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            kill([ref_proc])
            rc = "timeout"
        if os.path.exists(ref_base + ".npz"):
            ref = np.load(ref_base + ".npz")["ref"]
        check(ref is not None, f"f32 CPU reference computed (exit {rc})")

    def first(tag, key):
        runs = results.get(tag)
        return runs[0][1].get(key) if runs else None

    for tp in tps:
        nat, arc = first(f"tp{tp}-native", "exact"), first(f"tp{tp}-arc", "exact")
        e = None
        if nat is not None and ref is not None:
            e = rel_l2(nat, ref)
            check(e < 5e-2, f"tp{tp} native: {e:.3g} relative L2 from the f32 reference (bound 5e-2: the bf16 model)")
        if nat is not None and arc is not None:
            rn = results[f"tp{tp}-native"][0][0]
            ra = results[f"tp{tp}-arc"][0][0]
            same_attn = rn.get("attention") == ra.get("attention")
            check(same_attn, f"tp{tp}: native and arc used the same attention ({rn.get('attention')}, {ra.get('attention')})")
            d = rel_l2(arc, nat)
            bound = max(2 * e, 1e-3) if e is not None else 2e-2
            basis = f"2 x native's {e:.3g} from f32" if e is not None else "no reference: fixed"
            check(d <= bound, f"tp{tp}: arc's logits {d:.3g} relative L2 from native's (bound {bound:.3g}: {basis}); "
                              f"max abs {float(np.max(np.abs(arc - nat))):.3g}, bit for bit: {np.array_equal(arc, nat)}")
            if e is not None:
                ea = rel_l2(arc, ref)
                check(ea <= 1.25 * e + 1e-4, f"tp{tp}: arc {ea:.3g} from the f32 reference, native {e:.3g} "
                                             f"(bound 1.25 x native + 1e-4)")
        unf = first(f"tp{tp}-arc-unfused", "exact")
        if unf is not None and arc is not None:
            # Fusion changes only the order of the additions in each row's sum of squares.
            d = rel_l2(unf, arc)
            bound = max(2 * e, 1e-3) if e is not None else 2e-2
            check(d <= bound, f"tp{tp}: fused and unfused arc logits {d:.3g} relative L2 apart (bound {bound:.3g}); "
                              f"bit for bit: {np.array_equal(unf, arc)}")
        ra = results.get(f"tp{tp}-arc", [({}, {})])[0][0]
        de = ra.get("dumps_exact")
        if de is not None:
            check(de["arc_calls"] > 0 and all(c in EXACT_CODECS for c in de["codecs"]),
                  f"tp{tp} arc: the exact step's dump calls arc_allreduce {de['arc_calls']} times "
                  f"({de.get('fused_calls', 0)} fused with the residual add and RMSNorm), codecs "
                  f"{sorted(set(de['codecs']))}, algos {sorted(set(de['algos']))}, {de['native_all_reduces']} all-reduces left native "
                  f"({', '.join(de['after_files']) or 'no after.mlir'})")
        elif f"tp{tp}-arc" in results:
            check(False, f"tp{tp} arc: no dump information for the exact step")
        du = results.get(f"tp{tp}-arc-unfused", [({}, {})])[0][0].get("dumps_exact")
        if du is not None:
            check(du["arc_calls"] > 0 and du.get("fused_calls", 0) == 0,
                  f"tp{tp} arc-unfused (ARC_FUSE=false): {du['arc_calls']} arc_allreduce calls, "
                  f"{du.get('fused_calls', 0)} fused")
        d8 = ra.get("dumps_int8")
        if d8 is not None:
            check(d8["arc_calls"] > 0 and all(c == "int8" for c in d8["codecs"]),
                  f"tp{tp} arc: the int8 step ({INT8_OPTIONS}) dumps codec int8 on every arc_allreduce: "
                  f"{d8['arc_calls']} calls, codecs {sorted(set(d8['codecs']))}")
        dp = ra.get("dumps_policy")
        if dp is not None:
            note(f"tp{tp} arc: with {POLICY_OPTIONS} alone the policy chose codecs {sorted(set(dp.get('codecs', [])))}: "
                 f"{'; '.join(sorted(set(dp.get('reasons', []))))[:500] or dp.get('error', '')}")
        a8 = first(f"tp{tp}-arc", "int8")
        if a8 is not None and arc is not None:
            d = rel_l2(a8, arc)
            check(0 < d <= 5e-2, f"tp{tp} arc: int8 logits {d:.3g} relative L2 from the exact ones (bound 5e-2, and not 0)")
        for mode in modes:
            r = results.get(f"tp{tp}-{mode}", [({}, {})])[0][0]
            for key, label in (("time_exact", "exact"), ("time_int8", "int8")):
                if r.get(key):
                    t = r[key]
                    note(f"tp{tp} {mode} {label}: step {t['median_ms']:.3f} ms median of {t['n']} "
                         f"(min {t['min_ms']:.3f}, max {t['max_ms']:.3f}); one H200 shared by {tp} processes: not a speed claim")

    passed = sum(ok for ok, _ in checks)
    failed = len(checks) - passed
    report.update(checks=[{"ok": ok, "what": w} for ok, w in checks], notes=notes, passed=passed, failed=failed,
                  seconds=round(time.monotonic() - t_start, 1))
    with open(os.path.join(args.out, "llama.json"), "w") as f:
        json.dump(report, f, indent=1, default=str)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
