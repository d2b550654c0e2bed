# The measured variant of examples/gemm_bf16_family_sm90a.cake: M > 128 takes
# the 128x256 schedule with one tile per block instead of the persistent one.
# cakec -I examples bench/results/gemm_family_2026-12-01/family_tiled_sm90a.cake \
#   -o harness/gemm/generated/gemm_bf16_family_tiled_sm90a.cu
# target: sm_90a
from gemm_bf16_decode_sm90a import gemm_bf16_decode as decode
from gemm_bf16_persistent_sm90a import gemm_bf16 as persistent
from gemm_bf16_sm90a import gemm_bf16 as tiled

@cake.family
def gemm_bf16(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(decode, when=M <= 128)
    lm.route(tiled, when=M > 128)
    lm.fallback(persistent)
