# A candidate for examples/gemm_bf16_family_sm90a.cake (not yet run on the
# GPU): the same routes, with the persistent cluster schedule
# (examples/gemm_bf16_persistent_cluster_sm90a.cake) on K > 2048 instead of
# the one-tile schedule, which stays the fallback. Compile with -I examples.
# Plan: bench/results/gemm_pcc_2026-12-01/README.md ("Left").
# target: sm_90a
from gemm_bf16_decode_sm90a import gemm_bf16_decode as decode
from gemm_bf16_persistent_sm90a import gemm_bf16 as persistent
from gemm_bf16_persistent_cluster_sm90a import gemm_bf16 as persistent_cluster
from gemm_bf16_sm90a import gemm_bf16 as tiled
from gemm_bf16_pingpong_cluster_sm90a import gemm_bf16 as pingpong
from gemm_bf16_cluster_n_sm90a import gemm_bf16 as mid
decode128 = cake.instantiate("gemm_bf16_decode_sm90a", BM=128, STAGES=8)
tiny = cake.instantiate("gemm_bf16_decode_sm90a", BN=64, STAGES=4)
small = cake.instantiate("gemm_bf16_sm90a", BN=128, STAGES=5)

@cake.family
def gemm_bf16(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(decode, when=M <= 64)
    lm.route(decode128.gemm_bf16_decode, when=M <= 128)
    lm.route(tiny.gemm_bf16_decode, when=M <= 256 and N <= 1024)
    lm.route(mid, when=M <= 1024 and N <= 1024)
    lm.route(small.gemm_bf16, when=M <= 1024)
    lm.route(pingpong, when=K % 64 != 0)
    lm.route(persistent, when=K <= 2048)
    lm.route(persistent_cluster, when=K > 2048)
    lm.fallback(tiled)
