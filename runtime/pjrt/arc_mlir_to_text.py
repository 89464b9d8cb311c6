"""Turns the MLIR bytecode a PJRT client sends into StableHLO text for arc.

jaxlib's PJRT C API client serializes each program before PJRT_Client_Compile:
as a StableHLO portable artifact (VHLO bytecode) when the program holds only
StableHLO, CHLO and func ops, and as plain MLIR bytecode otherwise (JAX's
programs carry Shardy's sdy ops, so that is the usual case). arc reads text.
arc's proxy runs this script with the bytecode on stdin and compiles the text
it prints. It needs jaxlib, so run it with the Python that runs JAX (ARC_PYTHON).

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
    try:  # a portable artifact: JAX's public API turns it into StableHLO text
        import jax.extend.mlir as jex_mlir

        text = jex_mlir.deserialize_portable_artifact(data)
        sys.stdout.write(text if isinstance(text, str) else text.decode())
        return 0
    except Exception as e:  # plain MLIR bytecode, or an older JAX
        errors.append(f"as a portable artifact: {e!r}")
    try:  # plain MLIR bytecode, parsed in a context with JAX's dialects (Shardy's included)
        from jax._src.interpreters import mlir as jax_mlir
        from jax._src.lib.mlir import ir

        with jax_mlir.make_ir_context():
            module = ir.Module.parse(data)
            sys.stdout.write(module.operation.get_asm(enable_debug_info=debug))
        return 0
    except Exception as e:
        errors.append(f"as MLIR bytecode: {e!r}")
    sys.stderr.write("cannot read the program: " + "; ".join(errors) + "\n")
    return 1


if __name__ == "__main__":
    sys.exit(main())
