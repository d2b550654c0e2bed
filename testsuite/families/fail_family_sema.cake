# What a family's body may say, and what it may not: the family statements
# only in a family, a schedule's declarations and operations only in a
# schedule, domains of integer parameters that contain a shape, one fallback
# after the routes, and names that stay distinct in the generated code.
# RUN: %cakec -verify -fsyntax-only -I %srcroot/examples %s
from gemm_bf16_decode_sm90a import gemm_bf16_decode as decode
from gemm_bf16_sm90a import gemm_bf16 as tiled
from gemm_bf16_persistent_sm90a import gemm_bf16

@cake.family
def gemm(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    lm.domain(M, 0, 16384)  # expected-error {{invalid domain for 'M': its lower bound 0 is not positive}}
    lm.domain(N, 8, 4, multiple=8)  # expected-error {{invalid domain for 'N': no multiple of 8 lies in 8 .. 4}}
    lm.domain(K, 8, 65536, multiple=8)  # expected-note {{previous definition of 'K' is here}}
    lm.domain(K, 8, 1024)  # expected-error {{invalid domain for 'K': it is declared twice}}
    lm.domain(M + 1, 1, 2)  # expected-error {{invalid domain for 'M + 1': it is not an integer parameter of the family}}
    lm.domain(M, 1, 4294967296)  # expected-error {{invalid domain for 'M': its upper bound 4294967296 does not fit the 32-bit parameter}}
    pool = lm.smem(1024)  # expected-error {{'lm.smem' is part of a schedule; a family only routes shapes to schedules}}
    lm.role_sync()  # expected-error {{'lm.role_sync' is part of a schedule; a family only routes shapes to schedules}}
    lm.route(M <= 64, when=M <= 64)  # expected-error {{argument 'schedule' of 'lm.route' must be a schedule (defined in this file or imported)}}
    lm.route(decode, when=M <= 64)
    lm.fallback(tiled)  # expected-note {{'lm.fallback' declared here}} expected-note {{previous definition of 'lm.fallback' is here}}
    lm.route(gemm_bf16, when=M > 64)  # expected-error {{a route after the fallback of family 'gemm'}}
    lm.fallback(decode)  # expected-error {{family 'gemm' has a fallback already; a family has one}}

# A family's dispatcher is named after the family: here it would be the
# imported schedule's launcher too.
@cake.family
def gemm_bf16(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):  # expected-error {{'gemm_bf16' names both the imported schedule 'gemm_bf16' and the family 'gemm_bf16' in the generated code}}
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(gemm_bf16, when=M > 64)  # expected-note {{'gemm_bf16' declared here}}
    lm.fallback(tiled)

@cake.family(grid=(1,))  # expected-error {{'cake.family' takes no arguments}}
def other(lm, M: LM.i32):
    lm.domain(M, 1, 64, multiple=0)  # expected-error {{invalid domain for 'M': 'multiple' is 0; it must be positive}}
    lm.fallback(tiled)

# Regression (found by FuzzPipeline, UBSan: signed overflow): bounds and
# multiples at the edge of int64 are refused, never rounded past it.
@cake.family
def edges(lm, M: LM.i32, N: LM.i32):
    lm.domain(M, 9223372036854775807, 16, multiple=8)  # expected-error {{invalid domain for 'M': no multiple of 8 lies in 9223372036854775807 .. 16}}
    lm.domain(N, 2, 64, multiple=9223372036854775807)  # expected-error {{invalid domain for 'N': no multiple of 9223372036854775807 lies in 2 .. 64}}
    lm.fallback(tiled)

@cake.schedule()
def k(lm):
    r = lm.role(warps=[0])
    lm.domain(1, 1, 2)  # expected-error {{'lm.domain' belongs in a '@cake.family' function, not in a schedule}}
    with r:
        lm.role_sync()
