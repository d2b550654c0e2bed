# A bf16 GEMM library on Hopper: C[M, N] = A[M, K] . B[N, K]^T for any M
# from 1 to 16384 and any N, K that are multiples of 8 (16-byte rows for
# TMA), as one family of schedules behind shape guards.
#
# The dispatcher `gemm_bf16_launch` (same C signature as each schedule's
# launcher) checks the shape against the declared domain and the tensors'
# declared shapes, then launches the first route whose guard holds:
#   - M <= 128: the decode schedule. The product is bound by reading the
#     weight B once; it streams B through a 14-stage ring on 128 blocks,
#     with 64-row A tiles (M = 65 .. 128 takes two tile rows).
#   - larger M: the persistent 128x256 schedule (one block per
#     multiprocessor walking the tiles, the next tile's loads under the last
#     one's epilogue).
# The fallback, the 128x256 schedule with one tile per block, takes what no
# route does; the gates prove here that no shape of the domain reaches it
# (they report shapes that would, and routes no shape can reach).
#
# Every route's schedule is compiled into the output under the name it is
# bound to here (decode_launch, persistent_launch, tiled_launch).
# target: sm_90a
from gemm_bf16_decode_sm90a import gemm_bf16_decode as decode
from gemm_bf16_persistent_sm90a import gemm_bf16 as persistent
from gemm_bf16_sm90a import gemm_bf16 as tiled

DECODE_MAX_M = 128

@cake.family
def gemm_bf16(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(decode, when=M <= DECODE_MAX_M)
    lm.route(persistent, when=M > DECODE_MAX_M)
    lm.fallback(tiled)
