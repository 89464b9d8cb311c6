"""python -m arc_jax check: what arc finds on this machine, and what is missing.

Each line is `ok`, `warn` or `MISSING`, what was checked, and for what is
missing the fix. The exit status is 1 when something arc needs is missing.
"""

import ctypes
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
    for path, what in ((arc_jax.PLUGIN, "arc's PJRT proxy"), (arc_jax.ARC, "the arc compiler"),
                       (arc_jax.KERNELS, "arc's kernels")):
        if not os.path.isfile(path):
            r.lack(f"{what}: {path} is not installed", "reinstall the arc_jax wheel (make wheel builds it)")
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
    if gpu is not None:
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
    elif os.path.isfile(arc_jax.PLUGIN):
        t, err = _detect_target()
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


def _detect_target():
    """The target arc's proxy would pick (ARC_TARGET=auto), asked of the proxy itself."""
    lib = ctypes.CDLL(arc_jax.PLUGIN)
    f = lib.arc_plugin_detect_target
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
