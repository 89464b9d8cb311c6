"""CPU tests of arc_jax and its wheel: no JAX, no GPU (make test runs them
through python/python_test.go). A fake jax._src.xla_bridge stands in for
JAX's plugin registry, so the takeover of the "cuda" backend is tested with
JAX's CUDA plugin initialized before arc and after it."""

import importlib
import importlib.metadata
import io
import os
import subprocess
import sys
import tempfile
import types
import unittest
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import build_wheel  # noqa: E402


def fake_build(d):
    """A build directory with stand-ins for the native files."""
    for name, src, executable in build_wheel.PAYLOAD:
        with open(os.path.join(d, src), "w") as f:
            f.write("#!/bin/sh\necho 'arc 0.3.1-dev'\n" if name == "arc" else f"stand-in for {name}\n")
        os.chmod(os.path.join(d, src), 0o755 if executable else 0o644)


class Wheel(unittest.TestCase):
    def test_pep440(self):
        self.assertEqual(build_wheel.pep440("arc 0.1.0-dev\n"), "0.1.0.dev0")
        self.assertEqual(build_wheel.pep440("arc 1.2.3"), "1.2.3")
        with self.assertRaises(SystemExit):
            build_wheel.pep440("arc main")

    def test_contents(self):
        with tempfile.TemporaryDirectory() as d:
            fake_build(d)
            stdout = io.StringIO()
            sys.stdout, saved = stdout, sys.stdout
            try:
                build_wheel.main(["--build", d, "--out", os.path.join(d, "dist")])
            finally:
                sys.stdout = saved
            wheel = stdout.getvalue().strip()
            self.assertEqual(os.path.basename(wheel), "arc_jax-0.3.1.dev0-py3-none-linux_x86_64.whl")
            with zipfile.ZipFile(wheel) as z:
                names = z.namelist()
                info = "arc_jax-0.3.1.dev0.dist-info"
                for want in ["arc_jax/__init__.py", "arc_jax/__main__.py", "arc_jax/pjrt_c_api_arc_plugin.so",
                             "arc_jax/arc", "arc_jax/libarc_gpu.so", "arc_jax/arc_mlir_to_text.py",
                             f"{info}/METADATA", f"{info}/WHEEL", f"{info}/entry_points.txt", f"{info}/RECORD"]:
                    self.assertIn(want, names)
                self.assertEqual(z.getinfo("arc_jax/arc").external_attr >> 16, 0o100755)
                self.assertEqual(z.getinfo("arc_jax/libarc_gpu.so").external_attr >> 16, 0o100644)
                self.assertIn("[jax_plugins]\narc = arc_jax\n", z.read(f"{info}/entry_points.txt").decode())
                meta = z.read(f"{info}/METADATA").decode()
                self.assertIn("Name: arc-jax\n", meta)
                self.assertIn("Version: 0.3.1.dev0\n", meta)
                self.assertIn("Root-Is-Purelib: false\n", z.read(f"{info}/WHEEL").decode())
                record = z.read(f"{info}/RECORD").decode().splitlines()
                self.assertEqual(len(record), len(names))
                for line in record:
                    name, digest, size = line.split(",")
                    if name.endswith("RECORD"):
                        continue
                    self.assertEqual(line, build_wheel.record_line(name, z.read(name)), name)

    def test_cpu_only(self):
        """ARC_WHEEL_CPU_ONLY=1: no libarc_gpu.so, and the version says so."""
        with tempfile.TemporaryDirectory() as d:
            fake_build(d)
            os.remove(os.path.join(d, "libarc_gpu.so"))
            os.environ["ARC_WHEEL_CPU_ONLY"] = "1"
            stdout = io.StringIO()
            sys.stdout, saved = stdout, sys.stdout
            try:
                build_wheel.main(["--build", d, "--out", os.path.join(d, "dist")])
            finally:
                sys.stdout = saved
                del os.environ["ARC_WHEEL_CPU_ONLY"]
            wheel = stdout.getvalue().strip()
            self.assertEqual(os.path.basename(wheel), "arc_jax-0.3.1.dev0+cpuonly-py3-none-linux_x86_64.whl")
            with zipfile.ZipFile(wheel) as z:
                self.assertNotIn("arc_jax/libarc_gpu.so", z.namelist())
                self.assertIn("arc_jax/arc", z.namelist())
                self.assertIn("Version: 0.3.1.dev0+cpuonly\n",
                              z.read("arc_jax-0.3.1.dev0+cpuonly.dist-info/METADATA").decode())

    def test_missing_file(self):
        with tempfile.TemporaryDirectory() as d:
            fake_build(d)
            os.remove(os.path.join(d, "libarc_gpu.so"))
            with self.assertRaises(SystemExit) as e:
                build_wheel.build(d, os.path.join(d, "dist"), "0.1")
            self.assertIn("libarc_gpu.so is missing", str(e.exception))
            self.assertFalse(os.path.exists(os.path.join(d, "dist", "arc_jax-0.1-py3-none-linux_x86_64.whl")))

    def test_pip_installs_the_entry_point(self):
        """pip installs the wheel (no index, no network), and the jax_plugins
        entry point JAX scans names the package."""
        with tempfile.TemporaryDirectory() as d:
            fake_build(d)
            wheel = build_wheel.build(d, os.path.join(d, "dist"), "0.1")
            target = os.path.join(d, "site")
            pip = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps",
                                  "--target", target, wheel], capture_output=True, text=True, timeout=300)
            if pip.returncode != 0:
                self.fail(f"pip install: {pip.stderr}")
            self.assertTrue(os.access(os.path.join(target, "arc_jax", "arc"), os.X_OK))
            found = [ep for dist in importlib.metadata.distributions(path=[target])
                     for ep in dist.entry_points if ep.group == "jax_plugins"]
            self.assertEqual([(ep.name, ep.value) for ep in found], [("arc", "arc_jax")])


class FakeJAX:
    """The parts of jax._src.xla_bridge and xla_client a JAX plugin uses."""

    def __init__(self):
        self.factories, self.callbacks, self.loaded = {}, [], []
        xb = types.ModuleType("jax._src.xla_bridge")
        xb._backend_factories = self.factories
        xb.register_plugin_callbacks = self.callbacks.append
        xb.register_backend_factory = self.register_backend_factory
        xb._options_from_jax_configs = lambda name: {"visible_for": name}
        xb.make_pjrt_c_api_client = lambda name, options=None: ("client", name, options)
        xc = types.ModuleType("jax._src.lib.xla_client")
        xc.load_pjrt_plugin_dynamically = lambda name, path: self.loaded.append((name, path)) or f"c_api:{name}"
        xc.generate_pjrt_gpu_plugin_options = lambda: {"preallocate": False}
        xc.make_c_api_device_topology = lambda c_api, *a: ("topology", c_api)
        lib = types.ModuleType("jax._src.lib")
        lib.xla_client = xc
        src = types.ModuleType("jax._src")
        src.xla_bridge, src.lib = xb, lib
        jax = types.ModuleType("jax")
        jax._src = src
        self.modules = {"jax": jax, "jax._src": src, "jax._src.xla_bridge": xb, "jax._src.lib": lib,
                        "jax._src.lib.xla_client": xc}

    def register_backend_factory(self, name, factory, priority=0, fail_quietly=True, experimental=False,
                                 make_topology=None, c_api=None):
        self.factories[name] = types.SimpleNamespace(factory=factory, priority=priority, experimental=experimental,
                                                     c_api=c_api, make_topology=make_topology)

    def cuda_plugin_initialize(self):
        """What JAX's CUDA plugin does: register "cuda" with the real plugin."""
        self.register_backend_factory("cuda", lambda: ("client", "cuda"), priority=500, c_api="c_api:cuda")

    def discovery_done(self):
        """What JAX does after every initialize(): call the callbacks per plugin."""
        for f in list(self.factories.values()):
            if f.c_api is not None:
                for cb in self.callbacks:
                    cb(c_api=f.c_api)


class Initialize(unittest.TestCase):
    def setUp(self):
        self.env = dict(os.environ)
        self.tmp = tempfile.TemporaryDirectory()
        # A jax-cuda13 plugin package: jax_plugins/xla_cuda13/xla_cuda_plugin.so
        pkg = os.path.join(self.tmp.name, "jax_plugins", "xla_cuda13")
        os.makedirs(pkg)
        open(os.path.join(pkg, "__init__.py"), "w").close()
        open(os.path.join(pkg, "xla_cuda_plugin.so"), "w").close()
        self.real = os.path.join(pkg, "xla_cuda_plugin.so")
        sys.path.insert(0, self.tmp.name)
        for k in ("ARC_DISABLE", "ARC_PJRT_PLUGIN", "ARC_PYTHON"):
            os.environ.pop(k, None)
        self.jax = FakeJAX()
        self.saved = {k: sys.modules.get(k) for k in self.jax.modules}
        sys.modules.update(self.jax.modules)
        import arc_jax

        self.arc = importlib.reload(arc_jax)

    def tearDown(self):
        os.environ.clear()
        os.environ.update(self.env)
        sys.path.remove(self.tmp.name)
        for k, v in self.saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
        for k in [k for k in sys.modules if k == "jax_plugins" or k.startswith("jax_plugins.")]:
            del sys.modules[k]
        importlib.invalidate_caches()
        self.tmp.cleanup()

    def assert_arc_is_cuda(self):
        cuda = self.jax.factories["cuda"]
        self.assertEqual(cuda.c_api, "c_api:arc")
        self.assertEqual(cuda.priority, 500)
        self.assertFalse(cuda.experimental)  # no "experimental platform" warning
        self.assertEqual(self.jax.loaded, [("arc", self.arc.PLUGIN)])
        self.assertEqual(cuda.factory(), ("client", "arc", {"preallocate": False, "visible_for": "cuda"}))
        self.assertEqual(cuda.make_topology(), ("topology", "c_api:arc"))
        self.assertNotIn("arc", self.jax.factories)  # JAX knows one GPU platform: cuda
        self.assertEqual(os.environ["ARC_PJRT_PLUGIN"], self.real)
        self.assertEqual(os.environ["ARC_PYTHON"], sys.executable)

    def test_cuda_plugin_first(self):
        self.jax.cuda_plugin_initialize()
        self.arc.initialize()
        self.jax.discovery_done()
        self.assert_arc_is_cuda()

    def test_cuda_plugin_after(self):
        self.arc.initialize()
        self.jax.cuda_plugin_initialize()  # would overwrite a registration made in initialize()
        self.jax.discovery_done()
        self.assert_arc_is_cuda()

    def test_disabled(self):
        os.environ["ARC_DISABLE"] = "1"
        self.jax.cuda_plugin_initialize()
        self.arc.initialize()
        self.jax.discovery_done()
        self.assertEqual(self.jax.factories["cuda"].c_api, "c_api:cuda")
        self.assertEqual(self.jax.loaded, [])
        self.assertEqual(self.jax.callbacks, [])
        self.assertNotIn("ARC_PJRT_PLUGIN", os.environ)

    def test_user_settings_win(self):
        os.environ["ARC_PJRT_PLUGIN"] = "/opt/other/xla_cuda_plugin.so"
        os.environ["ARC_PYTHON"] = "/opt/venv/bin/python"
        self.assertEqual(self.arc.proxy_environment(), {})
        self.assertEqual(self.arc.cuda_plugin(), "/opt/other/xla_cuda_plugin.so")

    def test_disabled_spellings(self):
        for v, want in (("1", True), ("true", True), ("ON", True), ("0", False), ("", False), ("no", False)):
            self.assertEqual(self.arc.disabled({"ARC_DISABLE": v}), want, v)


class Check(unittest.TestCase):
    def test_lists_what_is_missing(self):
        import arc_jax.__main__ as check

        out = io.StringIO()
        env = {"ARC_PJRT_PLUGIN": "/nonexistent/xla_cuda_plugin.so", "ARC_TARGET": "cuda:nvlink"}
        code = check.check(env, out)
        text = out.getvalue()
        self.assertEqual(code, 1, text)
        self.assertIn("MISSING  the real plugin /nonexistent/xla_cuda_plugin.so (ARC_PJRT_PLUGIN) does not exist", text)
        self.assertIn("fix: point ARC_PJRT_PLUGIN at xla_cuda_plugin.so", text)
        self.assertIn("ok       target cuda:nvlink (ARC_TARGET)", text)
        self.assertRegex(text, r"\d+ missing: arc is not active until they are fixed\n$")

    def test_the_wheel_and_the_check_name_the_same_files(self):
        import arc_jax

        installed = {os.path.basename(p) for p in (arc_jax.PLUGIN, arc_jax.ARC, arc_jax.KERNELS, arc_jax.CONVERTER)}
        self.assertEqual({name for name, _, _ in build_wheel.PAYLOAD}, installed)
        self.assertEqual(os.path.basename(arc_jax.KERNELS), build_wheel.GPU_LIB)

    def run_check(self, path):
        """python -m arc_jax check in a Python that sees only path and the
        standard library (-S: no site-packages, so no jax, no installed arc_jax)."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("ARC_")}
        env["PYTHONPATH"] = path
        out = subprocess.run([sys.executable, "-S", "-m", "arc_jax", "check"], capture_output=True, text=True,
                             timeout=120, env=env, cwd=tempfile.gettempdir())
        self.assertEqual(out.returncode, 1, out.stdout + out.stderr)
        return out.stdout

    def test_names_every_missing_piece(self):
        """From the source tree: nothing of the wheel is there, nor jax."""
        text = self.run_check(HERE)
        pkg = os.path.join(HERE, "arc_jax")
        for want in ["MISSING  JAX's CUDA PJRT plugin\n",
                     f"MISSING  arc's PJRT proxy: {pkg}/pjrt_c_api_arc_plugin.so is not installed\n",
                     f"MISSING  the arc compiler: {pkg}/arc is not installed\n",
                     f"MISSING  arc's kernels: {pkg}/libarc_gpu.so is not installed\n",
                     f"MISSING  the bytecode converter: {pkg}/arc_mlir_to_text.py is not installed\n",
                     "MISSING  the jax_plugins entry point arc = arc_jax: arc_jax is not installed as a package",
                     "MISSING  jax: No module named 'jax'\n"]:
            self.assertIn(want, text)
        # the GPU is asked of the CUDA driver, since arc's kernels are not there
        self.assertRegex(text, r"(?m)^(MISSING  no GPU: |ok       GPUs: \d+ \(the CUDA driver's count)")
        self.assertRegex(text, r"\n[78] missing: arc is not active until they are fixed\n$")  # 7 with a GPU

    def test_cpu_only_wheel_says_so(self):
        """An installed +cpuonly wheel: its missing kernels are named as such;
        the stand-in proxy does not load."""
        with tempfile.TemporaryDirectory() as d:
            fake_build(d)
            wheel = build_wheel.build(d, os.path.join(d, "dist"), "0.1", gpu=False)
            target = os.path.join(d, "site")
            pip = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps",
                                  "--target", target, wheel], capture_output=True, text=True, timeout=300)
            self.assertEqual(pip.returncode, 0, pip.stderr)
            text = self.run_check(target)
        pkg = os.path.join(target, "arc_jax")
        self.assertIn(f"MISSING  arc's kernels: {pkg}/libarc_gpu.so is not installed: arc_jax 0.1+cpuonly was built "
                      "without nvcc (ARC_WHEEL_CPU_ONLY)\n", text)
        self.assertIn("ok       arc_jax 0.1+cpuonly is installed: JAX loads it through its jax_plugins entry point\n",
                      text)
        self.assertIn(f"MISSING  arc's PJRT proxy does not load: {pkg}/pjrt_c_api_arc_plugin.so: ", text)
        self.assertIn(f"ok       compiler {pkg}/arc: arc 0.3.1-dev\n", text)
        self.assertNotIn("MISSING  the bytecode converter", text)
        self.assertRegex(text, r"(?m)^(MISSING  no GPU: |ok       GPUs: )")


if __name__ == "__main__":
    unittest.main()
