"""A generated launcher as a Python callable (cakec.Kernel), and the
conversion of tensors into the launcher's `cake_tensor`.

A call packs each tensor's pointer, shape, strides, rank and element type
into a per-thread buffer laid out as `cake_tensor` (one `struct.pack_into`
per tensor) and calls `NAME_launch` through ctypes; the launcher checks
everything against the schedule before it launches and its refusal comes
back as CakeError. Only the standard library is imported; torch is used
when the caller has imported it."""
import ctypes
import struct
import sys
import threading

# The launcher's error codes (the generated header's enum).
ERRORS = {1: "CAKE_ERROR_INVALID_ARGUMENT", 2: "CAKE_ERROR_MISALIGNED", 3: "CAKE_ERROR_SHAPE",
          4: "CAKE_ERROR_DRIVER", 5: "CAKE_ERROR_LAUNCH", 6: "CAKE_ERROR_HANG",
          7: "CAKE_ERROR_VALUE_RANGE"}
# cake_tensor.dtype codes: by the names torch gives element types, by
# __cuda_array_interface__'s typestr (without the byte order), by DLPack's
# (type code, bits), and by the compiler's names (--emit=interface).
DTYPES = {"bfloat16": 1, "float16": 2, "float32": 3, "int8": 4, "uint8": 5, "int32": 6, "uint32": 7, "int64": 8,
          "float8_e4m3fn": 9, "float8_e5m2": 10}
TYPESTRS = {"f2": 2, "f4": 3, "i1": 4, "u1": 5, "i4": 6, "u4": 7, "i8": 8}
DLPACK_TYPES = {(4, 16): 1, (2, 16): 2, (2, 32): 3, (0, 8): 4, (1, 8): 5, (0, 32): 6, (1, 32): 7, (0, 64): 8,
                (10, 8): 9, (11, 8): 10}
CAKE_DTYPES = {"bf16": 1, "f16": 2, "f32": 3, "i8": 4, "u8": 5, "i32": 6, "u32": 7, "i64": 8, "e4m3": 9, "e5m2": 10}
ITEMSIZE = {1: 2, 2: 2, 3: 4, 4: 1, 5: 1, 6: 4, 7: 4, 8: 8, 9: 1, 10: 1}
SCALARS = {"int8_t": ctypes.c_int8, "uint8_t": ctypes.c_uint8, "int32_t": ctypes.c_int32, "uint32_t": ctypes.c_uint32,
           "uint16_t": ctypes.c_uint16, "int64_t": ctypes.c_int64, "float": ctypes.c_float, "double": ctypes.c_double}
INT_RANGES = {"int8_t": (-(1 << 7), (1 << 7) - 1), "uint8_t": (0, (1 << 8) - 1), "int32_t": (-(1 << 31), (1 << 31) - 1),
              "uint32_t": (0, (1 << 32) - 1), "int64_t": (-(1 << 63), (1 << 63) - 1)}
MAX_RANK = 5
# cake_tensor: void *data; int64_t shape[5], stride[5]; int32_t rank, dtype.
TENSOR_BYTES = 8 + 8 * MAX_RANK * 2 + 8
# One layout per rank: the unused dimensions are zero (pad bytes).
_PACK = [struct.Struct(f"<Q{r}q{8 * (MAX_RANK - r)}x{r}q{8 * (MAX_RANK - r)}xii") for r in range(MAX_RANK + 1)]


class CakeError(RuntimeError):
    """A launcher refused or failed: `code` (CAKE_ERROR_*), `message` (its text)."""

    def __init__(self, kernel, code, message):
        self.kernel, self.code, self.message = kernel, code, message
        super().__init__(f"{kernel}: {ERRORS.get(code, code)}: {message}")


def _half_bits(value, ctype_name, dtype):
    """A 16-bit float scalar's bit pattern (the launcher takes bf16 and f16 so)."""
    if dtype == "f16":
        return struct.unpack("<H", struct.pack("<e", float(value)))[0]
    bits = struct.unpack("<I", struct.pack("<f", float(value)))[0]  # bf16: f32 rounded to nearest even
    if (bits & 0x7F800000) == 0x7F800000 and bits & 0x7FFFFF:
        return 0x7FC0
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensor(ctypes.Structure):
    pass


_DLManagedTensor._fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p),
                             ("deleter", ctypes.CFUNCTYPE(None, ctypes.POINTER(_DLManagedTensor)))]
_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype, _capsule_pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
_capsule_valid = ctypes.pythonapi.PyCapsule_IsValid
_capsule_valid.restype, _capsule_valid.argtypes = ctypes.c_int, [ctypes.py_object, ctypes.c_char_p]
_capsule_rename = ctypes.pythonapi.PyCapsule_SetName
_capsule_rename.restype, _capsule_rename.argtypes = ctypes.c_int, [ctypes.py_object, ctypes.c_char_p]
KDLCUDA, KDLCUDAMANAGED = 2, 13


def _dlpack(obj, kernel, pname, stream):
    """(pointer, shape, strides, code) of an object with __dlpack__ (a CUDA one).

    The capsule is consumed as the protocol asks (renamed "used_dltensor", its
    deleter called once the description is read: the producer keeps the
    memory, which the caller's object still owns during the call)."""
    try:
        capsule = obj.__dlpack__(stream=stream or 1)
    except TypeError:
        capsule = obj.__dlpack__()
    if not _capsule_valid(capsule, b"dltensor"):
        raise CakeError(kernel, 1, f"tensor '{pname}': __dlpack__ did not return an unused DLPack capsule")
    managed = ctypes.cast(_capsule_pointer(capsule, b"dltensor"), ctypes.POINTER(_DLManagedTensor))
    _capsule_rename(capsule, b"used_dltensor")
    try:
        t = managed.contents.dl_tensor
        if t.device.device_type not in (KDLCUDA, KDLCUDAMANAGED):
            raise CakeError(kernel, 1, f"tensor '{pname}' is not on a CUDA device (DLPack device {t.device.device_type})")
        shape = tuple(t.shape[i] for i in range(t.ndim))
        if t.strides:
            strides = tuple(t.strides[i] for i in range(t.ndim))
        else:
            strides, n = [], 1
            for d in reversed(shape):
                strides.insert(0, n)
                n *= d
            strides = tuple(strides)
        code = DLPACK_TYPES.get((t.dtype.code, t.dtype.bits)) if t.dtype.lanes == 1 else None
        return (t.data or 0) + t.byte_offset, shape, strides, code
    finally:
        if managed.contents.deleter:
            managed.contents.deleter(managed)


def _span(shape, strides):
    """The elements a tensor's memory spans from its first one: 0 when it is
    empty (a workspace's bytes are what it spans, not its logical size: an
    expanded tensor repeats few elements)."""
    if any(d == 0 for d in shape):
        return 0
    return 1 + sum((d - 1) * abs(st) for d, st in zip(shape, strides))


_TORCH_CODES = {}  # torch dtype -> code (None: one the launchers do not take)


def _torch_code(dtype):
    return _TORCH_CODES.setdefault(dtype, DTYPES.get(str(dtype)[6:]))  # "torch.bfloat16"


_raw_stream = None


def _device_stream(device):
    """torch's current stream on device `device` as an int: through
    torch._C._cuda_getCurrentRawStream where torch has it (no Stream object
    is built: it is a fraction of a microsecond), else as
    torch.cuda.current_stream(device).cuda_stream."""
    global _raw_stream
    if _raw_stream is None:
        torch = sys.modules["torch"]
        _raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None) or (
            lambda d: torch.cuda.current_stream(d).cuda_stream)
    return _raw_stream(device)


def describe(obj, kernel, pname, stream=0):
    """(pointer, shape, strides, dtype code) of a device tensor: a torch
    tensor, an object with __cuda_array_interface__ or with __dlpack__."""
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(obj, torch.Tensor):
        if not obj.is_cuda:
            raise CakeError(kernel, 1, f"tensor '{pname}' is not on a CUDA device ({obj.device})")
        code = _TORCH_CODES.get(obj.dtype, -1)
        if code == -1:
            code = _torch_code(obj.dtype)
        return obj.data_ptr(), tuple(obj.shape), obj.stride(), code
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is not None:
        shape, ptr, typestr = tuple(cai["shape"]), cai["data"][0], cai["typestr"]
        code, itemsize = TYPESTRS.get(typestr[1:]), int(typestr[2:])
        if cai.get("strides") is None:
            strides, n = [], 1
            for d in reversed(shape):
                strides.insert(0, n)
                n *= d
        else:
            if any(s % itemsize for s in cai["strides"]):
                raise CakeError(kernel, 1, f"tensor '{pname}': a stride that is not a whole number of elements")
            strides = [s // itemsize for s in cai["strides"]]
        return ptr, shape, tuple(strides), code
    if hasattr(obj, "__dlpack__"):
        return _dlpack(obj, kernel, pname, stream)
    raise TypeError(f"{kernel}: parameter '{pname}' takes a torch tensor or an object with "
                    f"__cuda_array_interface__ or __dlpack__, not {type(obj).__name__}")


def current_stream(stream):
    """The cudaStream_t to launch on: `stream` (an int, or an object with
    .cuda_stream), else torch's current stream when torch is in use, else 0."""
    if stream is None:
        torch = sys.modules.get("torch")
        if torch is not None and torch.cuda.is_initialized():
            return torch.cuda.current_stream().cuda_stream
        return 0
    return getattr(stream, "cuda_stream", stream)


class Kernel:
    """One launcher of a module: call it with its parameters in order (as
    `signature` shows), and `stream=` (default: the current stream)."""

    def __init__(self, lib, name, params):
        self.name, self.params, self._lib, self._fast = name, params, lib, None
        self._fn = getattr(lib, f"{name}_launch")
        self._err = getattr(lib, f"{name}_last_error")
        self._err.restype, self._err.argtypes = ctypes.c_char_p, []
        argtypes = []
        self._kinds = [{"tensor": 0, "workspace": 1}.get(p["kind"], 2) for p in params]
        self.tensors = [p for p in params if p["kind"] == "tensor"]
        self.scalars = [p for p in params if p["kind"] == "scalar"]
        self.workspace = any(p["kind"] == "workspace" for p in params)
        for p in params:
            if p["kind"] == "tensor":
                argtypes.append(ctypes.c_void_p)
            elif p["kind"] == "workspace":
                argtypes += [ctypes.c_void_p, ctypes.c_size_t]
            else:
                if p["ctype"] not in SCALARS:
                    raise RuntimeError(f"cakec: launcher '{name}': a scalar parameter this package cannot pass: "
                                       f"{p['ctype']} {p['name']}")
                argtypes.append(SCALARS[p["ctype"]])
        argtypes.append(ctypes.c_void_p)  # the stream
        self._fn.argtypes, self._fn.restype = argtypes, ctypes.c_int
        self._size = None
        if self.workspace:
            self._size = getattr(lib, f"{name}_workspace_size")
            self._size.argtypes = [SCALARS[p["ctype"]] for p in self.scalars] + [ctypes.POINTER(ctypes.c_size_t)]
            self._size.restype = ctypes.c_int
        self._tls = threading.local()
        names = [p["name"] for p in params]
        self.signature = f"{name}({', '.join(names)}, stream=None)"

    def __repr__(self):
        return f"<cakec kernel {self.signature}>"

    def _buffer(self):
        buf = getattr(self._tls, "buf", None)
        if buf is None:
            buf = ctypes.create_string_buffer(TENSOR_BYTES * max(1, len(self.tensors)))
            base = ctypes.addressof(buf)
            self._tls.buf, self._tls.addrs = buf, [base + TENSOR_BYTES * i for i in range(len(self.tensors))]
        return buf, self._tls.addrs

    def workspace_size(self, *scalars):
        """The workspace's bytes at these scalars (the schedule's integer and
        float parameters, in order): 0 for a kernel without one."""
        if not self.workspace:
            return 0
        if len(scalars) != len(self.scalars):
            raise TypeError(f"{self.name}.workspace_size takes {len(self.scalars)} scalar(s), {len(scalars)} given")
        n = ctypes.c_size_t(0)
        rc = self._size(*[self._scalar(p, v) for p, v in zip(self.scalars, scalars)], ctypes.byref(n))
        if rc != 0:
            raise CakeError(self.name, rc, (self._err() or b"").decode(errors="replace"))
        return n.value

    def _scalar(self, p, v):
        if p.get("bits"):
            return _half_bits(v, p["ctype"], p["dtype"])
        rng = INT_RANGES.get(p["ctype"])
        if rng is not None:
            if isinstance(v, bool) or not isinstance(v, int):
                try:
                    v = v.__index__()
                except AttributeError:
                    raise TypeError(f"{self.name}: parameter '{p['name']}' takes an integer, not {type(v).__name__}")
            if not rng[0] <= v <= rng[1]:
                raise CakeError(self.name, 1, f"scalar '{p['name']}' = {v} does not fit {p['ctype']}")
        return v

    def __call__(self, *args, stream=None):
        fast = self._fast
        if fast is None:
            fast = self._make_fast()
        if stream is None:  # no keyword to pass on: the cheaper call
            return fast(*args)
        return fast(*args, stream=stream)

    def _make_fast(self):
        """The call to use: the fast one (cakec/_fast.py: in C where
        cakec/_native.c builds, else generated Python) once torch is in use
        and the library has its entry point, else the general one."""
        torch = sys.modules.get("torch")
        if torch is None:  # asked again on the next call: torch may come later
            return lambda *args, stream=None: self._general(args, stream)
        from . import _fast
        self._fast = _fast.make(self, self._lib, torch) or (lambda *args, stream=None: self._general(args, stream))
        return self._fast

    def _general(self, args, stream):
        """Any tensor-like arguments: each described (describe()) and packed
        into its own cake_tensor, every refusal explained."""
        params = self.params
        if len(args) != len(params):
            raise TypeError(f"{self.signature} takes {len(params)} argument(s), {len(args)} given")
        torch = sys.modules.get("torch")
        tensor_type = torch.Tensor if torch is not None else None
        # The launch's stream first (a DLPack producer orders its work before
        # it): the given one, else torch's current stream on the first CUDA
        # torch tensor's device, else current_stream()'s.
        device = None
        if tensor_type is not None:
            device = next((a.get_device() for kind, a in zip(self._kinds, args)
                           if kind != 2 and isinstance(a, tensor_type) and a.is_cuda), None)
        if stream is None and device is not None:
            stream = _device_stream(device)
        else:
            stream = current_stream(stream)
        dl_stream = stream or 1  # DLPack names the legacy default stream 1
        buf, addrs = self._buffer()
        values, ti = [], 0
        for kind, p, a in zip(self._kinds, params, args):
            if kind == 2:
                values.append(self._scalar(p, a))
                continue
            if tensor_type is not None and isinstance(a, tensor_type) and a.is_cuda and a.get_device() != device:
                raise CakeError(self.name, 1, f"tensor '{p['name']}' is on {a.device}, the first tensor on "
                                              f"cuda:{device}")
            ptr, shape, strides, code = describe(a, self.name, p["name"], dl_stream)
            if kind == 1:  # the workspace: its pointer and the bytes its elements span
                values += [ptr, _span(shape, strides) * ITEMSIZE.get(code, 1)]
                continue
            rank = len(shape)
            if code is None or rank > MAX_RANK:
                self._refuse(p, code, rank)
            _PACK[rank].pack_into(buf, TENSOR_BYTES * ti, ptr, *shape, *strides, rank, code)
            values.append(addrs[ti])
            ti += 1
        values.append(stream)
        if device is not None and device != torch.cuda.current_device():
            with torch.cuda.device(device):  # the launcher runs on the current device: the tensors'
                rc = self._fn(*values)
        else:
            rc = self._fn(*values)
        if rc != 0:
            raise CakeError(self.name, rc, (self._err() or b"").decode(errors="replace"))

    def _refuse(self, p, code, rank):
        if code is None:
            raise CakeError(self.name, 1, f"tensor '{p['name']}': an element type the launchers do not take")
        raise CakeError(self.name, 1, f"tensor '{p['name']}' has rank {rank}; at most {MAX_RANK}")
