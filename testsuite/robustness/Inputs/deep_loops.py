"""Writes a schedule whose role nests D loops, each with a fence and a role
sync under `if jD > 0:` and the innermost storing a view that the next
iteration's TMA store reads (and a fenced store before and a TMA store
after the nest): every path rule walks every loop. Usage:
deep_loops.py D > file.cake"""
import sys

D = int(sys.argv[1])
out = [
    "@cake.schedule(grid=(n,))",
    "def deep(lm, O: LM.tma2d, n: LM.i32):",
    "    pool = lm.smem(65536)",
    '    o_s = pool.view(offset=0, shape=(64, 64), dtype=lm.bf16, swizzle="128B")',
    "    math = lm.role(warps=[0, 1, 2, 3])",
    "    s = lm.regs(shape=(64, 64), dtype=lm.bf16, role=math)",
    "    with math:",
    "        s = lm.fill(s, 1.0)",
    "        o_s.store(s)",
    "        lm.fence_proxy()",
    "        lm.role_sync()",
]
ind = " " * 8
for d in range(D):
    out.append(f"{ind}for j{d} in lm.range(0, n):")
    ind += "    "
    out += [f"{ind}if j{d} > 0:", f"{ind}    lm.fence_proxy()", f"{ind}    lm.role_sync()"]
out += [f"{ind}o_s.tma_store(O, coords=(0, lm.block_id(0) * 64))", f"{ind}lm.tma_store_wait()", f"{ind}lm.role_sync()", f"{ind}o_s.store(s)"]
out += ["        lm.fence_proxy()", "        lm.role_sync()", "        o_s.tma_store(O, coords=(0, lm.block_id(0) * 64))", "        lm.tma_store_wait()"]
print("\n".join(out))
