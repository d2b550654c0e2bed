#!/usr/bin/env python3
"""Checks a `cakec --report --report-format=json` file (report.test).

  check_report.py FILE increasing      every report estimated, times increasing in order
  check_report.py FILE faster OTHER    FILE is bound by the tensor pipe; OTHER (a far faster tensor
                                       core) is faster and bound by something else
  check_report.py FILE inflight OTHER  FILE's HBM rate is held below the bandwidth by its rings' bytes in
                                       flight (pipeline-latency); OTHER (no HBM round trip) reads at the
                                       bandwidth and is faster
  check_report.py FILE multicast RATE  a cluster's multicast copies read L2 once for several blocks, but
                                       land in each block's shared memory: the fill term is every byte
                                       that lands, at RATE GB/s per SM
  check_report.py FILE serial          the longest block's role does its loads after its tensor-core
                                       work: its role term is the sum of the two
"""
import json
import sys

rep = json.load(open(sys.argv[1]))
assert rep["format"] == 1, rep
rs = rep["reports"]
assert rs and all(r["estimated"] for r in rs), rs
for r in rs:
    for key in ("time_us", "bottleneck", "terms_us", "longest_block_us", "grid", "flops", "bytes", "blocks_per_sm"):
        assert key in r, (key, r)
if sys.argv[2] == "increasing":
    times = [r["time_us"] for r in rs]
    assert times == sorted(times) and len(set(times)) == len(times), times
elif sys.argv[2] == "faster":
    other = json.load(open(sys.argv[3]))["reports"]
    a, b = rs[0], other[0]
    assert a["bottleneck"] == "tensor-pipe", a
    assert b["time_us"] < a["time_us"], (a["time_us"], b["time_us"])
    assert b["bottleneck"] != "tensor-pipe", b
    assert b["longest_block_us"]["tensor"] < 0.1 * a["longest_block_us"]["tensor"], (a, b)
elif sys.argv[2] == "inflight":
    other = json.load(open(sys.argv[3]))["reports"]
    a, b = rs[0], other[0]
    assert a["bottleneck"] == "pipeline-latency", a
    assert a["hbm_rate_gbs"] < 0.9 * b["hbm_rate_gbs"], (a, b)
    assert a["inflight_bytes"] == b["inflight_bytes"] == 128 * 2 * 15360, (a, b)
    assert b["time_us"] < a["time_us"] and b["hbm_rate_gbs"] == 4250, b
elif sys.argv[2] == "multicast":
    r = rs[0]
    b = r["bytes"]
    assert b["from_l2"] < b["to_smem"], b
    landed = (b["to_smem"] + b["to_global"]) / r["blocks"] * r["blocks_per_sm"]
    fill = r["longest_block_us"]["fill"]
    assert abs(fill - landed / (float(sys.argv[3]) * 1e3)) < 0.01 * fill, (fill, landed)
elif sys.argv[2] == "serial":
    b = rs[0]["longest_block_us"]
    assert b["generic"] > b["tensor"] > 0, b
    assert b["role"] > b["tensor"] + 0.5 * b["generic"], b
else:
    sys.exit("unknown check " + sys.argv[2])
print("ok")
