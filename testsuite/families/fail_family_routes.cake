# The family gate: over the declared domain, every route takes some shape
# no earlier route takes, shapes reaching only the fallback are reported
# with an example, a family has a fallback, and every route's schedule has
# the family's launcher signature (family_signatures.test). Guards that
# compare several parameters are not decided: -Wunproven says so.
# pass_family_routes.cake holds the near misses that pass.
# RUN: %cakec -verify -fsyntax-only -I %srcroot/examples %s
from gemm_bf16_decode_sm90a import gemm_bf16_decode as decode
from gemm_bf16_sm90a import gemm_bf16 as tiled
from gemm_bf16_persistent_sm90a import gemm_bf16 as persistent

# Off by one: M = 65 reaches only the fallback.
@cake.family
def holes(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(decode, when=M <= 64)
    lm.route(persistent, when=M >= 66)
    lm.fallback(tiled)  # expected-warning {{shapes of the domain of family 'holes' reach only its fallback 'tiled', for example M = 65, N = 8, K = 8}}

# K % 128 == 0 implies K % 64 == 0: the second route is never taken; the
# third asks for an M outside the domain; a remainder of N the domain rules
# out (N a multiple of 8) is never taken either.
@cake.family
def covered(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(persistent, when=K % 64 == 0)  # expected-note {{route 'persistent' takes these shapes first}}
    lm.route(decode, when=K % 128 == 0 and M <= 64)  # expected-error {{route 'decode' of family 'covered' is never taken: earlier routes take every shape of the domain its guard admits}}
    lm.route(tiled, when=M > 16384)  # expected-error {{route 'tiled' of family 'covered' is never taken: no shape of the domain satisfies its guard}}
    lm.route(tiled, when=N % 8 == 4)  # expected-error {{route 'tiled' of family 'covered' is never taken: no shape of the domain satisfies its guard}}
    lm.fallback(tiled)  # expected-warning {{reach only its fallback 'tiled', for example M = 1, N = 8, K = 8}}

# No fallback: shapes with M > 64 would launch nothing.
@cake.family
def nofallback(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):  # expected-error {{family 'nofallback' has no fallback}}
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(decode, when=M <= 64)

# A guard over two parameters: not decided, and said so.
@cake.family
def area(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(decode, when=M * N <= 1048576)  # expected-error {{cannot prove which routes of family 'area' are reachable and which shapes reach only the fallback: 'M * N <= 1048576' compares several parameters}}
    lm.fallback(tiled)

# No domain for K: it ranges over every positive 32-bit value.
@cake.family
def open_k(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):  # expected-warning {{family 'open_k' declares no domain for 'K'}}
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.route(decode, when=M <= 64)
    lm.route(persistent, when=M > 64)
    lm.fallback(tiled)

# The floor-division guard of pass_family_routes.cake, one off: M = 129.
@cake.family
def tiles(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(decode, when=(M + 127) // 128 == 1)
    lm.route(persistent, when=M > 129)
    lm.fallback(tiled)  # expected-warning {{for example M = 129, N = 8, K = 8}}

# A guard the host cannot compute: the dispatcher runs before any block.
@cake.family
def on_device(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(decode, when=M <= 64 and lm.block_id(0) == 0)  # expected-error {{the guard of route 'decode' of family 'on_device' reads 'lm.block_id(0)': the dispatcher computes guards on the host, from comparisons of the family's integer parameters}}
    lm.fallback(tiled)

# Guards the cells cannot decide: a product that overflows 64 bits (its
# normal form has no operands left to evaluate) and a guard neither
# monotone in M nor a remainder of it.
@cake.family
def undecidable(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(decode, when=M * 4611686018427387904 * 4 == 0)  # expected-error {{cannot prove which routes of family 'undecidable' are reachable and which shapes reach only the fallback: 'M * 4611686018427387904 * 4 == 0' overflows 64 bits}}
    lm.fallback(tiled)

@cake.family
def notmonotone(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(persistent, when=(M % 3) * M > 5)  # expected-error {{cannot prove which routes of family 'notmonotone' are reachable and which shapes reach only the fallback: '(M % 3) * M > 5' is neither monotone in 'M' nor a remainder of it}}
    lm.fallback(tiled)

# Remainders of one parameter whose periods multiply past 4096 (64 and 4095):
# the cells would be too many to walk, and -Wunproven says why.
@cake.family
def periods(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(decode, when=M % 64 == 0)
    lm.route(tiled, when=M % 4095 == 1)  # expected-error {{cannot prove which routes of family 'periods' are reachable and which shapes reach only the fallback: the remainders in the guards of 'M' have a period over 4096}}
    lm.fallback(tiled)

# The domain's multiple (8) and a guard's modulus (1023) share a period over
# 4096.
@cake.family
def domain_period(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)  # expected-error {{cannot prove which routes of family 'domain_period' are reachable and which shapes reach only the fallback: the domain and remainders of 'K' have a period over 4096}}
    lm.route(decode, when=K % 1023 == 0)
    lm.fallback(tiled)

# Remainders of three parameters: 2048 x 128 x 512 cells, over 2^20.
@cake.family
def many_cells(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):  # expected-error {{cannot prove which routes of family 'many_cells' are reachable and which shapes reach only the fallback: the guards split the domain into more than 1048576 cells}}
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(decode, when=M % 2048 == 0 and N % 1024 == 0 and K % 4096 == 0)
    lm.fallback(tiled)
