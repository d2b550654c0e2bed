// Tiling: see Tiling.h.
#include "analysis/Tiling.h"

#include <fmt/format.h>

namespace cake::analysis {

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

FragmentTiling fragmentTiling(const std::vector<int64_t> &shape, const sema::Resource &role) {
  int64_t warpgroups = static_cast<int64_t>(role.warps.size()) / 4;
  FragmentTiling f;
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
  WgmmaTiling t = wgmmaTiling(tile, role);
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

}  // namespace cake::analysis
