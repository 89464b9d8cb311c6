"""Builds the arc_jax wheel from a built tree (make wheel): the Python package
and what it runs, arc's PJRT proxy, the arc compiler, libarc_gpu.so and the
bytecode converter, with the jax_plugins entry point through which JAX finds
it. Only the standard library: it runs wherever make does.

    python3 python/build_wheel.py --build build --out dist

This file is the one home of what the wheel holds and of its metadata:
pyproject.toml's build backend (arc_build.py: pip wheel ., python -m build)
packs the files make built with build() too.

ARC_WHEEL_CPU_ONLY=1 leaves libarc_gpu.so out (a build without nvcc) and
labels the version +cpuonly: such a wheel cannot run arc's kernels and is
for testing the packaging only.
"""

import argparse
import base64
import hashlib
import os
import re
import subprocess
import sys
import zipfile

NAME = "arc_jax"
HERE = os.path.dirname(os.path.abspath(__file__))
# What the wheel holds beside the package's Python files: (name in the
# package, name in the build directory, executable).
PAYLOAD = [
    ("pjrt_c_api_arc_plugin.so", "pjrt_c_api_arc_plugin.so", False),
    ("arc", "arc", True),
    ("libarc_gpu.so", "libarc_gpu.so", False),
    ("arc_mlir_to_text.py", "arc_mlir_to_text.py", False),
]
GPU_LIB = "libarc_gpu.so"  # the one file nvcc builds
CPU_ONLY = "cpuonly"  # the local version label of a wheel without it
TAG = "py3-none-linux_x86_64"  # native code for x86-64 Linux, any Python 3

METADATA = """Metadata-Version: 2.1
Name: arc-jax
Version: {version}
Summary: arc's all-reduce lowerings as JAX's GPU platform
Requires-Python: >=3.10
Requires-Dist: jax
Description-Content-Type: text/plain

Installed beside jax and its CUDA plugin (pip install "jax[cuda13]"), arc_jax
makes JAX's "cuda" backend run through arc, which rewrites every all-reduce
into the fastest exact lowering the GPUs allow. ARC_DISABLE=1 turns it off;
python -m arc_jax check says what it finds.
"""

WHEEL = """Wheel-Version: 1.0
Generator: arc python/build_wheel.py
Root-Is-Purelib: false
Tag: {tag}
"""

ENTRY_POINTS = """[jax_plugins]
arc = arc_jax
"""


def pep440(arc_version: str) -> str:
    """arc's version ("arc 0.1.0-dev") as PEP 440 spells it (0.1.0.dev0)."""
    v = arc_version.strip().removeprefix("arc ").strip()
    m = re.fullmatch(r"(\d+(?:\.\d+)*)(?:-dev)?", v)
    if not m:
        raise SystemExit(f"build_wheel: cannot read arc's version {arc_version!r}")
    return m.group(1) + (".dev0" if v.endswith("-dev") else "")


def cpu_only(environ=os.environ) -> bool:
    """Whether ARC_WHEEL_CPU_ONLY=1 asks for a wheel without GPU_LIB."""
    return environ.get("ARC_WHEEL_CPU_ONLY", "").strip() == "1"


def arc_version(build_dir: str) -> str:
    """The version of the arc binary in build_dir, as PEP 440 spells it."""
    arc = os.path.join(build_dir, "arc")
    try:
        out = subprocess.run([arc, "version"], capture_output=True, text=True, timeout=60)
    except OSError as e:
        raise SystemExit(f"build_wheel: {arc} version: {e}")
    if out.returncode != 0:
        raise SystemExit(f"build_wheel: {arc} version: {out.stderr.strip()}")
    return pep440(out.stdout)


def metadata(version: str) -> str:
    """The wheel's METADATA, which is also an sdist's PKG-INFO."""
    return METADATA.format(version=version)


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build(build_dir: str, out_dir: str, version: str, gpu: bool = True) -> str:
    """Writes the wheel of build_dir's files into out_dir and returns its
    path. Without gpu, GPU_LIB is left out and the version labelled."""
    if not gpu:
        version += "+" + CPU_ONLY
    files = []  # (name in the wheel, bytes, executable)
    for src in sorted(os.listdir(os.path.join(HERE, NAME))):
        if src.endswith(".py"):
            with open(os.path.join(HERE, NAME, src), "rb") as f:
                files.append((f"{NAME}/{src}", f.read(), False))
    for name, src, executable in PAYLOAD:
        if name == GPU_LIB and not gpu:
            continue
        path = os.path.join(build_dir, src)
        if not os.path.isfile(path):
            raise SystemExit(f"build_wheel: {path} is missing (make wheel-files builds it)")
        with open(path, "rb") as f:
            files.append((f"{NAME}/{name}", f.read(), executable))
    info = f"{NAME}-{version}.dist-info"
    files += [(f"{info}/METADATA", metadata(version).encode(), False),
              (f"{info}/WHEEL", WHEEL.format(tag=TAG).encode(), False),
              (f"{info}/entry_points.txt", ENTRY_POINTS.encode(), False),
              (f"{info}/top_level.txt", f"{NAME}\n".encode(), False)]
    record = [record_line(n, d) for n, d, _ in files] + [f"{info}/RECORD,,"]
    files.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode(), False))

    os.makedirs(out_dir, exist_ok=True)
    wheel = os.path.join(out_dir, f"{NAME}-{version}-{TAG}.whl")
    tmp = wheel + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data, executable in files:
            zi = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))  # reproducible
            zi.external_attr = (0o100755 if executable else 0o100644) << 16  # pip keeps the mode
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
    os.replace(tmp, wheel)  # never a half-written wheel
    return wheel


def main(argv) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="directory holding the built files")
    ap.add_argument("--out", default="dist", help="where the wheel goes")
    ap.add_argument("--version", help="the wheel's version (default: the arc binary's, PEP 440)")
    args = ap.parse_args(argv)
    version = args.version or arc_version(args.build)
    print(build(args.build, args.out, version, gpu=not cpu_only()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
