"""A module's kernels as torch operators (Module.ops), so that
torch.compile traces them without a graph break and CUDA graphs capture them.

For each launcher NAME, in the library namespace cakec_<the module's key>:

  NAME_out(<the launcher's parameters>) -> ()
      the launcher itself: the tensors it writes are marked mutated in the
      schema (Tensor(a!)), a workspace too; it launches on the current stream.
  NAME(<the tensors it only reads, and the scalars>) -> its outputs
      where every tensor the kernel writes is an output it never reads, with
      a declared shape (numbers and scalar parameters) and an element type:
      the outputs are allocated from those, zero-filled (nothing proves a
      kernel writes every element of an output), and a workspace
      zero-filled at the size the launcher asks for. Its fake
      implementation allocates the same shapes, so torch.compile knows the
      outputs without running anything.

NAME_out bumps the version counters of the tensors it writes (as torch's own
in-place operators do), so autograd refuses a backward through a tensor it
saved and NAME_out overwrote.

A tensor's schema type, mutation and alias marks come from the compiler's
--emit=interface; nothing is read from names."""
import hashlib
import itertools
import string

import torch

from ._kernel import CakeError

TORCH_DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32, "i8": torch.int8,
                "u8": torch.uint8, "i32": torch.int32, "i64": torch.int64,
                "e4m3": getattr(torch, "float8_e4m3fn", None), "e5m2": getattr(torch, "float8_e5m2", None)}
if hasattr(torch, "uint32"):
    TORCH_DTYPES["u32"] = torch.uint32
_REGISTERED = {}  # namespace -> Ops: a module loaded twice in one process registers once


class Ops:
    """The torch operators of one module: attributes NAME and NAME_out (see
    the module's documentation); `names` lists them."""

    def __init__(self, namespace):
        self.namespace, self.names = namespace, []

    def __getattr__(self, name):
        raise AttributeError(f"cakec ops {self.__dict__.get('namespace')}: no operator '{name}' "
                             f"(it has: {', '.join(self.__dict__.get('names', [])) or 'none'})")

    def __repr__(self):
        return f"<cakec ops torch.ops.{self.namespace}: {', '.join(self.names)}>"


def _scalar_type(p):
    return "float" if p["dtype"] in ("f32", "f16", "bf16") or p["ctype"] in ("float", "double") else "int"


def _functional_outputs(k):
    """The outputs a functional form allocates, or None where it has none
    (a tensor it reads and writes, an output without a declared shape or
    element type, an element type torch lacks)."""
    outs = []
    for p in k.tensors:
        if p["access"] == "inout":
            return None
        if p["access"] == "out":
            if p["shape"] is None or p["dtype"] is None or TORCH_DTYPES.get(p["dtype"]) is None:
                return None
            outs.append(p)
    return outs or None


def register(module):
    """Registers every kernel of `module` (a cakec.Module) as torch operators."""
    ns = "cakec_" + hashlib.sha256((module.key + module.build).encode()).hexdigest()[:16]  # one build's
    if ns in _REGISTERED:
        return _REGISTERED[ns]
    lib = torch.library.Library(ns, "FRAGMENT")
    ops = Ops(ns)
    ops._lib = lib  # the registrations live as long as it does
    for k in module.kernels.values():
        _register_out(lib, ns, k, ops)
        outs = _functional_outputs(k)
        if outs is not None:
            _register_functional(lib, ns, k, outs, ops)
    _REGISTERED[ns] = ops
    return ops


def _aliases():
    """Alias-set names for a schema: a .. z, then aa, ab, ..."""
    for n in itertools.count(1):
        for t in itertools.product(string.ascii_lowercase, repeat=n):
            yield "".join(t)


def _register_out(lib, ns, k, ops):
    args, alias, mutated = [], _aliases(), []
    for i, p in enumerate(k.params):
        if p["kind"] == "tensor":
            mark = f"({next(alias)}!)" if p["access"] in ("out", "inout") else ""
            args.append(f"Tensor{mark} {p['name']}")
        elif p["kind"] == "workspace":
            args.append(f"Tensor({next(alias)}!) workspace")
        else:
            args.append(f"{_scalar_type(p)} {p['name']}")
        if "!" in args[-1]:
            mutated.append(i)
    name = f"{k.name}_out"
    lib.define(f"{name}({', '.join(args)}) -> ()")

    def fake(*a):
        return None

    call = k._make_fast()
    bump = torch.autograd.graph.increment_version  # of one tensor (torch._C's takes a list in newer versions)

    def launch(*a):
        call(*a)
        # The version counters of what it wrote, bumped here rather than in an
        # ADInplaceOrView kernel of our own (a second trip through Python that
        # measured 8 us on the H200's host; torch's own in-place operators
        # bump in C++). Inference tensors have none.
        try:
            for i in mutated:
                bump(a[i])
        except RuntimeError:
            pass

    lib.impl(name, launch, "CUDA")
    torch.library.register_fake(f"{ns}::{name}", fake, lib=lib)
    setattr(ops, name, getattr(getattr(torch.ops, ns), name))
    ops.names.append(name)


def _register_functional(lib, ns, k, outs, ops):
    inputs = [p for p in k.params if p["kind"] in ("tensor", "scalar") and p not in outs]
    args = [f"Tensor {p['name']}" if p["kind"] == "tensor" else f"{_scalar_type(p)} {p['name']}" for p in inputs]
    rets = ", ".join("Tensor" for _ in outs)
    lib.define(f"{k.name}({', '.join(args)}) -> {rets if len(outs) == 1 else '(' + rets + ')'}")
    positions = {p["name"]: i for i, p in enumerate(inputs)}
    call = k._make_fast()
    device_of = next((i for i, p in enumerate(inputs) if p["kind"] == "tensor"), None)

    def shape_of(p, a):
        dims = []
        for d in p["shape"]:
            if isinstance(d, str):
                if d not in positions:
                    raise CakeError(k.name, 1, f"output '{p['name']}': its dimension '{d}' is not a parameter")
                dims.append(a[positions[d]])
            else:
                dims.append(d)
        return dims

    def allocate(a, fake):
        device = a[device_of].device if device_of is not None else torch.device("cuda")
        made = []
        for p in outs:
            new = torch.empty if fake else torch.zeros
            made.append(new(shape_of(p, a), dtype=TORCH_DTYPES[p["dtype"]], device=device))
        return made

    def launch(*a):
        made = allocate(a, False)
        given, it = [], iter(made)
        for p in k.params:
            if p["kind"] == "workspace":
                scalars = [a[positions[s["name"]]] for s in k.scalars]
                device = made[0].device
                given.append(torch.zeros(max(1, k.workspace_size(*scalars)), dtype=torch.uint8, device=device))
            elif p in outs:
                given.append(next(it))
            else:
                given.append(a[positions[p["name"]]])
        call(*given)
        return made[0] if len(made) == 1 else tuple(made)

    def fake(*a):
        made = allocate(a, True)
        return made[0] if len(made) == 1 else tuple(made)

    lib.impl(k.name, launch, "CUDA")
    torch.library.register_fake(f"{ns}::{k.name}", fake, lib=lib)
    setattr(ops, k.name, getattr(getattr(torch.ops, ns), k.name))
    ops.names.append(k.name)
