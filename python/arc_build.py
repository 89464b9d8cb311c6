"""arc_jax's PEP 517 build backend, which pyproject.toml names: `pip wheel .`,
`pip install .` and `python -m build` build the wheel `make wheel` builds.

build_wheel() runs `make wheel-files` in the source tree (Go builds the arc
compiler, gcc the PJRT proxy, nvcc libarc_gpu.so, all into build/) and packs
build/ with build_wheel.build, as `make wheel` does: what the wheel holds and
its metadata have that one home, build_wheel.py. build_sdist() packs the
tracked sources (what make needs) with build_wheel's metadata as PKG-INFO.

The backend is the standard library alone and pyproject.toml requires
nothing, so a build needs no package index: `pip wheel .` works offline,
with or without build isolation. Before make runs, a program the build needs
and cannot find (make, go, gcc, nvcc, g++) is named with its fix, rather
than left to fail deep inside make. ARC_WHEEL_CPU_ONLY=1 skips nvcc and
g++: the wheel then lacks libarc_gpu.so and its version says +cpuonly
(build_wheel.py); it cannot run arc's kernels.
"""

import gzip
import io
import os
import re
import shlex
import shutil
import subprocess
import tarfile

import build_wheel as wheels  # not by its name, which the PEP 517 hook below takes

MAKE_TARGET = "wheel-files"  # the Makefile's: everything the wheel packs, in build/
# What is never a source (the .gitignore's build outputs), for a tree that is
# not a git checkout (an unpacked sdist): directories at its top, anywhere.
NOT_SOURCES_AT_TOP = {"build", "dist", "bin", ".devbin", ".whl"}
NOT_SOURCES_ANYWHERE = {".git", "__pycache__"}
SDIST_TIME = 1767225600  # 2026-01-01, as the wheel's entries: reproducible


def _go_version(root) -> str:
    """The Go version go.mod asks for."""
    try:
        with open(os.path.join(root, "go.mod")) as f:
            m = re.search(r"^go (\S+)", f.read(), re.M)
    except OSError:
        m = None
    return m.group(1) if m else "(go.mod's)"


def tools(environ, root):
    """The programs make runs for the wheel, each as (name, the command make
    runs, what it builds and how to get it). GO and NVCC replace the commands
    as they do in the Makefile."""
    out = [("make", "make", "GNU make runs the build (apt install make)"),
           ("go", environ.get("GO") or "go",
            f"Go {_go_version(root)} or later builds the arc compiler (https://go.dev/dl/; or set GO=/path/to/go)"),
           ("gcc", "gcc", "gcc builds arc's PJRT proxy (apt install gcc)")]
    if not wheels.cpu_only(environ):
        out += [("nvcc", environ.get("NVCC") or "nvcc",
                 "the CUDA toolkit's nvcc, 12.1 or later, builds libarc_gpu.so, arc's GPU kernels "
                 "(put it on PATH, or set NVCC=/path/to/nvcc)"),
                ("g++", "g++", "g++ is nvcc's host compiler (apt install g++)")]
    return out


def missing_tools(environ=os.environ, root="."):
    """The tools() not found on environ's PATH, as (name, fix)."""
    path = environ.get("PATH", os.defpath)
    missing = []
    for name, command, fix in tools(environ, root):
        words = shlex.split(command) or [name]
        if shutil.which(words[0], path=path):
            continue
        if name == "nvcc":
            for home in (environ.get("CUDA_HOME"), environ.get("CUDA_PATH"), "/usr/local/cuda"):
                found = home and os.path.join(home, "bin", "nvcc")
                if found and os.access(found, os.X_OK):
                    fix += f"; {found} exists: add {os.path.dirname(found)} to PATH"
                    break
        missing.append((name, fix))
    return missing


def require_tools(environ=os.environ, root="."):
    """Stops the build, naming every missing tool and its fix, before make runs."""
    missing = missing_tools(environ, root)
    if not missing:
        return
    lines = [f"arc_jax: cannot build the wheel here: {', '.join(n for n, _ in missing)} not found on PATH"]
    lines += [f"  {name}: {fix}" for name, fix in missing]
    lines.append("The wheel holds arc's compiler (Go), its PJRT proxy (gcc) and its GPU kernels (nvcc): "
                 "README.md's JAX section says which machine builds it.")
    if any(n == "nvcc" for n, _ in missing):
        lines.append("ARC_WHEEL_CPU_ONLY=1 builds without nvcc a wheel labelled +cpuonly that cannot run arc's "
                     "kernels: for testing the packaging only.")
    raise SystemExit("\n".join(lines))


def make(root, environ=os.environ):
    """Runs `make wheel-files` in root (ARC_WHEEL_CPU_ONLY reaches make through
    the environment)."""
    try:
        rc = subprocess.run(["make", "-C", root, MAKE_TARGET], env=dict(environ)).returncode
    except OSError as e:
        raise SystemExit(f"arc_jax: make: {e}")
    if rc != 0:
        raise SystemExit(f"arc_jax: make {MAKE_TARGET} failed (exit {rc}): the lines above say why")


# ---- PEP 517 hooks (run with the source tree as the working directory) ----

def get_requires_for_build_wheel(config_settings=None):
    require_tools(root=os.getcwd())  # fail here, before any build step
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    root = os.getcwd()
    require_tools(root=root)
    make(root)
    build_dir = os.path.join(root, "build")
    version = wheels.arc_version(build_dir)
    wheel = wheels.build(build_dir, wheel_directory, version, gpu=not wheels.cpu_only())
    return os.path.basename(wheel)


def get_requires_for_build_sdist(config_settings=None):
    return []


def source_version(root) -> str:
    """arc's version as cmd/arc/version.go sets it (the sdist's: no Go needed)."""
    path = os.path.join(root, "cmd", "arc", "version.go")
    with open(path) as f:
        m = re.search(r'^var version = "([^"]+)"', f.read(), re.M)
    if not m:
        raise SystemExit(f"arc_jax: {path} sets no version")
    return wheels.pep440(m.group(1))


def source_files(root):
    """The sources an sdist holds, relative to root: in a git checkout, the files
    git tracks or would (not ignored), else every file but build outputs (an
    unpacked sdist)."""
    def regular(name):
        p = os.path.join(root, name)
        return os.path.isfile(p) and not os.path.islink(p)

    try:
        top = subprocess.run(["git", "-C", root, "rev-parse", "--show-toplevel"], capture_output=True, text=True)
        if top.returncode == 0 and os.path.samefile(top.stdout.strip(), root):
            out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                                 capture_output=True, check=True).stdout
            return sorted({n for n in out.decode().split("\0") if n and regular(n)})
    except (OSError, subprocess.CalledProcessError):
        pass
    names = []
    for d, dirs, files in os.walk(root):
        top = d == root
        dirs[:] = sorted(x for x in dirs if x not in NOT_SOURCES_ANYWHERE and not (top and x in NOT_SOURCES_AT_TOP))
        names += [os.path.relpath(os.path.join(d, f), root) for f in files
                  if not f.endswith(".pyc") and not (top and f == "PKG-INFO")]
    return sorted(n for n in names if regular(n))


def build_sdist(sdist_directory, config_settings=None):
    root = os.getcwd()
    version = source_version(root)
    base = f"{wheels.NAME}-{version}"
    path = os.path.join(sdist_directory, base + ".tar.gz")
    tmp = path + ".tmp"
    os.makedirs(sdist_directory, exist_ok=True)

    def add(tar, name, data, executable):
        ti = tarfile.TarInfo(f"{base}/{name}")
        ti.size, ti.mtime, ti.mode = len(data), SDIST_TIME, 0o755 if executable else 0o644
        tar.addfile(ti, io.BytesIO(data))

    with open(tmp, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as gz, \
            tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
        add(tar, "PKG-INFO", wheels.metadata(version).encode(), False)
        for name in source_files(root):
            p = os.path.join(root, name)
            with open(p, "rb") as f:
                add(tar, name, f.read(), os.access(p, os.X_OK))
    os.replace(tmp, path)  # never a half-written sdist
    return os.path.basename(path)
