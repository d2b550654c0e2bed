"""How the harnesses call generated kernels: through the Python package
(python/cakec), bound to a shared library that run.sh built from cakec's
CUDA output, with the interface cakec wrote for the same source and options
(`cakec --emit=interface`; generate.sh writes NAME.json beside NAME.cu and
run.sh copies it beside NAME.so, where cakec.bind looks for it)."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import cakec  # noqa: E402

CakeError = cakec.CakeError


def kernel(library, name=None):
    """The launcher `name` of `library` (a cakec.Kernel: call it with the
    launcher's parameters in order); with no name, the library's only one."""
    interface = os.path.splitext(library)[0] + ".json"
    if not os.path.isfile(interface):
        sys.exit(f"{library}: no interface {interface}: generate it beside the .cu with "
                 "cakec --emit=interface (same options) and copy it beside the library")
    mod = cakec.bind(library, interface)
    if name is None:
        if len(mod.kernels) != 1:
            sys.exit(f"{library}: launchers {', '.join(mod.kernels)}: name one")
        (name,) = mod.kernels
    if name.endswith("_launch"):
        name = name[: -len("_launch")]
    if name not in mod.kernels and len(mod.kernels) == 1:
        print(f"  note: {library} has no launcher '{name}'; using its only one, '{next(iter(mod.kernels))}'")
        name = next(iter(mod.kernels))
    if name not in mod.kernels:
        sys.exit(f"{library}: no launcher '{name}' (it has: {', '.join(mod.kernels)})")
    return mod.kernels[name]


def bound(k, *args):
    """A function of no arguments that launches `k` on these arguments."""
    return lambda: k(*args)


def finish(report, json_path, ok, blank_line=False):
    """The end of a harness run: the report as JSON where --json asked for
    it, the verdict line (ALL CORRECT or FAILURES), and the exit status."""
    if json_path:
        with open(json_path, "w") as f:
            json.dump(report, f, indent=1)
    print(("\n" if blank_line else "") + ("ALL CORRECT" if ok else "FAILURES"))
    return 0 if ok else 1
