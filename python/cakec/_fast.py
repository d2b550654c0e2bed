"""The fast path of a call on torch tensors: one C entry point per launcher
that takes all of its arguments from one buffer, and one call per launcher
that fills that buffer and calls it.

For each launcher NAME, the build appends to the generated CUDA file

    extern "C" int cakec_py_NAME(const unsigned char *args);

which reads NAME_launch's arguments at fixed offsets (each tensor a whole
`cake_tensor` of its declared rank, each scalar and pointer in an 8-byte
slot, the stream last) and calls it. Two calls fill that buffer:

- the C one (cakec/_native.c, built by cakec/_native.py into the cache with
  the system's C compiler against this Python's headers): it reads each
  tensor's fields through its accessors and writes them on its stack, with
  no Python frame between the caller and the launcher;
- where that module cannot be built (no compiler, no Python.h) or
  CAKEC_NATIVE=0, a Python function generated from the launcher's interface
  that fills the buffer with a single `struct.pack_into` (measured on the
  H200's host, harness/torch/torch_check.py's overhead section: a ctypes
  call's price grows with its arguments, and the generic loop over
  parameters costs more than the torch accessors it needs).

Both take the fast path only where every tensor is a plain torch.Tensor of
its declared rank on one CUDA device, the current one, of an element type
the launchers take, and every scalar is of its exact Python type and in
range; anything else goes to the general call (cakec.Kernel), which
describes every kind of tensor and says what is wrong. The launcher checks
everything else either way."""
import ctypes
import struct

from . import _native
from ._kernel import CAKE_DTYPES, INT_RANGES, MAX_RANK, CakeError, _half_bits

PREFIX = "cakec_py_"
# A scalar's 8-byte slot: its struct code, padding, and its C type.
SLOTS = {"int8_t": "b7x", "uint8_t": "B7x", "int32_t": "i4x", "uint32_t": "I4x", "uint16_t": "H6x", "int64_t": "q", "float": "f4x", "double": "d"}


def _tensor_format(rank):
    return f"Q{rank}q{8 * (MAX_RANK - rank)}x{rank}q{8 * (MAX_RANK - rank)}xii"


def layout(params):
    """(struct format, C argument expressions) of a launcher's argument
    buffer, or None where a parameter has no fixed slot (a tensor of unknown
    rank, a scalar type the package does not pass)."""
    fmt, exprs, off = "<", [], 0
    for p in params:
        if p["kind"] == "tensor":
            if not isinstance(p.get("rank"), int) or not 0 < p["rank"] <= MAX_RANK:
                return None
            fmt += _tensor_format(p["rank"])
            exprs.append(f"reinterpret_cast<const cake_tensor *>(a + {off})")
            off += 96
        elif p["kind"] == "workspace":
            fmt += "QQ"
            exprs += [f"cakec_pyarg<void *>(a + {off})", f"cakec_pyarg<size_t>(a + {off + 8})"]
            off += 16
        else:
            if p["ctype"] not in SLOTS:
                return None
            fmt += SLOTS[p["ctype"]]
            exprs.append(f"cakec_pyarg<{p['ctype']}>(a + {off})")
            off += 8
    fmt += "Q"
    exprs.append(f"cakec_pyarg<cudaStream_t>(a + {off})")
    return fmt, exprs


def shim_source(launchers):
    """The C entry points for `launchers` (the interface's list), appended to
    the generated CUDA file; empty where none has a fixed layout or a name
    could meet one the compiler generated."""
    out = []
    if any(l["name"].startswith(PREFIX) for l in launchers):
        return ""
    for l in launchers:
        lay = layout(l["params"])
        if lay is None:
            continue
        args = ",\n      ".join(lay[1])
        out.append(f'extern "C" int {PREFIX}{l["name"]}(const unsigned char *a) {{\n'
                   f"  return {l['name']}_launch(\n      {args});\n}}\n")
    if not out:
        return ""
    return ("\n// The Python package's entry points (python/cakec/_fast.py): each launcher's\n"
            "// arguments read from one buffer at fixed offsets.\n#include <cstring>\n"
            "template <class T> static inline T cakec_pyarg(const unsigned char *p) {\n"
            "  T v;\n  std::memcpy(&v, p, sizeof v);\n  return v;\n}\n" + "\n".join(out))


def _spec(params):
    """The parameters as _native.c's FastCall takes them: (kind, rank or
    width, lo, hi) each (kinds: 0 tensor, 1 workspace, 2 integer, 3 float,
    4 double, 5 f16 bits, 6 bf16 bits)."""
    out = []
    for p in params:
        if p["kind"] == "tensor":
            out.append((0, p["rank"], 0, 0))
        elif p["kind"] == "workspace":
            out.append((1, 0, 0, 0))
        elif p.get("bits"):
            out.append((5 if p["dtype"] == "f16" else 6, 0, 0, 0))
        elif p["ctype"] in INT_RANGES or p["ctype"] == "uint16_t":
            lo, hi = INT_RANGES.get(p["ctype"], (0, (1 << 16) - 1))
            out.append((2, struct.calcsize(SLOTS[p["ctype"]][0]), lo, hi))
        else:
            out.append((3 if p["ctype"] == "float" else 4, 0, 0, 0))
    return tuple(out)


def make(kernel, lib, torch, native=True):
    """The fast call of `kernel` (a cakec.Kernel) on torch tensors: the C
    one (cakec/_native.c) where its module builds and `native`, else the
    generated Python one; None where the library has no entry point for it
    or it has no fixed layout."""
    lay = layout(kernel.params)
    entry = getattr(lib, PREFIX + kernel.name, None) if lay is not None else None
    if entry is None or not any(p["kind"] in ("tensor", "workspace") for p in kernel.params):
        return None
    entry.argtypes, entry.restype = [ctypes.c_char_p], ctypes.c_int
    codes = {}
    for name, code in CAKE_DTYPES.items():
        dt = getattr(torch, {"bf16": "bfloat16", "f16": "float16", "f32": "float32", "i8": "int8", "u8": "uint8",
                             "i32": "int32", "u32": "uint32", "i64": "int64", "e4m3": "float8_e4m3fn",
                             "e5m2": "float8_e5m2"}[name], None)
        if dt is not None:
            codes[dt] = code
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None) or (
        lambda d: torch.cuda.current_stream(d).cuda_stream)
    cur = getattr(torch._C, "_cuda_getDevice", None) or torch.cuda.current_device
    mod = _native.module() if native else None
    if mod is not None:
        def fail(code):
            raise CakeError(kernel.name, code, (kernel._err() or b"").decode(errors="replace"))

        return mod.FastCall(kernel.name, ctypes.cast(entry, ctypes.c_void_p).value, _spec(kernel.params),
                            torch.Tensor, codes, raw, cur, lambda args, stream: kernel._general(args, stream), fail)
    names = [f"a{i}" for i in range(len(kernel.params))]
    tensors = [(n, p) for n, p in zip(names, kernel.params) if p["kind"] in ("tensor", "workspace")]  # one at least
    guards, packs, dev0 = [], [], tensors[0][0]
    for n, _ in tensors:
        guards.append(f"type({n}) is not T or not {n}.is_cuda")
    devs = " or ".join(f"{n}.get_device() != d" for n, _ in tensors[1:])
    for n, p in zip(names, kernel.params):
        if p["kind"] == "tensor":
            guards.append(f"{n}.ndim != {p['rank']}")
            packs.append(f"{n}.data_ptr(), *{n}.shape, *{n}.stride(), {p['rank']}, C[{n}.dtype]")
        elif p["kind"] == "workspace":
            guards.append(f"not {n}.is_contiguous()")  # else the bytes it spans: the general call
            packs.append(f"{n}.data_ptr(), {n}.nbytes")
        elif p.get("bits"):
            packs.append(f"hb({n}, None, {p['dtype']!r})")
        elif p["ctype"] in INT_RANGES:
            lo, hi = INT_RANGES[p["ctype"]]
            guards.append(f"type({n}) is not int or not {lo} <= {n} <= {hi}")
            packs.append(n)
        else:
            guards.append(f"type({n}) is not float and type({n}) is not int")
            packs.append(n)
    src = (f"def call(*args, stream=None):\n"
           f"    try:\n"
           f"        {', '.join(names)}, = args\n"
           f"        if {' or '.join(guards)}:\n"
           f"            raise Slow\n"
           f"        d = {dev0}.get_device()\n"
           f"        if d < 0{(' or ' + devs) if devs else ''} or d != cur():\n"
           f"            raise Slow\n"
           f"        buf = tls.__dict__.get('fast')\n"
           f"        if buf is None:\n"
           f"            buf = tls.fast = ctypes.create_string_buffer(SIZE)\n"
           f"        pack(buf, 0, {', '.join(packs)},\n"
           f"             raw(d) if stream is None else getattr(stream, 'cuda_stream', stream))\n"
           f"    except (Slow, KeyError, ValueError, OverflowError, struct.error):\n"
           f"        return general(args, stream)\n"
           f"    rc = entry(buf)\n"
           f"    if rc:\n"
           f"        raise CakeError(NAME, rc, (err() or b'').decode(errors='replace'))\n")
    packer = struct.Struct(lay[0])
    scope = {"T": torch.Tensor, "C": codes, "Slow": _Slow, "tls": kernel._tls, "ctypes": ctypes,
             "SIZE": packer.size, "pack": packer.pack_into, "raw": raw, "cur": cur, "struct": struct, "hb": _half_bits,
             "general": lambda args, stream: kernel._general(args, stream), "entry": entry, "CakeError": CakeError, "NAME": kernel.name,
             "err": kernel._err}
    exec(compile(src, f"<cakec fast call {kernel.name}>", "exec"), scope)  # noqa: S102 (names are parameters')
    return scope["call"]


class _Slow(Exception):
    """The fast path does not apply: the general call takes the arguments."""
