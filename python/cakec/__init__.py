"""cakec from Python: compile a .cake file, build it with nvcc, call its kernels.

    import cakec
    mod = cakec.load("examples/rmsnorm_sm90a.cake", target="sm_90a")
    mod.rmsnorm_residual(X, R, W, Y, H, M)      # torch tensors, on the current stream

`load` runs the compiler and nvcc once per distinct input and keeps the shared
library in a cache (CAKEC_CACHE_DIR, else $XDG_CACHE_HOME/cakec, else
~/.cache/cakec), keyed by a hash of the source, the defines, the target, the
flags and the compiler's and nvcc's files; the files the source imports are
recorded with their hashes and checked on each load. A warm load runs no
process.

Each kernel of the file is an attribute of the module: a callable taking the
launcher's parameters in order (tensors: torch tensors or objects with
`__cuda_array_interface__`; scalars: Python numbers; a schedule with a
workspace takes it as one tensor-like argument), and `stream=` (a
`cudaStream_t` as an int, or an object with `.cuda_stream`; default: torch's
current stream when torch is imported, else the default stream). A launcher
that refuses raises `cakec.CakeError`, carrying its code and message.

Only the standard library is imported here; torch is used when the caller has
imported it.
"""
import ctypes
import hashlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

__all__ = ["load", "CakeError", "Module", "Kernel", "cache_dir"]

# The launcher's error codes (the generated header's enum).
ERRORS = {1: "CAKE_ERROR_INVALID_ARGUMENT", 2: "CAKE_ERROR_MISALIGNED", 3: "CAKE_ERROR_SHAPE",
          4: "CAKE_ERROR_DRIVER", 5: "CAKE_ERROR_LAUNCH", 6: "CAKE_ERROR_HANG"}
# cake_tensor.dtype codes, and the names torch and __cuda_array_interface__ give them.
DTYPES = {"bfloat16": 1, "float16": 2, "float32": 3, "int8": 4, "uint8": 5, "int32": 6, "uint32": 7, "int64": 8,
          "float8_e4m3fn": 9, "float8_e5m2": 10}
TYPESTRS = {"f2": 2, "f4": 3, "i1": 4, "u1": 5, "i4": 6, "u4": 7, "i8": 8}
SCALARS = {"int32_t": ctypes.c_int32, "uint32_t": ctypes.c_uint32, "uint16_t": ctypes.c_uint16,
           "int64_t": ctypes.c_int64, "float": ctypes.c_float, "double": ctypes.c_double}
MAX_RANK = 5


class CakeError(RuntimeError):
    """A launcher refused or failed: `code` (CAKE_ERROR_*), `message` (its text)."""

    def __init__(self, kernel, code, message):
        self.kernel, self.code, self.message = kernel, code, message
        super().__init__(f"{kernel}: {ERRORS.get(code, code)}: {message}")


class _Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("shape", ctypes.c_int64 * MAX_RANK),
                ("stride", ctypes.c_int64 * MAX_RANK), ("rank", ctypes.c_int32), ("dtype", ctypes.c_int32)]


def cache_dir():
    """Where built kernels are kept: CAKEC_CACHE_DIR, $XDG_CACHE_HOME/cakec or ~/.cache/cakec."""
    if os.environ.get("CAKEC_CACHE_DIR"):
        return pathlib.Path(os.environ["CAKEC_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return pathlib.Path(base) / "cakec"


def _find_tool(env, name, candidates):
    if os.environ.get(env):
        return os.environ[env]
    found = shutil.which(name)
    if found:
        return found
    for c in candidates:
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return str(c)
    raise FileNotFoundError(f"cakec: no {name} found: set {env} to its path")


def _cakec_path():
    repo = pathlib.Path(__file__).resolve().parents[2]  # python/cakec/__init__.py in a checkout
    return _find_tool("CAKEC", "cakec", [repo / "build" / "bin" / "cakec", repo / "build-test" / "bin" / "cakec"])


def _nvcc_path():
    return _find_tool("NVCC", "nvcc", ["/usr/local/cuda/bin/nvcc"])


def _file_id(path):
    """A tool's identity without running it: its path, size and modification time."""
    st = os.stat(path)
    return [os.path.realpath(path), st.st_size, st.st_mtime_ns]


def _sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _define_text(v):
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, (int, float)):
        return repr(v)
    raise TypeError(f"cakec: a define is an int, a float or a bool, not {type(v).__name__}")


def _arch(target):
    m = re.fullmatch(r"sm_(\d+a?)", target)
    if not m:
        raise ValueError(f"cakec: target '{target}' is not of the form sm_NN or sm_NNa")
    return m.group(1)


def _deps(depfile, source):
    """The files a make dependency file lists after the target (escapes: '\\ ', '$$')."""
    text = pathlib.Path(depfile).read_text().replace("\\\n", " ")
    rhs = text.split(":", 1)[1] if ":" in text else ""
    out, cur, i = [], "", 0
    while i < len(rhs):
        ch = rhs[i]
        if ch == "\\" and i + 1 < len(rhs) and rhs[i + 1] in " #\\":
            cur += rhs[i + 1]
            i += 2
            continue
        if ch == "$" and rhs[i:i + 2] == "$$":
            cur += "$"
            i += 2
            continue
        if ch.isspace():
            if cur:
                out.append(cur)
            cur = ""
        else:
            cur += ch
        i += 1
    if cur:
        out.append(cur)
    return sorted({os.path.realpath(p) for p in out if os.path.realpath(p) != os.path.realpath(source)})


def load(source, target="sm_90a", defines=None, include_dirs=(), flags=(), cache=None, verbose=False):
    """Compiles `source` (a .cake file) for `target`, builds it, and returns its kernels as a Module.

    defines: {NAME: value} as -DNAME=value; include_dirs: -I paths; flags: more
    compiler options (e.g. ["-fcheck-waits"]); cache: the cache directory
    (default cache_dir()); verbose: print the commands run."""
    source = os.path.realpath(source)
    if not os.path.isfile(source):
        raise FileNotFoundError(f"cakec: no file '{source}'")
    arch = _arch(target)
    cakec, nvcc = _cakec_path(), _nvcc_path()
    defs = sorted((str(k), _define_text(v)) for k, v in (defines or {}).items())
    incs = [os.path.realpath(d) for d in include_dirs]
    key_data = {"source": source, "text": _sha256(source), "target": target, "defines": defs, "includes": incs,
                "flags": list(flags), "cakec": _file_id(cakec), "nvcc": _file_id(nvcc), "format": 1}
    key = hashlib.sha256(json.dumps(key_data, sort_keys=True).encode()).hexdigest()[:32]
    root = pathlib.Path(cache) if cache else cache_dir()
    entry = root / key
    manifest = entry / "manifest.json"
    if manifest.is_file():
        try:
            m = json.loads(manifest.read_text())
            if all(os.path.isfile(p) and _sha256(p) == h for p, h in m["deps"].items()):
                return Module(entry, m, cached=True)
        except (OSError, ValueError, KeyError):
            pass  # an unreadable or stale entry: built again below
    return _build(source, target, arch, cakec, nvcc, defs, incs, list(flags), root, entry, verbose)


def _run(cmd, verbose, what):
    if verbose:
        print(" ".join(cmd), file=sys.stderr)
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"cakec: {what} failed (exit {r.returncode}):\n{r.stderr.strip() or r.stdout.strip()}")
    return r


def _build(source, target, arch, cakec, nvcc, defs, incs, flags, root, entry, verbose):
    root.mkdir(parents=True, exist_ok=True)
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="build-", dir=root))
    try:
        base = ["-D" + f"{k}={v}" for k, v in defs] + [x for d in incs for x in ("-I", d)] + flags
        _run([cakec, source, f"--target={target}", *base, "-o", str(tmp / "k.cu"), "-MD", "-MF", str(tmp / "k.d")],
             verbose, "cakec")
        _run([cakec, source, f"--target={target}", *base, "--emit=header", "-o", str(tmp / "k.h")], verbose,
             "cakec --emit=header")
        _run([nvcc, "-shared", "-Xcompiler", "-fPIC", "-O3", "-w", f"-gencode=arch=compute_{arch},code=sm_{arch}",
              str(tmp / "k.cu"), "-o", str(tmp / "k.so")], verbose, "nvcc")
        deps = {p: _sha256(p) for p in _deps(tmp / "k.d", source) if os.path.isfile(p)}
        m = {"source": source, "target": target, "deps": deps, "kernels": _parse_header((tmp / "k.h").read_text())}
        (tmp / "manifest.json").write_text(json.dumps(m, indent=1))
        if entry.exists():  # stale (a dependency changed): replaced whole
            old = pathlib.Path(tempfile.mkdtemp(prefix="old-", dir=root))
            os.replace(entry, old / "entry")
            shutil.rmtree(old, ignore_errors=True)
        try:
            os.replace(tmp, entry)
        except OSError:  # another process built it first: use this build
            return Module(tmp, m, cached=False)
        return Module(entry, m, cached=False)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


PROTO = re.compile(r"^int (\w+)_launch\(([^)]*)\);$", re.M)


def _parse_header(text):
    """Each launcher's parameters, from the header: [name, kind, C type]."""
    kernels = {}
    for name, params in PROTO.findall(text):
        ps = []
        for p in (x.strip() for x in params.split(",") if x.strip()):
            m = re.fullmatch(r"(.*?)\s*\*?\s*(\w+)", p)
            ctype, pname = m.group(1).strip(), m.group(2)
            if p.startswith("const cake_tensor *"):
                ps.append([pname, "tensor", "cake_tensor"])
            elif p.startswith("cudaStream_t"):
                ps.append([pname, "stream", "cudaStream_t"])
            elif p == "void *workspace":
                ps.append([pname, "workspace", "void*"])
            elif p == "size_t workspace_bytes":
                ps.append([pname, "workspace_bytes", "size_t"])
            elif ctype in SCALARS:
                ps.append([pname, "scalar", ctype])
            else:
                raise RuntimeError(f"cakec: launcher '{name}': a parameter this package cannot pass: '{p}'")
        kernels[name] = ps
    return kernels


def _tensor(obj, kernel, pname):
    """A cake_tensor describing a device tensor (torch, or __cuda_array_interface__)."""
    t = _Tensor()
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(obj, torch.Tensor):
        if not obj.is_cuda:
            raise CakeError(kernel, 1, f"tensor '{pname}' is not on a CUDA device ({obj.device})")
        code = DTYPES.get(str(obj.dtype).replace("torch.", ""))
        shape, strides, ptr = tuple(obj.shape), tuple(obj.stride()), obj.data_ptr()
    elif hasattr(obj, "__cuda_array_interface__"):
        cai = obj.__cuda_array_interface__
        shape, ptr = tuple(cai["shape"]), cai["data"][0]
        typestr = cai["typestr"]
        code = TYPESTRS.get(typestr[1:])
        itemsize = int(typestr[2:])
        if cai.get("strides") is None:
            strides, n = [], 1
            for d in reversed(shape):
                strides.insert(0, n)
                n *= d
        else:
            if any(s % itemsize for s in cai["strides"]):
                raise CakeError(kernel, 1, f"tensor '{pname}': a stride that is not a whole number of elements")
            strides = [s // itemsize for s in cai["strides"]]
    else:
        raise TypeError(f"{kernel}: parameter '{pname}' takes a torch tensor or an object with "
                        f"__cuda_array_interface__, not {type(obj).__name__}")
    if code is None:
        raise CakeError(kernel, 1, f"tensor '{pname}': an element type the launchers do not take")
    if len(shape) > MAX_RANK:
        raise CakeError(kernel, 1, f"tensor '{pname}' has rank {len(shape)}; at most {MAX_RANK}")
    t.data, t.rank, t.dtype = ptr, len(shape), code
    for i, (d, s) in enumerate(zip(shape, strides)):
        t.shape[i], t.stride[i] = d, s
    return t


def _stream(stream):
    if stream is None:
        torch = sys.modules.get("torch")
        if torch is not None and torch.cuda.is_available() and torch.cuda.is_initialized():
            return torch.cuda.current_stream().cuda_stream
        return 0
    return getattr(stream, "cuda_stream", stream)


class Kernel:
    """One launcher of a module: call it with its parameters in order."""

    def __init__(self, lib, name, params):
        self.name, self.params = name, params
        self._fn = getattr(lib, f"{name}_launch")
        self._err = getattr(lib, f"{name}_last_error")
        self._err.restype, self._err.argtypes = ctypes.c_char_p, []
        argtypes = []
        for _, kind, ctype in params:
            argtypes.append({"tensor": ctypes.POINTER(_Tensor), "stream": ctypes.c_void_p, "workspace": ctypes.c_void_p,
                             "workspace_bytes": ctypes.c_size_t}.get(kind) or SCALARS[ctype])
        self._fn.argtypes, self._fn.restype = argtypes, ctypes.c_int
        self._user = [p for p in params if p[1] not in ("stream", "workspace_bytes")]
        self.signature = f"{name}({', '.join(p[0] for p in self._user)}, stream=None)"

    def __repr__(self):
        return f"<cakec kernel {self.signature}>"

    def __call__(self, *args, stream=None):
        if len(args) != len(self._user):
            raise TypeError(f"{self.signature} takes {len(self._user)} argument(s), {len(args)} given")
        values, keep, it = [], [], iter(args)
        for pname, kind, ctype in self.params:
            if kind == "stream":
                values.append(_stream(stream))
            elif kind == "workspace_bytes":
                values.append(keep[-1][1])
            else:
                a = next(it)
                if kind == "tensor":
                    t = _tensor(a, self.name, pname)
                    keep.append(t)
                    values.append(ctypes.byref(t))
                elif kind == "workspace":
                    t = _tensor(a, self.name, pname)
                    nbytes = 1
                    for i in range(t.rank):
                        nbytes *= t.shape[i]
                    nbytes *= {1: 2, 2: 2, 3: 4, 4: 1, 5: 1, 6: 4, 7: 4, 8: 8, 9: 1, 10: 1}[t.dtype]
                    keep.append((t, nbytes))
                    values.append(t.data)
                else:
                    values.append(a)
        rc = self._fn(*values)
        if rc != 0:
            raise CakeError(self.name, rc, (self._err() or b"").decode(errors="replace"))


class Module:
    """The kernels of one built .cake file, as attributes (and `kernels`, by name)."""

    def __init__(self, entry, manifest, cached):
        self.path, self.cached = pathlib.Path(entry), cached
        self.source, self.target = manifest["source"], manifest["target"]
        self._lib = ctypes.CDLL(str(self.path / "k.so"))
        self.kernels = {n: Kernel(self._lib, n, ps) for n, ps in manifest["kernels"].items()}

    def __getattr__(self, name):
        kernels = self.__dict__.get("kernels", {})
        if name in kernels:
            return kernels[name]
        raise AttributeError(f"{self.source} has no kernel '{name}' (it has: {', '.join(kernels) or 'none'})")

    def __repr__(self):
        return f"<cakec module {self.source} ({self.target}): {', '.join(self.kernels)}>"
