"""Turns the MLIR bytecode a PJRT client sends into StableHLO text for arc.

jaxlib's PJRT C API client serializes each program before PJRT_Client_Compile
as a StableHLO portable artifact: VHLO bytecode, in which JAX's Shardy ops
(sdy.mesh, sdy.manual_computation) stay as they are, joined to the VHLO ops by
unrealized casts. arc reads StableHLO text. arc's proxy runs this script with
the bytecode on stdin and compiles the text it prints. It needs jaxlib, so run
it with the Python that runs JAX (ARC_PYTHON).

Set ARC_MLIR_DEBUGINFO=1 to keep source locations in the text.
"""

import os
import sys

# VHLO back to StableHLO, as StableHLO's own deserializer does it.
VHLO_TO_STABLEHLO = ("builtin.module(vhlo-to-version{target=current},"
                     "vhlo-legalize-to-stablehlo,reconcile-unrealized-casts)")


def convert(data: bytes, debug: bool, errors: list) -> str | None:
    try:  # a portable artifact of StableHLO ops alone: JAX's public API
        import jax.extend.mlir as jex_mlir

        text = jex_mlir.deserialize_portable_artifact(data)
        return text if isinstance(text, str) else text.decode()
    except Exception as e:
        errors.append(f"jax.extend.mlir.deserialize_portable_artifact: {e!r}")
    from jax._src.interpreters import mlir as jax_mlir  # a context with JAX's dialects, Shardy's included
    from jax._src.lib.mlir import ir

    with jax_mlir.make_ir_context() as ctx:
        try:  # StableHLO's deserializer (JAX calls the dialect "hlo")
            from jax._src.lib.mlir.dialects import hlo

            module = hlo.deserialize_portable_artifact(ctx, data)
            return module.operation.get_asm(enable_debug_info=debug)
        except Exception as e:
            errors.append(f"hlo.deserialize_portable_artifact: {e!r}")
        try:  # parse the bytecode, then lower VHLO to StableHLO with the passes
            module = ir.Module.parse(data)
            from jax._src.lib.mlir import passmanager

            passmanager.PassManager.parse(VHLO_TO_STABLEHLO).run(module.operation)
            return module.operation.get_asm(enable_debug_info=debug)
        except Exception as e:
            errors.append(f"MLIR bytecode and {VHLO_TO_STABLEHLO}: {e!r}")
    return None


def main() -> int:
    data = sys.stdin.buffer.read()
    # This process only converts; it must not pick up the client's platform choice.
    os.environ.pop("JAX_PLATFORMS", None)
    errors = []
    text = convert(data, os.environ.get("ARC_MLIR_DEBUGINFO") == "1", errors)
    if text is not None and ('"vhlo.' in text or "vhlo.func" in text):
        errors.append("the text still holds VHLO ops, which arc cannot read")
        text = None
    if text is None:
        sys.stderr.write("cannot turn the program into StableHLO text: " + "; ".join(errors) + "\n")
        return 1
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
