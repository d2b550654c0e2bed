#!/usr/bin/env python3
"""attn_bench.py - checks and times a cakec-generated attention forward kernel.

The kernel comes as a shared library built from the generated .cu (run.sh
builds it; this script builds nothing). Its extern "C" launcher is called
through the Python package (harness/common/cakelib.py, cakec.bind, with
the interface cakec wrote beside the .cu, copied beside the library) on
tensors that PyTorch owns:

  int NAME_launch(const cake_tensor *Q, const cake_tensor *K, const cake_tensor *V,
                  const cake_tensor *O, const cake_tensor *LSE, int32_t S, int32_t BH,
                  cudaStream_t stream);   (BH = B*H, the grid's second dimension)

  Q, K, V, O  bf16, logical (B, H, S, D), passed as 3-D (B*H, S, D), stride (S*D, D, 1)
  LSE         f32 (B*H, S), stride (S, 1): natural-log log-sum-exp of each row of
              the scaled scores s = q.k * D**-0.5
  O           softmax(s [causal: key j > query i masked]) V;  D = 128

Usage:
  attn_bench.py [options] LIB[:LAUNCHER[:causal|noncausal]] ...
      correctness at several shapes and input scales, then CUPTI timing beside
      cuDNN and FlashAttention-2 (PyTorch SDPA) at B=4, H=32, S in {4096, 8192}
  attn_bench.py --check-only LIB ...
      small shapes, one launch each, no profiler and no peers (for compute-sanitizer)

LAUNCHER defaults to the library's file name less its extension and a trailing
_sm90a (or _smNN), plus _launch: attention_fwd_causal_sm90a.so ->
attention_fwd_causal_launch. Causal defaults to whether the file name holds
'causal'. With one library, --launcher and --causal / --noncausal say the same.

Correctness: q, k, v = randn * scale (fresh seed per case), O and LSE poisoned
with NaN first; reference in float64 on the GPU, one head at a time in blocks of
query rows (all heads for small shapes, three heads for the big ones). Passes
when every element of O and LSE is finite (the whole tensors, so unwritten rows
of unchecked heads fail too) and, over the checked heads,
  ||O - ref||_F / ||ref||_F       <= 1e-2
  max |O - ref| / max |ref|       <= 2e-2
  |lse - ref| / (1 + |ref|)       <= 1e-3   (every row)
and, at the timing shapes, ||O - O_FA2||_F / ||O_FA2||_F <= 2e-2 over all heads.
The peers' own errors against the same reference are printed beside ours, to
calibrate the bounds.

Timing: torch.profiler's CUDA activity (CUPTI kernel records, device
timestamps). One sample = an L2 flush (an in-place bitwise_not of an int32
buffer of 4x the L2 size; its kernel's name is learnt from two flushes in a
row, each backend's kernels from one call between flushes) followed by one
call; ours and the peers interleaved, sample by sample. A
sample's time is the sum of the durations of the kernels between two flushes;
median (and 10th/90th percentiles) of --samples samples each.

Exit status: 0 when every check passed, 1 when one failed, 2 on a usage error,
3 when a CUDA error left the context unusable.
"""
import argparse
import json
import math
import os
import re
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import cakelib  # noqa: E402

D = 128
REL_FRO_MAX = 1e-2   # ||O - ref||_F / ||ref||_F
MAX_ERR_MAX = 2e-2   # max |O - ref| / max |ref|
LSE_TOL = 1e-3       # |lse - ref| <= LSE_TOL * (1 + |ref|)
XCHECK_MAX = 2e-2    # ||O - O_FA2||_F / ||O_FA2||_F over the whole tensor

# Input kinds: q, k, v ~ N(0, 1), then
KINDS = {
    "unit": "logits ~ N(0,1)",
    "large": "q,k x sqrt(6): logits ~ N(0,36), extremes near +-30",
    "offset": "q,k + 32/sqrt(D): logits ~ +90 +- 4 (exp overflows f32 without the max)",
    "neg-offset": "q + c, k - c: logits ~ -90 +- 4 (underflows if the running max starts at 0)",
}

# (B, H, S, kind); the first two shapes' heads are all checked, the others' a few.
CHECK_CASES = [
    (1, 2, 256, "unit"), (1, 2, 256, "large"), (1, 2, 256, "offset"), (1, 2, 256, "neg-offset"),
    (2, 4, 1024, "unit"), (2, 4, 1024, "large"),
    (1, 2, 4096, "unit"), (1, 2, 4096, "large"), (1, 2, 4096, "neg-offset"),
]
SANITIZER_CASES = [(1, 2, 256, "unit"), (2, 1, 512, "neg-offset")]

torch = None  # imported in main(), after the arguments are read
DEVICE = "cuda"  # where tensors go (a test may point the functions at the CPU)


def usage_error(msg):
    print(f"attn_bench.py: {msg}", file=sys.stderr)
    sys.exit(2)


class CudaFault(Exception):
    """A CUDA error after which the context is unusable."""


# ---- the kernel under test ------------------------------------------------------


def default_launcher(lib_path):
    stem = os.path.basename(lib_path).split(".")[0]
    if stem.startswith("lib") and len(stem) > 3:
        stem = stem[3:]
    stem = re.sub(r"_sm\d+a?$", "", stem)
    return stem + "_launch"


class Null:
    """A null tensor as __cuda_array_interface__ describes it (no torch tensor
    has a null pointer; the interface has no bf16, so f16: the launcher checks
    for null before the element type)."""

    def __init__(self, shape):
        self.__cuda_array_interface__ = {"shape": tuple(shape), "typestr": "<f2", "data": (0, False), "version": 3}


class Kernel:
    """One generated library's launcher, through the Python package
    (harness/common/cakelib.py)."""

    def __init__(self, lib_path, launcher, causal):
        self.path = lib_path
        self.causal = causal
        self.k = cakelib.kernel(lib_path, launcher)
        self.kernel = self.k.name
        self.launcher = self.kernel + "_launch"
        self.last = ""

    def message(self):
        return self.last

    def call(self, args, S, BH):
        """Calls the launcher on five tensor-likes; its code (0: it launched)."""
        try:
            self.k(*args, S, BH)
            self.last = ""
            return 0
        except cakelib.CakeError as e:
            self.last = e.message
            return e.code

    def bind(self, q, k, v, o, lse, S):
        """A function of no arguments that launches the kernel on these tensors
        (q, k, v, o passed as 3-d (B*H, S, D) views, lse as (B*H, S))."""
        BH = lse.shape[0]
        return cakelib.bound(self.k, *[t.view(BH, S, D) for t in (q, k, v, o)], lse, S, BH)


# ---- inputs, reference, comparison ------------------------------------------------


def make_inputs(B, H, S, kind, seed):
    """q, k, v as bf16 (B*H*S, D) tensors of the given kind."""
    g = torch.Generator(device=DEVICE)
    g.manual_seed(seed)
    n = B * H * S
    q, k, v = (torch.randn((n, D), generator=g, device=DEVICE, dtype=torch.float32) for _ in range(3))
    if kind == "large":
        q *= 6 ** 0.5
        k *= 6 ** 0.5
    elif kind in ("offset", "neg-offset"):
        c = 32 / math.sqrt(D)
        q += c
        k += c if kind == "offset" else -c
    elif kind != "unit":
        raise ValueError(kind)
    return q.bfloat16(), k.bfloat16(), v.bfloat16()


def checked_heads(B, H):
    n = B * H
    return list(range(n)) if n <= 8 else sorted({0, n // 2 + 1, n - 1})


class Errors:
    """Error of one output against the reference, accumulated over blocks of rows."""

    def __init__(self):
        self.err2 = self.ref2 = 0.0
        self.max_err = self.max_ref = 0.0
        self.lse_worst = None  # max |lse - ref| / (1 + |ref|); None when no LSE
        self.lse_max_abs = 0.0

    def add(self, o, oref, lse=None, lref=None):
        d = torch.nan_to_num((o.double() - oref).abs(), nan=math.inf)
        self.err2 += float((d * d).sum())
        self.ref2 += float((oref * oref).sum())
        self.max_err = max(self.max_err, float(d.max()))
        self.max_ref = max(self.max_ref, float(oref.abs().max()))
        if lse is not None:
            dl = torch.nan_to_num((lse.double() - lref).abs(), nan=math.inf)
            worst = float((dl / (1 + lref.abs())).max())
            self.lse_worst = worst if self.lse_worst is None else max(self.lse_worst, worst)
            self.lse_max_abs = max(self.lse_max_abs, float(dl.max()))

    @property
    def rel_fro(self):
        return math.sqrt(self.err2 / self.ref2) if self.ref2 > 0 else math.inf

    @property
    def rel_max(self):
        return self.max_err / self.max_ref if self.max_ref > 0 else math.inf

    def ok(self):
        good = self.rel_fro <= REL_FRO_MAX and self.rel_max <= MAX_ERR_MAX
        return good and (self.lse_worst is None or self.lse_worst <= LSE_TOL)

    def text(self):
        s = f"rel_fro {self.rel_fro:.2e}  maxerr/max|ref| {self.rel_max:.2e}"
        if self.lse_worst is not None:
            s += f"  lse err/(1+|lse|) {self.lse_worst:.2e} (abs {self.lse_max_abs:.2e})"
        return s


def compare_to_reference(q, k, v, S, causal, heads, outputs, row_block=1024):
    """outputs: {name: (O as (B*H*S, D), LSE as (B*H, S) or None)}. Returns {name: Errors}.

    The reference is computed in float64 from the same bf16 inputs, one head and
    row_block query rows at a time (a block's scores are row_block x S doubles)."""
    errs = {name: Errors() for name in outputs}
    scale = D ** -0.5
    for hh in heads:
        rows = slice(hh * S, (hh + 1) * S)
        qd, kd, vd = q[rows].double(), k[rows].double(), v[rows].double()
        for r0 in range(0, S, row_block):
            r1 = min(S, r0 + row_block)
            s = (qd[r0:r1] @ kd.T) * scale
            if causal:
                i = torch.arange(r0, r1, device=s.device).unsqueeze(1)
                j = torch.arange(S, device=s.device).unsqueeze(0)
                s.masked_fill_(j > i, -math.inf)
            lref = torch.logsumexp(s, dim=1)
            oref = torch.exp(s - lref.unsqueeze(1)) @ vd
            for name, (o, lse) in outputs.items():
                errs[name].add(o[hh * S + r0: hh * S + r1], oref,
                               None if lse is None else lse[hh, r0:r1], lref)
    return errs


def all_finite(t):
    return bool(torch.isfinite(t).all())


# ---- peers: PyTorch SDPA ----------------------------------------------------------


def make_peers(causal):
    """{name: fn(q4, k4, v4) -> O (B, H, S, D)} and {name: why it is absent}."""
    peers, absent = {}, {}
    try:
        import torch.nn.functional as F
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError as e:
        why = f"torch.nn.attention not importable: {e}"
        return {}, {"cuDNN": why, "FA2": why, "cuDNN+lse": why}

    def sdpa_with(backend):
        def run(q, k, v):
            with sdpa_kernel(backend):
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        return run

    peers["cuDNN"] = sdpa_with(SDPBackend.CUDNN_ATTENTION)
    peers["FA2"] = sdpa_with(SDPBackend.FLASH_ATTENTION)

    # The public API asks cuDNN for no LSE when nothing needs gradients; this
    # private op asks for it, so that it writes what ours writes (FA2 always does).
    def cudnn_lse(q, k, v):
        return torch.ops.aten._scaled_dot_product_cudnn_attention(q, k, v, None, True, 0.0, causal, False)[0]

    peers["cuDNN+lse"] = cudnn_lse
    return peers, absent


def flash_lse(q4, k4, v4, causal):
    """FA2's log-sum-exp (B, H, S) through the private op, or None."""
    try:
        out = torch.ops.aten._scaled_dot_product_flash_attention(q4, k4, v4, 0.0, causal)
        return out[1]
    except Exception:  # noqa: BLE001 - informative only
        return None


def try_peers(peers, absent, q4, k4, v4):
    """Runs each peer once; a peer that raises moves to `absent` with the reason."""
    outs = {}
    for name in list(peers):
        try:
            outs[name] = peers[name](q4, k4, v4)
            torch.cuda.synchronize()
        except RuntimeError as e:
            msg = str(e).strip().splitlines()
            if any(w in str(e) for w in ("illegal", "unspecified launch failure", "CUDA error")):
                raise CudaFault(f"peer {name}: {e}") from e
            absent[name] = msg[0] if msg else type(e).__name__
            del peers[name]
    return outs


# ---- one kernel --------------------------------------------------------------------


def launcher_checks(kern):
    """Bad arguments must be refused with a nonzero code (no launch)."""
    S = 256
    q = torch.empty((1, S, D), device=DEVICE, dtype=torch.bfloat16)
    lse = torch.empty((1, S), device=DEVICE, dtype=torch.float32)
    good = [q, q, q, q, lse]
    ok = True
    null = Null(q.shape)
    mis = torch.empty(S * D + 1, device=DEVICE, dtype=torch.bfloat16)[1:].view(1, S, D)  # 2 bytes past 16
    # S = 200: not a multiple of the key tile; the tiles would read past the head.
    q200 = torch.empty((1, 200, D), device=DEVICE, dtype=torch.bfloat16)
    lse200 = torch.empty((1, 200), device=DEVICE, dtype=torch.float32)
    short = [q200, q200, q200, q200, lse200]
    f16 = q.view(torch.float16)  # the right size, the wrong type
    flat = q[0]  # rank 2
    for what, descs, s_arg in (("null Q", [null] + good[1:], S), ("Q misaligned by 2 bytes", [mis] + good[1:], S),
                               ("S = 200, not a tile multiple", short, 200), ("Q f16, not bf16", [f16] + good[1:], S),
                               ("Q of rank 2", [flat] + good[1:], S)):
        rc = kern.call(descs, s_arg, 1)
        torch.cuda.synchronize()
        print(f"  launcher check {what:<26} -> {rc} ({kern.message()}){'' if rc != 0 else '  UNEXPECTED: accepted'}")
        ok &= rc != 0
    return ok


def run_case(kern, B, H, S, kind, seed, peers, absent, check_only):
    q, k, v = make_inputs(B, H, S, kind, seed)
    o = torch.full((B * H * S, D), math.nan, device=DEVICE, dtype=torch.bfloat16)
    lse = torch.full((B * H, S), math.nan, device=DEVICE, dtype=torch.float32)
    launch = kern.bind(q, k, v, o, lse, S)
    try:
        launch()
        torch.cuda.synchronize()
    except RuntimeError as e:
        if isinstance(e, cakelib.CakeError) and e.code in (1, 2, 3):  # refused: the arguments
            print(f"  {B}x{H}x{S:<5} {kind:<10} launch refused: {e}  FAIL")
            return False
        raise CudaFault(f"{kern.kernel} at {B}x{H}x{S} {kind}: {e}") from e
    finite_o, finite_l = all_finite(o), all_finite(lse)
    outputs = {"ours": (o, lse)}
    q4, k4, v4 = (t.view(B, H, S, D) for t in (q, k, v))
    if not check_only:
        for name, out in try_peers(peers, absent, q4, k4, v4).items():
            outputs[name] = (out.reshape(B * H * S, D), None)
    heads = checked_heads(B, H)
    errs = compare_to_reference(q, k, v, S, kern.causal, heads, outputs)
    ok = finite_o and finite_l and errs["ours"].ok()
    notes = []
    if not finite_o:
        notes.append(f"{int((~torch.isfinite(o)).sum())} non-finite O elements")
    if not finite_l:
        notes.append(f"{int((~torch.isfinite(lse)).sum())} non-finite LSE rows")
    if "FA2" in outputs and B * H > 8:  # whole-tensor cross-check where the reference sees a few heads
        ofa = outputs["FA2"][0]
        x = float((o.float() - ofa.float()).norm() / ofa.float().norm())
        x = x if math.isfinite(x) else math.inf
        ok &= x <= XCHECK_MAX
        notes.append(f"all heads vs FA2: rel_fro {x:.2e}")
        l_fa = flash_lse(q4, k4, v4, kern.causal)
        if l_fa is not None and l_fa.numel() >= B * H * S:
            l_fa = l_fa.reshape(B * H, -1)[:, :S].float()
            dl = float(((lse - l_fa).abs() / (1 + l_fa.abs())).max())
            notes.append(f"lse vs FA2 (info) {dl:.1e}")
    peer_txt = "; ".join(f"{n} {e.rel_fro:.1e}" for n, e in errs.items() if n != "ours")
    print(f"  {B}x{H}x{S:<5} {kind:<10} heads {len(heads):>3}  {errs['ours'].text()}  "
          f"{'PASS' if ok else 'FAIL'}")
    if peer_txt or notes:
        print(f"      {'peers rel_fro: ' + peer_txt if peer_txt else ''}{'  ' if peer_txt and notes else ''}"
              f"{'; '.join(notes)}")
    return ok


# ---- timing ---------------------------------------------------------------------


def device_kernels(prof):
    """(name, start_us, end_us) of every device activity record, by start time."""
    from torch.autograd import DeviceType
    evs = [(e.name, e.time_range.start, e.time_range.end) for e in prof.events()
           if e.device_type == DeviceType.CUDA]
    return sorted(evs, key=lambda x: x[1])


def profiled(fns):
    """Device activity records of running each function of fns once, in order."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for fn in fns:
            fn()
        torch.cuda.synchronize()
    return device_kernels(prof)


def split_samples(events, flush_names, n_backends, samples):
    """Groups the kernels between flushes; segment i belongs to backend i % n_backends."""
    segments, cur = [], None
    for ev in events:
        if ev[0] in flush_names:
            cur = []
            segments.append(cur)
        elif cur is not None:
            cur.append(ev)
    if len(segments) != n_backends * samples:
        raise RuntimeError(f"expected {n_backends * samples} flush-delimited samples, found {len(segments)}")
    return [segments[i::n_backends] for i in range(n_backends)]


def percentile(xs, p):
    xs = sorted(xs)
    i = (len(xs) - 1) * p
    lo, hi = math.floor(i), math.ceil(i)
    return xs[lo] + (xs[hi] - xs[lo]) * (i - lo)


def time_backends(backends, flush, samples, warmup=10):
    """backends: [(name, fn)]. Returns {name: stats}."""
    for _ in range(warmup):
        for _, fn in backends:
            fn()
    torch.cuda.synchronize()
    # Learn the flush kernel's name (two flushes in a row: it must be one kernel)
    # and each backend's kernels, in one profiler session.
    evs = profiled([flush, flush] + [f for _, fn in backends for f in (flush, fn)])
    if len(evs) < 3 or evs[0][0] != evs[1][0] or evs[1][0] != evs[2][0]:
        raise RuntimeError(f"cannot tell the L2 flush's kernel: the first records are {[e[0] for e in evs[:3]]}")
    flush_names = {evs[0][0]}
    names = [{e[0] for e in seg[0]} for seg in split_samples(evs[2:], flush_names, len(backends), 1)]
    for (name, _), ks in zip(backends, names):
        if not ks:
            raise RuntimeError(f"{name} ran no kernel between two flushes")
    samples_of = split_samples(
        profiled([f for _ in range(samples) for _, fn in backends for f in (flush, fn)]),
        flush_names, len(backends), samples)
    result = {}
    for (name, _), segs, expected in zip(backends, samples_of, names):
        ms = [sum(end - start for _, start, end in seg) / 1000.0 for seg in segs]
        kernels = sorted({ev[0] for seg in segs for ev in seg})
        result[name] = {
            "median_ms": statistics.median(ms), "p10_ms": percentile(ms, 0.1), "p90_ms": percentile(ms, 0.9),
            "min_ms": min(ms), "kernels_per_sample": statistics.median([len(s) for s in segs]),
            "empty_samples": sum(1 for s in segs if not s), "kernels": kernels, "samples_ms": ms,
        }
        if set(kernels) != expected:
            print(f"  warning: {name}'s kernels changed between the first call ({sorted(expected)}) and the samples")
    return result


def bound(fn, *args):
    return lambda: fn(*args)


def timing(kern, B, H, seqlens, samples, flush, peers, absent):
    """Times ours and the peers at each S. Returns (table rows, whether every shape was timed)."""
    rows, ok = [], True
    for S in seqlens:
        q, k, v = make_inputs(B, H, S, "unit", 7000 + S)
        o = torch.full((B * H * S, D), math.nan, device=DEVICE, dtype=torch.bfloat16)
        lse = torch.full((B * H, S), math.nan, device=DEVICE, dtype=torch.float32)
        q4, k4, v4 = (t.view(B, H, S, D) for t in (q, k, v))
        ours = kern.bind(q, k, v, o, lse, S)
        try:
            ours()
            torch.cuda.synchronize()
            if not (all_finite(o) and all_finite(lse)):
                raise RuntimeError("output not fully written")
            try_peers(peers, absent, q4, k4, v4)
            backends = [("ours", ours)] + [(n, bound(f, q4, k4, v4)) for n, f in peers.items()]
            res = time_backends(backends, flush, samples)
        except RuntimeError as e:
            if any(w in str(e) for w in ("illegal", "unspecified launch failure", "CUDA error")):
                raise CudaFault(f"timing {kern.kernel} at S={S}: {e}") from e
            print(f"  {B}x{H}x{S}: not timed: {e}")
            rows.append({"S": S, "error": str(e)})
            ok = False
            continue
        flops = 4.0 * B * H * S * S * D * (0.5 if kern.causal else 1.0)
        for name, r in res.items():
            r["tflops"] = flops / (r["median_ms"] * 1e-3) / 1e12
            print(f"  S={S:<5} {name:<10} median {r['median_ms']:.4f} ms  p10 {r['p10_ms']:.4f}  "
                  f"p90 {r['p90_ms']:.4f}  {r['tflops']:.1f} TFLOP/s  "
                  f"{r['kernels_per_sample']:g} kernel(s)/sample: {', '.join(n[:90] for n in r['kernels'])}")
        if not any(kern.kernel in n for n in res["ours"]["kernels"]):
            print(f"  warning: no kernel named like '{kern.kernel}' among ours: {res['ours']['kernels']}")
        rows.append({"S": S, "results": res})
        del q, k, v, o, lse, q4, k4, v4, ours
        torch.cuda.empty_cache()
    return rows, ok


def print_table(label, B, H, rows, samples, absent):
    def ms(res, name):
        r = res.get(name, {})
        return r.get("median_ms")

    def fmt(x, spec):
        width = int(re.match(r"\d+", spec).group())
        return format(x, spec) if x is not None else "-".rjust(width)

    print(f"\n{label}, B={B} H={H} D={D}: median of {samples} "
          f"CUPTI samples, L2 flushed before each")
    print(f"{'shape (BxHxSxD)':<20} {'ours ms':>9} {'cuDNN ms':>9} {'FA2 ms':>9} {'cuDNN/ours':>10} "
          f"{'FA2/ours':>9} {'ours TF/s':>9} {'cuDNN TF/s':>10} {'FA2 TF/s':>9} {'cuDNN+lse ms':>12} "
          f"{'c+lse/ours':>10}")
    for row in rows:
        shape = f"{B}x{H}x{row['S']}x{D}"
        if "results" not in row:
            print(f"{shape:<20} {row.get('error', '-')}")
            continue
        res = row["results"]
        o, c, f, cl = ms(res, "ours"), ms(res, "cuDNN"), ms(res, "FA2"), ms(res, "cuDNN+lse")
        ratio = (lambda p: p / o if (p is not None and o) else None)
        tf = (lambda n: res.get(n, {}).get("tflops"))
        print(f"{shape:<20} {fmt(o, '9.4f')} {fmt(c, '9.4f')} {fmt(f, '9.4f')} {fmt(ratio(c), '10.3f')} "
              f"{fmt(ratio(f), '9.3f')} {fmt(tf('ours'), '9.1f')} {fmt(tf('cuDNN'), '10.1f')} "
              f"{fmt(tf('FA2'), '9.1f')} {fmt(cl, '12.4f')} {fmt(ratio(cl), '10.3f')}")
    print("(ratio = peer time / our time; ours writes O and LSE; cuDNN = SDPA's cuDNN backend, which writes no "
          "LSE without gradients; cuDNN+lse = aten._scaled_dot_product_cudnn_attention with compute_log_sumexp; "
          "FA2 = SDPA's flash backend, which always writes its LSE)")
    for name, why in absent.items():
        print(f"({name} not available: {why})")


# ---- main ---------------------------------------------------------------------


def parse_specs(args):
    specs = []
    for spec in args.libs:
        parts = spec.split(":")
        if len(parts) > 3 or (len(parts) == 3 and parts[2] not in ("causal", "noncausal")):
            usage_error(f"bad spec {spec!r}: LIB[:LAUNCHER[:causal|noncausal]]")
        path = parts[0]
        launcher = parts[1] if len(parts) > 1 and parts[1] else default_launcher(path)
        causal = parts[2] == "causal" if len(parts) == 3 else "causal" in os.path.basename(path)
        specs.append([path, launcher, causal])
    if args.launcher or args.causal is not None:
        if len(specs) != 1:
            usage_error("--launcher, --causal and --noncausal need exactly one library (else LIB:LAUNCHER:causal)")
        if args.launcher:
            specs[0][1] = args.launcher
        if args.causal is not None:
            specs[0][2] = args.causal
    for path, _, _ in specs:
        if not os.path.isfile(path):
            usage_error(f"{path}: no such file")
    return specs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("libs", nargs="+", metavar="LIB[:LAUNCHER[:causal|noncausal]]")
    ap.add_argument("--launcher", help="launcher symbol (one library only)")
    ap.add_argument("--causal", dest="causal", action="store_true", default=None, help="causal mask (one library)")
    ap.add_argument("--noncausal", dest="causal", action="store_false", help="no mask (one library)")
    ap.add_argument("--check-only", action="store_true", help="small shapes, one launch each, no peers or profiler")
    ap.add_argument("--samples", type=int, default=int(os.environ.get("SAMPLES", "120")))
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--heads", type=int, default=32)
    ap.add_argument("--seqlens", default="4096,8192", help="timing sequence lengths, comma-separated")
    ap.add_argument("--no-timing", action="store_true", help="correctness only (peers still compared)")
    ap.add_argument("--time-wrong", action="store_true", help="time a kernel even when a check failed (still exit 1)")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--json", help="write the results (every sample) to this file")
    args = ap.parse_args()
    specs = parse_specs(args)
    seqlens = [int(s) for s in args.seqlens.split(",") if s]
    if args.samples < 1:
        usage_error("--samples must be positive")

    global torch
    import torch as _torch
    torch = _torch
    if not torch.cuda.is_available():
        print("no CUDA device")
        return 3
    torch.backends.cuda.matmul.allow_tf32 = False
    prop = torch.cuda.get_device_properties(0)
    l2 = getattr(prop, "L2_cache_size", 0) or 50 << 20
    cudnn_v = torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None
    print(f"device: {prop.name}, {prop.multi_processor_count} SMs, L2 {l2 >> 20} MB; torch {torch.__version__} "
          f"(CUDA {torch.version.cuda}), cuDNN {cudnn_v}; python {sys.version.split()[0]}")
    print(f"bounds: rel_fro <= {REL_FRO_MAX:g}, max|err|/max|ref| <= {MAX_ERR_MAX:g}, "
          f"|lse err| <= {LSE_TOL:g} (1+|lse|), all heads vs FA2 rel_fro <= {XCHECK_MAX:g}")

    flush = None
    if not args.check_only:
        flush_buf = torch.empty(l2, device=DEVICE, dtype=torch.int32)  # 4 bytes each: 4x the L2
        flush_buf.fill_(0x5A5A5A5A)

        def flush():
            flush_buf.bitwise_not_()

    all_ok = True
    report = {"device": prop.name, "torch": torch.__version__, "cudnn": cudnn_v, "kernels": []}
    try:
        for path, launcher, causal in specs:
            kern = Kernel(path, launcher, causal)
            label = f"{kern.kernel} ({'causal' if causal else 'non-causal'})"
            print(f"\n== {label}: {path}, launcher {kern.launcher}")
            ok = launcher_checks(kern)
            peers, absent = ({}, {}) if args.check_only else make_peers(causal)
            cases = list(SANITIZER_CASES if args.check_only else CHECK_CASES)
            if not args.check_only:
                cases += [(args.batch, args.heads, S, "unit") for S in seqlens]
            print(f"  correctness ({len(cases)} cases; kinds: " + "; ".join(f"{k}: {v}" for k, v in KINDS.items())
                  + ")")
            for i, (B, H, S, kind) in enumerate(cases):
                ok &= run_case(kern, B, H, S, kind, args.seed + 101 * i, peers, absent, args.check_only)
                torch.cuda.empty_cache()
            print(f"  {kern.kernel}: {'ALL CORRECT' if ok else 'FAILURES'}")
            entry = {"lib": path, "launcher": kern.launcher, "causal": causal, "correct": ok}
            if not args.check_only and not args.no_timing:
                if ok or args.time_wrong:
                    rows, timed = timing(kern, args.batch, args.heads, seqlens, args.samples, flush, peers, absent)
                    ok &= timed
                    print_table(label, args.batch, args.heads, rows, args.samples, absent)
                    entry["timing"] = rows
                else:
                    print("  not timed: a check failed (--time-wrong times it anyway)")
            entry["peers_absent"] = absent
            report["kernels"].append(entry)
            all_ok &= ok
    except CudaFault as e:
        print(f"CUDA FAULT (context unusable, stopping): {e}")
        return 3
    finally:
        if args.json:
            with open(args.json, "w") as f:
                json.dump(report, f, indent=1)
    print("ALL CORRECT" if all_ok else "FAILURES")
    return 0 if all_ok else 1


if __name__ == "__main__":
    t0 = time.time()
    rc = main()
    print(f"(attn_bench.py: {time.time() - t0:.0f} s, exit {rc})")
    sys.exit(rc)
