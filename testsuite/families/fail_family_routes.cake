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

# Remainders of three parameters, 2 x 2 x 2 cells once each parameter's
# values are merged by what its comparisons say: the one shape class no
# route takes (M % 2048 == 0, N % 1024 == 0, K % 4096 != 0) is still found,
# with the first shape of it.
@cake.family
def residue_gap(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(decode, when=M % 2048 == 0 and N % 1024 == 0 and K % 4096 == 0)
    lm.route(persistent, when=M % 2048 != 0 or N % 1024 != 0)
    lm.fallback(tiled)  # expected-warning {{shapes of the domain of family 'residue_gap' reach only its fallback 'tiled', for example M = 2048, N = 1024, K = 8}}

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

# Cells on which each parameter's comparisons come out differently: 102
# values of each parameter (101 remainders and the rest), 102^3 cells, over
# 2^20. (Remainders alone no longer multiply the cells: M % 2048 == 0 and
# N % 1024 == 0 and K % 4096 == 0 leaves 2 x 2 x 2, tested in
# pass_family_routes.cake.)
@cake.family
def many_cells(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):  # expected-error {{cannot prove which routes of family 'many_cells' are reachable and which shapes reach only the fallback: the guards split the domain into more than 1048576 cells}}
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    lm.route(decode, when=M % 4096 == 1 or M % 4096 == 2 or M % 4096 == 3 or M % 4096 == 4 or M % 4096 == 5 or M % 4096 == 6 or M % 4096 == 7 or M % 4096 == 8 or M % 4096 == 9 or M % 4096 == 10 or M % 4096 == 11 or M % 4096 == 12 or M % 4096 == 13 or M % 4096 == 14 or M % 4096 == 15 or M % 4096 == 16 or M % 4096 == 17 or M % 4096 == 18 or M % 4096 == 19 or M % 4096 == 20 or M % 4096 == 21 or M % 4096 == 22 or M % 4096 == 23 or M % 4096 == 24 or M % 4096 == 25 or M % 4096 == 26 or M % 4096 == 27 or M % 4096 == 28 or M % 4096 == 29 or M % 4096 == 30 or M % 4096 == 31 or M % 4096 == 32 or M % 4096 == 33 or M % 4096 == 34 or M % 4096 == 35 or M % 4096 == 36 or M % 4096 == 37 or M % 4096 == 38 or M % 4096 == 39 or M % 4096 == 40 or M % 4096 == 41 or M % 4096 == 42 or M % 4096 == 43 or M % 4096 == 44 or M % 4096 == 45 or M % 4096 == 46 or M % 4096 == 47 or M % 4096 == 48 or M % 4096 == 49 or M % 4096 == 50 or M % 4096 == 51 or M % 4096 == 52 or M % 4096 == 53 or M % 4096 == 54 or M % 4096 == 55 or M % 4096 == 56 or M % 4096 == 57 or M % 4096 == 58 or M % 4096 == 59 or M % 4096 == 60 or M % 4096 == 61 or M % 4096 == 62 or M % 4096 == 63 or M % 4096 == 64 or M % 4096 == 65 or M % 4096 == 66 or M % 4096 == 67 or M % 4096 == 68 or M % 4096 == 69 or M % 4096 == 70 or M % 4096 == 71 or M % 4096 == 72 or M % 4096 == 73 or M % 4096 == 74 or M % 4096 == 75 or M % 4096 == 76 or M % 4096 == 77 or M % 4096 == 78 or M % 4096 == 79 or M % 4096 == 80 or M % 4096 == 81 or M % 4096 == 82 or M % 4096 == 83 or M % 4096 == 84 or M % 4096 == 85 or M % 4096 == 86 or M % 4096 == 87 or M % 4096 == 88 or M % 4096 == 89 or M % 4096 == 90 or M % 4096 == 91 or M % 4096 == 92 or M % 4096 == 93 or M % 4096 == 94 or M % 4096 == 95 or M % 4096 == 96 or M % 4096 == 97 or M % 4096 == 98 or M % 4096 == 99 or M % 4096 == 100 or M % 4096 == 101)
    lm.route(decode, when=N % 4096 == 8 or N % 4096 == 16 or N % 4096 == 24 or N % 4096 == 32 or N % 4096 == 40 or N % 4096 == 48 or N % 4096 == 56 or N % 4096 == 64 or N % 4096 == 72 or N % 4096 == 80 or N % 4096 == 88 or N % 4096 == 96 or N % 4096 == 104 or N % 4096 == 112 or N % 4096 == 120 or N % 4096 == 128 or N % 4096 == 136 or N % 4096 == 144 or N % 4096 == 152 or N % 4096 == 160 or N % 4096 == 168 or N % 4096 == 176 or N % 4096 == 184 or N % 4096 == 192 or N % 4096 == 200 or N % 4096 == 208 or N % 4096 == 216 or N % 4096 == 224 or N % 4096 == 232 or N % 4096 == 240 or N % 4096 == 248 or N % 4096 == 256 or N % 4096 == 264 or N % 4096 == 272 or N % 4096 == 280 or N % 4096 == 288 or N % 4096 == 296 or N % 4096 == 304 or N % 4096 == 312 or N % 4096 == 320 or N % 4096 == 328 or N % 4096 == 336 or N % 4096 == 344 or N % 4096 == 352 or N % 4096 == 360 or N % 4096 == 368 or N % 4096 == 376 or N % 4096 == 384 or N % 4096 == 392 or N % 4096 == 400 or N % 4096 == 408 or N % 4096 == 416 or N % 4096 == 424 or N % 4096 == 432 or N % 4096 == 440 or N % 4096 == 448 or N % 4096 == 456 or N % 4096 == 464 or N % 4096 == 472 or N % 4096 == 480 or N % 4096 == 488 or N % 4096 == 496 or N % 4096 == 504 or N % 4096 == 512 or N % 4096 == 520 or N % 4096 == 528 or N % 4096 == 536 or N % 4096 == 544 or N % 4096 == 552 or N % 4096 == 560 or N % 4096 == 568 or N % 4096 == 576 or N % 4096 == 584 or N % 4096 == 592 or N % 4096 == 600 or N % 4096 == 608 or N % 4096 == 616 or N % 4096 == 624 or N % 4096 == 632 or N % 4096 == 640 or N % 4096 == 648 or N % 4096 == 656 or N % 4096 == 664 or N % 4096 == 672 or N % 4096 == 680 or N % 4096 == 688 or N % 4096 == 696 or N % 4096 == 704 or N % 4096 == 712 or N % 4096 == 720 or N % 4096 == 728 or N % 4096 == 736 or N % 4096 == 744 or N % 4096 == 752 or N % 4096 == 760 or N % 4096 == 768 or N % 4096 == 776 or N % 4096 == 784 or N % 4096 == 792 or N % 4096 == 800 or N % 4096 == 808)
    lm.route(decode, when=K % 4096 == 8 or K % 4096 == 16 or K % 4096 == 24 or K % 4096 == 32 or K % 4096 == 40 or K % 4096 == 48 or K % 4096 == 56 or K % 4096 == 64 or K % 4096 == 72 or K % 4096 == 80 or K % 4096 == 88 or K % 4096 == 96 or K % 4096 == 104 or K % 4096 == 112 or K % 4096 == 120 or K % 4096 == 128 or K % 4096 == 136 or K % 4096 == 144 or K % 4096 == 152 or K % 4096 == 160 or K % 4096 == 168 or K % 4096 == 176 or K % 4096 == 184 or K % 4096 == 192 or K % 4096 == 200 or K % 4096 == 208 or K % 4096 == 216 or K % 4096 == 224 or K % 4096 == 232 or K % 4096 == 240 or K % 4096 == 248 or K % 4096 == 256 or K % 4096 == 264 or K % 4096 == 272 or K % 4096 == 280 or K % 4096 == 288 or K % 4096 == 296 or K % 4096 == 304 or K % 4096 == 312 or K % 4096 == 320 or K % 4096 == 328 or K % 4096 == 336 or K % 4096 == 344 or K % 4096 == 352 or K % 4096 == 360 or K % 4096 == 368 or K % 4096 == 376 or K % 4096 == 384 or K % 4096 == 392 or K % 4096 == 400 or K % 4096 == 408 or K % 4096 == 416 or K % 4096 == 424 or K % 4096 == 432 or K % 4096 == 440 or K % 4096 == 448 or K % 4096 == 456 or K % 4096 == 464 or K % 4096 == 472 or K % 4096 == 480 or K % 4096 == 488 or K % 4096 == 496 or K % 4096 == 504 or K % 4096 == 512 or K % 4096 == 520 or K % 4096 == 528 or K % 4096 == 536 or K % 4096 == 544 or K % 4096 == 552 or K % 4096 == 560 or K % 4096 == 568 or K % 4096 == 576 or K % 4096 == 584 or K % 4096 == 592 or K % 4096 == 600 or K % 4096 == 608 or K % 4096 == 616 or K % 4096 == 624 or K % 4096 == 632 or K % 4096 == 640 or K % 4096 == 648 or K % 4096 == 656 or K % 4096 == 664 or K % 4096 == 672 or K % 4096 == 680 or K % 4096 == 688 or K % 4096 == 696 or K % 4096 == 704 or K % 4096 == 712 or K % 4096 == 720 or K % 4096 == 728 or K % 4096 == 736 or K % 4096 == 744 or K % 4096 == 752 or K % 4096 == 760 or K % 4096 == 768 or K % 4096 == 776 or K % 4096 == 784 or K % 4096 == 792 or K % 4096 == 800 or K % 4096 == 808)
    lm.fallback(tiled)
