# Families whose routes' schedules disagree with the family's launcher
# signature (family_signatures.test checks the diagnostics and their notes,
# which point into the schedules' own files).
from gemm_bf16_decode_sm90a import gemm_bf16_decode as decode
from gemm_bf16_sm90a import gemm_bf16 as tiled

# The family declares B as K x N; the schedules read it as N x K.
@cake.family
def transposed(lm, A: LM.tma2d[M, K], B: LM.tma2d[K, N], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(decode, when=M <= 64)
    lm.fallback(tiled)

# A parameter more, one of another type, one of another name.
@cake.family
def wider(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32, alpha: LM.f32):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(decode, when=alpha > 0.5)
    lm.fallback(tiled)

@cake.family
def retyped(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i64):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.fallback(tiled)

@cake.family
def renamed(lm, A: LM.tma2d, B: LM.tma2d, C: LM.tma2d, M: LM.i32, N: LM.i32, D: LM.i32):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(D, 8, 65536, multiple=8)
    lm.fallback(tiled)

