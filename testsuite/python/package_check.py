"""The Python package (python/cakec) without a GPU: load builds and caches,
a warm load runs nothing, an imported file's change rebuilds, the kernels'
parameters come from the compiler's --emit=interface, tensors described by
__cuda_array_interface__ or DLPack reach the launcher, whose own checks come
back as CakeError. Run by package.test with CAKEC, NVCC and CAKEC_CACHE_DIR set;
argv[1]: the source root, argv[2]: a scratch directory."""
import os
import pathlib
import shutil
import sys
import time

root, scratch = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
sys.path.insert(0, str(root / "python"))
import cakec  # noqa: E402

shutil.rmtree(scratch, ignore_errors=True)
scratch.mkdir(parents=True)
src = scratch / "k.cake"
src.write_text((root / "examples/rmsnorm_sm90a.cake").read_text().replace("EPS = 1.0e-6", "from consts import EPS"))
(scratch / "consts.cake").write_text("EPS = 1.0e-6\n")

m = cakec.load(src, include_dirs=[scratch])
print("first load: cached", m.cached)
print("kernels:", ", ".join(k.signature for k in m.kernels.values()))
print("accesses:", " ".join(f"{p['name']}={p['access']}" for p in m.rmsnorm_residual.tensors))
t = time.perf_counter()
m2 = cakec.load(src, include_dirs=[scratch])
warm = time.perf_counter() - t
print("second load: cached", m2.cached, "same entry", m2.path == m.path)
print("warm load under a second:", warm < 1.0)
# A define is part of the key.
m3 = cakec.load(src, include_dirs=[scratch], defines={"WARPS": 8})
print("with -DWARPS=8: cached", m3.cached, "another entry", m3.path != m.path)
# The imported file changes: the entry is built again.
(scratch / "consts.cake").write_text("EPS = 1.0e-5\n")
m4 = cakec.load(src, include_dirs=[scratch])
print("after the import changed: cached", m4.cached, "same entry", m4.path == m.path)
print("a new library, loaded anew:", m4.library != m.library and m4._lib._handle != m._lib._handle)
cache_root = pathlib.Path(os.environ["CAKEC_CACHE_DIR"])
print("entries:", sorted(p.name for p in cache_root.iterdir() if p.is_dir()) == sorted({m.path.name, m3.path.name}))
# Three processes load one new input at once: one builds, the others wait for
# it and find it; nothing half-built is left.
import subprocess  # noqa: E402

code = (f"import sys; sys.path.insert(0, {str(root / 'python')!r}); import cakec; "
        f"print(cakec.load({str(src)!r}, include_dirs=[{str(scratch)!r}], defines={{'SPLIT': 1}}).cached)")
procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True) for _ in range(3)]
outs = sorted(p.communicate()[0].strip() for p in procs)
print("three at once:", outs, [p.returncode for p in procs],
      "left over:", sorted(p.name for p in cache_root.iterdir() if p.name.startswith(("build-", "old-"))))


class Fake:
    """A device tensor as __cuda_array_interface__ describes it (no memory: the launcher checks first)."""

    def __init__(self, shape, typestr="<f2", ptr=1 << 20):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr, "data": (ptr, False), "version": 3}


k = m4.rmsnorm_residual
try:
    k(Fake((256, 4096), "<f4"), Fake((256, 4096)), Fake((1, 4096)), Fake((256, 4096)), Fake((256, 4096)), 256)
except cakec.CakeError as e:
    print("wrong dtype:", cakec.ERRORS[e.code], "|", e.message)
try:
    k(Fake((256, 4096)), 1, 2, 3, 4, 5)
except TypeError as e:
    print("not a tensor:", e)
try:
    k(Fake((256, 4096)))
except TypeError as e:
    print("arity:", e)
try:
    cakec.load(root / "testsuite/namedbarrier/fail_named_barrier_rules.cake")
except RuntimeError as e:
    print("rejected:", str(e).splitlines()[0])
    print("its diagnostics:", "[safety.named-barrier-outsider]" in str(e))
try:
    cakec.load(src, target="hopper")
except ValueError as e:
    print("target:", e)
try:
    k(Fake((256, 4096)), Fake((256, 4096)), Fake((1, 4096)), Fake((256, 4096)), Fake((256, 4096)), 1 << 40)
except cakec.CakeError as e:
    print("scalar range:", e.message)
# An i8 scalar: passed (its slot in the entry point's buffer), and checked against its range.
from cakec import _fast  # noqa: E402

print("i8 slot:", _fast.layout([{"kind": "scalar", "ctype": "int8_t", "name": "s"}])[0], end=" | ")
try:
    cakec.Kernel._scalar(type("K", (), {"name": "k"})(), {"ctype": "int8_t", "name": "s"}, 200)
except cakec.CakeError as e:
    print(e.message)
print("bf16 bits of 1.0, -2.5:", hex(cakec._kernel._half_bits(1.0, "uint16_t", "bf16")),
      hex(cakec._kernel._half_bits(-2.5, "uint16_t", "bf16")), "f16:", hex(cakec._kernel._half_bits(1.0, "uint16_t", "f16")))

# DLPack: a producer's capsule, consumed (renamed, its deleter called).
import ctypes  # noqa: E402
from cakec import _kernel as K  # noqa: E402

deleted = []
DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(K._DLManagedTensor))(lambda p: deleted.append(True))
capsule_new = ctypes.pythonapi.PyCapsule_New
capsule_new.restype, capsule_new.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class DL:
    def __init__(self, shape, code, bits, device=K.KDLCUDA):
        self.shape = (ctypes.c_int64 * len(shape))(*shape)
        self.m = K._DLManagedTensor()
        t = self.m.dl_tensor
        t.data, t.device.device_type, t.ndim = 1 << 20, device, len(shape)
        t.dtype.code, t.dtype.bits, t.dtype.lanes = code, bits, 1
        t.shape = ctypes.cast(self.shape, ctypes.POINTER(ctypes.c_int64))
        self.m.deleter = DELETER

    def __dlpack__(self, stream=None):
        return capsule_new(ctypes.addressof(self.m), b"dltensor", None)


try:
    k(DL((256, 4096), 2, 32), Fake((256, 4096)), Fake((1, 4096)), Fake((256, 4096)), Fake((256, 4096)), 256)
except cakec.CakeError as e:
    print("dlpack f32:", e.message, "| deleter called:", deleted == [True])
try:
    k(DL((256, 4096), 4, 16, device=1), Fake((256, 4096)), Fake((1, 4096)), Fake((256, 4096)), Fake((256, 4096)), 256)
except cakec.CakeError as e:
    print("dlpack on the host:", e.message)

# A library built elsewhere, bound through the interface cakec wrote beside it.

shutil.copy(m4.library, scratch / "lib.so")
subprocess.run([os.environ["CAKEC"], str(src), "-I", str(scratch), "--emit=interface", "-o", str(scratch / "lib.json")],
               check=True)
b = cakec.bind(scratch / "lib.so")
try:
    b.rmsnorm_residual(*[DL(shape, 4, 16) for shape in ((256, 4096), (256, 4096), (1, 4096), (256, 4096), (256, 2048))],
                       256)  # bf16 by DLPack (kDLBfloat)
except cakec.CakeError as e:
    print("bound:", sorted(b.kernels), "|", e.message)

# The fast path (cakec/_fast.py) on torch tensors, with a stand-in for torch
# (Debian's is too old here, and there is no GPU): the generated call packs
# every argument into one buffer for the library's cakec_py_ entry point;
# the launcher's refusals show that each tensor and scalar lands at its own
# offset. A tensor it does not take (a host one) goes to the general call.
import types  # noqa: E402

torch = types.ModuleType("torch")
torch.bfloat16, torch.float32 = "torch.bfloat16", "torch.float32"
torch._C = types.SimpleNamespace(_cuda_getCurrentRawStream=lambda d: 0, _cuda_getDevice=lambda: 0)
entered = []


class DeviceGuard:
    def __init__(self, d):
        self.d = d

    def __enter__(self):
        entered.append(self.d)

    def __exit__(self, *exc):
        return False


torch.cuda = types.SimpleNamespace(current_device=lambda: 0, is_initialized=lambda: True, device=DeviceGuard)


class Tensor:
    def __init__(self, shape, dtype=torch.bfloat16, device=0, ptr=1 << 20):
        self.shape, self.dtype, self.ndim, self._dev, self._ptr = tuple(shape), dtype, len(shape), device, ptr
        self.is_cuda, self.device = device >= 0, f"cuda:{device}" if device >= 0 else "cpu"

    def get_device(self):
        return self._dev

    def data_ptr(self):
        return self._ptr

    def stride(self):
        return (self.shape[1], 1)


torch.Tensor = Tensor
sys.modules["torch"] = torch
k = cakec.load(src, include_dirs=[scratch]).rmsnorm_residual
ok = [Tensor((256, 4096)), Tensor((256, 4096)), Tensor((1, 4096)), Tensor((256, 4096)), Tensor((256, 4096))]
k._make_fast()
scope = k._fast.__globals__
general, general_calls = scope["general"], []
scope["general"] = lambda args, stream: general_calls.append(1) or general(args, stream)
for label, args in [("X f32", [Tensor((256, 4096), torch.float32)] + ok[1:] + [256]),
                    ("H short", ok[:4] + [Tensor((256, 4032))] + [256]),
                    ("M", ok + [255]),
                    ("host X", [Tensor((256, 4096), device=-1)] + ok[1:] + [256]),
                    ("H elsewhere", ok[:4] + [Tensor((256, 4096), device=1)] + [256])]:
    general_calls.clear()
    try:
        k(*args)
    except cakec.CakeError as e:
        print(f"fast {label}:", cakec.ERRORS[e.code], "|", e.message, "| general call:", bool(general_calls))
print("the call:", k._fast.__code__.co_filename)
try:
    k(*ok)
except TypeError as e:
    print("fast arity:", e)
# Tensors on another device than the current one: launched under that device.
try:
    k(*[Tensor(t.shape, device=1) for t in ok], 255)
except cakec.CakeError as e:
    print("on cuda:1:", e.message, "| under the device:", entered)
