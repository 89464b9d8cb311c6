"""A Llama-shaped decoder in plain JAX, tensor parallel through shard_map.

One decode step: RMSNorm, rotary embeddings, grouped-query attention over a KV
cache (jax.nn.dot_product_attention, implementation "cudnn" or "xla"), a SwiGLU
MLP, and the Megatron split: QKV and gate/up column parallel, the attention
output and down projections row parallel, each followed by a psum over the
axis "tp", the residual add and the next RMSNorm. jax_llama.py runs it on GPUs,
jax_llama_block.py prints one layer's StableHLO as fixtures.

Weights are made on the host from fixed seeds (one per tensor name), so every
process of a job, and a CPU reference in f32, builds the same model. With more
shards than KV heads each KV head is repeated on tp / kv_heads shards (as vLLM
does), so every shard holds whole heads.
"""

import dataclasses
import zlib

import numpy as np

AXIS = "tp"


@dataclasses.dataclass(frozen=True)
class Config:
    hidden: int = 2048
    heads: int = 16
    kv_heads: int = 4
    mlp: int = 5632
    vocab: int = 4096
    layers: int = 2
    batch: int = 4
    cache: int = 256
    eps: float = 1e-5
    rope_theta: float = 10000.0

    @property
    def head_dim(self) -> int:
        return self.hidden // self.heads

    def kv_repeat(self, tp: int) -> int:
        """How many shards hold each KV head."""
        return max(1, tp // self.kv_heads)

    def kv_heads_sharded(self, tp: int) -> int:
        """KV heads of the sharded layout: every shard holds at least one."""
        return self.kv_heads * self.kv_repeat(tp)

    def check(self, tp: int) -> None:
        """Raises ValueError when the model does not split into tp shards."""
        problems = []
        if self.hidden % self.heads:
            problems.append(f"hidden {self.hidden} is not a multiple of heads {self.heads}")
        if self.heads % self.kv_heads:
            problems.append(f"heads {self.heads} is not a multiple of kv_heads {self.kv_heads}")
        if self.heads % tp:
            problems.append(f"heads {self.heads} do not split into {tp} shards")
        if self.kv_heads % tp and tp % self.kv_heads:
            problems.append(f"kv_heads {self.kv_heads} and tp {tp}: neither divides the other")
        if self.mlp % tp:
            problems.append(f"mlp {self.mlp} does not split into {tp} shards")
        if problems:
            raise ValueError("; ".join(problems))


# ---- shapes and weights, on the host -------------------------------------------------


def layer_shapes(cfg: Config, tp: int) -> dict:
    """One layer's weights, in the layout the sharded step takes (global shapes)."""
    d, q, f = cfg.hidden, cfg.heads * cfg.head_dim, cfg.mlp
    kv = cfg.kv_heads_sharded(tp) * cfg.head_dim
    return {"attn_norm": (d,), "wq": (d, q), "wk": (d, kv), "wv": (d, kv), "wo": (q, d),
            "ffn_norm": (d,), "w_gate": (d, f), "w_up": (d, f), "w_down": (f, d)}


def cache_shape(cfg: Config, tp: int) -> tuple:
    """One layer's K (or V) cache: (batch, position, kv heads sharded, head_dim)."""
    return (cfg.batch, cfg.cache, cfg.kv_heads_sharded(tp), cfg.head_dim)


def _rng(name: str, seed: int) -> np.random.Generator:
    return np.random.default_rng([seed, zlib.crc32(name.encode())])


def _normal(name, shape, scale, seed):
    return (_rng(name, seed).standard_normal(shape, dtype=np.float32) * np.float32(scale))


def _norm_weight(name, n, seed):
    return 1.0 + _normal(name, (n,), 0.1, seed)


def host_params(cfg: Config, tp: int, dtype, seed: int = 0) -> dict:
    """The model's weights as numpy arrays of dtype, in the layout the sharded
    step takes (the KV projections repeated per cfg.kv_repeat(tp)). The values
    are rounded to bfloat16 first whatever dtype is, so that an f32 copy holds
    exactly the bf16 model's weights."""
    import ml_dtypes

    bf16 = ml_dtypes.bfloat16
    d, hd = cfg.hidden, cfg.head_dim
    rep = cfg.kv_repeat(tp)

    def w(name, shape, scale):
        return _normal(name, shape, scale, seed).astype(bf16).astype(dtype)

    def kv(name):
        x = _normal(name, (d, cfg.kv_heads, hd), d ** -0.5, seed).astype(bf16)
        return np.repeat(x, rep, axis=1).reshape(d, cfg.kv_heads * rep * hd).astype(dtype)

    def norm(name):
        return _norm_weight(name, d, seed).astype(bf16).astype(dtype)

    layers = []
    for i in range(cfg.layers):
        p, shapes = f"layer{i}.", layer_shapes(cfg, tp)
        layer = {"attn_norm": norm(p + "attn_norm"), "wk": kv(p + "wk"), "wv": kv(p + "wv"),
                 "ffn_norm": norm(p + "ffn_norm")}
        for name in ("wq", "wo", "w_gate", "w_up", "w_down"):
            layer[name] = w(p + name, shapes[name], shapes[name][0] ** -0.5)  # fan-in scaling
        layers.append({name: layer[name] for name in shapes})
        assert all(v.shape == shapes[k] for k, v in layers[-1].items())
    return {
        "embed": w("embed", (cfg.vocab, d), 1.0),
        "layers": layers,
        "final_norm": _norm_weight("final_norm", d, seed).astype(bf16).astype(dtype),
        "lm_head": w("lm_head", (d, cfg.vocab), d ** -0.5),
    }


def host_cache(cfg: Config, tp: int, dtype, filled: int, seed: int = 0) -> list:
    """Per layer (k, v), each (batch, cache, kv heads sharded, head_dim): random
    values (bf16-rounded) at positions below filled, zeros above."""
    import ml_dtypes

    rep = cfg.kv_repeat(tp)
    out = []
    assert cache_shape(cfg, tp)[2] == cfg.kv_heads * rep
    for i in range(cfg.layers):
        pair = []
        for kind in ("k", "v"):
            x = np.zeros((cfg.batch, cfg.cache, cfg.kv_heads, cfg.head_dim), np.float32)
            x[:, :filled] = _normal(f"cache{i}.{kind}", (cfg.batch, filled, cfg.kv_heads, cfg.head_dim), 1.0, seed)
            x = x.astype(ml_dtypes.bfloat16)
            pair.append(np.repeat(x, rep, axis=2).astype(dtype))
        out.append(tuple(pair))
    return out


def host_tokens(cfg: Config, steps: int, seed: int = 0) -> np.ndarray:
    """(steps, batch) int32 token ids."""
    return _rng("tokens", seed).integers(0, cfg.vocab, (steps, cfg.batch), dtype=np.int32)


# ---- specs of the sharded layout ------------------------------------------------


def param_specs(cfg: Config) -> dict:
    from jax.sharding import PartitionSpec as P

    col, row, rep = P(None, AXIS), P(AXIS, None), P()
    layer = {"attn_norm": rep, "wq": col, "wk": col, "wv": col, "wo": row,
             "ffn_norm": rep, "w_gate": col, "w_up": col, "w_down": row}
    return {"embed": rep, "layers": [dict(layer) for _ in range(cfg.layers)], "final_norm": rep, "lm_head": rep}


def cache_spec():
    from jax.sharding import PartitionSpec as P

    return P(None, None, AXIS, None)  # (batch, position, kv head, head_dim): heads split


def cache_specs(cfg: Config) -> list:
    return [(cache_spec(), cache_spec()) for _ in range(cfg.layers)]


# ---- the model, per shard ------------------------------------------------------


def rms_norm(x, w, eps):
    """Llama's RMSNorm as JAX programs write it: in f32, cast back."""
    import jax.numpy as jnp
    from jax import lax

    h = x.astype(jnp.float32)
    y = h * lax.rsqrt(jnp.mean(h * h, axis=-1, keepdims=True) + eps) * w
    return y.astype(x.dtype)


def rope(x, pos, theta):
    """Rotary embedding of x (batch, 1, heads, head_dim) at position pos, in
    f32, halves rotated as Llama's rotate_half does."""
    import jax.numpy as jnp

    half = x.shape[-1] // 2
    freqs = theta ** (-jnp.arange(half, dtype=jnp.float32) * 2.0 / x.shape[-1])
    angle = pos.astype(jnp.float32) * freqs
    cos, sin = jnp.cos(angle), jnp.sin(angle)
    xf = x.astype(jnp.float32)
    x1, x2 = xf[..., :half], xf[..., half:]
    return jnp.concatenate([x1 * cos - x2 * sin, x2 * cos + x1 * sin], axis=-1).astype(x.dtype)


def attention(cfg: Config, p, h, k_cache, v_cache, pos, impl):
    """This shard's heads: the row-parallel output projection's partial sum
    (before the psum) and the updated caches."""
    import jax
    import jax.numpy as jnp
    from jax import lax

    b, hd = h.shape[0], cfg.head_dim
    q = jnp.dot(h, p["wq"]).reshape(b, 1, -1, hd)
    k = jnp.dot(h, p["wk"]).reshape(b, 1, -1, hd)
    v = jnp.dot(h, p["wv"]).reshape(b, 1, -1, hd)
    q, k = rope(q, pos, cfg.rope_theta), rope(k, pos, cfg.rope_theta)
    zero = jnp.zeros((), pos.dtype)
    k_cache = lax.dynamic_update_slice(k_cache, k.astype(k_cache.dtype), (zero, pos, zero, zero))
    v_cache = lax.dynamic_update_slice(v_cache, v.astype(v_cache.dtype), (zero, pos, zero, zero))
    lengths = jnp.full((b,), pos + 1, dtype=jnp.int32)
    o = jax.nn.dot_product_attention(q, k_cache, v_cache, key_value_seq_lengths=lengths, implementation=impl)
    return jnp.dot(o.reshape(b, 1, -1), p["wo"]), k_cache, v_cache


def mlp(p, h):
    """SwiGLU on this shard's columns: the down projection's partial sum."""
    import jax
    import jax.numpy as jnp

    return jnp.dot(jax.nn.silu(jnp.dot(h, p["w_gate"])) * jnp.dot(h, p["w_up"]), p["w_down"])


def layer(cfg: Config, p, x, h, k_cache, v_cache, pos, next_norm, impl, axis=AXIS):
    """One decoder layer on one shard. x is the residual stream, h its
    attention RMSNorm; returns the new residual, its next RMSNorm (next_norm:
    the next layer's attention norm, or the final norm), and the caches. Each
    row-parallel partial sum goes through psum, then the residual add, then
    the next RMSNorm: the pattern a fused all-reduce + RMSNorm matches."""
    from jax import lax

    a, k_cache, v_cache = attention(cfg, p, h, k_cache, v_cache, pos, impl)
    x = x + lax.psum(a, axis)
    h = rms_norm(x, p["ffn_norm"], cfg.eps)
    x = x + lax.psum(mlp(p, h), axis)
    return x, rms_norm(x, next_norm, cfg.eps), k_cache, v_cache


def decode(cfg: Config, params, caches, tokens, pos, impl, axis=AXIS):
    """One decode step on one shard: f32 logits (batch, vocab), every shard the
    same, and the updated caches."""
    import jax.numpy as jnp

    x = params["embed"][tokens][:, None, :]  # (batch, 1, hidden)
    layers = params["layers"]
    h = rms_norm(x, layers[0]["attn_norm"], cfg.eps)
    new = []
    for i, p in enumerate(layers):
        nxt = layers[i + 1]["attn_norm"] if i + 1 < len(layers) else params["final_norm"]
        x, h, k, v = layer(cfg, p, x, h, caches[i][0], caches[i][1], pos, nxt, impl, axis)
        new.append((k, v))
    logits = jnp.dot(h[:, 0, :], params["lm_head"], preferred_element_type=jnp.float32)
    return logits, new


# ---- sharded programs -----------------------------------------------------------


def shard_map_fn():
    import jax

    fn = getattr(jax, "shard_map", None)
    if fn is None:  # before JAX 0.7
        from jax.experimental.shard_map import shard_map as fn
    return fn


def _check_kw(fn):
    """shard_map's replication-check keyword: check_vma (JAX >= 0.7) or
    check_rep. Off: the programs psum where they must, and the check would
    need a replication rule for every primitive inside (cuDNN's attention
    included) that these programs do not test."""
    import inspect

    try:
        names = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return {"check_vma": False}
    return {"check_vma": False} if "check_vma" in names else {"check_rep": False}


def sharded_step(cfg: Config, mesh, impl):
    """jit(shard_map(decode)): (params, caches, tokens, pos) -> (logits, caches)."""
    import jax
    from jax.sharding import PartitionSpec as P

    smap = shard_map_fn()
    body = smap(lambda params, caches, tokens, pos: decode(cfg, params, caches, tokens, pos, impl),
                mesh=mesh, in_specs=(param_specs(cfg), cache_specs(cfg), P(), P()),
                out_specs=(P(), cache_specs(cfg)), **_check_kw(smap))
    return jax.jit(body)


def sharded_layer(cfg: Config, mesh, impl):
    """jit(shard_map(layer)) of layer 0: (p, next_norm, x, h, k, v, pos) -> (x, h, k, v)."""
    import jax
    from jax.sharding import PartitionSpec as P

    smap = shard_map_fn()
    spec = param_specs(cfg)["layers"][0]
    body = smap(lambda p, nxt, x, h, k, v, pos: layer(cfg, p, x, h, k, v, pos, nxt, impl),
                mesh=mesh, in_specs=(spec, P(), P(), P(), cache_spec(), cache_spec(), P()),
                out_specs=(P(), P(), cache_spec(), cache_spec()), **_check_kw(smap))
    return jax.jit(body)


def to_global(tree, specs, mesh):
    """Host arrays to global jax.Arrays laid out by specs (a tree prefix):
    each process fills only its own shards."""
    import jax
    from jax.sharding import NamedSharding

    def put(host, spec):
        return jax.make_array_from_callback(host.shape, NamedSharding(mesh, spec), lambda idx: host[idx])

    return jax.tree_util.tree_map(put, tree, specs)


def local_shape(cfg: Config, tp: int):
    """Per-shard attention shapes: (q heads, kv heads) of one shard."""
    return cfg.heads // tp, cfg.kv_heads_sharded(tp) // tp
