"""arc for JAX: JAX's GPU platform with arc's all-reduce lowerings.

Installed (`pip install arc_jax-*.whl`), this package is found by JAX through
its `jax_plugins` entry point, as JAX finds its own CUDA plugin. JAX's "cuda"
backend then runs on arc's PJRT proxy, which wraps the CUDA plugin JAX
installed: `jax.default_backend()` is "gpu", every custom call and FFI handler
the CUDA plugin registers (cuSOLVER, cuDNN, the PRNG kernels, Triton and
Pallas) works unchanged, and every program's all-reduces go through arc's
pipeline. Nothing in the user's program changes.

Settings: the ARC_* variables for the process (ARC_TARGET, ARC_QUANT, ...),
and per program `compile(compiler_options={"arc_quant": "int8"})`.
ARC_DISABLE=1 leaves JAX's CUDA plugin alone, with nothing of arc in the path.
`python -m arc_jax check` says what arc finds and what is missing.
"""

import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PLUGIN = os.path.join(HERE, "pjrt_c_api_arc_plugin.so")  # the proxy
KERNELS = os.path.join(HERE, "libarc_gpu.so")
ARC = os.path.join(HERE, "arc")  # the compiler, run as `arc serve`
CONVERTER = os.path.join(HERE, "arc_mlir_to_text.py")  # bytecode to text, run under JAX's Python
CUDA_PLUGINS = ("jax_plugins.xla_cuda13", "jax_plugins.xla_cuda12")  # newest first

_TRUE = ("1", "true", "yes", "on")


def disabled(environ=os.environ) -> bool:
    """Whether ARC_DISABLE turns arc off."""
    return environ.get("ARC_DISABLE", "").strip().lower() in _TRUE


def cuda_plugin(environ=os.environ):
    """The real CUDA PJRT plugin: ARC_PJRT_PLUGIN, else the one JAX's
    jax-cuda plugin package installed; None when there is none."""
    if environ.get("ARC_PJRT_PLUGIN"):
        return environ["ARC_PJRT_PLUGIN"]
    for name in CUDA_PLUGINS:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        for d in (spec.submodule_search_locations or []) if spec else []:
            path = os.path.join(d, "xla_cuda_plugin.so")
            if os.path.isfile(path):
                return path
    return None


def proxy_environment(environ=os.environ) -> dict:
    """The variables the proxy reads that arc_jax sets when the user has
    not: the real plugin, and the Python that runs JAX for the bytecode
    converter. (The proxy finds arc, libarc_gpu.so and the converter next
    to itself.)"""
    env = {}
    real = cuda_plugin(environ)
    if real and not environ.get("ARC_PJRT_PLUGIN"):
        env["ARC_PJRT_PLUGIN"] = real
    if not environ.get("ARC_PYTHON") and sys.executable:
        env["ARC_PYTHON"] = sys.executable
    return env


_taken = False


def initialize() -> None:
    """JAX's plugin hook, called once while JAX discovers its plugins."""
    if disabled():
        return
    from jax._src import xla_bridge as xb

    os.environ.update(proxy_environment())
    if any(_installed(n) for n in CUDA_PLUGINS):
        # JAX's CUDA plugin registers "cuda" in its own initialize(), before
        # or after this one (JAX calls them in no set order): take the
        # backend over once every plugin has registered.
        xb.register_plugin_callbacks(_take_cuda)
    elif os.environ.get("ARC_PJRT_PLUGIN"):
        _register(xb)
    else:
        print("arc: inactive: no CUDA PJRT plugin found (pip install jax[cuda13], or set ARC_PJRT_PLUGIN)",
              file=sys.stderr)


def _installed(name) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _take_cuda(c_api=None) -> None:
    """Replaces the "cuda" backend JAX's CUDA plugin registered with one on
    arc's proxy (called once per registered plugin: the first call does it)."""
    global _taken
    from jax._src import xla_bridge as xb

    if _taken or "cuda" not in xb._backend_factories:
        return
    _taken = True
    _register(xb)


def _register(xb) -> None:
    from functools import partial

    from jax._src.lib import xla_client

    # The proxy is loaded under a name of its own (PJRT keeps one API per
    # name, and "cuda" is the real plugin's); its clients name their
    # platform "cuda" as the real plugin does, so JAX sees its GPU.
    c_api = xla_client.load_pjrt_plugin_dynamically("arc", PLUGIN)

    def factory():
        options = xla_client.generate_pjrt_gpu_plugin_options()  # XLA_PYTHON_CLIENT_*, as for JAX's own plugin
        options.update(xb._options_from_jax_configs("cuda"))  # visible devices, mock topologies
        return xb.make_pjrt_c_api_client("arc", options=options)

    xb.register_backend_factory("cuda", factory, priority=500, fail_quietly=False, experimental=False,
                                make_topology=partial(xla_client.make_c_api_device_topology, c_api), c_api=c_api)
