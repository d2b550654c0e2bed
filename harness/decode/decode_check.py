#!/usr/bin/env python3
"""decode_check.py - examples/attention_decode_gqa_sm90a.cake on the GPU, through the
Python package (cakec.load: the compiler runs there, harness/torch/stage.sh).

  one query token per sequence, 64 query heads on 8 KV heads (GROUP = 8), D = 128:
  q (B, 64, 1, 128), k and v (B, 8, L, 128) bf16, as torch lays out decode attention;
  the kernel takes q as (B * 8, 8, 128), k and v as (B * 8, L, 128), gives O (B * 8, 8, 128)
  bf16 and LSE (B * 8, 8) f32.

Correctness: inputs N(0, s^2), s = 1 and 4, at B = 1, 3, 32 and L = 128, 640, 4096, O
poisoned with NaN first; reference: the same attention in float32 (scores, softmax, P V;
the keys of each KV head shared by its 8 query heads). O must be within 1.5x the error of
torch's own bf16 SDPA on the same inputs (or 1e-2 relative Frobenius), LSE within 1e-3.
The launcher refuses L = BN / 2 (no whole key tile: an empty grid).
Timing (unless --check-only): ours beside F.scaled_dot_product_attention(enable_gqa=True)
with each backend torch will run (cuDNN, FlashAttention-2, memory-efficient, and the
default choice), in one process (CUPTI, L2 flushed before each sample, median of
--samples); the rate is K and V's bytes over the time.

Paged (--paged PAGE, examples/attention_decode_gqa_paged_sm90a.cake): K and V are given as a
pool of pages in FlashInfer's HND layout, (NP * 8, PAGE, 128), and a block table BT (B, MAXP)
i32; each sequence's pages are a random permutation of the pool's, the pool's spare pages
(one per sequence) filled with NaN, so a wrong page read makes O NaN. --beside FILE times
another example (the contiguous split-KV one) in the same process.

Usage: decode_check.py [--check-only] [--samples N] [--json F] [-D NAME=VALUE ...] [--timed BxL,...]
                       [--source FILE]   (an example of examples/ with the same signature, its
                                          launcher named after it; a workspace, as the split-KV
                                          example takes, is allocated and zero-filled once per L, G)
                       [--paged PAGE] [--beside FILE] [--beside-D NAME=VALUE ...]
Exit status: 0 when every check passed.
"""
import argparse
import math
import os
import sys

import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "harness", "common"))
sys.path.insert(0, os.path.join(ROOT, "harness", "attention"))
import cakelib  # noqa: E402  (puts the package, python/cakec, on the path)
import attn_bench  # noqa: E402
from cakelib import cakec  # noqa: E402

attn_bench.torch = torch
HQ, HKV, D = 64, 8, 128
GROUP = HQ // HKV
BF = torch.bfloat16
CHECK = [(1, 128), (3, 640), (32, 4096), (1, 4096), (2, 32768)]
SAN = [(1, 128), (2, 256), (1, 1024)]
TIMED = [(128, 4096), (64, 4096), (32, 4096), (8, 4096), (1, 4096), (8, 32768), (1, 32768), (128, 512)]


def inputs(B, L, s, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    q = (torch.randn(B, HQ, 1, D, generator=g, device="cuda") * s).to(BF)
    k = (torch.randn(B, HKV, L, D, generator=g, device="cuda") * s).to(BF)
    v = torch.randn(B, HKV, L, D, generator=g, device="cuda").to(BF)
    return q, k, v


WORKSPACES = {}


def paged(k, v, page, seed):
    """The page pool and block table of k and v (B, HKV, L, D): sequence b's j-th page is
    pool page BT[b, j], a random permutation; B spare pages of NaN."""
    B, L = k.shape[0], k.shape[2]
    P = (L + page - 1) // page
    NP = B * P + B
    g = torch.Generator(device="cuda").manual_seed(seed)
    perm = torch.randperm(NP, generator=g, device="cuda")[:B * P]
    pools = []
    for t in (k, v):
        t = F.pad(t, (0, 0, 0, P * page - L))
        pool = torch.full((NP, HKV, page, D), float("nan"), device="cuda", dtype=BF)
        pool[perm] = t.view(B, HKV, P, page, D).permute(0, 2, 1, 3, 4).reshape(B * P, HKV, page, D)
        pools.append(pool.view(NP * HKV, page, D))
    return pools[0], pools[1], perm.to(torch.int32).view(B, P).contiguous(), P, NP


def ours(kern, q, k, v, page=None):
    B, L = q.shape[0], k.shape[2]
    O = torch.full((B * HKV, GROUP, D), float("nan"), device="cuda", dtype=BF)
    LSE = torch.full((B * HKV, GROUP), float("nan"), device="cuda", dtype=torch.float32)
    if page:
        kp, vp, bt, P, NP = paged(k, v, page, B * 7919 + L)
        args = (q.view(B * HKV, GROUP, D), kp, vp, bt, O, LSE, L, B * HKV, B, P, NP)
        scalars = (L, B * HKV, B, P, NP)
    else:
        args = (q.view(B * HKV, GROUP, D), k.view(B * HKV, L, D), v.view(B * HKV, L, D), O, LSE, L, B * HKV)
        scalars = (L, B * HKV)
    if kern.workspace:  # split-KV: zero-filled once per scalars; the kernel leaves its counters zero
        key = (id(kern),) + scalars  # two builds of one example (other defines) need workspaces of their own
        if key not in WORKSPACES:
            WORKSPACES[key] = torch.zeros(max(1, kern.workspace_size(*scalars)), dtype=torch.uint8, device="cuda")
        args = args + (WORKSPACES[key],)
    return (lambda: kern(*args)), O.view(B, HQ, 1, D), LSE.view(B, HQ)


def reference(q, k, v):
    kk = k.float().repeat_interleave(GROUP, dim=1)
    vv = v.float().repeat_interleave(GROUP, dim=1)
    scores = q.float() @ kk.transpose(-1, -2) / math.sqrt(D)  # (B, HQ, 1, L)
    return torch.softmax(scores, dim=-1) @ vv, torch.logsumexp(scores, dim=-1).squeeze(-1)


def rel(a, b):
    return float((a.float() - b).norm() / b.norm())


def check(kern, B, L, s, seed, peer=True, page=None):
    q, k, v = inputs(B, L, s, seed)
    run, O, LSE = ours(kern, q, k, v, page)
    run()
    torch.cuda.synchronize()
    ref, lse_ref = reference(q, k, v)
    err, lse_err = rel(O, ref), float((LSE - lse_ref).abs().max())
    line = f"  B={B} L={L} s={s:g}: O rel_fro {err:.2e}, LSE max |err| {lse_err:.2e}"
    bound = 1e-2
    if peer:
        sdpa = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
        serr = rel(sdpa, ref)
        line += f" | SDPA bf16 {serr:.2e}"
        bound = max(bound, 1.5 * serr)
    ok = bool(torch.isfinite(O).all()) and err <= bound and lse_err <= 1e-3
    print(line + ("" if ok else "  FAIL"), flush=True)
    return ok


def refusal(kern, page=None, bn=128):
    q, k, v = inputs(1, bn // 2, 1.0, 5)
    run, _, _ = ours(kern, q, k, v, page)
    try:
        run()
        torch.cuda.synchronize()
        print(f"  L = {bn // 2}: the launcher ran it: FAIL")
        return False
    except cakec.CakeError as e:
        print(f"  L = {bn // 2} refused: {str(e)[:150]}")
        return True


def backends():
    from torch.nn.attention import SDPBackend, sdpa_kernel
    out = [("sdpa", None)]
    for name, b in (("cudnn", SDPBackend.CUDNN_ATTENTION), ("flash2", SDPBackend.FLASH_ATTENTION),
                    ("efficient", SDPBackend.EFFICIENT_ATTENTION)):
        out.append((name, (sdpa_kernel, b)))
    return out


def peer_fn(spec, q, k, v):
    if spec is None:
        return lambda: F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
    ctx, b = spec

    def fn():
        with ctx(b):
            return F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
    return fn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check-only", action="store_true")
    ap.add_argument("--samples", type=int, default=120)
    ap.add_argument("--json")
    ap.add_argument("-D", dest="defines", action="append", default=[], help="a define for the example (BN=64)")
    ap.add_argument("--timed", help="the timed shapes, BxL,... (default: the standard list)")
    ap.add_argument("--source", default="attention_decode_gqa_sm90a.cake", help="the example (in examples/)")
    ap.add_argument("--paged", type=int, help="the example takes a page pool and block table, pages of PAGE tokens")
    ap.add_argument("--beside", help="another (unpaged) example timed in the same process")
    ap.add_argument("--beside-D", dest="beside_defines", action="append", default=[], help="a define for --beside")
    args = ap.parse_args()
    defines = dict(d.split("=", 1) for d in args.defines)
    timed = [tuple(int(x) for x in t.split("x")) for t in args.timed.split(",")] if args.timed else TIMED
    prop = torch.cuda.get_device_properties(0)
    print(f"device: {prop.name}, {prop.multi_processor_count} SMs; torch {torch.__version__}", flush=True)
    mod = cakec.load(os.path.join(ROOT, "examples", args.source), defines={k: int(v) for k, v in defines.items()})
    kern = getattr(mod, args.source.replace("_sm90a.cake", ""))
    print(f"kernel: {kern.signature}")
    page = args.paged
    if page:
        print(f"paged: pages of {page} tokens, a random block table, NaN in the spare pages")
    beside = None
    beside_name = (args.beside or "").replace("_sm90a.cake", "").replace("attention_decode_gqa", "ours") or None
    if beside_name == "ours":
        beside_name = "ours_single"
    if args.beside:
        bdef = {k: int(v) for k, v in (d.split("=", 1) for d in args.beside_defines)}
        beside = getattr(cakec.load(os.path.join(ROOT, "examples", args.beside), defines=bdef),
                         args.beside.replace("_sm90a.cake", ""))
        print(f"beside: {beside.signature} {bdef or ''}")
    if defines:
        print(f"defines: {defines}")
    ok = True
    if args.check_only:
        for i, (B, L) in enumerate(SAN):
            ok &= check(kern, B, L, 1.0, 10 + i, peer=False, page=page)
        print("ALL CORRECT" if ok else "FAILURES")
        return 0 if ok else 1
    ok &= refusal(kern, page, int(defines.get("BN", 128)))
    for i, (B, L) in enumerate(CHECK):
        for s in (1.0, 4.0):
            ok &= check(kern, B, L, s, 100 * i + int(s), page=page)
    print("ALL CORRECT" if ok else "FAILURES", flush=True)
    report = []
    flush_buf = torch.empty(prop.L2_cache_size, dtype=torch.int32, device="cuda")
    for B, L in timed:
        q, k, v = inputs(B, L, 1.0, 7)
        run, _, _ = ours(kern, q, k, v, page)
        todo = [("ours", run)]
        if beside is not None:
            todo.append((beside_name, ours(beside, q, k, v)[0]))
        for name, spec in backends():
            fn = peer_fn(spec, q, k, v)
            try:
                fn()
                torch.cuda.synchronize()
                todo.append((name, fn))
            except RuntimeError as e:
                print(f"  {name} refuses B={B} L={L}: {str(e).splitlines()[0][:90]}")
        res = attn_bench.time_backends(todo, lambda: flush_buf.bitwise_not_(), args.samples)
        kv_bytes = 2 * B * HKV * L * D * 2
        print(f"  B={B} L={L}: median of {args.samples} CUPTI samples, L2 flushed before each", flush=True)
        for name, r in res.items():
            print(f"    {name:<10} {r['median_ms']:8.4f} ms  {kv_bytes / r['median_ms'] / 1e9:6.2f} TB/s  "
                  f"p10 {r['p10_ms']:.4f} p90 {r['p90_ms']:.4f}  {', '.join(r['kernels'])[:80]}")
        peers = [n for n in res if n not in ("ours", beside_name)]
        best = min(peers, key=lambda n: res[n]["median_ms"]) if peers else None
        for name in [n for n in res if n != "ours"]:
            print(f"    {name} / ours = {res[name]['median_ms'] / res['ours']['median_ms']:.3f}"
                  f"{'  (best peer)' if name == best else ''}")
        report.append({"B": B, "L": L, **{n: {kk: vv for kk, vv in r.items() if kk != "samples_ms"}
                                          for n, r in res.items()}})
    return cakelib.finish(report, args.json, ok)


if __name__ == "__main__":
    sys.exit(main())
