"""Turns the MLIR bytecode a PJRT client sends into StableHLO text for arc.

JAX (jaxlib's PJRT C API client) serializes each program as a StableHLO
portable artifact (VHLO bytecode, Shardy ops kept in their own dialect) before
PJRT_Client_Compile; arc reads text. arc's proxy runs this script with the
bytecode on stdin and compiles the text it prints. It needs jaxlib, so run it
with the Python that runs JAX (ARC_PYTHON).

Set ARC_MLIR_DEBUGINFO=1 to keep source locations in the text.
"""

import os
import sys


def main() -> int:
    data = sys.stdin.buffer.read()
    from jax._src.interpreters import mlir as jax_mlir  # registers JAX's dialects, Shardy included
    from jax._src.lib.mlir import ir
    from jax._src.lib.mlir.dialects import stablehlo

    with jax_mlir.make_ir_context() as ctx:
        try:
            module = stablehlo.deserialize_portable_artifact(ctx, data)
        except Exception:  # plain MLIR bytecode, not a portable artifact
            module = ir.Module.parse(data)
        debug = os.environ.get("ARC_MLIR_DEBUGINFO") == "1"
        sys.stdout.write(module.operation.get_asm(enable_debug_info=debug))
    return 0


if __name__ == "__main__":
    sys.exit(main())
