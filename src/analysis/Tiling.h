// Tiling: how a register tile is spread over a role's threads for the
// tensor-core path that produces it. One definition, read by the
// hardware-compliance gate (is the MMA's accumulator legal?) and by codegen
// (where does each element live?).
#pragma once

#include <cstdint>
#include <string>

#include "sema/SemaIR.h"

namespace cake::analysis {

// One fragment layout for every register-accumulator path: a role of whole
// warpgroups holds an M x N tile, each warpgroup M / W rows in blocks of 64;
// within a block warp w holds rows 16w..16w+15 and thread `lane` element i
// at row 16w + lane/4 + 8*((i/2)%2), column 8*(i/4) + 2*(lane%4) + i%2.
// It is wgmma's accumulator layout, and mma.sync's m16n8 C fragment tiled
// over n8 tiles, so fragment math and stores are written once. Each path
// says which tiles it can hold (accumulatorTiling): wgmma N <= 256 in steps
// of 8; mma.sync N in steps of 16 (its B operand comes in pairs of n8 tiles
// from one ldmatrix.x4). tcgen05 keeps its accumulator in TMEM.

// wgmma (sm_90a): one m64nNk16 instruction per warpgroup and 64 rows.
inline constexpr int64_t kWgmmaM = 64;
inline constexpr int64_t kWgmmaNStep = 8;
inline constexpr int64_t kWgmmaNMax = 256;

struct WgmmaTiling {
  bool ok = false;
  std::string problem;     // why not, when !ok ("N = 12 must be ...")
  int64_t warpgroups = 0;  // of the role
  int64_t perThread = 0;   // accumulator elements each thread holds
};

// The wgmma accumulator tiling of an M x N tile held by a role of whole
// warpgroups: M a multiple of 64 per warpgroup, N a multiple of 8 from 8 to
// 256. (Warpgroup alignment of the role is checked separately.)
WgmmaTiling wgmmaTiling(const std::vector<int64_t> &shape, const sema::Resource &role);

// mma.sync (sm_80, sm_89, sm_120a, sm_121a) in the same layout: M a multiple
// of 64 per warpgroup, N a positive multiple of 16.
inline constexpr int64_t kMmaSyncNStep = 16;
WgmmaTiling mmaSyncTiling(const std::vector<int64_t> &shape, const sema::Resource &role);

// tcgen05 (sm_100a, sm_103a) keeps its accumulator in TMEM; its register
// fragments take the layout of tcgen05.ld's 32x32b shape (PTX ISA
// 9.7.16.8.1): warp w reads TMEM lanes 32 * (w % 4) to 32 * (w % 4) + 31, so
// a role of four warps, one per quarter (any four consecutive warps), holds a
// 128 x N tile with row 32 * (warp % 4) + lane in each thread, all N columns.
inline constexpr int64_t kTmemLanes = 128;
WgmmaTiling lanesTiling(const std::vector<int64_t> &shape, const sema::Resource &role);

// The register fragment tiling of a tensor-core path: wgmmaTiling,
// mmaSyncTiling or, for tcgen05, lanesTiling.
WgmmaTiling accumulatorTiling(MmaPath path, const std::vector<int64_t> &shape, const sema::Resource &role);

// How any register fragment of the wgmma path is spread over a role's
// threads: a tile in the accumulator layout (as wgmmaTiling), a row vector
// (M x 1: each thread holds the rows its tile elements sit in, two per
// m64 block, replicated over the four threads that share a row) or a column
// vector (1 x N: each thread the N / 4 columns its tile elements sit in,
// replicated over the threads that share them).
// Scalar: a 1 x 1 fragment in the accumulator layout, the one value every
// thread holds (a broadcast operand: a scale per tile).
enum class FragmentForm : uint8_t { Tile, RowVector, ColumnVector, Scalar };
struct FragmentTiling {
  bool ok = false;
  std::string problem;
  FragmentForm form = FragmentForm::Tile;
  int64_t warpgroups = 0;
  int64_t rowsPerWarpgroup = 0;  // tiles and row vectors
  int64_t mBlocks = 0;           // m64 blocks per warpgroup
  int64_t cols = 0;              // tiles and column vectors
  int64_t perThread = 0;         // elements each thread holds
  bool lanes = false;            // tcgen05's one-row-per-thread layout (lanesTiling), not wgmma's
  // The rows layout (sema::FragmentLayout::Rows), on every path: warp w of
  // the role's W holds rows w * R / W .. (w + 1) * R / W - 1 of an R x N
  // tile; lane l of it the columns 256 j + 8 l .. 256 j + 8 l + 7 of each,
  // element i of its array at row i / (N / 32) of its rows and column
  // 256 ((i % (N / 32)) / 8) + 8 l + i % 8. A row vector (R x 1) holds the
  // warp's rows (every lane all of them), a column vector (1 x N) a lane's
  // columns (every warp the same).
  bool rows = false;
  int64_t rowsPerWarp = 0;
  // With warps_per_row = P > 1: warp w holds part w % P of the rows of row
  // group w / P: columns (w % P) N / P + 256 j + 8 l + e; a column vector
  // holds a warp's part. Row reductions combine the parts through shared
  // memory (Kernel::reduceScratch).
  int64_t warpsPerRow = 1;
  int64_t perRow = 0;  // elements of a row a lane holds: N / (32 P)
};
FragmentTiling fragmentTiling(MmaPath path, const std::vector<int64_t> &shape, const sema::Resource &role,
                              sema::FragmentLayout layout = sema::FragmentLayout::Accumulator, int64_t warpsPerRow = 1);
// The tiling of a declared or derived fragment (its shape, layout and warps per row).
inline FragmentTiling fragmentTiling(MmaPath path, const sema::Resource &frag, const sema::Resource &role) {
  return fragmentTiling(path, frag.shape, role, frag.layout, frag.warpsPerRow);
}

// Whether two generic accesses of one view through register fragments (the
// effects' threadElements: a fragment's store, a view's load) give each
// element of the view to the same thread of `role`: both tiles of one row
// count in one layout (a thread's elements sit at the same rows and column
// residues whatever the tile's width: the accumulator layout, or the lanes
// layout's one row per thread). A vector is replicated over threads (a row
// over four lanes, a column over every warp) and stored from one of them,
// so it never matches; nor does a fragment no layout holds.
bool sameThreadElements(MmaPath path, const sema::Kernel &k, sema::ResourceId role, const sema::Operation &a,
                        const sema::Operation &b);

// Whether each warpgroup of a role writes back, with the store `w` (a
// register fragment into a view), only rows its own part of the MMA `x`
// reads through operand `slot`: x's warpgroupRows operand (wgmma's A, not
// transposed), whose rows the lowering splits evenly over the role's
// warpgroups as it splits the accumulator, and a plain store of a fragment of
// as many rows (the same split) into that view, or into one that describes
// its bytes alike (same pool, offset, shape, dtype and swizzle, one stage),
// so that row i of one is row i of the other (ThunderKittens' attention
// writes O over the rows of Q it read), in the accumulator layout, whose
// warps hold the 16-row bands their part of the wgmma reads. Then each
// warpgroup's own MMA wait orders a store after the read, and a read after
// the store needs no meeting of the role: each warp's fence and warp sync
// (lm.fence_proxy() lowers to both) order its own stores, as
// FlashAttention-3 does for P. Empty when it does; else why not.
std::string warpgroupRowsMismatch(MmaPath path, const sema::Kernel &k, const sema::Operation &x, int8_t slot,
                                  const sema::Operation &w);

}  // namespace cake::analysis
