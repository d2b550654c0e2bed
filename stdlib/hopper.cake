# stdlib/hopper.cake - facts of Hopper's (sm_90a) tensor-core path that
# schedules derive their tiles from, so the numbers have one home.
#
#   from stdlib.hopper import WGMMA_M, WGMMA_N_MAX, SWIZZLE_128B_BF16_K

WARPGROUP_WARPS = 4      # warps in a warpgroup; wgmma is issued by whole warpgroups
WGMMA_M = 64             # accumulator rows one warpgroup's wgmma produces
WGMMA_N_MAX = 256        # the widest wgmma N
WGMMA_K_BF16 = 16        # K of one bf16/f16 wgmma instruction
WGMMA_K_FP8 = 32         # K of one e4m3/e5m2 wgmma instruction
SWIZZLE_128B_BYTES = 128 # one row of a 128-byte swizzle pattern
BF16_BYTES = 2
SWIZZLE_128B_BF16_K = SWIZZLE_128B_BYTES // BF16_BYTES  # bf16 elements per swizzled row: 64
FP8_BYTES = 1
SWIZZLE_128B_FP8_K = SWIZZLE_128B_BYTES // FP8_BYTES    # e4m3/e5m2 elements per swizzled row: 128
TMA_BOX_MAX = 256        # the largest TMA box dimension
SMEM_PER_BLOCK = 232448  # opt-in dynamic shared memory per block, in bytes
