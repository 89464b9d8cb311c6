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
    # This process only converts; it must not pick up the client's platform choice.
    os.environ.pop("JAX_PLATFORMS", None)
    debug = os.environ.get("ARC_MLIR_DEBUGINFO") == "1"
    errors = []
    if not debug:
        try:  # JAX's public API: a portable artifact in, StableHLO text out
            import jax.extend.mlir as jex_mlir

            text = jex_mlir.deserialize_portable_artifact(data)
            sys.stdout.write(text if isinstance(text, str) else text.decode())
            return 0
        except Exception as e:  # fall through to the MLIR bindings
            errors.append(f"jax.extend.mlir: {e!r}")
    from jax._src.interpreters import mlir as jax_mlir  # registers JAX's dialects, Shardy included
    from jax._src.lib.mlir import ir
    from jax._src.lib.mlir.dialects import stablehlo

    with jax_mlir.make_ir_context() as ctx:
        try:
            module = stablehlo.deserialize_portable_artifact(ctx, data)
        except Exception as e:  # plain MLIR bytecode, not a portable artifact
            errors.append(f"stablehlo.deserialize_portable_artifact: {e!r}")
            try:
                module = ir.Module.parse(data)
            except Exception as e2:
                errors.append(f"ir.Module.parse: {e2!r}")
                sys.stderr.write("; ".join(errors) + "\n")
                return 1
        sys.stdout.write(module.operation.get_asm(enable_debug_info=debug))
    return 0


if __name__ == "__main__":
    sys.exit(main())
