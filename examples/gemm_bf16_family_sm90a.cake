# A bf16 GEMM library on Hopper: C[M, N] = A[M, K] . B[N, K]^T for any M
# from 1 to 16384 and any N, K that are multiples of 8 (16-byte rows for
# TMA), as one family of schedules behind shape guards.
#
# The dispatcher `gemm_bf16_launch` (each schedule's C signature, and the
# split-K route's workspace: `void *workspace, size_t workspace_bytes`,
# sized by gemm_bf16_workspace_size) checks the shape against the declared
# domain and the tensors' declared shapes, then launches the first route
# whose guard holds:
#   - M <= 64 and N from 6145 to 7392 (110 to 132 blocks of 56 weight
#     rows: one full wave): the decode schedule (below).
#   - M <= 64, N from 2048 to 8192 and K >= 4096: the decode schedule with
#     the operands swapped (examples/gemm_bf16_decode_swap_sm90a.cake, 64
#     tokens per block: C^T = B . A^T, twice the weight bytes in flight per
#     block). On the H200 (bench/results/issue36_2026-12-05f, clean L2) it
#     took 35.5-36.3 us at N = 4096, K = 14336 where decode took 40.1-40.4,
#     35.0 at 64x8192x8192 where split-K took 40.8, 12.3 at N = K = 4096
#     against 13.3; at N = 7168, K = 4096 decode stays (16.9 against 17.4).
#   - at most 64 tiles of 128x128 (M <= 128 and N <= 8192, M <= 256 and
#     N <= 4096, M <= 512 and N <= 2048, M <= 1024 and N <= 1024) and
#     K >= 8192 for M <= 128, K >= 4096 above: split-K, two or more blocks per
#     tile, each a share of the K loop; the last to finish adds the partials
#     in a fixed order. With one block per tile such shapes leave most
#     multiprocessors idle: 0.67 of cuBLAS over the under-filled list of
#     bench/results/issue36_2026-12-03, 0.79 with this route. For M <= 128
#     at K = 4096 the decode schedule stays faster (N = 7168: 0.94-1.03 of
#     cuBLAS against 0.72-0.86). With -DDETERMINISTIC=False, products of
#     at most 8 such tiles (M <= 128, N <= 1024, K >= 8192; 16 blocks per
#     tile) take the split-K schedule whose blocks add their partials into
#     one f32 tile with TMA (-DREDUCE=True there): the last block then reads
#     one tile instead of 16 (0.52 -> 0.75 of cuBLAS at 128x1024x16384,
#     0.40 -> 0.64 at 100x1000x8192; slower wherever fewer blocks share a
#     tile: bench/results/splitk_reduce_2026-12-04), but the sum's order,
#     and its last bits, vary between launches (and since 2026-12-06 the
#     deterministic 64x64 routes below are faster there: 0.89 of cuBLAS at
#     128x1024x16384, where the TMA-addition form measured 0.74).
#     Where few tiles share a long K loop (M <= 128, N <= 2048, K >= 8192)
#     the split-K schedule takes 64x64 tiles (12 stages, at most 4 blocks
#     a tile), and for M > 64 in clusters of the two M-tiles sharing each B
#     stage (-DCM=2, multicast). With 128x128 tiles and 16 blocks a tile,
#     the last block's serial adding of 15 partials of 64 KB took 40% of
#     the time at 128x1024x16384 (bench/results/issue36_2026-12-06: the
#     same kernel without it); 64x64 tiles cut the partials to 16 KB and
#     the blocks a tile to 4, and the cluster halves B's reads from L2. On an
#     H100: 0.56 -> 0.89 of cuBLAS at 128x1024x16384, 0.44 -> 0.85 at
#     100x1000x8192, 0.72 -> 0.97 at 128x2048x8192, 0.43 -> 0.94 at
#     40x1000x8192 (no cluster); ahead of the swapped decode route at
#     N = 2048: 0.70 -> 0.90 at 1x2048x8192. The 128x128 split-K routes above M = 128
#     take clusters of two M-tiles where M's tiles pair up (M % 256 == 0 or
#     above 128): 0.97 -> 1.02 at 256x4096x14336, 0.82 -> 0.86 at
#     768x768x16384.
#   - M <= 64: the decode schedule. The product is bound by reading the
#     weight B once; it streams B through a 14-stage ring on 128 blocks.
#     Its 64-row box of A is cut to M rows at launch (TMA copies the real
#     rows instead of zero-filling the rest, which cost as much).
#   - M <= 128: the same schedule with 128-row A tiles (two consumer
#     warpgroups) and an 8-stage ring that fits beside them.
#   - M <= 256 and N <= 1024 (at most 64 tiles of 64x64): the decode
#     schedule with 64x64 tiles and 4 stages. Tiny products are bound by
#     latency, and more, smaller tiles spread it over more multiprocessors.
#   - M <= 1024 and N <= 1024: 128x64 tiles in 1x2 clusters that share A
#     (multicast). At most 64 tiles of 128x128 would leave half the
#     multiprocessors idle; 128x64 tiles fill them, and sharing A halves
#     A's reads from L2, which bound such shapes.
#   - M <= 1024: 128x128 tiles, one per block, 5 stages: small and ragged
#     shapes need more blocks than 128x256 tiles give. The same for M up to
#     1536 and N up to 1408 (at most 12 x 11 tiles: one wave of 132 blocks)
#     with K <= 8192. On an H100 (bench/results/issue36_2026-12-06c, one
#     process, against the routes before it) 0.67 -> 0.85 of cuBLAS at
#     1280x1280x8192, 0.69 -> 0.91 at 1536x1152x4096, 0.51 -> 0.86 at
#     1536x1024x2048, 0.38 -> 0.70 at 1500x600x8192, 0.72 -> 0.89 at
#     1200x1200x1024. Longer K and N up to 1536 measured mixed (0.98 against
#     1.07 at 1408x1408x16384, 0.63 against 0.66 at 1100x1496x12288, but 0.90
#     against 0.79 at 1408x1536x2048) and stay with the routes below.
#   - M from 1505 to 1536 and N from 1409 to 1536: 128x144 tiles in 2x1
#     clusters that share B, 5 stages: 12 x 10 or 12 x 11 tiles, one wave
#     of at most 132 blocks. On an H100 (bench/results/issue36_2026-12-06d,
#     the family with the route beside the family without it, one process
#     each, our times) 0.0917 -> 0.0860 ms at 1536x1536x12288, 0.1209 ->
#     0.1031 at 1536x1416x16384, 0.0338 -> 0.0307 at 1536x1536x4096; where
#     the last M-tile is short it measured slower (1416x1528x12288 0.0924 ->
#     0.1073, 1472x1472x8192 0.0621 -> 0.0657, 1440x1536x2048 0.0190 ->
#     0.0200; not explained) or the same (1504x1504x1024), so M stays
#     above 1504.
#   - M from 1025 to 1536 and N from 1025 to 1536, M from 1537 to 2048 and
#     N from 2881 to 3072: boxes where 128x192 tiles need no more waves of
#     132 blocks than 128x256 tiles do (1536x1536: 96 tiles against 72, one
#     wave each; 2000x3000: 256 against 192, two each; the guards compare one
#     parameter at a time, so the boxes, not the tile counts, are written):
#     the one-tile schedule with 128x192 tiles and 4 stages (cuBLAS's tile at
#     2000x3000), each multiprocessor doing three quarters of the work of a
#     128x256 wave. On an H100, against the routes before it
#     (bench/results/issue36_2026-12-06b, one process): 0.83 -> 0.91 of
#     cuBLAS at 2000x3000x1536, 0.73 -> 0.80 at 1536x1536x12288, 0.50 ->
#     0.67 at 1280x1280x8192 (the route above since), 0.79 -> 0.96 at
#     2048x3072x4096; a stream-K schedule
#     (examples/gemm_bf16_streamk_sm90a.cake) measured 0.57 at
#     1536x1536x12288.
#   - K <= 2048 and K % 64 == 0: the persistent 128x256 schedule (a
#     balanced grid of blocks walking the tiles; each tile's C is stored
#     under the next tile's wgmmas, which pays when the K loop is short).
#   - otherwise (K > 2048, or rows of A and B that do not start on 128-byte
#     lines): the same persistent schedule in 2-block clusters that share B
#     (multicast). With a long K loop the C store hides anyway, and halving
#     B's reads from L2 pays: 0.99 of cuBLAS at 4096^3, where the one-tile
#     schedule measured 0.96; where K % 64 != 0 it measured 0.69-0.98 of
#     cuBLAS where the ping-pong cluster schedule measured 0.59-0.90.
# The fallback, the one-tile 128x256 schedule, takes what no route does; the
# gates prove here that no shape of the domain reaches it (they report
# shapes that would, and routes no shape can reach). The split points come
# from the sweeps in bench/results/gemm_family_2026-12-01/ and
# bench/results/gemm_family_routes_2026-12-01/; the last two routes from
# bench/results/gemm_confirm_2026-12-01/.
#
# Every route's schedule is compiled into the output under the name it is
# bound to here (decode_launch, decode128_gemm_bf16_decode_launch, ...);
# cake.instantiate analyses a module again with some of its constants
# replaced, as -D would.
# target: sm_90a
from gemm_bf16_decode_sm90a import gemm_bf16_decode as decode
from gemm_bf16_persistent_sm90a import gemm_bf16 as persistent
from gemm_bf16_persistent_cluster_sm90a import gemm_bf16 as persistent_cluster
from gemm_bf16_sm90a import gemm_bf16 as tiled
from gemm_bf16_cluster_n_sm90a import gemm_bf16 as mid
from gemm_bf16_splitk_sm90a import gemm_bf16_splitk as splitk
decode128 = cake.instantiate("gemm_bf16_decode_sm90a", BM=128, STAGES=8)
tiny = cake.instantiate("gemm_bf16_decode_sm90a", BN=64, STAGES=4, OVERLAP=False)  # not measured with one in flight
small = cake.instantiate("gemm_bf16_sm90a", BN=128, STAGES=5)
splitk_add = cake.instantiate("gemm_bf16_splitk_sm90a", REDUCE=True)
splitk_pair = cake.instantiate("gemm_bf16_splitk_sm90a", CM=2)  # two M-tiles a cluster, sharing B
splitk64 = cake.instantiate("gemm_bf16_splitk_sm90a", BM=64, BN=64, STAGES=12, SPLIT=4)
splitk64_pair = cake.instantiate("gemm_bf16_splitk_sm90a", BM=64, BN=64, STAGES=12, SPLIT=4, CM=2)
DETERMINISTIC = True  # False: the split-K route of at most 8 tiles adds its partials with TMA
swap = cake.instantiate("gemm_bf16_decode_swap_sm90a", NT=64, STAGES=13)
wide = cake.instantiate("gemm_bf16_sm90a", BN=192, STAGES=4)  # 128x192 tiles, one a block
wave144 = cake.instantiate("gemm_bf16_cluster_n_sm90a", CM=2, BN=144, STAGES=5)  # 128x144 tiles in 2x1 clusters sharing B

@cake.family
def gemm_bf16(lm, A: LM.tma2d[M, K], B: LM.tma2d[N, K], C: LM.tma2d[M, N], M: LM.i32, N: LM.i32, K: LM.i32):
    lm.domain(M, 1, 16384)
    lm.domain(N, 8, 65536, multiple=8)
    lm.domain(K, 8, 65536, multiple=8)
    if not DETERMINISTIC:
        lm.route(splitk_add.gemm_bf16_splitk, when=M <= 128 and N <= 1024 and K >= 8192)
    lm.route(decode, when=M <= 64 and N > 6144 and N <= 7392)
    lm.route(splitk64.gemm_bf16_splitk, when=M <= 64 and N <= 2048 and K >= 8192)
    lm.route(swap.gemm_bf16_decode_swap, when=M <= 64 and N >= 2048 and N <= 8192 and K >= 4096)
    lm.route(splitk64_pair.gemm_bf16_splitk, when=M <= 128 and N <= 2048 and K >= 8192)
    lm.route(splitk, when=M <= 128 and N <= 8192 and K >= 8192)
    lm.route(splitk_pair.gemm_bf16_splitk, when=M > 128 and M <= 1024 and (M % 256 == 0 or M % 256 > 128) and (M <= 256 and N <= 4096 or M <= 512 and N <= 2048 or N <= 1024) and K >= 4096)
    lm.route(splitk, when=M > 128 and M <= 512 and N <= 2048 and K >= 4096)
    lm.route(splitk, when=M > 128 and M <= 1024 and N <= 1024 and K >= 4096)
    lm.route(decode, when=M <= 64)
    lm.route(decode128.gemm_bf16_decode, when=M <= 128)
    lm.route(tiny.gemm_bf16_decode, when=M <= 256 and N <= 1024)
    lm.route(mid, when=M <= 1024 and N <= 1024)
    lm.route(small.gemm_bf16, when=M <= 1024)
    lm.route(small.gemm_bf16, when=M <= 1536 and N <= 1408 and K <= 8192)
    lm.route(wave144.gemm_bf16, when=M > 1504 and M <= 1536 and N > 1408 and N <= 1536)
    lm.route(wide.gemm_bf16, when=M > 1024 and M <= 1536 and N > 1024 and N <= 1536)
    lm.route(wide.gemm_bf16, when=M > 1536 and M <= 2048 and N > 2880 and N <= 3072)
    lm.route(persistent, when=K <= 2048 and K % 64 == 0)
    lm.route(persistent_cluster, when=K > 2048 or K % 64 != 0)
    lm.fallback(tiled)
