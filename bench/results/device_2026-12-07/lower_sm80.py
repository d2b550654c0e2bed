#!/usr/bin/env python3
"""bench/results/device_2026-12-07/lower_sm80.py - the GPU verdicts of
safety.alias-race for mma.sync roles (testsuite/gates/safety/
fail_alias_mma_sync.cake, fail_alias_hand_off_scope.cake and
fail_alias_loop_carried_sm80.cake, each accepted before 2026-12-07) and of
their near misses (pass_*): lowered for sm_80 (the failing ones with
-fno-gates=all) into harness/verdicts/generated/sm80, with the generic
runners of harness/verdicts/generic.py, which run.sh builds for sm_90a and
runs under compute-sanitizer's racecheck (the hazard is an mma.sync warp's
ldmatrix reads of B against another warp's stores over them).
"""
import pathlib
import subprocess
import sys

sys.path.insert(0, "harness/verdicts")
import generic  # noqa: E402

out = pathlib.Path("harness/verdicts/generated/sm80")
out.mkdir(parents=True, exist_ok=True)
GATED = ["-fno-gates=all", "-fcheck-waits"]
for name, flags in (("fail_alias_mma_sync", GATED), ("pass_alias_mma_sync", ["-fcheck-waits"]),
                    ("fail_alias_hand_off_scope", GATED), ("pass_alias_hand_off_scope", ["-fcheck-waits"]),
                    ("fail_alias_loop_carried_sm80", GATED), ("pass_alias_loop_carried_sm80", ["-fcheck-waits"])):
    cu = out / f"{name}.cu"
    subprocess.run([generic.CAKEC, "--target=sm_80", *flags, f"testsuite/gates/safety/{name}.cake", "-o", str(cu)],
                   check=True)
    calls, why = generic.calls_for(cu.read_text(), cu.name)
    if calls is None:
        sys.exit(f"{name}: no runner: {why}")
    (out / f"{name}.main.cu").write_text(generic.MAIN % {"cu": cu.name, "calls": calls})
    print(out / f"{name}.main.cu")
