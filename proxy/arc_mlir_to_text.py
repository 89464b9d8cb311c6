"""Turns the MLIR bytecode a PJRT client sends into StableHLO text for arc.

jaxlib's PJRT C API client serializes each program before PJRT_Client_Compile
as a StableHLO portable artifact: VHLO bytecode, in which JAX's Shardy ops
(sdy.mesh, sdy.manual_computation) stay as they are, joined to the VHLO ops by
unrealized casts. arc reads StableHLO text. arc's proxy runs this script with
the bytecode on stdin and compiles the text it prints. It needs jaxlib, so run
it with the Python that runs JAX (ARC_PYTHON).

Set ARC_MLIR_DEBUGINFO=1 to keep source locations in the text.

With --serve it stays alive and converts one program per request, so that
jaxlib is imported once per process and not once per compile: the framed
protocol of arc's worker (proxy/subprocess.h). It writes a first frame
announcing itself once jaxlib is imported, then for each request frame (the
bytecode) answers one frame: a 0 byte and the text, or a 1 byte and the
error. It ends when its input does.
"""

import os
import struct
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


def to_text(data: bytes) -> tuple[str | None, str]:
    """Returns the program's text, or None and why not."""
    errors = []
    try:
        text = convert(data, os.environ.get("ARC_MLIR_DEBUGINFO") == "1", errors)
    except Exception as e:  # an import that failed, for one: an answer, not a dead worker
        errors.append(repr(e))
        text = None
    if text is not None and ('"vhlo.' in text or "vhlo.func" in text):
        errors.append("the text still holds VHLO ops, which arc cannot read")
        text = None
    if text is None:
        return None, "cannot turn the program into StableHLO text: " + "; ".join(errors)
    return text, ""


def read_frame(f) -> bytes | None:
    head = f.read(4)
    if len(head) == 0:
        return None
    if len(head) < 4:
        raise EOFError("a truncated frame header")
    (n,) = struct.unpack("<I", head)
    data = f.read(n)
    if len(data) < n:
        raise EOFError(f"a truncated frame of {n} bytes")
    return data


def write_frame(f, data: bytes) -> None:
    f.write(struct.pack("<I", len(data)))
    f.write(data)
    f.flush()


def serve() -> int:
    try:  # import once, before announcing: the first request then costs a conversion only
        from jax._src.interpreters import mlir  # noqa: F401
    except Exception:
        pass  # each request will say why it cannot convert
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # anything printed by accident must not break the frames
    write_frame(stdout, b"arc_mlir_to_text 1")
    while True:
        data = read_frame(stdin)
        if data is None:
            return 0
        text, why = to_text(data)
        if text is None:
            write_frame(stdout, b"\x01" + why.encode())
        else:
            write_frame(stdout, b"\x00" + text.encode())


def main() -> int:
    # This process only converts; it must not pick up the client's platform choice.
    os.environ.pop("JAX_PLATFORMS", None)
    if sys.argv[1:] == ["--serve"]:
        return serve()
    if sys.argv[1:]:
        sys.stderr.write("usage: arc_mlir_to_text.py [--serve] < program.mlirbc\n")
        return 2
    text, why = to_text(sys.stdin.buffer.read())
    if text is None:
        sys.stderr.write(why + "\n")
        return 1
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
