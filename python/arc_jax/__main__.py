"""python -m arc_jax check: what arc finds on this machine, and what is missing.

Each line is `ok`, `warn` or `MISSING`, what was checked, and for what is
missing the fix. The exit status is 1 when something arc needs is missing.
Every piece arc needs is named when it is missing: JAX's CUDA plugin, the
wheel's files (arc's PJRT proxy, the arc compiler, libarc_gpu.so, the
bytecode converter), the jax_plugins entry point through which JAX loads
arc_jax, a GPU (asked of arc's kernels, or of the CUDA driver when they do
not load), the target, and jax.
"""

import ctypes
import importlib.metadata
import os
import subprocess
import sys

import arc_jax


class Report:
    def __init__(self, out=sys.stdout):
        self.out, self.missing = out, 0

    def ok(self, what):
        print(f"ok       {what}", file=self.out)

    def warn(self, what, fix=""):
        print(f"warn     {what}" + (f"\n         fix: {fix}" if fix else ""), file=self.out)

    def lack(self, what, fix):
        self.missing += 1
        print(f"MISSING  {what}\n         fix: {fix}", file=self.out)


class LinkInfo(ctypes.Structure):  # proxy/arc_ffi.h's arc_link_info
    _fields_ = [("devices", ctypes.c_int), ("peer", ctypes.c_int), ("nvlink", ctypes.c_int),
                ("arch", ctypes.c_char * 32)]


def check(environ=os.environ, out=sys.stdout) -> int:
    r = Report(out)
    if arc_jax.disabled(environ):
        r.warn("ARC_DISABLE is set: JAX runs its own CUDA plugin, without arc", "unset ARC_DISABLE")
    real = arc_jax.cuda_plugin(environ)
    if real is None:
        r.lack("JAX's CUDA PJRT plugin", 'pip install "jax[cuda13]" (or set ARC_PJRT_PLUGIN=/path/to/xla_cuda_plugin.so)')
    elif not os.path.isfile(real):
        r.lack(f"the real plugin {real} (ARC_PJRT_PLUGIN) does not exist", "point ARC_PJRT_PLUGIN at xla_cuda_plugin.so")
    else:
        r.ok(f"real plugin {real}")
    version = _installed_version()
    reinstall = "reinstall the arc_jax wheel (make wheel or pip wheel . builds it)"
    for path, what in ((arc_jax.PLUGIN, "arc's PJRT proxy"), (arc_jax.ARC, "the arc compiler"),
                       (arc_jax.KERNELS, "arc's kernels"), (arc_jax.CONVERTER, "the bytecode converter")):
        if os.path.isfile(path):
            continue
        if path == arc_jax.KERNELS and version and version.endswith("+cpuonly"):
            r.lack(f"{what}: {path} is not installed: arc_jax {version} was built without nvcc (ARC_WHEEL_CPU_ONLY)",
                   "install a wheel built with nvcc (make wheel, or pip wheel . on a machine with Go, gcc and nvcc)")
        else:
            r.lack(f"{what}: {path} is not installed", reinstall)
    if version is None:
        r.lack("the jax_plugins entry point arc = arc_jax: arc_jax is not installed as a package, so JAX does "
               "not load it", "pip install the arc_jax wheel (arc_jax on PYTHONPATH alone is not enough)")
    else:
        r.ok(f"arc_jax {version} is installed: JAX loads it through its jax_plugins entry point")
    proxy = None
    if os.path.isfile(arc_jax.PLUGIN):
        try:
            proxy = ctypes.CDLL(arc_jax.PLUGIN)
            r.ok(f"proxy {arc_jax.PLUGIN}")
        except OSError as e:
            r.lack(f"arc's PJRT proxy does not load: {e}", reinstall)
    try:
        v = subprocess.run([arc_jax.ARC, "version"], capture_output=True, text=True, timeout=30)
        if v.returncode == 0:
            r.ok(f"compiler {arc_jax.ARC}: {v.stdout.strip()}")
        else:
            r.lack(f"the compiler {arc_jax.ARC} fails: {v.stderr.strip()}", "reinstall the arc_jax wheel")
    except (OSError, subprocess.TimeoutExpired) as e:
        if os.path.isfile(arc_jax.ARC):
            r.lack(f"the compiler {arc_jax.ARC} does not run: {e}", "reinstall the arc_jax wheel")
    gpu = None
    if os.path.isfile(arc_jax.KERNELS):
        try:
            gpu = ctypes.CDLL(arc_jax.KERNELS)
            r.ok(f"kernels {arc_jax.KERNELS}")
        except OSError as e:
            r.lack(f"arc's kernels do not load: {e}", "install the CUDA driver (libcuda.so.1), or reinstall the wheel")
    if gpu is None:
        # arc's kernels cannot say: ask the CUDA driver whether there is a GPU
        n, why = _driver_gpus()
        if why:
            r.lack(f"no GPU: {why}", "install the NVIDIA driver; check nvidia-smi and CUDA_VISIBLE_DEVICES")
        elif n == 0:
            r.lack("no GPU: the CUDA driver sees none", "check nvidia-smi and CUDA_VISIBLE_DEVICES")
        else:
            r.ok(f"GPUs: {n} (the CUDA driver's count; arc's kernels did not load to say more)")
    else:
        info = LinkInfo()
        if gpu.arc_detect_link(ctypes.byref(info)) != 0:
            why = _device_error(gpu)
            r.lack(f"no GPU: {why}", "check nvidia-smi and CUDA_VISIBLE_DEVICES")
        else:
            arch = info.arch.decode()
            r.ok(f"GPUs: {info.devices} x {arch}")
            if info.devices > 1:
                if info.peer:
                    r.ok("peer access between every pair of GPUs" + (", NVLink" if info.nvlink else ", PCIe"))
                else:
                    r.warn("no peer access between some GPUs: arc's kernels exchange through host memory "
                           "(cuda:pcie-nop2p)", "enable peer access (IOMMU, ACS) for the faster kernels")
            else:
                r.warn("one GPU: arc lowers all-reduces across GPUs, or across processes sharing this one "
                       "(start MPS: nvidia-cuda-mps-control -d)")
    target = environ.get("ARC_TARGET", "auto")
    if target not in ("", "auto"):
        r.ok(f"target {target} (ARC_TARGET)")
    elif proxy is not None:
        t, err = _detect_target(proxy)
        if t:
            r.ok(f"target {t} (detected; set ARC_TARGET to choose another)")
        else:
            r.lack(f"no target: {err}", "set ARC_TARGET (arc compile --help lists the targets)")
    try:
        import jax

        r.ok(f"jax {jax.__version__} at {os.path.dirname(jax.__file__)} (the bytecode converter runs under "
             f"{environ.get('ARC_PYTHON') or sys.executable})")
    except ImportError as e:
        r.lack(f"jax: {e}", 'pip install "jax[cuda13]"')
    if r.missing:
        print(f"{r.missing} missing: arc is not active until they are fixed", file=out)
    else:
        print("arc is ready: JAX's GPU backend runs through arc", file=out)
    return 1 if r.missing else 0


def _device_error(gpu) -> str:
    try:
        f = gpu.arc_ffi_device_error
        f.restype = ctypes.c_char_p
        return (f() or b"unknown error").decode()
    except AttributeError:
        return "unknown error"


def _installed_version():
    """The version of the installed arc_jax whose jax_plugins entry point
    names the package, or None when none is installed."""
    for ep in importlib.metadata.entry_points(group="jax_plugins"):
        if ep.value == "arc_jax":
            dist = getattr(ep, "dist", None)
            return dist.version if dist is not None else "(version unknown)"
    return None


def _driver_gpus():
    """How many GPUs the CUDA driver (libcuda.so.1) sees: (count, None), or
    (None, why it cannot say)."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError as e:
        return None, f"the CUDA driver (libcuda.so.1) does not load: {e}"

    def error(rc):
        name = ctypes.c_char_p()
        try:
            if cuda.cuGetErrorName(rc, ctypes.byref(name)) == 0 and name.value:
                return name.value.decode()
        except AttributeError:
            pass
        return f"CUDA error {rc}"

    rc = cuda.cuInit(0)
    if rc != 0:
        return None, f"cuInit: {error(rc)}"
    n = ctypes.c_int()
    rc = cuda.cuDeviceGetCount(ctypes.byref(n))
    if rc != 0:
        return None, f"cuDeviceGetCount: {error(rc)}"
    return n.value, None


def _detect_target(lib):
    """The target arc's proxy would pick (ARC_TARGET=auto), asked of the proxy itself."""
    try:
        f = lib.arc_plugin_detect_target
    except AttributeError:
        return None, f"{arc_jax.PLUGIN} has no arc_plugin_detect_target: reinstall the arc_jax wheel"
    f.restype = ctypes.c_void_p
    f.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
    err = ctypes.c_void_p()
    t = f(ctypes.byref(err))
    libc = ctypes.CDLL(None)
    libc.free.argtypes = [ctypes.c_void_p]
    if t:
        s = ctypes.string_at(t).decode()
        libc.free(t)
        return s, None
    s = ctypes.string_at(err).decode() if err.value else "unknown error"
    if err.value:
        libc.free(err)
    return None, s


def main(argv) -> int:
    if len(argv) != 1 or argv[0] != "check":
        print("usage: python -m arc_jax check", file=sys.stderr)
        return 2
    return check()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
