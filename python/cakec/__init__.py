"""cakec from Python: compile a .cake file, build it with nvcc, call its kernels.

    import torch, cakec
    mod = cakec.load("examples/rmsnorm_sm90a.cake", target="sm_90a")
    mod.rmsnorm_residual(X, R, W, Y, H, M)       # the launcher, on the current stream
    Y, H = mod.ops.rmsnorm_residual(X, R, W, M)  # a torch operator: outputs allocated
    mod.ops.rmsnorm_residual_out(X, R, W, Y, H, M)

`load` runs the compiler and nvcc once per distinct input and keeps the shared
library in a cache (the `cache` argument, else CAKEC_CACHE_DIR, else
$XDG_CACHE_HOME/cakec, else ~/.cache/cakec), keyed by a hash of the source, the
defines, the target, the flags and the compiler's and nvcc's files; the files
the source imports are recorded with their hashes and checked on each load. A
warm load runs no process.

Each launcher of the file is an attribute of the module (cakec.Kernel): a
callable taking the launcher's parameters in order (tensors: torch tensors or
objects with `__cuda_array_interface__` or `__dlpack__`; scalars: Python
numbers; a schedule with a workspace takes it as one tensor-like argument,
`Kernel.workspace_size(scalars...)` bytes, zero-filled before its first use),
and `stream=` (a `cudaStream_t` as an int, or an object with `.cuda_stream`;
default: torch's current stream on the first torch tensor's device, else
torch's current stream when torch is in use, else the default stream). A launcher that refuses raises `cakec.CakeError`, carrying its code
and message. The parameters, their element types and which tensors a kernel
writes come from the compiler (`cakec --emit=interface`).

`bind(library, interface)` binds a shared library built elsewhere from
cakec's CUDA output, through the interface cakec wrote for it.

`Module.ops` registers the launchers as torch operators (cakec/_torch.py):
traced by torch.compile through fake implementations built from the declared
shapes, captured by CUDA graphs.

Only the standard library is imported here; torch is imported by `Module.ops`.
"""
import contextlib
import ctypes
import hashlib
import json
import os
import pathlib
import re
import secrets
import shutil
import subprocess
import sys
import tempfile

try:
    import fcntl
except ImportError:  # not POSIX: builds are not serialised between processes
    fcntl = None

from . import _fast
from ._kernel import DTYPES, ERRORS, CakeError, Kernel

__all__ = ["load", "bind", "CakeError", "Module", "Kernel", "cache_dir", "ERRORS", "DTYPES"]
_FAST_ID = hashlib.sha256(pathlib.Path(_fast.__file__).read_bytes()).hexdigest()  # the entry points' layout
FORMAT = 4  # the cache entries' layout (4: a library per build, named in the manifest)


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
                "flags": list(flags), "cakec": _file_id(cakec), "nvcc": _file_id(nvcc), "format": FORMAT,
                "fast": _FAST_ID}
    key = hashlib.sha256(json.dumps(key_data, sort_keys=True).encode()).hexdigest()[:32]
    root = pathlib.Path(cache) if cache else cache_dir()
    entry = root / key
    found = _cached(entry)
    if found is not None:
        return found
    root.mkdir(parents=True, exist_ok=True)
    with _locked(root / f"{key}.lock"):  # one process builds an entry; the others wait and find it
        found = _cached(entry)
        if found is not None:
            return found
        return _build(source, target, arch, cakec, nvcc, defs, incs, list(flags), root, entry, verbose)


def _cached(entry):
    """The module of a cache entry whose imported files are unchanged, or None."""
    manifest = entry / "manifest.json"
    if not manifest.is_file():
        return None
    try:
        m = json.loads(manifest.read_text())
        if all(os.path.isfile(p) and _sha256(p) == h for p, h in m["deps"].items()):
            return Module(entry, m, cached=True)
    except (OSError, ValueError, KeyError):
        pass  # an unreadable or stale entry: built again
    return None


@contextlib.contextmanager
def _locked(path):
    if fcntl is None:
        yield
        return
    fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def bind(library, interface=None):
    """The kernels of a shared library built elsewhere from cakec's CUDA output
    (by a build system, a harness), bound through the interface that
    `cakec --emit=interface` wrote for the same source and options: a path
    (default: the library's path with .json for its extension) or the parsed
    object; the two must come from the same source and options. Calls use
    the library's cakec_py_ entry points where it has them (a library
    `load` built), else the general path; torch operators work as for `load`."""
    library = os.path.realpath(library)
    if interface is None:
        interface = os.path.splitext(library)[0] + ".json"
    if not isinstance(interface, dict):
        with open(interface) as f:
            interface = json.load(f)
    if interface.get("format") != 1:
        raise RuntimeError(f"cakec: {library}: an interface of format {interface.get('format')}; this package "
                           "reads format 1")
    key = hashlib.sha256(_sha256(library).encode() + json.dumps(interface, sort_keys=True).encode()).hexdigest()[:32]
    m = {"source": interface.get("source", library), "target": interface.get("target", ""), "key": key, "build": key,
         "kernels": {l["name"]: l["params"] for l in interface["launchers"]}}
    return Module(os.path.dirname(library), m, cached=False, library=library)


def _run(cmd, verbose, what):
    if verbose:
        print(" ".join(cmd), file=sys.stderr)
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"cakec: {what} failed (exit {r.returncode}):\n{r.stderr.strip() or r.stdout.strip()}")
    return r


def _build(source, target, arch, cakec, nvcc, defs, incs, flags, root, entry, verbose):
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="build-", dir=root))
    # Each build's library has a name of its own: a process that loaded an
    # earlier build of this entry (dlopen keys on the path) loads this one anew.
    build = secrets.token_hex(8)
    library = f"k-{build}.so"
    try:
        base = ["-D" + f"{k}={v}" for k, v in defs] + [x for d in incs for x in ("-I", d)] + flags
        _run([cakec, source, f"--target={target}", *base, "-o", str(tmp / "k.cu"), "-MD", "-MF", str(tmp / "k.d")],
             verbose, "cakec")
        _run([cakec, source, f"--target={target}", *base, "--emit=interface", "-o", str(tmp / "k.json")], verbose,
             "cakec --emit=interface")
        interface = json.loads((tmp / "k.json").read_text())
        if interface.get("format") != 1:
            raise RuntimeError(f"cakec: {cakec} writes an interface of format {interface.get('format')}; this "
                               "package reads format 1")
        with open(tmp / "k.cu", "a") as f:  # the fast path's entry points (cakec/_fast.py)
            f.write(_fast.shim_source(interface["launchers"]))
        _run([nvcc, "-shared", "-Xcompiler", "-fPIC", "-O3", "-w", f"-gencode=arch=compute_{arch},code=sm_{arch}",
              str(tmp / "k.cu"), "-o", str(tmp / library)], verbose, "nvcc")
        deps = {p: _sha256(p) for p in _deps(tmp / "k.d", source) if os.path.isfile(p)}
        m = {"source": source, "target": target, "key": entry.name, "build": build, "library": library, "deps": deps,
             "kernels": {l["name"]: l["params"] for l in interface["launchers"]}}
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


class Module:
    """The kernels of one built .cake file, as attributes (and `kernels`, by name)."""

    def __init__(self, entry, manifest, cached, library=None):
        self.path, self.cached = pathlib.Path(entry), cached
        self.source, self.target, self.key = manifest["source"], manifest["target"], manifest["key"]
        self.build = manifest["build"]  # one build of the entry: its library and its torch namespace
        self.library = library or str(self.path / manifest["library"])
        self._lib = ctypes.CDLL(self.library)
        self.kernels = {n: Kernel(self._lib, n, ps) for n, ps in manifest["kernels"].items()}
        self._ops = None

    @property
    def ops(self):
        """The kernels as torch operators (imports torch; see cakec/_torch.py)."""
        if self._ops is None:
            from . import _torch
            self._ops = _torch.register(self)
        return self._ops

    def __getattr__(self, name):
        kernels = self.__dict__.get("kernels", {})
        if name in kernels:
            return kernels[name]
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(f"{self.source} has no kernel '{name}' (it has: {', '.join(kernels) or 'none'})")

    def __repr__(self):
        return f"<cakec module {self.source} ({self.target}): {', '.join(self.kernels)}>"
