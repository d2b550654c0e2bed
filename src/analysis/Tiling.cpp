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

}  // namespace cake::analysis
