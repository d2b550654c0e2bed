# The sweep of 2026-12-01 behind examples/gemm_bf16_family_sm90a.cake's
# routes: every shape with M > 128 on one schedule, chosen by -DBIG=...:
#   0: persistent 128x256 (3 stages)   1: one tile per block, 128x256 (3 stages)
#   2: one tile per block, 128x128 (5 stages)   3: persistent 128x128 (5 stages)
# M <= 64 takes the 64-row decode schedule, M <= 128 its 128-row instance.
# cakec -I examples -DBIG=N bench/results/gemm_family_2026-12-01/family_sweep_sm90a.cake -o ...
# target: sm_90a
from gemm_bf16_decode_sm90a import gemm_bf16_decode as decode
from gemm_bf16_persistent_sm90a import gemm_bf16 as persistent
from gemm_bf16_sm90a import gemm_bf16 as tiled
decode128 = cake.instantiate("gemm_bf16_decode_sm90a", BM=128, STAGES=8)
small = cake.instantiate("gemm_bf16_sm90a", BN=128, STAGES=5)
small_persistent = cake.instantiate("gemm_bf16_persistent_sm90a", BN=128, STAGES=5)

BIG = 0

@cake.family
def gemm_bf16(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(decode, when=M <= 64)
    lm.route(decode128.gemm_bf16_decode, when=M <= 128)
    if BIG == 0:
        lm.route(persistent, when=M > 128)
    elif BIG == 1:
        lm.route(tiled, when=M > 128)
    elif BIG == 2:
        lm.route(small.gemm_bf16, when=M > 128)
    else:
        lm.route(small_persistent.gemm_bf16, when=M > 128)
    lm.fallback(tiled)
