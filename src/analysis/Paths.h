// Paths: whether some path through a role's body between two of its
// operations passes none of a set of others (a fence, a role sync, a
// wait), the fact the safety gate's path rules (proxy fences, alias
// races, hand-offs) judge. A forward walk over the role's statements:
// a branch's two sides are walked from the same state and joined (a
// constant condition takes its side only), a loop's body again from its
// back edge (where a condition that holds in every iteration but the first
// takes its side), and a loop that may run no iteration may be skipped.
#pragma once

#include <vector>

#include "analysis/ScheduleModel.h"

namespace cake::analysis {

// Whether some path from `from` to `to` through the role's body passes
// none of `cut`: branches' sides taken independently, a loop around both
// taken again through its back edge, and a loop that may run no iteration
// skipped (so a cut in it does not count).
bool pathAvoiding(const sema::Kernel &k, const Event &from, const Event &to, const std::vector<const Event *> &cut);
// Whether every path from the start of `loop`'s body to `to` passes one of
// `cut`.
bool everyPathFromStart(const sema::Kernel &k, const sema::IrStmt &loop, const Event &to,
                        const std::vector<const Event *> &cut);

}  // namespace cake::analysis
