"""Registers arc's standalone PJRT plugin with JAX as JAX registers its CUDA plugin.

JAX passes the GPU client options (XLA_PYTHON_CLIENT_PREALLOCATE, _MEM_FRACTION,
_ALLOCATOR) only to the plugins it knows by name ("cuda", "rocm"): a plugin
registered as "arc" gets none, and the CUDA plugin behind it then preallocates
75% of each GPU whatever the environment says, leaving too little for a second
process on the same GPU or for arc's communicator buffers.
"""

import os
import sys


def register(arc_plugin: str) -> None:
    from jax._src import xla_bridge

    options = None
    try:
        from jax._src.lib import xla_client

        options = xla_client.generate_pjrt_gpu_plugin_options()
    except (ImportError, AttributeError) as e:  # an older or newer jaxlib
        print(f"arc_jax: no GPU client options from jaxlib ({e}): XLA_PYTHON_CLIENT_* are ignored", file=sys.stderr)
    xla_bridge.register_plugin("arc", library_path=os.path.abspath(arc_plugin), options=options)
