#!/usr/bin/env python3
"""bench/results/device_2026-12-07/lower_sm80.py - the GPU verdicts of
safety.alias-race for mma.sync roles (testsuite/gates/safety/
fail_alias_mma_sync.cake, fail_alias_hand_off_scope.cake and
fail_alias_loop_carried_sm80.cake, each accepted before 2026-12-07; and
fail_alias_tx_hop.cake for sm_90a) and of their near misses (pass_*):
lowered for sm_80 or sm_90a (the failing ones with
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
CHECKED = ["-fcheck-waits"]
for name, flags, target in (("fail_alias_mma_sync", GATED, "sm_80"), ("pass_alias_mma_sync", CHECKED, "sm_80"),
                            ("fail_alias_hand_off_scope", GATED, "sm_80"),
                            ("pass_alias_hand_off_scope", CHECKED, "sm_80"),
                            ("fail_alias_loop_carried_sm80", GATED, "sm_80"),
                            ("pass_alias_loop_carried_sm80", CHECKED, "sm_80"),
                            ("fail_alias_tx_hop", GATED, "sm_90a"), ("pass_alias_tx_hop", CHECKED, "sm_90a")):
    cu = out / f"{name}.cu"
    subprocess.run([generic.CAKEC, f"--target={target}", *flags, f"testsuite/gates/safety/{name}.cake", "-o", str(cu)],
                   check=True)
    calls, why = generic.calls_for(cu.read_text(), cu.name)
    if calls is None:
        sys.exit(f"{name}: no runner: {why}")
    (out / f"{name}.main.cu").write_text(generic.MAIN % {"cu": cu.name, "calls": calls})
    print(out / f"{name}.main.cu")
