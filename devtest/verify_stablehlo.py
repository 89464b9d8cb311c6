"""Runs StableHLO's own verifier (jaxlib's MLIR bindings: Module.parse with
JAX's dialects registered, then operation.verify()) over every module in a
folder: arc's outputs for every target, and the inputs they came from.

    ARC_VERIFY_DIR=/tmp/verify go test . -run TestWriteOutputsForTheVerifier   # on a CPU machine
    python3 devtest/verify_stablehlo.py /tmp/verify                    # where jaxlib is installed

Prints one line per module MLIR refuses, then a count of outputs and inputs
checked and refused; exits 1 when an output arc wrote from a valid input is
refused (an input MLIR refuses is reported, and its outputs are not counted
against arc)."""
import os, sys

from jax._src.interpreters import mlir as jmlir
from jax._src.lib.mlir import ir

def check(path):
    src = open(path).read()
    ctx = jmlir.make_ir_context()
    ctx.allow_unregistered_dialects = False
    try:
        with ctx:
            m = ir.Module.parse(src)
            if not m.operation.verify():
                return "verify() returned false"
    except Exception as e:  # MLIRError carries the diagnostics
        return str(e).replace("\n", " ")[:600]
    return ""

def main(folder):
    names = sorted(n for n in os.listdir(folder) if n.endswith(".mlir"))
    inputs = [n for n in names if n.startswith("in.")]
    bad_inputs = set()
    for n in inputs:
        why = check(os.path.join(folder, n))
        if why:
            bad_inputs.add(n[len("in."):-len(".mlir")])
            print(f"input {n}: MLIR refuses it: {why}")
    outputs = [n for n in names if n.startswith("out.")]
    refused = 0
    for n in outputs:
        source = n[len("out."):].rsplit("@", 1)[0]
        why = check(os.path.join(folder, n))
        if why and source not in bad_inputs:
            refused += 1
            print(f"output {n}: MLIR refuses it: {why}")
    print(f"{len(inputs)} inputs ({len(bad_inputs)} refused), {len(outputs)} outputs, "
          f"{refused} outputs of valid inputs refused")
    return 1 if refused else 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
