"""Runs StableHLO's own verifier (jaxlib's MLIR bindings) over the cases of
spec's table test and compares its verdict with the one the table expects.

    ARC_SPEC_DUMP=/tmp/cases go test ./spec -run TestDumpCases   # writes the cases and cases.tsv
    python3 spec/testdata/verify_cases.py /tmp/cases             # where jaxlib is installed

cases.tsv says, per case, "reject" with the message arc gives when MLIR's
verifier must reject the module too, and "accept" when it must accept it
(valid modules, and those only the specification or XLA rejects: ids out
of range, groups that do not cover the grid, float narrowing, ...).
Prints one line per disagreement and exits 1 if there is any."""
import csv, os, sys

from jax._src.interpreters import mlir as jmlir
from jax._src.lib.mlir import ir

def main(folder):
    bad = 0
    with open(os.path.join(folder, "cases.tsv")) as f:
        rows = list(csv.reader(f, delimiter="\t"))
    for name, verdict, title, message in rows:
        src = open(os.path.join(folder, name + ".mlir")).read()
        ctx = jmlir.make_ir_context()
        ctx.allow_unregistered_dialects = False
        try:
            with ctx:
                ir.Module.parse(src)  # parsing verifies
            got, diag = "accept", ""
        except Exception as e:  # MLIRError carries the diagnostics
            got, diag = "reject", str(e).replace("\n", " ")
        if got != verdict:
            bad += 1
            print(f"{name} ({title}): MLIR {got}s, the table expects {verdict}: {diag or message}")
        elif got == "reject" and message.split(" op ", 1)[-1][:40] not in diag:
            print(f"{name} ({title}): both reject; arc says {message!r}, MLIR says {diag!r}")
    print(f"{len(rows)} cases, {bad} disagreements")
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
