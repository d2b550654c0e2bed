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
import struct  # noqa: E402
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
from cakec import _fast, _native  # noqa: E402

print("native module:", _native.module() is not None, _native.error)
general, general_calls = k._general, []
k._general = lambda args, stream: general_calls.append(1) or general(args, stream)
for path in ("native", "python"):
    k._fast = _fast.make(k, k._lib, torch, native=path == "native")
    for label, args in [("X f32", [Tensor((256, 4096), torch.float32)] + ok[1:] + [256]),
                        ("H short", ok[:4] + [Tensor((256, 4032))] + [256]),
                        ("M", ok + [255]),
                        ("M i32", ok + [1 << 31]),
                        ("host X", [Tensor((256, 4096), device=-1)] + ok[1:] + [256]),
                        ("H elsewhere", ok[:4] + [Tensor((256, 4096), device=1)] + [256])]:
        general_calls.clear()
        try:
            k(*args)
        except cakec.CakeError as e:
            print(f"{path} fast {label}:", cakec.ERRORS[e.code], "|", e.message, "| general call:", bool(general_calls))
    print(f"{path} call:", getattr(k._fast, "__code__", None) and k._fast.__code__.co_filename or repr(k._fast))
    try:
        k(*ok)
    except TypeError as e:
        print(f"{path} arity:", e)
    try:
        k(*ok, 256, streem=0)
    except TypeError as e:
        print(f"{path} keyword:", e)
    general_calls.clear()
    try:  # a stream given: passed on (the launcher refuses the shape after reading it)
        k(*ok, 255, stream=types.SimpleNamespace(cuda_stream=0))
    except cakec.CakeError as e:
        print(f"{path} stream object:", e.message, "| general call:", bool(general_calls))
del k._general
# The C call's buffer, byte for byte against the generated Python call's
# layout (struct), for every kind of parameter: an entry point that records
# what it is given, the values packed as the Python call packs them.
params = [{"kind": "tensor", "rank": 2}, {"kind": "workspace"}, {"kind": "scalar", "ctype": "int8_t"},
          {"kind": "scalar", "ctype": "uint32_t"}, {"kind": "scalar", "ctype": "float"},
          {"kind": "scalar", "ctype": "double"}, {"kind": "scalar", "ctype": "uint16_t", "bits": True, "dtype": "f16"},
          {"kind": "scalar", "ctype": "uint16_t", "bits": True, "dtype": "bf16"}]
fmt = _fast.layout(params)[0]
seen = []
ENTRY = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_ubyte))(
    lambda p: seen.append(bytes(p[:struct.calcsize(fmt)])) or 0)


class Workspace(Tensor):  # a stand-in with what a workspace's fast path reads
    nbytes, contiguous = 4096, True

    def is_contiguous(self):
        return self.contiguous


def failed(code):
    raise cakec.CakeError("probe", code, "refused")


slow = []
probe = _native.module().FastCall("probe", ctypes.cast(ENTRY, ctypes.c_void_p).value, _fast._spec(params), Workspace,
                                   {torch.bfloat16: 1}, lambda d: 77, lambda: 0,
                                   lambda args, stream: slow.append(len(args)), failed)
X, WS, NC = Workspace((3, 5), ptr=4096), Workspace((1, 4096), ptr=8192), Workspace((1, 4096))
NC.contiguous = False
values = (-7, (1 << 32) - 1, 1.5, -0.1, 65504.0, -2.5)
probe(X, WS, *values)
want = struct.pack(fmt, 4096, 3, 5, 5, 1, 2, 1, 8192, 4096, -7, (1 << 32) - 1, 1.5, -0.1,
                   cakec._kernel._half_bits(65504.0, "uint16_t", "f16"),
                   cakec._kernel._half_bits(-2.5, "uint16_t", "bf16"), 77)
print("native buffer equals struct's:", seen == [want], "| slow:", slow)
for label, args in [("int8 200", (X, WS, 200) + values[1:]), ("uint32 -1", (X, WS, -7, -1) + values[2:]),
                    ("float 1e300", (X, WS, -7, 1, 1e300) + values[3:]), ("bool", (X, WS, True) + values[1:]),
                    ("f16 1e6", (X, WS) + values[:4] + (1e6, 0.0)), ("rank 3", (Workspace((1, 3, 5)), WS) + values),
                    ("another type", (Tensor((3, 5)), WS) + values), ("not contiguous", (X, NC) + values),
                    ("f32", (Workspace((3, 5), torch.float32), WS) + values), ("short", (X, WS))]:
    slow.clear()
    probe(*args)
    print(f"{label}: general call {slow}", end="; ")
print()
probe(X, WS, *values, stream=5)
probe(X, WS, *values, stream=types.SimpleNamespace(cuda_stream=6))
print("streams given:", [struct.unpack("<Q", b[-8:])[0] for b in seen[1:]], "| slow:", slow[1:])
ENTRY2 = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_ubyte))(lambda p: 3)
probe2 = _native.module().FastCall("probe2", ctypes.cast(ENTRY2, ctypes.c_void_p).value, _fast._spec(params), Workspace,
                                    {torch.bfloat16: 1}, lambda d: 77, lambda: 0, lambda args, stream: None, failed)
try:
    probe2(X, WS, *values, stream=5)
except cakec.CakeError as e:
    print("refused:", e)
# Tensors on another device than the current one: launched under that device.
try:
    k(*[Tensor(t.shape, device=1) for t in ok], 255)
except cakec.CakeError as e:
    print("on cuda:1:", e.message, "| under the device:", entered)
