"""The fast call in C: python/cakec/_native.c built into an extension module
with the system's C compiler against this Python's headers, once per Python
and per version of that file, in the cache (cache_dir()/native/KEY/).

`module()` returns it, or None where it cannot be built (no compiler, no
Python.h) or CAKEC_NATIVE=0 asks for the Python fast call; `error` then says
why. The generated Python call (cakec/_fast.py) is the fallback: both take
the same arguments to the same entry point and hand the same cases to the
general call."""
import hashlib
import importlib.machinery
import importlib.util
import os
import pathlib
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile

NAME = "_cakec_native"
SOURCE = pathlib.Path(__file__).with_name("_native.c")
_module, error = None, None


def _compiler():
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    cmd = shlex.split(cc)
    if not cmd or not shutil.which(cmd[0]):
        cmd = [c for c in ("cc", "gcc", "clang") if shutil.which(c)][:1]
    return cmd


def module():
    """The extension module, built on first use; None where it cannot be (see `error`)."""
    global _module, error
    if _module is not None or error is not None:
        return _module
    if os.environ.get("CAKEC_NATIVE", "1") == "0":
        error = "CAKEC_NATIVE=0"
        return None
    from . import _locked, cache_dir  # the package's cache and its lock
    try:
        cc = _compiler()
        include = sysconfig.get_paths().get("include", "")
        if not cc:
            raise RuntimeError("no C compiler (cc, gcc or clang) on the PATH")
        if not os.path.isfile(os.path.join(include, "Python.h")):
            raise RuntimeError(f"no Python.h in {include} (the Python development headers)")
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        key = hashlib.sha256(SOURCE.read_bytes() + sys.version.encode() + suffix.encode() +
                             " ".join(cc).encode()).hexdigest()[:32]
        root = cache_dir() / "native"
        path = root / key / (NAME + suffix)
        if not path.is_file():
            root.mkdir(parents=True, exist_ok=True)
            with _locked(root / f"{key}.lock"):
                if not path.is_file():
                    tmp = pathlib.Path(tempfile.mkdtemp(prefix="build-", dir=root))
                    try:
                        cmd = [*cc, "-O2", "-shared", "-fPIC", "-I", include, str(SOURCE), "-o", str(tmp / path.name)]
                        r = subprocess.run(cmd, capture_output=True, text=True)
                        if r.returncode != 0:
                            raise RuntimeError(f"{' '.join(cmd)} failed:\n{(r.stderr or r.stdout).strip()}")
                        try:
                            os.replace(tmp, path.parent)
                        except OSError:  # another process's build is there
                            pass
                    finally:
                        shutil.rmtree(tmp, ignore_errors=True)
        loader = importlib.machinery.ExtensionFileLoader(NAME, str(path))
        spec = importlib.util.spec_from_file_location(NAME, str(path), loader=loader)
        mod = importlib.util.module_from_spec(spec)
        loader.exec_module(mod)
        _module = mod
    except (OSError, RuntimeError, ImportError) as e:
        error = str(e)
    return _module
