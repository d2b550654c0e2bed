# Tile parameters the project's schedules share.
from stdlib.hopper import WGMMA_M, WGMMA_N_MAX, SWIZZLE_128B_BF16_K

BM = 2 * WGMMA_M
BN = WGMMA_N_MAX
BK = SWIZZLE_128B_BF16_K
STAGES = 3
