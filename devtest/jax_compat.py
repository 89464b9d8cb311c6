"""JAX's features on one GPU, natively and through arc, compared.

Every feature runs twice, each time in a fresh child process: once on JAX's own
CUDA plugin (ARC_DISABLE=1, "native") and once through arc (the arc_jax wheel
installed: JAX's "cuda" backend is arc's proxy). Each child runs the features
one by one, each in its own try block under a time limit (SIGALRM), checks
what it can on its own (a decomposition reconstructs its input, sort agrees
with numpy, ...) and saves the outputs. The parent watches the children: a
feature that hangs past its hard limit, or kills its process, is recorded as
such and the rest run in a new child. Then the parent compares native with arc
feature by feature: bit for bit where the computation is deterministic (the
same program, the same kernels), within a stated tolerance where XLA's
autotuning may pick another kernel in another process (GEMMs, convolutions,
attention; linear algebra, whose internal GEMMs the same holds for), and checks
arc's log: its start line ("arc: active: ...") is there, JAX's "experimental
platform" warning is not. The persistent compilation cache gets two more fresh
children per mode: one fills an empty cache, the next must load every program
from it.

Output: DIR/compat.json and a table (feature, native ok, arc ok, match, max
error); a PASS/FAIL line per feature; "N passed, M failed". Exit 1 on a FAIL.

    python jax_compat.py --out DIR [--modes native,arc] [--features a,b] [--budget 200] [--feature-timeout 60]
"""

import argparse
import glob
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time
import traceback

SCRIPT = os.path.abspath(__file__)
EXACT = "exact"
LIVE = []  # the children running now, ended on SIGTERM


# ---- what a feature returns ------------------------------------------------------


class Result:
    """One feature's outcome in one process: its outputs (compared across
    modes, each with a tolerance), values that must be equal across modes
    (same), free-form info, and its own check (ok, why)."""

    def __init__(self):
        self.values = {}  # name -> (np.ndarray, tolerance)
        self.same = {}
        self.info = {}
        self.ok = True
        self.why = []

    def value(self, name, array, tol=EXACT):
        """An output; tol is EXACT (bit for bit) or a relative bound: max|arc -
        native| <= tol * max|native|."""
        import numpy as np

        self.values[name] = (np.asarray(array), tol)

    def check(self, ok, what):
        ok = bool(ok)
        if not ok:
            self.ok = False
            self.why.append(what)
        return ok


FEATURES = []  # (name, function, description), in run order


def feature(name, desc):
    def register(fn):
        FEATURES.append((name, fn, desc))
        return fn

    return register


def rel_err(a, b):
    """max|a - b| / max|b| in float64 (1 where b is all zeros)."""
    import numpy as np

    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    scale = float(np.max(np.abs(b))) if b.size else 0.0
    return float(np.max(np.abs(a - b))) / (scale or 1.0) if a.size else 0.0


def host(x):
    import numpy as np

    return np.asarray(x)


# ---- the features -----------------------------------------------------------------


@feature("backend", "default_backend() is gpu; devices('gpu') and devices('cuda') are the same devices")
def f_backend(r):
    import jax

    gpus, cudas = jax.devices("gpu"), jax.devices("cuda")
    d = gpus[0]
    r.same.update(default_backend=jax.default_backend(), platform=d.platform, device_kind=d.device_kind,
                  gpus=len(gpus), cuda_is_gpu=[x.id for x in gpus] == [x.id for x in cudas])
    r.info.update(jax=jax.__version__, devices=[str(x) for x in jax.devices()])
    try:
        import jaxlib

        r.info["jaxlib"] = jaxlib.__version__
        r.info["platform_version"] = d.client.platform_version
    except Exception as e:  # informational only
        r.info["platform_version_error"] = repr(e)
    r.check(jax.default_backend() == "gpu", f"default_backend() is {jax.default_backend()!r}")
    r.check(d.platform == "gpu", f"device platform {d.platform!r}")
    r.check(r.same["cuda_is_gpu"], "devices('cuda') differ from devices('gpu')")


@feature("transfer", "host -> device -> host of 7 dtypes and 64 MiB, bit for bit")
def f_transfer(r):
    import jax
    import jax.numpy as jnp
    import numpy as np

    rng = np.random.default_rng(1)
    base = rng.standard_normal(4096).astype(np.float32)
    arrays = {
        "float32": base, "bfloat16": base.astype(jnp.bfloat16), "float16": base.astype(np.float16),
        "int8": rng.integers(-128, 128, 4096).astype(np.int8), "uint32": rng.integers(0, 2**32, 4096, dtype=np.uint32),
        "bool": base > 0, "complex64": (base + 1j * base[::-1]).astype(np.complex64),
        "large": rng.standard_normal(16 << 20).astype(np.float32),
    }
    for name, a in arrays.items():
        back = np.asarray(jax.device_put(a))
        r.check(back.dtype == a.dtype and back.tobytes() == a.tobytes(), f"{name} changed in the round trip")
        if name != "large":
            r.value(name, back)
    r.same["large_sha256"] = hashlib.sha256(arrays["large"].tobytes()).hexdigest()


def _random_outputs(key):
    import jax

    k1, k2, k3 = jax.random.split(key, 3)
    return (jax.random.normal(k1, (1 << 20,)), jax.random.uniform(k2, (4096,)),
            jax.random.bits(k3, (4096,), dtype=jax.numpy.uint32), jax.random.randint(k3, (4096,), 0, 1000))


@feature("prng_threefry", "jax.random (threefry2x32, XLA's lowering): normal, uniform, bits, randint")
def f_prng(r):
    import jax
    import numpy as np

    jax.config.update("jax_threefry_gpu_kernel_lowering", False)
    outs = jax.jit(_random_outputs)(jax.random.key(0))
    for name, x in zip(("normal", "uniform", "bits", "randint"), outs):
        r.value(name, host(x))
    n = host(outs[0])
    r.check(abs(float(n.mean())) < 0.01 and abs(float(n.std()) - 1) < 0.01, f"normal: mean {n.mean()}, std {n.std()}")


@feature("prng_threefry_gpu_kernel", "jax_threefry_gpu_kernel_lowering: the cu_threefry2x32_ffi kernel, equal to XLA's lowering")
def f_prng_kernel(r):
    import jax

    key = jax.random.key(0)
    jax.config.update("jax_threefry_gpu_kernel_lowering", False)
    plain = [host(x) for x in jax.jit(lambda k: _random_outputs(k))(key)]
    jax.config.update("jax_threefry_gpu_kernel_lowering", True)
    try:
        fn = jax.jit(lambda k: _random_outputs(k))
        text = fn.lower(key).as_text()
        outs = [host(x) for x in fn(key)]
    finally:
        jax.config.update("jax_threefry_gpu_kernel_lowering", False)
    r.check("threefry2x32_ffi" in text, "the lowered program has no threefry2x32_ffi custom call")
    for name, x, y in zip(("normal", "uniform", "bits", "randint"), outs, plain):
        r.value(name, x)
        r.check(x.tobytes() == y.tobytes(), f"{name}: the GPU kernel differs from XLA's lowering")


@feature("prng_rbg", "jax.random with the rbg implementation (XLA's RngBitGenerator)")
def f_prng_rbg(r):
    import jax

    outs = jax.jit(_random_outputs)(jax.random.key(0, impl="rbg"))
    for name, x in zip(("normal", "uniform", "bits", "randint"), outs):
        r.value(name, host(x))


def _orthogonal(n, seed):
    import numpy as np

    q, _ = np.linalg.qr(np.random.default_rng(seed).standard_normal((n, n)))
    return q


def _fix_signs(cols, rows=None):
    """Flips each column of cols (and the matching row of rows) so that its
    largest entry is positive: decompositions are unique only up to sign."""
    import numpy as np

    idx = np.argmax(np.abs(cols), axis=0)
    s = np.sign(cols[idx, np.arange(cols.shape[1])])
    s[s == 0] = 1
    return cols * s, (rows * s[:, None] if rows is not None else None)


@feature("qr", "jnp.linalg.qr through cuSOLVER, f32 256x256 (tolerance 1e-4)")
def f_qr(r):
    import jax
    import jax.numpy as jnp
    import numpy as np

    a = np.random.default_rng(2).standard_normal((256, 256)).astype(np.float32)
    q, rr = (host(x) for x in jax.jit(jnp.linalg.qr)(a))
    r.check(rel_err(q.astype(np.float64) @ rr, a) < 1e-4, "Q R is not A")
    r.check(rel_err(q.T.astype(np.float64) @ q, np.eye(256)) < 1e-4, "Q is not orthogonal")
    s = np.sign(np.diag(rr)).astype(np.float32)
    s[s == 0] = 1
    r.value("q", q * s, 1e-4)
    r.value("r", rr * s[:, None], 1e-4)


@feature("eigh", "jnp.linalg.eigh through cuSOLVER, f32 256x256 with eigenvalues 1..256 (tolerance 1e-4)")
def f_eigh(r):
    import jax
    import jax.numpy as jnp
    import numpy as np

    v0 = _orthogonal(256, 3)
    a = ((v0 * np.arange(1, 257)) @ v0.T).astype(np.float32)
    a = (a + a.T) / 2
    w, v = (host(x) for x in jax.jit(jnp.linalg.eigh)(a))
    r.check(rel_err(w, np.arange(1, 257)) < 1e-4, "eigenvalues are not 1..256")
    r.check(rel_err((v.astype(np.float64) * w) @ v.T, a) < 1e-4, "V diag(w) V^T is not A")
    r.value("w", w, 1e-4)
    r.value("v", _fix_signs(v)[0], 1e-4)


@feature("svd", "jnp.linalg.svd through cuSOLVER, f32 256x192 with singular values 1..192 (tolerance 1e-4)")
def f_svd(r):
    import jax
    import jax.numpy as jnp
    import numpy as np

    u0, v0 = _orthogonal(256, 4)[:, :192], _orthogonal(192, 5)
    a = ((u0 * np.arange(192, 0, -1)) @ v0.T).astype(np.float32)
    u, s, vt = (host(x) for x in jax.jit(lambda m: jnp.linalg.svd(m, full_matrices=False))(a))
    r.check(rel_err(s, np.arange(192, 0, -1)) < 1e-4, "singular values are not 192..1")
    r.check(rel_err((u.astype(np.float64) * s) @ vt, a) < 1e-4, "U S V^T is not A")
    u, vt = _fix_signs(u, vt)
    r.value("s", s, 1e-4)
    r.value("u", u, 1e-4)
    r.value("vt", vt, 1e-4)


@feature("cholesky", "jnp.linalg.cholesky through cuSOLVER, f32 256x256 SPD (tolerance 1e-4)")
def f_cholesky(r):
    import jax
    import jax.numpy as jnp
    import numpy as np

    m = np.random.default_rng(6).standard_normal((256, 256))
    a = (m @ m.T / 256 + np.eye(256)).astype(np.float32)
    low = host(jax.jit(jnp.linalg.cholesky)(a))
    r.check(rel_err(low.astype(np.float64) @ low.T, a) < 1e-4, "L L^T is not A")
    r.check(np.allclose(np.triu(low, 1), 0), "L is not lower triangular")
    r.value("l", low, 1e-4)


@feature("lu", "jax.lax.linalg.lu through cuSOLVER, f32 256x256 (tolerance 1e-4; pivots exact)")
def f_lu(r):
    import jax
    import numpy as np

    a = np.random.default_rng(7).standard_normal((256, 256)).astype(np.float32)
    lu, piv, perm = (host(x) for x in jax.jit(jax.lax.linalg.lu)(a))
    low = np.tril(lu, -1).astype(np.float64) + np.eye(256)
    r.check(rel_err(low @ np.triu(lu), a[perm]) < 1e-4, "L U is not P A")
    r.value("lu", lu, 1e-4)
    r.value("pivots", piv)
    r.value("perm", perm)


@feature("fft", "jnp.fft.fft (c64) and rfft2/irfft2 (f32) through cuFFT (tolerance 1e-5)")
def f_fft(r):
    import jax
    import jax.numpy as jnp
    import numpy as np

    rng = np.random.default_rng(8)
    z = (rng.standard_normal(4096) + 1j * rng.standard_normal(4096)).astype(np.complex64)
    x = rng.standard_normal((256, 256)).astype(np.float32)
    fz, fx, back = (host(y) for y in jax.jit(lambda z, x: (jnp.fft.fft(z), jnp.fft.rfft2(x),
                                                           jnp.fft.irfft2(jnp.fft.rfft2(x), s=x.shape)))(z, x))
    r.check(rel_err(fz, np.fft.fft(z.astype(np.complex128))) < 1e-4, "fft differs from numpy's")
    r.check(rel_err(fx, np.fft.rfft2(x.astype(np.float64))) < 1e-4, "rfft2 differs from numpy's")
    r.check(rel_err(back, x) < 1e-5, "irfft2(rfft2(x)) is not x")
    r.value("fft", fz, 1e-5)
    r.value("rfft2", fx, 1e-5)
    r.value("roundtrip", back, 1e-5)


@feature("sort", "jnp.sort and a stable jnp.argsort of 1M f32 with repeats, and a 2-key lax.sort")
def f_sort(r):
    import jax
    import jax.numpy as jnp
    import numpy as np

    rng = np.random.default_rng(9)
    x = rng.integers(0, 5000, 1 << 20).astype(np.float32) / 7
    keys = rng.integers(0, 16, 65536).astype(np.int32)
    vals = rng.standard_normal(65536).astype(np.float32)
    s, i, (k2, v2) = jax.jit(lambda x, k, v: (jnp.sort(x), jnp.argsort(x, stable=True),
                                              jax.lax.sort((k, v), num_keys=1)))(x, keys, vals)
    s, i, k2, v2 = host(s), host(i), host(k2), host(v2)
    r.check(np.array_equal(s, np.sort(x)), "sort differs from numpy's")
    r.check(np.array_equal(i, np.argsort(x, kind="stable")), "stable argsort differs from numpy's")
    order = np.argsort(keys, kind="stable")
    r.check(np.array_equal(k2, keys[order]) and np.array_equal(v2, vals[order]), "lax.sort differs from a stable sort")
    for name, a in (("sort", s), ("argsort", i), ("keys", k2), ("values", v2)):
        r.value(name, a)


@feature("top_k", "jax.lax.top_k, k=16 of (64, 8192) f32")
def f_top_k(r):
    import jax
    import numpy as np

    x = np.random.default_rng(10).standard_normal((64, 8192)).astype(np.float32)
    v, i = (host(y) for y in jax.jit(lambda a: jax.lax.top_k(a, 16))(x))
    r.check(np.array_equal(v, -np.sort(-x, axis=1)[:, :16]), "top_k values differ from numpy's")
    r.check(np.array_equal(np.take_along_axis(x, i, 1), v), "top_k indices do not point at the values")
    r.value("values", v)
    r.value("indices", i)


@feature("scan", "jax.lax.scan: 256 steps of h = 0.9 sin(h) + x_t over 4096 lanes")
def f_scan(r):
    import jax
    import jax.numpy as jnp
    import numpy as np

    xs = np.random.default_rng(11).standard_normal((256, 4096)).astype(np.float32)

    def run(xs):
        return jax.lax.scan(lambda h, x: (0.9 * jnp.sin(h) + x, h.sum()), jnp.zeros(4096, jnp.float32), xs)

    h, sums = (host(y) for y in jax.jit(run)(xs))
    want = np.zeros(4096, np.float64)
    for x in xs:
        want = 0.9 * np.sin(want) + x
    r.check(rel_err(h, want) < 1e-3, "the final state differs from numpy's loop")
    r.value("h", h)
    r.value("sums", sums)


@feature("while_loop", "jax.lax.while_loop with a data-dependent trip count (Newton's square root), and fori_loop")
def f_while(r):
    import jax
    import jax.numpy as jnp
    import numpy as np

    x = np.random.default_rng(12).uniform(0.5, 1e4, 8192).astype(np.float32)

    def newton(a):
        def body(c):
            y, n = c
            return 0.5 * (y + a / y), n + 1

        return jax.lax.while_loop(lambda c: (jnp.max(jnp.abs(c[0] * c[0] - a) / a) > 1e-6) & (c[1] < 100),
                                  body, (a, jnp.int32(0)))

    y, n = (host(v) for v in jax.jit(newton)(x))
    f = host(jax.jit(lambda a: jax.lax.fori_loop(0, 37, lambda i, c: c * 1.01 + i, a))(x))
    r.check(rel_err(y, np.sqrt(x.astype(np.float64))) < 1e-5, "while_loop's root is off")
    r.check(1 < int(n) < 100, f"while_loop ran {int(n)} iterations")
    r.value("sqrt", y)
    r.value("iterations", n)
    r.value("fori", f)


@feature("conv", "lax.conv_general_dilated, f32 NCHW 8x32x32x32 by 64x32x3x3 (cuDNN; tolerance 1e-2: TF32, autotuned)")
def f_conv(r):
    import jax
    import numpy as np
    from jax import lax

    rng = np.random.default_rng(13)
    x = rng.standard_normal((8, 32, 32, 32)).astype(np.float32)
    w = (rng.standard_normal((64, 32, 3, 3)) / 17).astype(np.float32)

    def conv(x, w, precision=None):
        return lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NCHW", "OIHW", "NCHW"),
                                        precision=precision)

    y = host(jax.jit(conv)(x, w))
    hi = host(jax.jit(lambda x, w: conv(x, w, lax.Precision.HIGHEST))(x, w))
    r.check(y.shape == (8, 64, 32, 32), f"shape {y.shape}")
    r.check(rel_err(y, hi) < 1e-2, f"default precision is {rel_err(y, hi):.3g} from HIGHEST")
    r.value("y", y, 1e-2)
    r.value("y_highest", hi, 1e-4)


def _attention_inputs():
    import jax.numpy as jnp
    import numpy as np

    rng = np.random.default_rng(14)
    b, t, n, k, h = 2, 256, 8, 2, 64
    q = rng.standard_normal((b, t, n, h)).astype(jnp.bfloat16)
    kk = rng.standard_normal((b, t, k, h)).astype(jnp.bfloat16)
    v = rng.standard_normal((b, t, k, h)).astype(jnp.bfloat16)
    return q, kk, v


def _attention_reference(q, k, v):
    """Causal GQA attention in float64 on the host."""
    import numpy as np

    q, k, v = (np.asarray(a, np.float64) for a in (q, k, v))
    g = q.shape[2] // k.shape[2]
    k, v = np.repeat(k, g, axis=2), np.repeat(v, g, axis=2)
    logits = np.einsum("btnh,bsnh->bnts", q, k) / np.sqrt(q.shape[-1])
    t = q.shape[1]
    logits = np.where(np.tril(np.ones((t, t), bool)), logits, -np.inf)
    p = np.exp(logits - logits.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    return np.einsum("bnts,bsnh->btnh", p, v)


def _attention(r, impl):
    import jax

    q, k, v = _attention_inputs()
    fn = jax.jit(lambda q, k, v: jax.nn.dot_product_attention(q, k, v, is_causal=True, implementation=impl))
    text = fn.lower(q, k, v).as_text()
    targets = sorted(set(re.findall(r'custom_call @([\w$.-]+)|call_target_name = "([^"]+)"', text)))
    r.info["custom_calls"] = [a or b for a, b in targets]
    y = host(fn(q, k, v))
    err = rel_err(y, _attention_reference(q, k, v))
    r.info["error_vs_f64"] = err
    r.check(err < 3e-2, f"{err:.3g} from the f64 reference (bf16)")
    r.value("y", y, 2e-2)
    return text


@feature("attention_xla", "jax.nn.dot_product_attention(implementation='xla'), bf16 causal GQA 2x256x8(2)x64 (tolerance 2e-2)")
def f_attention_xla(r):
    _attention(r, "xla")


@feature("attention_cudnn", "jax.nn.dot_product_attention(implementation='cudnn'), bf16 causal GQA 2x256x8(2)x64 (tolerance 2e-2)")
def f_attention_cudnn(r):
    text = _attention(r, "cudnn")
    r.check("cudnn" in text, "the lowered program calls no cuDNN kernel")


@feature("pallas_triton", "a Pallas add kernel on the Triton backend (jax.experimental.pallas, triton.CompilerParams)")
def f_pallas(r):
    import warnings

    import jax
    import numpy as np
    from jax.experimental import pallas as pl
    from jax.experimental.pallas import triton as plt

    def add(x_ref, y_ref, o_ref):
        o_ref[...] = x_ref[...] + y_ref[...]

    n, block = 8192, 1024
    spec = pl.BlockSpec((block,), lambda i: (i,))
    call = pl.pallas_call(add, out_shape=jax.ShapeDtypeStruct((n,), np.float32), grid=(n // block,),
                          in_specs=[spec, spec], out_specs=spec, compiler_params=plt.CompilerParams(num_warps=4))
    rng = np.random.default_rng(15)
    x, y = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn = jax.jit(call)
        text = fn.lower(x, y).as_text()
        z = host(fn(x, y))
    r.info["warnings"] = [str(w.message)[:200] for w in caught]
    r.check("triton" in text.lower(), "the lowered program has no Triton kernel")
    r.check(np.array_equal(z, x + y), "x + y differs from numpy's")
    r.value("z", z)


@feature("custom_vjp", "grad through a jax.custom_vjp function (a custom backward rule)")
def f_custom_vjp(r):
    import jax
    import jax.numpy as jnp
    import numpy as np

    @jax.custom_vjp
    def f(x):
        return jnp.sin(x)

    f.defvjp(lambda x: (jnp.sin(x), x), lambda x, g: (2.0 * g * jnp.cos(x),))  # twice the true derivative
    x = np.random.default_rng(16).standard_normal(4096).astype(np.float32)
    c = np.linspace(-1, 1, 4096, dtype=np.float32)
    g = host(jax.jit(jax.grad(lambda x: jnp.sum(f(x) * c)))(x))
    r.check(rel_err(g, 2 * c * np.cos(x.astype(np.float64))) < 1e-5, "grad does not use the custom rule")
    r.value("grad", g)


@feature("bf16_matmul", "jnp.dot of bf16 1024x1024 matrices (autotuned GEMM; tolerance 1e-2)")
def f_matmul(r):
    import jax
    import jax.numpy as jnp
    import numpy as np

    rng = np.random.default_rng(17)
    a = rng.standard_normal((1024, 1024)).astype(jnp.bfloat16)
    b = rng.standard_normal((1024, 1024)).astype(jnp.bfloat16)
    y = host(jax.jit(jnp.dot)(a, b))
    r.check(y.dtype == jnp.bfloat16, f"result dtype {y.dtype}")
    err = rel_err(y, a.astype(np.float64) @ b.astype(np.float64))
    r.info["error_vs_f64"] = err
    r.check(err < 2e-2, f"{err:.3g} from the f64 product")
    r.value("y", y, 1e-2)


@feature("memory_stats", "device.memory_stats(): bytes_in_use grows by a 64 MiB array")
def f_memory(r):
    import jax
    import jax.numpy as jnp

    d = jax.devices("gpu")[0]
    before = d.memory_stats()
    r.check(isinstance(before, dict) and "bytes_in_use" in before, f"memory_stats() is {type(before).__name__}")
    if not r.ok:
        return
    x = jax.device_put(jnp.zeros(16 << 20, jnp.float32), d)
    x.block_until_ready()
    during = d.memory_stats()
    x.delete()
    after = d.memory_stats()
    grew = during["bytes_in_use"] - before["bytes_in_use"]
    r.info.update(before=before.get("bytes_in_use"), during=during["bytes_in_use"], after=after["bytes_in_use"],
                  keys=sorted(before), bytes_limit=before.get("bytes_limit"))
    r.same.update(has_stats=True, grew_by_64MiB=grew >= 64 << 20, keys=sorted(before))
    r.check(grew >= 64 << 20, f"bytes_in_use grew by {grew}")


@feature("remat", "jax.checkpoint under grad: equal to the gradient without remat")
def f_remat(r):
    import jax
    import jax.numpy as jnp
    import numpy as np

    def g(x):
        return jnp.sum(jnp.sin(x) * x + jnp.tanh(x) ** 2)

    x = np.random.default_rng(18).standard_normal(8192).astype(np.float32)
    remat = jax.grad(jax.checkpoint(g))
    r.info["jaxpr_has_remat"] = any(w in str(jax.make_jaxpr(remat)(x)) for w in ("checkpoint", "remat"))
    gr = host(jax.jit(remat)(x))
    gp = host(jax.jit(jax.grad(g))(x))
    r.check(rel_err(gr, gp) < 1e-6, "remat's gradient differs from the plain one")
    r.value("grad", gr)


@feature("donation", "jit(donate_argnums=0): the input buffer is donated (deleted) and the result right")
def f_donation(r):
    import jax
    import numpy as np

    h = np.random.default_rng(19).standard_normal(1 << 20).astype(np.float32)
    x = jax.device_put(h)
    y = jax.jit(lambda a: a * 2 + 1, donate_argnums=0)(x)
    y = host(y)
    r.check(x.is_deleted(), "the donated input is not deleted")
    r.check(np.array_equal(y, h * 2 + 1), "result differs from numpy's")
    r.value("y", y)


@feature("export", "jax.export: export, serialize, deserialize, call; equal to jit")
def f_export(r):
    import jax
    import jax.numpy as jnp
    import numpy as np

    def fn(x):
        return jnp.tanh(x) * 3 + jnp.cumsum(x, axis=-1)

    x = np.random.default_rng(20).standard_normal((64, 256)).astype(np.float32)
    exp = jax.export.export(jax.jit(fn))(jax.ShapeDtypeStruct(x.shape, x.dtype))
    blob = exp.serialize()
    back = jax.export.deserialize(bytearray(blob))
    y = host(back.call(x))
    r.info.update(bytes=len(blob), sha256=hashlib.sha256(bytes(blob)).hexdigest())
    r.same["platforms"] = list(back.platforms)
    r.check(np.array_equal(y, host(jax.jit(fn)(x))), "the deserialized call differs from jit")
    r.value("y", y)


@feature("aot", "jit(f).lower(x).compile(): as_text, cost_analysis, the compiled call")
def f_aot(r):
    import jax
    import jax.numpy as jnp
    import numpy as np

    x = np.random.default_rng(21).standard_normal((512, 512)).astype(np.float32)
    lowered = jax.jit(lambda a: jnp.exp(-a * a).sum(axis=0)).lower(x)
    compiled = lowered.compile()
    y = host(compiled(x))
    r.check("stablehlo" in lowered.as_text(), "lowered.as_text() has no StableHLO")
    r.check(len(compiled.as_text() or "") > 0, "compiled.as_text() is empty")
    try:
        cost = compiled.cost_analysis()
        cost = cost[0] if isinstance(cost, (list, tuple)) and cost else cost
        r.info["flops"] = float(cost.get("flops", -1)) if isinstance(cost, dict) else None
    except Exception as e:  # informational only
        r.info["cost_analysis_error"] = repr(e)
    r.check(rel_err(y, np.exp(-x.astype(np.float64) ** 2).sum(axis=0)) < 1e-5, "result differs from numpy's")
    r.value("y", y)


@feature("profiler", "jax.profiler.trace to a directory: an xplane.pb with GPU events")
def f_profiler(r, out=None):
    import jax
    import jax.numpy as jnp

    logdir = os.path.join(out or ".", "profile")
    x = jnp.ones((1024, 1024), jnp.float32)
    fn = jax.jit(lambda a: jnp.tanh(a @ a))
    fn(x).block_until_ready()
    with jax.profiler.trace(logdir):
        for _ in range(3):
            fn(x).block_until_ready()
    files = glob.glob(os.path.join(logdir, "**", "*.xplane.pb"), recursive=True)
    r.info["files"] = [os.path.relpath(f, logdir) for f in files]
    r.same["trace_written"] = r.check(files, "no .xplane.pb was written")
    if not files:
        return
    gpu_planes, events = [], 0
    try:
        data = jax.profiler.ProfileData.from_file(files[0])
        for plane in data.planes:
            if plane.name.startswith("/device:GPU"):
                gpu_planes.append(plane.name)
                events += sum(len(list(line.events)) for line in plane.lines)
    except Exception as e:  # ProfileData's API moved: fall back to the plane names in the bytes
        r.info["profile_data_error"] = repr(e)
        blob = open(files[0], "rb").read()
        gpu_planes = sorted(set(m.decode() for m in re.findall(rb"/device:GPU:\d+", blob)))
        events = -1
    r.info.update(gpu_planes=gpu_planes, gpu_events=events)
    r.same["gpu_plane"] = r.check(gpu_planes, "the trace has no GPU plane")
    r.check(events != 0, "the GPU planes hold no events")


@feature("shard_map_psum", "a psum in a shard_map program on a one-device mesh")
def f_shard_map(r):
    import jax
    import numpy as np
    from jax.sharding import Mesh, PartitionSpec as P

    mesh = Mesh(np.array(jax.devices()[:1]), ("x",))
    fn = jax.jit(jax.shard_map(lambda a: jax.lax.psum(a, "x"), mesh=mesh, in_specs=P("x"), out_specs=P()))
    x = np.random.default_rng(22).standard_normal((8, 1024)).astype(np.float32)
    text = fn.lower(x).as_text()
    y = host(fn(x))
    r.info["all_reduce_in_program"] = "all_reduce" in text
    r.check(np.array_equal(y, x), "psum over one device changed the values")
    r.value("y", y)


@feature("compiler_options", "compile(compiler_options=...) with XLA's options; an unknown option is refused")
def f_compiler_options(r):
    import jax
    import jax.numpy as jnp
    import numpy as np

    x = np.random.default_rng(23).standard_normal(4096).astype(np.float32)
    lowered = jax.jit(lambda a: jnp.sqrt(a * a) + 1).lower(x)
    y = host(lowered.compile(compiler_options={"xla_embed_ir_in_executable": True,
                                               "xla_dump_max_hlo_modules": 200})(x))
    plain = host(lowered.compile()(x))  # XLA's sqrt is not numpy's: compare with the program without options
    try:
        lowered.compile(compiler_options={"invalid_key": "invalid_value"})
        refused = ""
    except Exception as e:
        refused = str(e)
    r.info["refusal"] = refused[:300]
    r.same["unknown_refused"] = r.check("invalid_key" in refused, "an unknown option was not refused by name")
    r.check(np.array_equal(y, plain), "the options changed the result")
    r.check(np.allclose(y, np.sqrt(x * x) + 1, rtol=1e-6), "result far from numpy's")
    r.value("y", y)


@feature("arc_compiler_options", "arc only: arc_quant on a program without collectives compiles; an unknown arc_ name "
         "is refused on a program that goes through arc (a psum)")
def f_arc_options(r, mode="arc"):
    import jax
    import jax.numpy as jnp
    import numpy as np

    if mode != "arc":
        r.info["skipped"] = "native: XLA knows no arc_ option"
        return
    x = np.random.default_rng(24).standard_normal(4096).astype(np.float32)
    lowered = jax.jit(lambda a: a * 3 - 1).lower(x)
    y = host(lowered.compile(compiler_options={"arc_quant": "int8", "arc_min_bytes": 4096})(x))
    r.check(np.array_equal(y, x * 3 - 1), "result differs from numpy's")
    # A program without collectives passes through: arc takes its keys out
    # unread. One with a psum goes through arc, which reads them.
    from jax.sharding import Mesh, PartitionSpec as P

    mesh = Mesh(np.array(jax.devices()[:1]), ("x",))
    psum = jax.jit(jax.shard_map(lambda a: jax.lax.psum(a, "x"), mesh=mesh, in_specs=P("x"), out_specs=P()))
    try:
        psum.lower(x.reshape(4, 1024)).compile(compiler_options={"arc_no_such_setting": 1})
        refused = ""
    except Exception as e:
        refused = str(e)
    r.info["refusal"] = refused[:300]
    r.check("arc_no_such_setting" in refused, "an unknown arc_ option was not refused by name")
    r.value("y", y)


@feature("pure_callback", "jax.pure_callback to numpy inside jit")
def f_callback(r):
    import jax
    import numpy as np

    x = np.random.default_rng(25).standard_normal(4096).astype(np.float32)

    def cb(a):
        return (np.sin(np.asarray(a)) * 2).astype(np.float32)

    y = host(jax.jit(lambda a: jax.pure_callback(cb, jax.ShapeDtypeStruct(a.shape, a.dtype), a) + 1)(x))
    r.check(np.array_equal(y, cb(x) + 1), "the callback's result differs")
    r.value("y", y)


@feature("scatter_add", "x.at[idx].add(v) with repeated indices (atomics: tolerance 1e-5)")
def f_scatter(r):
    import jax
    import jax.numpy as jnp
    import numpy as np

    rng = np.random.default_rng(26)
    idx = rng.integers(0, 4096, 1 << 16).astype(np.int32)
    v = rng.standard_normal(1 << 16).astype(np.float32)
    y = host(jax.jit(lambda i, v: jnp.zeros(4096, jnp.float32).at[i].add(v))(idx, v))
    want = np.zeros(4096)
    np.add.at(want, idx, v.astype(np.float64))
    r.check(rel_err(y, want) < 1e-4, "scatter-add differs from numpy's")
    r.value("y", y, 1e-5)


@feature("vmap_cond", "jax.vmap over lax.cond and lax.switch")
def f_vmap_cond(r):
    import jax
    import jax.numpy as jnp
    import numpy as np

    x = np.random.default_rng(27).standard_normal((512, 64)).astype(np.float32)

    def row(a):
        c = jax.lax.cond(a.sum() > 0, lambda b: jnp.exp(b), lambda b: -b, a)
        return jax.lax.switch(jnp.argmax(a) % 3, [jnp.sin, jnp.cos, jnp.tanh], c)

    y = host(jax.jit(jax.vmap(row))(x))
    r.check(y.shape == x.shape and np.all(np.isfinite(y)), "bad result")
    r.value("y", y)


# ---- the persistent compilation cache (run by fresh children of their own) -----------


def cache_programs():
    """The programs of the cache runs: the same every run, so the second finds
    them all in the cache."""
    import jax
    import jax.numpy as jnp
    import numpy as np

    rng = np.random.default_rng(28)
    x = rng.standard_normal((256, 1024)).astype(np.float32)
    return {
        "elementwise": host(jax.jit(lambda a: jnp.tanh(a) * 2 + jnp.exp(-a))(x)),
        "sort": host(jax.jit(lambda a: jnp.sort(a, axis=-1))(x)),
        "scan": host(jax.jit(lambda a: jax.lax.scan(lambda c, r: (c * 0.5 + r, c), a[0], a)[0])(x)),
    }


def cache_files(d):
    return len(glob.glob(os.path.join(d, "*-cache")))  # JAX's entries; XLA's autotune cache is a subfolder


def cache_child(args):
    import jax
    import numpy as np

    events = {"hits": 0, "misses": 0}

    def listen(event, **kwargs):
        if event == "/jax/compilation_cache/cache_hits":
            events["hits"] += 1
        elif event == "/jax/compilation_cache/cache_misses":
            events["misses"] += 1

    jax.monitoring.register_event_listener(listen)
    jax.config.update("jax_compilation_cache_dir", args.cache_dir)
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    before = cache_files(args.cache_dir)
    values = cache_programs()
    out = os.path.join(args.out, f"cache-{args.mode}-{args.cache_phase}")
    np.savez(out + ".npz", **values)
    with open(out + ".json", "w") as f:
        json.dump({"files_before": before, "files_after": cache_files(args.cache_dir), **events}, f)


# ---- the child ---------------------------------------------------------------------


class FeatureTimeout(Exception):
    pass


def _alarm(signum, frame):
    raise FeatureTimeout("past the feature's time limit")


def save_values(path, values):
    """Each output's bytes, and its metadata (dtype, shape, tolerance)."""
    import numpy as np

    arrays, meta = {}, {}
    for name, (a, tol) in values.items():
        a = np.ascontiguousarray(a)
        arrays[name] = np.frombuffer(a.tobytes(), dtype=np.uint8)
        meta[name] = {"dtype": str(a.dtype), "shape": list(a.shape), "tol": tol}
    np.savez(path, **arrays)
    return meta


def as_float64(raw, dtype):
    """Saved bytes as float64 (complex as (re, im) pairs), for tolerances."""
    import numpy as np

    try:
        dt = np.dtype(dtype)
    except TypeError:  # bfloat16 and the other ml_dtypes types
        import ml_dtypes

        dt = np.dtype(getattr(ml_dtypes, dtype))
    a = np.frombuffer(raw.tobytes(), dtype=dt)
    return a.astype(np.complex128).view(np.float64) if np.iscomplexobj(a) else a.astype(np.float64)


def child(args):
    import inspect

    by_name = {n: (fn, d) for n, fn, d in FEATURES}
    mode_dir = os.path.join(args.out, args.mode)
    os.makedirs(mode_dir, exist_ok=True)
    log = open(os.path.join(mode_dir, "results.jsonl"), "a")

    def emit(rec):
        log.write(json.dumps(rec, default=str) + "\n")
        log.flush()
        os.fsync(log.fileno())

    signal.signal(signal.SIGALRM, _alarm)
    import jax  # noqa: F401  (JAX's start is not any feature's time)

    for name in args.features.split(","):
        fn, _ = by_name[name]
        emit({"event": "start", "feature": name})
        t0 = time.monotonic()
        rec = {"event": "end", "feature": name}
        r = Result()
        try:
            kwargs = {}
            params = inspect.signature(fn).parameters
            if "out" in params:
                kwargs["out"] = mode_dir
            if "mode" in params:
                kwargs["mode"] = args.mode
            signal.alarm(args.feature_timeout)
            try:
                fn(r, **kwargs)
            finally:
                signal.alarm(0)
            rec["values"] = save_values(os.path.join(mode_dir, name + ".npz"), r.values)
            rec.update(ok=r.ok, why="; ".join(r.why))
        except BaseException as e:  # a feature's failure is its own
            rec.update(ok=False, why=f"{type(e).__name__}: {e}"[:2000], traceback=traceback.format_exc()[-4000:])
            if isinstance(e, KeyboardInterrupt):
                raise
        rec.update(same=r.same, info=r.info, seconds=round(time.monotonic() - t0, 3))
        emit(rec)


# ---- the parent ----------------------------------------------------------------------


def mode_env(base, mode, work):
    env = dict(base)
    env.pop("JAX_PLATFORMS", None)  # arc_jax, installed, is JAX's cuda backend: nothing to select
    env.pop("ARC_DISABLE", None)
    if mode == "native":
        env["ARC_DISABLE"] = "1"
    else:
        env["ARC_DUMP_DIR"] = os.path.join(work, "dump-arc")
    return env


def read_new(path, pos):
    """Complete JSON lines of path from byte pos on; returns (records, new pos)."""
    try:
        with open(path, "rb") as f:
            f.seek(pos)
            data = f.read()
    except FileNotFoundError:
        return [], pos
    end = data.rfind(b"\n") + 1
    recs = []
    for line in data[:end].splitlines():
        try:
            recs.append(json.loads(line))
        except ValueError:
            pass
    return recs, pos + end


def on_term(signum, frame):
    """timeout(1) ends the parent: end the children too (each leads a session
    of its own, out of timeout's reach)."""
    for p in list(LIVE):
        kill(p)
    print(f"jax_compat: signal {signum}: children ended", file=sys.stderr, flush=True)
    os._exit(128 + signum)


def kill(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # the child leads its own session: this ends it and its children only
    except OSError:
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass


def run_mode(args, mode, names, env, deadline):
    """Runs the features in fresh children until each has a record: a child
    that dies or hangs in a feature leaves that feature failed, and the next
    child starts after it."""
    mode_dir = os.path.join(args.out, mode)
    os.makedirs(mode_dir, exist_ok=True)
    jsonl = os.path.join(mode_dir, "results.jsonl")
    if os.path.exists(jsonl):
        os.remove(jsonl)
    logpath = os.path.join(args.out, f"{mode}.log")
    open(logpath, "w").close()
    records, pos, attempt = {}, 0, 0
    remaining = list(names)
    while remaining and attempt < args.attempts and time.monotonic() < deadline:
        attempt += 1
        with open(logpath, "a") as log:
            log.write(f"==== child {attempt}: {','.join(remaining)}\n")
            log.flush()
            cmd = [sys.executable, SCRIPT, "--child", "--mode", mode, "--out", args.out,
                   "--features", ",".join(remaining), "--feature-timeout", str(args.feature_timeout)]
            proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            LIVE.append(proc)
        current, since, why, began = None, time.monotonic(), None, False
        while True:
            rc = proc.poll()
            recs, pos = read_new(jsonl, pos)
            for rec in recs:
                if rec.get("event") == "start":
                    current, since, began = rec["feature"], time.monotonic(), True
                elif rec.get("event") == "end":
                    records[rec["feature"]] = rec
                    current = None
            if rc is not None:
                break
            now = time.monotonic()
            limit = args.feature_timeout + args.grace + (args.startup if current is None else 0)
            if now - since > limit:
                why = f"killed: no progress for {now - since:.0f} s (hard limit {limit} s)"
                kill(proc)
                break
            if now > deadline:
                why = "killed: the run's time budget ran out"
                kill(proc)
                break
            time.sleep(0.2)
        recs, pos = read_new(jsonl, pos)
        for rec in recs:
            if rec.get("event") == "start":
                current, began = rec["feature"], True
            elif rec.get("event") == "end":
                records[rec["feature"]] = rec
                current = None if rec["feature"] == current else current
        rc = proc.poll()
        LIVE.remove(proc)
        if current is not None and current not in records:
            records[current] = {"feature": current, "ok": False,
                                "why": why or f"the child died in this feature (exit status {rc}); see {mode}.log"}
        elif not began:
            # Died or hung before any feature began (JAX's start): a new child would fare no better.
            for n in remaining:
                records[n] = {"feature": n, "ok": False,
                              "why": (why or f"the child exited with status {rc}") + f" before any feature began; see {mode}.log"}
        remaining = [n for n in remaining if n not in records]
        if rc == 0 and remaining:
            break  # the child ended cleanly without them: do not loop
    for n in remaining:
        records[n] = {"feature": n, "ok": False, "why": "not run: the run's time budget or its restarts ran out"}
    return records


def missing_module(rec):
    return str(rec.get("why", "")).startswith(("ModuleNotFoundError", "ImportError"))


def load_values(out, mode, name):
    import numpy as np

    path = os.path.join(out, mode, name + ".npz")
    return np.load(path) if os.path.exists(path) else None


def compare(out, name, nat, arc):
    """Native against arc for one feature: (match, max relative error, all
    outputs bit for bit, detail)."""
    import numpy as np

    details = []
    meta_n, meta_a = nat.get("values") or {}, arc.get("values") or {}
    if set(meta_n) != set(meta_a):
        return False, None, False, f"outputs differ: {sorted(meta_n)} vs {sorted(meta_a)}"
    vn, va = load_values(out, "native", name), load_values(out, "arc", name)
    if meta_n and (vn is None or va is None):
        return False, None, False, "an output file is missing"
    worst, bitwise, match = 0.0, (True if meta_n else None), True
    for key, m in meta_n.items():
        rn, ra = vn[key], va[key]
        same_bits = rn.shape == ra.shape and bool(np.array_equal(rn, ra))
        bitwise &= same_bits
        if meta_a[key]["dtype"] != m["dtype"] or meta_a[key]["shape"] != m["shape"]:
            match = False
            details.append(f"{key}: {m['dtype']}{m['shape']} vs {meta_a[key]['dtype']}{meta_a[key]['shape']}")
            continue
        fn, fa = as_float64(rn, m["dtype"]), as_float64(ra, m["dtype"])
        nan_n, nan_a = np.isnan(fn), np.isnan(fa)
        if not np.array_equal(nan_n, nan_a):
            err = float("inf")
        else:
            err = rel_err(np.where(nan_a, 0, fa), np.where(nan_n, 0, fn))
        worst = max(worst, err)
        ok = same_bits if m["tol"] == EXACT else err <= float(m["tol"])
        if not ok:
            match = False
            details.append(f"{key}: " + ("not bit for bit" if m["tol"] == EXACT else f"{err:.3g} > {m['tol']}")
                           + (f" (max rel err {err:.3g})" if m["tol"] == EXACT else ""))
    if nat.get("same") != arc.get("same"):
        match = False
        details.append(f"differ: native {nat.get('same')} arc {arc.get('same')}")
    return match, worst, bitwise, "; ".join(details)


def log_checks(out, modes):
    """arc's start line in arc's log only, JAX's experimental-platform warning
    in neither: (name, {mode: (ok, what)})."""
    logs = {}
    for mode in modes:
        try:
            logs[mode] = open(os.path.join(out, f"{mode}.log"), errors="replace").read().splitlines()
        except OSError:
            logs[mode] = None
    start, warn = {}, {}
    for mode, lines in logs.items():
        if lines is None:
            start[mode] = warn[mode] = (False, "no log")
            continue
        arc_lines = [ln for ln in lines if ln.startswith("arc:")]
        if mode == "arc":
            active = [ln for ln in arc_lines if ln.startswith("arc: active")]
            start[mode] = (bool(active), active[0][:300] if active else f"no 'arc: active' line ({len(arc_lines)} arc: lines)")
        else:
            start[mode] = (not arc_lines, "no arc: line" if not arc_lines else arc_lines[0][:300])
        exp = [ln for ln in lines if "is experimental" in ln]
        warn[mode] = (not exp, exp[0][:300] if exp else "no experimental-platform warning")
    return [("arc_start_line", start), ("no_experimental_warning", warn)]


def run_cache(args, modes, base, deadline):
    """Two fresh children per mode on one empty cache directory: the first
    fills it, the second must hit. Returns {mode: {phase: record}}."""
    import shutil

    import numpy as np

    res = {}
    for mode in modes:
        cdir = os.path.join(args.work, f"cache-{mode}")
        shutil.rmtree(cdir, ignore_errors=True)
        os.makedirs(cdir)
        res[mode] = {}
        for phase in ("fill", "hit"):
            env = mode_env(base, mode, args.work)
            dump = os.path.join(args.work, f"dump-cache-{mode}-{phase}")
            shutil.rmtree(dump, ignore_errors=True)
            if mode == "arc":
                env["ARC_DUMP_DIR"] = dump
            cmd = [sys.executable, SCRIPT, "--child", "--mode", mode, "--out", args.out, "--cache-phase", phase,
                   "--cache-dir", cdir]
            left = max(1, min(args.feature_timeout + args.startup, deadline - time.monotonic()))
            with open(os.path.join(args.out, f"cache-{mode}-{phase}.log"), "w") as log:
                proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
                LIVE.append(proc)
                try:
                    rc = proc.wait(timeout=left)
                except subprocess.TimeoutExpired:
                    kill(proc)
                    rc = "timeout"
                LIVE.remove(proc)
            rec = {"rc": rc}
            path = os.path.join(args.out, f"cache-{mode}-{phase}")
            if os.path.exists(path + ".json"):
                rec.update(json.load(open(path + ".json")))
                rec["values"] = dict(np.load(path + ".npz"))
            if mode == "arc":
                rec["dumped_files"] = len(glob.glob(os.path.join(dump, "*")))
            res[mode][phase] = rec
    return res


def cache_verdict(mode, rec):
    """(ok, why) of one mode's two cache runs."""
    fill, hit = rec.get("fill", {}), rec.get("hit", {})
    problems = []
    if fill.get("rc") != 0 or hit.get("rc") != 0:
        problems.append(f"exit status fill {fill.get('rc')}, hit {hit.get('rc')}")
    if "files_after" not in fill or "files_after" not in hit:
        return False, "; ".join(problems + ["a run wrote no result"])
    if not (fill["files_before"] == 0 and fill["files_after"] > 0):
        problems.append(f"fill: cache files {fill['files_before']} -> {fill['files_after']}")
    if hit["files_after"] != hit["files_before"]:
        problems.append(f"hit: new cache files {hit['files_before']} -> {hit['files_after']}")
    if hit.get("hits", 0) < 3 or hit.get("misses", 0) != 0:
        problems.append(f"hit: {hit.get('hits')} hits, {hit.get('misses')} misses (want >= 3 and 0)")
    for k, v in fill["values"].items():
        if v.tobytes() != hit["values"].get(k, v[:0]).tobytes():
            problems.append(f"hit's {k} differs from fill's")
    if mode == "arc":
        if fill.get("dumped_files", 0) == 0:
            problems.append("fill: arc dumped no program (is arc in the path?)")
        if hit.get("dumped_files", 0) != 0:
            problems.append(f"hit: {hit['dumped_files']} files dumped: programs reached arc's compile")
    why = (f"fill {fill['files_after']} entries, {fill.get('misses')} misses; hit {hit.get('hits')} hits, "
           f"{hit['files_after'] - hit['files_before']} new entries")
    if mode == "arc":
        why += f"; arc dumps fill {fill.get('dumped_files')}, hit {hit.get('dumped_files')}"
    return not problems, "; ".join(problems) or why


def parent(args):
    import numpy as np

    signal.signal(signal.SIGTERM, on_term)
    t_start = time.monotonic()
    deadline = t_start + args.budget
    os.makedirs(args.out, exist_ok=True)
    args.work = args.work or os.path.join(args.out, "work")
    os.makedirs(args.work, exist_ok=True)
    modes = args.modes.split(",")
    names = [n for n, _, _ in FEATURES]
    if args.features:
        wanted = args.features.split(",")
        unknown = [n for n in wanted if n not in names and n != "compilation_cache"]
        if unknown:
            print(f"unknown features: {unknown}; known: {names + ['compilation_cache']}", file=sys.stderr)
            return 2
        names = [n for n in names if n in wanted]
    base = dict(os.environ)
    base.setdefault("ARC_TARGET", "cuda:nvlink")
    base.setdefault("ARC_QUANT", "none")
    base.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    base.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
    want_cache = not args.features or "compilation_cache" in args.features.split(",")
    # The cache's four short children come last: keep their time, at most 30% of the budget.
    reserve = min(args.cache_reserve, 0.3 * args.budget) if want_cache else 0
    records = {}
    for i, mode in enumerate(modes):
        share = max(0.0, deadline - time.monotonic() - reserve) / (len(modes) - i)  # what a mode leaves goes on
        records[mode] = run_mode(args, mode, names, mode_env(base, mode, args.work),
                                 time.monotonic() + share) if names else {}
    cache = run_cache(args, modes, base, deadline) if want_cache else {}

    desc = {n: d for n, _, d in FEATURES}
    rows = []
    for name in names:
        row = {"feature": name, "description": desc[name]}
        for mode in modes:
            row[mode] = records[mode].get(name, {"ok": False, "why": "no record"})
        if "native" in row and "arc" in row:
            nat, arc = row["native"], row["arc"]
            if name == "arc_compiler_options":
                row.update(match=None, passed=bool(arc.get("ok")))
            elif nat.get("ok") and arc.get("ok"):
                m, err, bits, detail = compare(args.out, name, nat, arc)
                row.update(match=m, max_rel_err=err, bitwise=bits, detail=detail, passed=m)
            elif missing_module(nat) and missing_module(arc):
                row.update(match=None, passed=False, skipped=True)  # the machine lacks a package: says nothing of arc
            else:
                row.update(match=None, passed=False)
        else:
            row["passed"] = all(row[m].get("ok") for m in modes)
        rows.append(row)
    if want_cache:
        row = {"feature": "compilation_cache", "description": "persistent compilation cache: a fresh run fills it, the next hits"}
        for mode in modes:
            ok, why = cache_verdict(mode, cache.get(mode, {}))
            row[mode] = {"ok": ok, "why": why, "runs": {p: {k: v for k, v in r.items() if k != "values"}
                                                      for p, r in cache.get(mode, {}).items()}}
        if all(row[m]["ok"] for m in modes) and len(modes) == 2:
            vals = [cache[m]["fill"]["values"] for m in modes]
            same = all(vals[0][k].tobytes() == vals[1][k].tobytes() for k in vals[0])
            row.update(match=same, bitwise=same, max_rel_err=max(rel_err(vals[1][k], vals[0][k]) for k in vals[0]))
            row["passed"] = same
        else:
            row.update(match=None, passed=all(row[m]["ok"] for m in modes))
        rows.append(row)
    for name, by_mode in log_checks(args.out, modes):
        row = {"feature": name, "description": {"arc_start_line": "arc's start line on stderr: there with arc, absent natively",
                                                 "no_experimental_warning": "JAX logs no experimental-platform warning"}[name]}
        for mode in modes:
            ok, what = by_mode[mode]
            row[mode] = {"ok": ok, "why": what}
        row.update(match=None, passed=all(row[m]["ok"] for m in modes))
        rows.append(row)

    passed = sum(1 for r in rows if r["passed"])
    skipped = sum(1 for r in rows if r.get("skipped"))
    failed = len(rows) - passed - skipped
    summary = {"passed": passed, "failed": failed, "skipped": skipped, "seconds": round(time.monotonic() - t_start, 1), "modes": modes,
               "features": rows}
    with open(os.path.join(args.out, "compat.json"), "w") as f:
        json.dump(summary, f, indent=1, default=str)

    def cell(r, mode):
        rec = r.get(mode)
        if rec is None:
            return "-"
        if r["feature"] == "arc_compiler_options" and mode == "native":
            return "n/a"
        return "ok" if rec.get("ok") else "FAIL"

    print(f"{'feature':<26} {'native':<7} {'arc':<7} {'match':<9} {'max rel err':<11}")
    for r in rows:
        m = {True: "bitwise" if r.get("bitwise") else "yes", False: "NO", None: "skip" if r.get("skipped") else "-"}[r.get("match")]
        err = r.get("max_rel_err")
        print(f"{r['feature']:<26} {cell(r, 'native'):<7} {cell(r, 'arc'):<7} {m:<9} "
              f"{'-' if err is None else f'{err:.2e}':<11}")
    for r in rows:
        reasons = [f"{mode}: {r[mode].get('why')}" for mode in modes if r.get(mode) and not r[mode].get("ok")
                   and r[mode].get("why")]
        if r.get("detail"):
            reasons.append(r["detail"])
        note = f" ({'; '.join(reasons)[:600]})" if reasons and not r["passed"] else ""
        verdict = "PASS" if r["passed"] else "SKIP" if r.get("skipped") else "FAIL"
        print(f"{verdict} compat {r['feature']}: {r['description']}{note}")
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="results: compat.json, logs, outputs (required)")
    ap.add_argument("--work", help="scratch (cache, dumps, profiles); default OUT/work")
    ap.add_argument("--modes", default="native,arc")
    ap.add_argument("--features", default="", help="comma-separated subset (default: all, and compilation_cache)")
    ap.add_argument("--budget", type=float, default=200, help="seconds for the whole run")
    ap.add_argument("--feature-timeout", type=int, default=60, help="seconds per feature (SIGALRM in the child)")
    ap.add_argument("--grace", type=int, default=30, help="seconds past that before the child is killed")
    ap.add_argument("--startup", type=int, default=60, help="seconds a child may take to start JAX")
    ap.add_argument("--attempts", type=int, default=5, help="children per mode at most")
    ap.add_argument("--cache-reserve", type=float, default=60, help="seconds of the budget kept for the cache runs")
    ap.add_argument("--list", action="store_true", help="print the features and exit")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--mode", help=argparse.SUPPRESS)
    ap.add_argument("--cache-phase", help=argparse.SUPPRESS)
    ap.add_argument("--cache-dir", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.list:
        for n, _, d in FEATURES:
            print(f"{n:<26} {d}")
        print(f"{'compilation_cache':<26} two fresh runs per mode: fill the persistent cache, then hit it")
        return 0
    if not args.out:
        ap.error("--out is required")
    if args.child:
        if args.cache_phase:
            cache_child(args)
        else:
            child(args)
        return 0
    return parent(args)


if __name__ == "__main__":
    sys.exit(main())
