"""CPU tests of pyproject.toml and its backend, arc_build.py (make test runs
them through python/python_test.go): no Go, gcc or nvcc is run. A fake make
fills build/ with stand-ins for the native files, and fake go, gcc, g++ and
nvcc stand on PATH, so the tests show what the backend does with a build,
which tool it names when one is missing, and that pip drives it offline."""

import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import arc_build  # noqa: E402
import build_wheel  # noqa: E402

try:
    import tomllib
except ImportError:  # Python 3.10
    tomllib = None

# make -C ROOT wheel-files, as the Makefile would: stand-ins for what the
# wheel packs in ROOT/build, libarc_gpu.so left out under ARC_WHEEL_CPU_ONLY=1.
FAKE_MAKE = """#!{python}
import os, sys
root, target = sys.argv[2], sys.argv[3]
assert sys.argv[1] == "-C" and target == "wheel-files", sys.argv
with open(os.environ["FAKE_MAKE_LOG"], "a") as f:
    print(target, os.environ.get("ARC_WHEEL_CPU_ONLY", ""), file=f)
build = os.path.join(root, "build")
os.makedirs(build, exist_ok=True)
for name, executable in {payload!r}:
    if name == "libarc_gpu.so" and os.environ.get("ARC_WHEEL_CPU_ONLY") == "1":
        continue
    with open(os.path.join(build, name), "w") as f:
        f.write("#!/bin/sh\\necho 'arc 0.3.1-dev'\\n" if name == "arc" else "stand-in for " + name + "\\n")
    os.chmod(os.path.join(build, name), 0o755 if executable else 0o644)
"""


def fake_tools(d, tools=("make", "go", "gcc", "g++", "nvcc")):
    """A directory for PATH with the tools named; returns it."""
    bin_dir = os.path.join(d, "bin")
    os.makedirs(bin_dir, exist_ok=True)
    for t in tools:
        with open(os.path.join(bin_dir, t), "w") as f:
            if t == "make":
                f.write(FAKE_MAKE.format(python=sys.executable,
                                         payload=[(src, x) for _, src, x in build_wheel.PAYLOAD]))
            else:
                f.write("#!/bin/sh\nexit 0\n")
        os.chmod(os.path.join(bin_dir, t), 0o755)
    return bin_dir


def source_tree(d):
    """A copy of what the backend reads of the repository: pyproject.toml,
    the backend, build_wheel.py and the package."""
    src = os.path.join(d, "src")
    os.makedirs(os.path.join(src, "python", "arc_jax"))
    shutil.copy(os.path.join(ROOT, "pyproject.toml"), src)
    for f in ("arc_build.py", "build_wheel.py"):
        shutil.copy(os.path.join(HERE, f), os.path.join(src, "python"))
    for f in os.listdir(os.path.join(HERE, "arc_jax")):
        if f.endswith(".py"):
            shutil.copy(os.path.join(HERE, "arc_jax", f), os.path.join(src, "python", "arc_jax"))
    return src


class Env:
    """Runs a block with os.environ and the working directory set."""

    def __init__(self, cwd, **env):
        self.cwd, self.env = cwd, env

    def __enter__(self):
        self.saved_env, self.saved_cwd = dict(os.environ), os.getcwd()
        for k in ("ARC_WHEEL_CPU_ONLY", "GO", "NVCC", "CUDA_HOME", "CUDA_PATH"):
            os.environ.pop(k, None)
        os.environ.update(self.env)
        os.chdir(self.cwd)

    def __exit__(self, *exc):
        os.chdir(self.saved_cwd)
        os.environ.clear()
        os.environ.update(self.saved_env)


def wheel_names(version, gpu=True):
    """The files build_wheel.py puts in a wheel, from its own tables."""
    info = f"arc_jax-{version}.dist-info"
    names = {f"arc_jax/{f}" for f in os.listdir(os.path.join(HERE, "arc_jax")) if f.endswith(".py")}
    names |= {f"arc_jax/{n}" for n, _, _ in build_wheel.PAYLOAD if gpu or n != build_wheel.GPU_LIB}
    return names | {f"{info}/{f}" for f in ("METADATA", "WHEEL", "entry_points.txt", "top_level.txt", "RECORD")}


class Pyproject(unittest.TestCase):
    @unittest.skipIf(tomllib is None, "tomllib is Python 3.11's")
    def test_names_the_backend(self):
        with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
            p = tomllib.load(f)
        bs = p["build-system"]
        self.assertEqual(bs["requires"], [])  # nothing to fetch: offline builds
        self.assertEqual(bs["build-backend"], "arc_build")
        self.assertEqual(bs["backend-path"], ["python"])
        self.assertTrue(os.path.samefile(os.path.join(ROOT, bs["backend-path"][0], "arc_build.py"), arc_build.__file__))
        self.assertNotIn("project", p)  # the metadata's home is build_wheel.py
        for hook in ("build_wheel", "build_sdist", "get_requires_for_build_wheel", "get_requires_for_build_sdist"):
            self.assertTrue(callable(getattr(arc_build, hook)), hook)

    def test_makefile_has_the_target(self):
        with open(os.path.join(ROOT, "Makefile")) as f:
            text = f.read()
        self.assertRegex(text, rf"(?m)^{arc_build.MAKE_TARGET}: plugin ")
        self.assertRegex(text, rf"(?m)^wheel: {arc_build.MAKE_TARGET}$")


class Tools(unittest.TestCase):
    def test_names_each_missing_tool(self):
        with tempfile.TemporaryDirectory() as d:
            empty = os.path.join(d, "empty")
            os.mkdir(empty)
            missing = [n for n, _ in arc_build.missing_tools({"PATH": empty}, ROOT)]
            self.assertEqual(missing, ["make", "go", "gcc", "nvcc", "g++"])
            cpu = [n for n, _ in arc_build.missing_tools({"PATH": empty, "ARC_WHEEL_CPU_ONLY": "1"}, ROOT)]
            self.assertEqual(cpu, ["make", "go", "gcc"])
            self.assertEqual(arc_build.missing_tools({"PATH": fake_tools(d)}, ROOT), [])
            only_nvcc = fake_tools(os.path.join(d, "n"), ("nvcc",))
            got = arc_build.missing_tools({"PATH": fake_tools(d, ("make", "go", "gcc", "g++")),
                                           "NVCC": os.path.join(only_nvcc, "nvcc")}, ROOT)
            self.assertEqual(got, [])  # NVCC replaces the command, as in the Makefile

    def test_message(self):
        with tempfile.TemporaryDirectory() as d:
            bin_dir = fake_tools(d, ("make", "gcc", "g++"))
            cuda = os.path.join(d, "cuda")
            fake_tools(cuda, ("nvcc",))
            with self.assertRaises(SystemExit) as e:
                arc_build.require_tools({"PATH": bin_dir, "CUDA_HOME": cuda}, ROOT)
            msg = str(e.exception)
            self.assertIn("cannot build the wheel here: go, nvcc not found on PATH", msg)
            with open(os.path.join(ROOT, "go.mod")) as f:
                go = re.search(r"(?m)^go (\S+)", f.read()).group(1)
            self.assertIn(f"\n  go: Go {go} or later builds the arc compiler", msg)
            self.assertIn(f"\n  nvcc: the CUDA toolkit's nvcc", msg)
            self.assertIn(f"{cuda}/bin/nvcc exists: add {cuda}/bin to PATH", msg)
            self.assertIn("ARC_WHEEL_CPU_ONLY=1", msg)

    def test_fails_before_make(self):
        with tempfile.TemporaryDirectory() as d:
            src = source_tree(d)
            log = os.path.join(d, "make.log")
            bin_dir = fake_tools(d, ("make", "go", "gcc", "g++"))
            with Env(src, PATH=bin_dir, FAKE_MAKE_LOG=log):
                for hook in (arc_build.get_requires_for_build_wheel, lambda: arc_build.build_wheel(d)):
                    with self.assertRaises(SystemExit) as e:
                        hook()
                    self.assertIn("nvcc not found", str(e.exception))
            self.assertFalse(os.path.exists(log))


class Backend(unittest.TestCase):
    def tempdir(self):
        t = tempfile.TemporaryDirectory()
        self.addCleanup(t.cleanup)
        return t.name

    def build(self, cpu_only=False):
        """The build_wheel hook on a source tree with fake tools; returns (the
        wheel's path, what make was asked, the same build dir's wheel from build_wheel.build)."""
        d = self.tempdir()
        src = source_tree(d)
        log = os.path.join(d, "make.log")
        env = {"PATH": fake_tools(d), "FAKE_MAKE_LOG": log}
        if cpu_only:
            env["ARC_WHEEL_CPU_ONLY"] = "1"
        out = os.path.join(d, "out")
        os.mkdir(out)
        with Env(src, **env):
            self.assertEqual(arc_build.get_requires_for_build_wheel(), [])
            name = arc_build.build_wheel(out)
            direct = build_wheel.build(os.path.join(src, "build"), os.path.join(d, "direct"), "0.3.1.dev0",
                                       gpu=not cpu_only)
        with open(log) as f:
            made = f.read()
        self.assertEqual(os.listdir(out), [name])
        return os.path.join(out, name), made, direct

    def test_wheel(self):
        wheel, made, direct = self.build()
        self.assertEqual(made, "wheel-files \n")
        self.assertEqual(os.path.basename(wheel), "arc_jax-0.3.1.dev0-py3-none-linux_x86_64.whl")
        with zipfile.ZipFile(wheel) as z:
            self.assertEqual(set(z.namelist()), wheel_names("0.3.1.dev0"))
            info = "arc_jax-0.3.1.dev0.dist-info"
            self.assertEqual(z.read(f"{info}/METADATA").decode(), build_wheel.metadata("0.3.1.dev0"))
            self.assertIn("Tag: py3-none-linux_x86_64\n", z.read(f"{info}/WHEEL").decode())
            self.assertEqual(z.read(f"{info}/entry_points.txt").decode(), "[jax_plugins]\narc = arc_jax\n")
            self.assertEqual(z.getinfo("arc_jax/arc").external_attr >> 16, 0o100755)
        with open(wheel, "rb") as a, open(direct, "rb") as b:
            self.assertEqual(a.read(), b.read(), "the backend's wheel is make wheel's, byte for byte")

    def test_cpu_only_is_labelled(self):
        wheel, made, direct = self.build(cpu_only=True)
        self.assertEqual(made, "wheel-files 1\n")  # make leaves libarc_gpu.so out
        self.assertEqual(os.path.basename(wheel), "arc_jax-0.3.1.dev0+cpuonly-py3-none-linux_x86_64.whl")
        with zipfile.ZipFile(wheel) as z:
            self.assertEqual(set(z.namelist()), wheel_names("0.3.1.dev0+cpuonly", gpu=False))
            self.assertIn("Version: 0.3.1.dev0+cpuonly\n",
                          z.read("arc_jax-0.3.1.dev0+cpuonly.dist-info/METADATA").decode())
        with open(wheel, "rb") as a, open(direct, "rb") as b:
            self.assertEqual(a.read(), b.read())

    def test_sdist_builds_the_wheel(self):
        """python -m build's way: an sdist of the repository, and the wheel
        built in the unpacked sdist."""
        if subprocess.run(["git", "-C", ROOT, "rev-parse"], capture_output=True).returncode != 0:
            self.skipTest("not a git checkout")
        d = self.tempdir()
        with Env(ROOT):
            self.assertEqual(arc_build.get_requires_for_build_sdist(), [])
            name = arc_build.build_sdist(os.path.join(d, "sdist"))
        version = arc_build.source_version(ROOT)
        self.assertEqual(name, f"arc_jax-{version}.tar.gz")
        with tarfile.open(os.path.join(d, "sdist", name)) as tar:
            names = tar.getnames()
            base = f"arc_jax-{version}/"
            self.assertTrue(all(n.startswith(base) for n in names))
            rel = {n[len(base):] for n in names}
            for want in ("PKG-INFO", "pyproject.toml", "Makefile", "go.mod", "go.sum", "cmd/arc/version.go",
                         "python/arc_build.py", "python/build_wheel.py", "python/arc_jax/__init__.py",
                         "proxy/standalone/standalone.c", "proxy/arc_mlir_to_text.py"):
                self.assertIn(want, rel)
            self.assertTrue(any(n.startswith("gpu/") and n.endswith(".cu") for n in rel))
            self.assertFalse([n for n in rel if n.split("/")[0] in ("build", "dist", ".git") or n.endswith(".pyc")])
            self.assertEqual(tar.extractfile(base + "PKG-INFO").read().decode(), build_wheel.metadata(version))
            tar.extractall(d)
        src = os.path.join(d, base)
        self.assertEqual(set(arc_build.source_files(src)), rel - {"PKG-INFO"})
        out = os.path.join(d, "out")
        with Env(src, PATH=fake_tools(d), FAKE_MAKE_LOG=os.path.join(d, "log")):
            wheel = arc_build.build_wheel(out)
        self.assertEqual(wheel, "arc_jax-0.3.1.dev0-py3-none-linux_x86_64.whl")


class Pip(unittest.TestCase):
    """pip reads pyproject.toml and runs the backend, with no package index."""

    def pip_wheel(self, d, bin_dir, *flags):
        src = source_tree(d)
        env = dict(os.environ, PATH=bin_dir, FAKE_MAKE_LOG=os.path.join(d, "make.log"))
        env.pop("ARC_WHEEL_CPU_ONLY", None)
        return subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-index", "--no-deps", "--no-cache-dir",
                               *flags, "-w", os.path.join(d, "out"), src],
                              capture_output=True, text=True, timeout=300, env=env)

    def test_offline(self):
        for flags in ((), ("--no-build-isolation",)):
            with tempfile.TemporaryDirectory() as d:
                pip = self.pip_wheel(d, fake_tools(d), *flags)
                self.assertEqual(pip.returncode, 0, f"pip wheel {flags}: {pip.stdout}{pip.stderr}")
                self.assertEqual(os.listdir(os.path.join(d, "out")),
                                 ["arc_jax-0.3.1.dev0-py3-none-linux_x86_64.whl"])

    def test_names_the_missing_tool(self):
        with tempfile.TemporaryDirectory() as d:
            pip = self.pip_wheel(d, fake_tools(d, ("make", "go", "g++", "nvcc")))
            self.assertNotEqual(pip.returncode, 0)
            self.assertIn("arc_jax: cannot build the wheel here: gcc not found on PATH", pip.stderr)
            self.assertIn("gcc: gcc builds arc's PJRT proxy", pip.stderr)
            self.assertNotIn("Traceback", pip.stderr)
            self.assertFalse(os.path.exists(os.path.join(d, "make.log")))


if __name__ == "__main__":
    unittest.main()
