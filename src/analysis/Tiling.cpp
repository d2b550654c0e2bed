// Tiling: see Tiling.h.
#include "analysis/Tiling.h"

#include <fmt/format.h>

#include "analysis/ScheduleModel.h"

namespace cake::analysis {

bool sameThreadElements(MmaPath path, const sema::Kernel &k, sema::ResourceId role, const sema::Operation &a,
                        const sema::Operation &b) {
  const sema::Resource &r = k.resource(role);
  FragmentTiling t[2];
  int64_t rows[2] = {0, 0};
  const sema::Operation *ops[2] = {&a, &b};
  for (int i = 0; i < 2; ++i) {
    sema::ResourceId f = effectResource(*ops[i], ops[i]->info().effects.threadElements);
    if (f == sema::kNoResource) return false;
    const sema::Resource &frag = k.resource(f);
    t[i] = fragmentTiling(path, frag, r);
    if (!t[i].ok || t[i].form != FragmentForm::Tile) return false;
    rows[i] = frag.shape[0];
  }
  // A transposed store puts a thread's elements elsewhere in the view: it
  // matches only another transposed store.
  return rows[0] == rows[1] && t[0].lanes == t[1].lanes && t[0].rows == t[1].rows &&
         t[0].warpsPerRow == t[1].warpsPerRow && a.transposedStore() == b.transposedStore();
}

WgmmaTiling wgmmaTiling(const std::vector<int64_t> &shape, const sema::Resource &role) {
  WgmmaTiling t;
  int64_t warps = static_cast<int64_t>(role.warps.size());
  t.warpgroups = warps / 4;
  if (shape.size() != 2) {
    t.problem = "the tile must be two-dimensional";
    return t;
  }
  int64_t m = shape[0], n = shape[1];
  if (t.warpgroups == 0 || warps % 4 != 0 || m <= 0 || m % (kWgmmaM * t.warpgroups) != 0) {
    t.problem = fmt::format("the accumulator has {} rows, not a multiple of {} per warpgroup of role '{}' "
                            "({} warpgroup(s))",
                            m, kWgmmaM, role.name, t.warpgroups);
    return t;
  }
  if (n % kWgmmaNStep != 0 || n < kWgmmaNStep || n > kWgmmaNMax) {
    t.problem =
        fmt::format("N = {} must be a multiple of {} between {} and {}", n, kWgmmaNStep, kWgmmaNStep, kWgmmaNMax);
    return t;
  }
  t.ok = true;
  t.perThread = m * n / (32 * warps);
  return t;
}

WgmmaTiling mmaSyncTiling(const std::vector<int64_t> &shape, const sema::Resource &role) {
  WgmmaTiling t = shape.size() == 2 && shape[1] > kWgmmaNMax
                      ? wgmmaTiling({shape[0], kWgmmaNStep}, role)  // wide N is fine here: check the rows
                      : wgmmaTiling(shape, role);
  if (!t.ok && t.problem.rfind("N = ", 0) != 0) return t;
  int64_t n = shape.size() == 2 ? shape[1] : 0;
  if (n % kMmaSyncNStep != 0 || n <= 0) {
    t.ok = false;
    t.problem = fmt::format("N = {} must be a positive multiple of {} (mma.sync takes B in pairs of n8 tiles)", n,
                            kMmaSyncNStep);
    return t;
  }
  t.ok = true;
  t.problem.clear();
  t.perThread = shape[0] * n / (32 * static_cast<int64_t>(role.warps.size()));
  return t;
}

WgmmaTiling lanesTiling(const std::vector<int64_t> &shape, const sema::Resource &role) {
  WgmmaTiling t;
  t.warpgroups = static_cast<int64_t>(role.warps.size()) / 4;
  // Warp w reads the lanes of quarter w % 4: four warps cover the 128 lanes
  // when their quarters differ (any four consecutive warps do).
  unsigned quarters = 0;
  for (int64_t w : role.warps) quarters |= 1u << (w % 4);
  if (role.warps.size() != 4 || quarters != 0xFu) {
    t.problem = fmt::format("a tcgen05 register tile is held by four warps, one per quarter of the TMEM lanes (warp w "
                            "reads lanes 32 * (w % 4) to 32 * (w % 4) + 31); role '{}' has {} warp(s)",
                            role.name, role.warps.size());
    return t;
  }
  if (shape.size() != 2 || shape[0] != kTmemLanes || shape[1] < 1) {
    t.problem = fmt::format("a tcgen05 register tile has {} rows, one per TMEM lane and thread", kTmemLanes);
    return t;
  }
  t.ok = true;
  t.perThread = shape[1];
  return t;
}

WgmmaTiling accumulatorTiling(MmaPath path, const std::vector<int64_t> &shape, const sema::Resource &role) {
  switch (path) {
  case MmaPath::MmaSync: return mmaSyncTiling(shape, role);
  case MmaPath::Wgmma: return wgmmaTiling(shape, role);
  case MmaPath::Tcgen05: return lanesTiling(shape, role);
  }
  return wgmmaTiling(shape, role);
}

// The rows layout (FragmentTiling::rows).
static FragmentTiling rowsTiling(const std::vector<int64_t> &shape, const sema::Resource &role, int64_t P) {
  FragmentTiling f;
  f.rows = true;
  f.warpsPerRow = P;
  int64_t warps = static_cast<int64_t>(role.warps.size());
  if (shape.size() != 2 || warps == 0) {
    f.problem = "a fragment in the rows layout is two-dimensional";
    return f;
  }
  if (P < 1 || warps % P != 0) {
    f.problem = fmt::format("warps_per_row={} does not divide the {} warps of role '{}'", P, warps, role.name);
    return f;
  }
  int64_t R = shape[0], N = shape[1], groups = warps / P;  // groups of P warps, each a share of the rows
  // One row held by all the role's warps (P of them) is a tile and a column
  // vector alike; its row reductions give 1 x 1 row vectors.
  if (shape[1] == 1)
    f.form = FragmentForm::RowVector;
  else if (shape[0] == 1 && groups > 1)
    f.form = FragmentForm::ColumnVector;
  if (f.form != FragmentForm::ColumnVector && R % groups != 0) {
    f.problem = fmt::format("the rows layout gives each of the {} of role '{}' as many whole rows; {} rows do not "
                            "divide among them",
                            P == 1 ? fmt::format("{} warps", warps) : fmt::format("{} groups of {} warps", groups, P),
                            role.name, R);
    return f;
  }
  if (f.form != FragmentForm::RowVector && N % (256 * P) != 0) {
    f.problem = fmt::format(
        "the rows layout gives each lane 8 consecutive columns of every 256{}; {} columns are not a "
        "multiple of 256{}",
        P > 1 ? " of its warp's part" : "", N, P > 1 ? fmt::format(" x {} warps per row", P) : std::string());
    return f;
  }
  f.ok = true;
  f.rowsPerWarp = f.form == FragmentForm::ColumnVector ? 0 : R / groups;
  f.cols = f.form == FragmentForm::RowVector ? 0 : N;
  f.perRow = N / (32 * P);
  f.perThread = f.form == FragmentForm::RowVector      ? f.rowsPerWarp
                : f.form == FragmentForm::ColumnVector ? f.perRow
                                                       : f.rowsPerWarp * f.perRow;
  return f;
}

FragmentTiling fragmentTiling(MmaPath path, const std::vector<int64_t> &shape, const sema::Resource &role,
                              sema::FragmentLayout layout, int64_t warpsPerRow) {
  if (layout == sema::FragmentLayout::Rows) return rowsTiling(shape, role, warpsPerRow);
  int64_t warpgroups = static_cast<int64_t>(role.warps.size()) / 4;
  FragmentTiling f;
  if (shape.size() == 2 && shape[0] == 1 && shape[1] == 1) {  // one value, every thread's, on every path
    f.form = FragmentForm::Scalar;
    f.ok = true;
    f.warpgroups = std::max<int64_t>(1, warpgroups);
    f.cols = 1;
    f.perThread = 1;
    return f;
  }
  if (path == MmaPath::Tcgen05) {
    f.lanes = true;
    if (shape.size() == 2 && (shape[0] == 1 || shape[1] == 1) && shape[0] * shape[1] > 1) {
      f.problem = "row and column vectors of the tcgen05 register layout are not lowered yet";
      return f;
    }
    WgmmaTiling t = lanesTiling(shape, role);
    f.ok = t.ok;
    f.problem = t.problem;
    f.warpgroups = 1;
    f.rowsPerWarpgroup = kTmemLanes;
    f.mBlocks = 0;
    f.cols = shape.size() == 2 ? shape[1] : 0;
    f.perThread = t.perThread;
    return f;
  }
  // A row vector has the rows of an M x 8 tile, a column vector the columns
  // of a 64 x N tile of each warpgroup.
  if (shape.size() == 2 && shape[1] == 1 && shape[0] > 1)
    f.form = FragmentForm::RowVector;
  else if (shape.size() == 2 && shape[0] == 1 && shape[1] > 1)
    f.form = FragmentForm::ColumnVector;
  std::vector<int64_t> tile = f.form == FragmentForm::RowVector ? std::vector<int64_t>{shape[0], kWgmmaNStep}
                              : f.form == FragmentForm::ColumnVector
                                  ? std::vector<int64_t>{kWgmmaM * warpgroups, shape[1]}
                                  : shape;
  // Vectors are sized by the rows (or columns) of the tiles they reduce or
  // broadcast into; their legality is the tile's of the path.
  WgmmaTiling t = f.form == FragmentForm::RowVector ? wgmmaTiling(tile, role) : accumulatorTiling(path, tile, role);
  f.ok = t.ok;
  f.problem = t.problem;
  f.warpgroups = t.warpgroups;
  if (!t.ok) return f;
  f.rowsPerWarpgroup = tile[0] / t.warpgroups;
  f.mBlocks = f.rowsPerWarpgroup / kWgmmaM;
  f.cols = tile[1];
  f.perThread = f.form == FragmentForm::RowVector      ? 2 * f.mBlocks
                : f.form == FragmentForm::ColumnVector ? tile[1] / 4
                                                       : t.perThread;
  return f;
}

std::string warpgroupRowsMismatch(MmaPath path, const sema::Kernel &k, const sema::Operation &x, int8_t slot,
                                  const sema::Operation &w) {
  using namespace sema;
  if (path != MmaPath::Wgmma) return "each warp's MMA reads rows and columns other warps stored";
  const OpEffects &xf = x.info().effects, &wf = w.info().effects;
  if (slot != xf.warpgroupRows || x.operandAt(slot).value.transposed) return "every warp of the role wrote part of it";
  if (w.kind != OpKind::Store || wf.warpgroupRows == kNone)
    return fmt::format("'{}' wrote it, not a store of a fragment split by rows as the reads are", w.info().name);
  if (w.transposedStore()) return "the transposed store put each warp's elements in other warps' rows";
  ResourceId q = effectResource(x, slot), p = effectResource(w, wf.writes);
  ResourceId acc = effectResource(x, xf.writes), src = effectResource(w, wf.warpgroupRows);
  if (q == kNoResource || p == kNoResource || acc == kNoResource || src == kNoResource)
    return "the analysis cannot name the views and fragments involved";
  const Resource &a = k.resources[q], &o = k.resources[p], &ra = k.resources[acc], &rs = k.resources[src];
  if (p != q && (a.stages > 1 || !sameLayout(a, o)))
    return fmt::format("'{}' and '{}' lay out their shared bytes differently", o.name, a.name);
  if (ra.kind != ResourceKind::Regs || rs.kind != ResourceKind::Regs || ra.role != rs.role)
    return fmt::format("'{}' is not a fragment of the role that multiplies", rs.name);
  // The accumulator layout gives each warp the 16-row bands of its
  // warpgroup's rows that the warp's part of the wgmma reads; the rows
  // layout gives it other rows.
  if (rs.layout != FragmentLayout::Accumulator)
    return fmt::format("'{}' is in the rows layout, whose warps hold other rows than their part of the wgmma reads",
                       rs.name);
  int64_t rows = a.shape.empty() ? 0 : a.shape[0];
  if (ra.shape.empty() || ra.shape[0] != rows || rs.shape.empty() || rs.shape[0] != rows)
    return fmt::format("the stored fragment '{}' has {} rows and the view {}: their split over the warpgroups "
                       "differs",
                       rs.name, rs.shape.empty() ? 0 : rs.shape[0], rows);
  return {};
}

}  // namespace cake::analysis
