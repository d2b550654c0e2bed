#!/usr/bin/env python3
"""bench/costmodel/calibrate.py - the machine constants a cost model needs, measured on
the GPU with torch (issue 39): memory bandwidths, the shortest kernel, the
tensor-core rates. Runs in bench/costmodel/run.sh; alone:

    OUT=dir python3 bench/costmodel/calibrate.py     # prints JSON, writes $OUT/calibration.json

Each figure comes from CUPTI kernel records (torch.profiler, device
timestamps): the op runs WARMUP times unprofiled, then ITERS times
back-to-back in one profiled loop; each iteration's duration is the sum of
its kernels' durations (the kernels of one call counted in a call of its
own first), and the figure is the median (p10, p90 and min beside it).
Bandwidths are bytes / median duration in GB/s (1e9 B/s); rates in TFLOP/s
(1e12). Nothing flushes L2 between iterations: the HBM figures use 2 GiB
operands (L2 is 60 MB, so at most a few percent of one iteration's data can
still be there), the L2 ones operands that fit in it and stay there.

  hbm_copy           dst.copy_(src), 2 GiB bf16 each: bytes read + written / time
                     (torch makes this a device-to-device copy)
  hbm_copy_kernel    torch.neg(src, out=dst), 2 GiB: the same traffic from an
                     elementwise kernel
  hbm_read           src.sum(), 2 GiB bf16: bytes read / time
  l2_copy            dst.copy_(src), 8 MiB each (16 MiB in all, resident in L2)
  l2_copy_kernel     torch.neg(src, out=dst), 8 MiB each
  copy_sweep         torch.neg copies from 512 KiB to 2 GiB of footprint:
                     the bandwidth seen against the size (launch floor, L2, HBM)
  kernel_floor       x.add_(1) on 1 element: the shortest kernel's duration, and
                     the median gap between its back-to-back launches (bound by
                     the host's launch rate under the profiler: not a device figure)
  bf16_gemm          torch.matmul, 8192^3 bf16 (cuBLAS): 2 M N K / time
  fp8_gemm           torch._scaled_mm e4m3 x e4m3 -> bf16, 8192^3, per-tensor
                     scales, use_fast_accum False, and fp8_gemm_fast_accum True
  gpu                torch's device properties; nvidia-smi (name, clocks,
                     power, temperature) before and after
"""
import json
import math
import os
import statistics
import subprocess
import sys
import time
import traceback

import torch

DEVICE = "cuda"
GiB = 1 << 30
MiB = 1 << 20
SMI_FIELDS = ("name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,"
              "power.draw,power.limit,temperature.gpu,memory.total,pstate,clocks_throttle_reasons.active")


def nvidia_smi():
    try:
        r = subprocess.run(["nvidia-smi", f"--query-gpu={SMI_FIELDS}", "--format=csv,noheader"],
                           capture_output=True, text=True, timeout=30)
        line = r.stdout.strip().splitlines()[0]
        return dict(zip(SMI_FIELDS.split(","), (v.strip() for v in line.split(","))))
    except Exception as e:  # noqa: BLE001 - recorded, not fatal
        return {"error": f"{type(e).__name__}: {e}"}


def device_kernels(prof):
    """(name, start_us, end_us) of every device activity record, by start time."""
    from torch.autograd import DeviceType
    evs = [(e.name, e.time_range.start, e.time_range.end) for e in prof.events()
           if e.device_type == DeviceType.CUDA]
    return sorted(evs, key=lambda x: x[1])


def profiled(fn, iters):
    from torch.profiler import ProfilerActivity, profile
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(iters):
            fn()
        torch.cuda.synchronize()
    return device_kernels(prof)


def percentile(xs, p):
    xs = sorted(xs)
    i = (len(xs) - 1) * p
    lo, hi = math.floor(i), math.ceil(i)
    return xs[lo] + (xs[hi] - xs[lo]) * (i - lo)


def measure(fn, iters=200, warmup=20):
    """Durations (us) of `iters` back-to-back calls of fn, from CUPTI records."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    per_call = len(profiled(fn, 1))
    if per_call == 0:
        raise RuntimeError("the op ran no kernel")
    evs = profiled(fn, iters)
    if len(evs) != per_call * iters:
        raise RuntimeError(f"expected {per_call} x {iters} kernel records, got {len(evs)}")
    groups = [evs[i * per_call:(i + 1) * per_call] for i in range(iters)]
    us = [sum(e - s for _, s, e in g) for g in groups]
    gaps = [groups[i + 1][0][1] - groups[i][-1][2] for i in range(iters - 1)]
    return {
        "median_us": statistics.median(us), "p10_us": percentile(us, 0.1), "p90_us": percentile(us, 0.9),
        "min_us": min(us), "iters": iters, "warmup": warmup, "kernels_per_call": per_call,
        "kernels": sorted({n for n, _, _ in evs}),
        "median_gap_us": statistics.median(gaps) if gaps else None,
    }


def with_rate(stats, nbytes=None, flops=None):
    t = stats["median_us"] * 1e-6
    if nbytes is not None:
        stats["bytes"] = nbytes
        stats["GBps"] = nbytes / t / 1e9
        stats["GBps_at_p10"] = nbytes / (stats["p10_us"] * 1e-6) / 1e9
    if flops is not None:
        stats["flops"] = flops
        stats["TFLOPs"] = flops / t / 1e12
    return stats


def bf16(n):
    return torch.empty(n, device=DEVICE, dtype=torch.bfloat16).uniform_(-1, 1)


def record(result, key, thunk):
    """result[key] = thunk(), or the error it raised (one failed figure must not lose the rest)."""
    try:
        result[key] = thunk()
    except Exception as e:  # noqa: BLE001
        result[key] = {"error": f"{type(e).__name__}: {str(e).splitlines()[0][:300] if str(e) else ''}"}
        traceback.print_exc()


def hbm(result):
    n = 2 * GiB // 2  # 2 GiB of bf16
    src, dst = bf16(n), torch.empty(n, device=DEVICE, dtype=torch.bfloat16)
    record(result, "hbm_copy", lambda: with_rate(measure(lambda: dst.copy_(src), iters=100, warmup=10),
                                                 nbytes=2 * 2 * n))
    record(result, "hbm_copy_kernel", lambda: with_rate(
        measure(lambda: torch.neg(src, out=dst), iters=100, warmup=10), nbytes=2 * 2 * n))
    record(result, "hbm_read", lambda: with_rate(measure(lambda: src.sum(), iters=100, warmup=10), nbytes=2 * n))


def l2(result):
    n = 8 * MiB // 2
    src, dst = bf16(n), torch.empty(n, device=DEVICE, dtype=torch.bfloat16)
    record(result, "l2_copy", lambda: with_rate(measure(lambda: dst.copy_(src), iters=500, warmup=50),
                                                nbytes=2 * 2 * n))
    record(result, "l2_copy_kernel", lambda: with_rate(
        measure(lambda: torch.neg(src, out=dst), iters=500, warmup=50), nbytes=2 * 2 * n))
    big = bf16(16 * MiB // 2)
    record(result, "l2_read", lambda: with_rate(measure(lambda: big.sum(), iters=500, warmup=50), nbytes=16 * MiB))


def copy_sweep(result):
    rows = []
    for footprint in (512 * 1024, 2 * MiB, 8 * MiB, 16 * MiB, 32 * MiB, 48 * MiB, 64 * MiB, 128 * MiB,
                      512 * MiB, 2 * GiB):
        n = footprint // 2 // 2  # half read, half written, bf16
        src, dst = bf16(n), torch.empty(n, device=DEVICE, dtype=torch.bfloat16)
        iters = 100 if footprint >= 512 * MiB else 300
        s = with_rate(measure(lambda: torch.neg(src, out=dst), iters=iters, warmup=20), nbytes=footprint)
        rows.append({"footprint_bytes": footprint, "median_us": s["median_us"], "p10_us": s["p10_us"],
                     "GBps": s["GBps"], "kernels": s["kernels"]})
    result["copy_sweep"] = rows


def floor(result):
    x = torch.zeros(1, device=DEVICE)
    record(result, "kernel_floor", lambda: measure(lambda: x.add_(1), iters=2000, warmup=200))


def gemms(result, n=8192):
    flops = 2.0 * n * n * n
    a = torch.randn(n, n, device=DEVICE, dtype=torch.bfloat16)
    b = torch.randn(n, n, device=DEVICE, dtype=torch.bfloat16)
    record(result, "bf16_gemm", lambda: dict(
        with_rate(measure(lambda: torch.matmul(a, b), iters=100, warmup=20), flops=flops), shape=[n, n, n]))
    f8 = torch.float8_e4m3fn
    a8 = a.to(f8)
    b8 = b.to(f8)  # N x K row-major; .t() is the K x N column-major operand _scaled_mm takes
    one = torch.tensor(1.0, device=DEVICE)
    for key, fast in (("fp8_gemm", False), ("fp8_gemm_fast_accum", True)):
        def op(fast=fast):
            return torch._scaled_mm(a8, b8.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16,
                                    use_fast_accum=fast)
        record(result, key, lambda op=op: dict(with_rate(measure(op, iters=100, warmup=20), flops=flops),
                                               shape=[n, n, n]))


def main():
    t0 = time.time()
    prop = torch.cuda.get_device_properties(0)
    result = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "torch": torch.__version__, "cuda": torch.version.cuda,
        "gpu": {"name": prop.name, "sm_count": prop.multi_processor_count,
                "l2_bytes": getattr(prop, "L2_cache_size", None), "memory_bytes": prop.total_memory,
                "capability": f"{prop.major}.{prop.minor}", "nvidia_smi_before": nvidia_smi()},
        "method": "CUPTI kernel durations via torch.profiler; median over back-to-back iterations after "
                  "warm-up; no L2 flush between iterations; GB/s = 1e9 B/s, TFLOP/s = 1e12",
    }
    for step in (floor, hbm, l2, copy_sweep, gemms):
        ts = time.time()
        try:
            step(result)
        except Exception as e:  # noqa: BLE001 - one failed step must not lose the rest
            result[step.__name__ + "_error"] = f"{type(e).__name__}: {e}"
            traceback.print_exc()
        torch.cuda.empty_cache()
        print(f"calibrate: {step.__name__} {time.time() - ts:.1f} s", file=sys.stderr)
    result["gpu"]["nvidia_smi_after"] = nvidia_smi()

    def get(key, field):
        v = result.get(key)
        return v.get(field) if isinstance(v, dict) else None

    result["summary"] = {
        "hbm_copy_GBps": get("hbm_copy", "GBps"),
        "hbm_copy_kernel_GBps": get("hbm_copy_kernel", "GBps"),
        "hbm_read_GBps": get("hbm_read", "GBps"),
        "l2_copy_GBps": get("l2_copy", "GBps"),
        "l2_copy_kernel_GBps": get("l2_copy_kernel", "GBps"),
        "l2_read_GBps": get("l2_read", "GBps"),
        "kernel_floor_us": get("kernel_floor", "median_us"),
        "kernel_launch_gap_us_host_bound": get("kernel_floor", "median_gap_us"),
        "bf16_dense_TFLOPs": get("bf16_gemm", "TFLOPs"),
        "fp8_dense_TFLOPs": get("fp8_gemm", "TFLOPs"),
        "fp8_dense_fast_accum_TFLOPs": get("fp8_gemm_fast_accum", "TFLOPs"),
        "sm_clock_MHz_before_after": [result["gpu"]["nvidia_smi_before"].get("clocks.sm"),
                                      result["gpu"]["nvidia_smi_after"].get("clocks.sm")],
    }
    result["seconds"] = round(time.time() - t0, 1)
    text = json.dumps(result, indent=1)
    print(text)
    out = os.environ.get("OUT") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "out")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "calibration.json"), "w") as f:
        f.write(text + "\n")
    failed = [k for k, v in result.items() if k.endswith("_error") or (isinstance(v, dict) and "error" in v)]
    if failed:
        print(f"calibrate: failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
