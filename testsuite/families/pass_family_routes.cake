# Near misses of fail_family_routes.cake that pass: guards that meet
# exactly (M <= 64, then M >= 65), complementary remainders, a remainder the
# domain already fixes, a guard through floor division, and a later route
# that takes what an earlier one leaves (K % 64 != 0 after K % 64 == 0),
# and remainders of three parameters whose residues alone would make
# 2048 x 128 x 512 cells (2 x 2 x 2 by what the comparisons say).
# The fallback of each is reached by no shape: no gap is reported.
# RUN: %cakec -verify -fsyntax-only -I %srcroot/examples %s
# expected-no-diagnostics
from gemm_bf16_decode_sm90a import gemm_bf16_decode as decode
from gemm_bf16_sm90a import gemm_bf16 as tiled
from gemm_bf16_persistent_sm90a import gemm_bf16 as persistent

BM = 128

@cake.family
def adjacent(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(decode, when=M <= 64)
    lm.route(persistent, when=M >= 65)
    lm.fallback(tiled)

@cake.family
def remainders(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(persistent, when=K % 64 == 0 and M > 64)
    lm.route(tiled, when=K % 64 != 0 and M > 64)
    lm.route(decode, when=N % 8 == 0)
    lm.fallback(tiled)

@cake.family
def tiles(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(decode, when=(M + BM - 1) // BM == 1)
    lm.route(persistent, when=not M <= BM)
    lm.fallback(tiled)

@cake.family
def residues3(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(decode, when=M % 2048 == 0 and N % 1024 == 0 and K % 4096 == 0)
    lm.route(persistent, when=M % 2048 != 0 or N % 1024 != 0 or K % 4096 != 0)
    lm.fallback(tiled)
