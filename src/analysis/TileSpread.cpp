// TileSpread: whether the blocks of a launch store disjoint tiles of a
// workspace tensor (see CrossBlock.h, WorkspaceAccess::spread).
//
// Each coordinate of the store is expanded into a polynomial over leaves
// (products of run-time values multiplied out, lm.num_blocks(d) replaced by
// the grid's extent). A coordinate spreads the blocks of the grid
// dimensions it names when it is a mixed radix over them: each named
// lm.block_id(d) appears once, times a step that is the same in every block
// (constants and parameters), and the steps, taken in some order, each
// reach past the tile's extent plus everything the smaller steps span:
//
//   step_1 >= E,  step_j >= E + sum_{i<j} step_i * (extent_i - 1),
//
// each difference a non-negative constant once the polynomials are
// subtracted. Then blocks that differ in any of those dimensions store
// tiles that do not meet in that coordinate. A grid dimension of more than
// one block must be spread by some coordinate.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <set>

#include "analysis/Coverage.h"
#include "analysis/CrossBlock.h"
#include "analysis/KernelFacts.h"

namespace cake::analysis {

using namespace sema;

PolyForm constantPoly(int64_t c) { return PolyForm::of(AffineForm{c, {}}); }

std::optional<PolyForm> gridExtentPoly(const Kernel &k, int64_t d, int depth) {
  if (d < 0 || static_cast<size_t>(d) >= k.grid.size()) return constantPoly(1);
  return gridPoly(k, k.grid[static_cast<size_t>(d)], depth + 1);
}

std::optional<PolyForm> gridPoly(const Kernel &k, const Value &v, int depth) {
  if (v.isConstInt()) return constantPoly(*v.constInt);
  if (v.ix == kNoIntExpr) return std::nullopt;
  return gridPoly(k, k.ints.form(v.ix), depth);
}

std::optional<PolyForm> gridPoly(const Kernel &k, const AffineForm &f, int depth) {
  if (depth > 16) return std::nullopt;
  return k.ints.expandProducts(f, [&](AtomId atom) -> std::optional<PolyForm> {
    IntExprTable::AtomView v = k.ints.atomInfo(atom);
    return v.op == IntOp::NumBlocks ? gridExtentPoly(k, v.value, depth) : std::nullopt;
  });
}

bool launchConstant(const Kernel &k, AtomId atom, int depth) {
  IntExprTable::AtomView v = k.ints.atomInfo(atom);
  if (v.op == IntOp::Param || v.op == IntOp::NumBlocks || v.op == IntOp::NumClusters || v.op == IntOp::SmCount)
    return true;
  if (intOpInfo(v.op).arity == 0 || depth > 32) return false;
  for (const AffineForm *f : {v.lhs, v.rhs})
    if (f)
      for (const auto &[a, c] : f->terms)
        if (!launchConstant(k, a, depth + 1)) return false;
  return true;
}

namespace {

class Spreader {
public:
  explicit Spreader(const Kernel &k, int64_t chain = -1, bool unnamedOverlap = false)
      : k_(k), chain_(chain), unnamedOverlap_(unnamedOverlap) {}

  struct Step {
    int64_t dim;
    PolyForm step;
  };

  // The block indices coordinate `c` steps by, or why it cannot be read as
  // steps.
  std::optional<std::vector<Step>> steps(const Value &c, std::string &why) const {
    std::vector<Step> out;
    if (c.isConstInt()) return out;
    std::optional<PolyForm> p = c.ix == kNoIntExpr ? std::nullopt : gridPoly(k_, k_.ints.form(c.ix));
    if (!p) {
      why = "a coordinate has no normal form";
      return std::nullopt;
    }
    for (const auto &[mono, coef] : p->terms) {
      int64_t dim = -1;
      std::vector<AtomId> rest;
      for (AtomId a : mono) {
        IntExprTable::AtomView v = k_.ints.atomInfo(a);
        if (v.op == IntOp::BlockId && dim < 0) {
          dim = v.value;
        } else if (launchConstant(k_, a)) {
          rest.push_back(a);
        } else {
          why = v.op == IntOp::BlockId ? "a coordinate multiplies two block indices"
                                       : "a coordinate depends on something other than block indices, parameters "
                                         "and constants";
          return std::nullopt;
        }
      }
      if (dim < 0) continue;  // the same in every block
      PolyForm s;
      s.terms[rest] = coef;
      auto it = std::find_if(out.begin(), out.end(), [&](const Step &x) { return x.dim == dim; });
      if (it == out.end()) {
        out.push_back({dim, s});
      } else if (std::optional<PolyForm> sum = PolyForm::add(it->step, s, 1)) {
        it->step = std::move(*sum);
      } else {
        why = "a coordinate's step overflows";
        return std::nullopt;
      }
    }
    return out;
  }

  // Whether the steps, in the order `order`, make a mixed radix with room
  // for a tile of `extent` at each place.
  bool radix(const std::vector<Step> &st, const std::vector<size_t> &order, int64_t extent) const {
    PolyForm reach = constantPoly(extent);
    for (size_t i : order) {
      // A step downwards spreads the blocks as well: its magnitude counts.
      PolyForm step = st[i].step;
      std::optional<int64_t> room = PolyForm::constantDifference(step, reach);
      if (!room || *room < 0) {
        std::optional<PolyForm> neg = PolyForm::add(constantPoly(0), step, -1);
        room = neg ? PolyForm::constantDifference(*neg, reach) : std::nullopt;
        if (!room || *room < 0) return false;
        step = std::move(*neg);
      }
      std::optional<PolyForm> g = gridExtentPoly(k_, st[i].dim);
      if (!g) return false;
      std::optional<PolyForm> gm1 = PolyForm::add(*g, constantPoly(1), -1);
      std::optional<PolyForm> span = gm1 ? PolyForm::mul(step, *gm1) : std::nullopt;
      std::optional<PolyForm> next = span ? PolyForm::add(reach, *span, 1) : std::nullopt;
      if (!next) return false;
      reach = std::move(*next);
    }
    return true;
  }

  // The extent of a store's tile along coordinate i (innermost first; a
  // tile of lower rank is the innermost).
  int64_t extentAt(const Operation &op, size_t i) const {
    const std::vector<int64_t> shape = copyExtent(k_, op);
    return i < shape.size() ? shape[shape.size() - 1 - i] : 1;
  }

  // Judges the stores of one tensor together: what one block writes is the
  // union of its stores' tiles, which must lie at the same block-dependent
  // coordinates up to constants; each coordinate's extent is then the span
  // of those tiles.
  void judge(const std::vector<WorkspaceAccess *> &group) const {
    auto set = [&](Spread v, int64_t dim, const std::string &why) {
      for (WorkspaceAccess *s : group) s->spread = v, s->spreadDim = dim, s->spreadWhy = why;
    };
    const Operation &first = *group.front()->event->op;
    const Operand *coords = copyCoords(first);
    for (const WorkspaceAccess *s : group)
      if (!copyCoords(*s->event->op) || copyTile(*s->event->op) == kNoResource)
        return set(Spread::Unknown, -1, "its coordinates or tile are not known");
    const std::vector<Value> &cs = coords->value.elts;
    std::vector<int64_t> extents(cs.size());
    for (size_t i = 0; i < cs.size(); ++i) {
      int64_t lo = 0, hi = extentAt(first, i);
      for (const WorkspaceAccess *s : group) {
        const std::vector<Value> &other = copyCoords(*s->event->op)->value.elts;
        if (other.size() != cs.size())
          return set(Spread::Unknown, -1, "its stores name different numbers of coordinates");
        std::optional<int64_t> d =
            cs[i].isConstInt() && other[i].isConstInt() ? std::optional<int64_t>(*other[i].constInt - *cs[i].constInt)
            : cs[i].ix != kNoIntExpr && other[i].ix != kNoIntExpr
                ? IntExprTable::constantDifference(k_.ints.form(other[i].ix), k_.ints.form(cs[i].ix))
                : std::nullopt;
        if (!d)
          return set(Spread::Unknown, -1,
                     fmt::format("a block stores it at coordinates that differ by more than a constant (coordinate "
                                 "{}), so the tiles one block writes are not known",
                                 i));
        lo = std::min(lo, *d);
        hi = std::max(hi, *d + extentAt(*s->event->op, i));
      }
      extents[i] = hi - lo;
    }
    std::set<int64_t> spread;  // the dimensions a coordinate proves apart
    std::set<int64_t> named;   // the dimensions some coordinate steps by
    std::string firstWhy, overlapWhy;
    int64_t overlapDim = -1;
    for (size_t i = 0; i < cs.size(); ++i) {
      int64_t extent = extents[i];
      std::string why;
      std::optional<std::vector<Step>> st = steps(cs[i], why);
      if (!st) {
        if (firstWhy.empty()) firstWhy = why;
        continue;
      }
      for (const Step &x : *st) named.insert(x.dim);
      // Dimensions of one block spread nothing.
      st->erase(std::remove_if(st->begin(), st->end(),
                               [&](const Step &x) {
                                 return static_cast<size_t>(x.dim) >= k_.grid.size() || x.dim == chain_ ||
                                        (k_.grid[x.dim].isConstInt() && *k_.grid[x.dim].constInt == 1);
                               }),
                st->end());
      if (st->empty()) continue;
      std::vector<size_t> order(st->size());
      std::iota(order.begin(), order.end(), 0);
      bool ok = false;
      if (st->size() <= 4) {
        do ok = radix(*st, order, extent);
        while (!ok && std::next_permutation(order.begin(), order.end()));
      }
      if (ok) {
        for (const Step &x : *st) spread.insert(x.dim);
        continue;
      }
      // One index stepping by a constant shorter than the tile: neighbours
      // overlap, unless another coordinate keeps them apart.
      if (st->size() == 1 && overlapDim < 0) {
        std::optional<int64_t> c = PolyForm::constantDifference(st->front().step, constantPoly(0));
        if (c && *c > -extent && *c < extent) {
          overlapDim = st->front().dim;
          overlapWhy = fmt::format("lm.block_id({}) steps coordinate {} by {}, less than the {} a block writes "
                                   "there, and no other coordinate keeps neighbouring blocks apart",
                                   st->front().dim, i, *c, extent);
        }
      }
      if (firstWhy.empty()) {
        std::string dims;
        for (const Step &x : *st) dims += fmt::format("{}lm.block_id({})", dims.empty() ? "" : ", ", x.dim);
        firstWhy = fmt::format("coordinate {} steps by {}, and no order of its steps is proven to leave room for "
                               "the tile's {} there and everything the smaller steps span (step by whole tiles: a "
                               "multiple of the tile times the extent below it, as ((M + 63) // 64) * 64)",
                               i, dims, extent);
      }
    }
    if (overlapDim >= 0 && !spread.count(overlapDim)) return set(Spread::Overlap, overlapDim, overlapWhy);
    for (size_t d = 0; d < k_.grid.size(); ++d) {
      const Value &g = k_.grid[d];
      if ((g.isConstInt() && *g.constInt == 1) || spread.count(static_cast<int64_t>(d)) ||
          static_cast<int64_t>(d) == chain_)
        continue;
      // Coordinates of block indices, parameters and constants only that
      // name no lm.block_id(d): the blocks along d write one tile.
      if (unnamedOverlap_ && firstWhy.empty() && !named.count(static_cast<int64_t>(d))) {
        std::string why =
            fmt::format("no coordinate of its stores names lm.block_id({}), so the blocks along grid dimension {} "
                        "write the same tile{}",
                        d, d, g.isConstInt() ? "" : " whenever there are more than one");
        for (WorkspaceAccess *s : group) s->sameTile = !g.isConstInt();
        return set(g.isConstInt() ? Spread::Overlap : Spread::Unknown, static_cast<int64_t>(d), why);
      }
      return set(Spread::Unknown, static_cast<int64_t>(d),
                 firstWhy.empty() ? fmt::format("no coordinate steps by lm.block_id({})", d) : firstWhy);
    }
    set(Spread::Disjoint, -1, "");
  }

private:
  const Kernel &k_;
  int64_t chain_;        // a grid dimension whose blocks are taken as one (-1: none)
  bool unnamedOverlap_;  // a dimension no coordinate names is an overlap (constant extent) or sameTile
};

}  // namespace

void judgeTileSpread(const Kernel &k, std::vector<WorkspaceAccess> &accesses) {
  // By tensor: the plain stores outside the branches on atomics' values
  // (what every block writes; a last block's own writes are the fix-up's).
  std::map<ResourceId, std::vector<WorkspaceAccess *>> groups;
  for (WorkspaceAccess &a : accesses) {
    if (a.kind != WorkspaceAccess::Kind::Store || a.reduce) continue;
    if (a.guards.empty())
      groups[a.tensor].push_back(&a);
    else
      a.spreadWhy = "the store lies under a branch on a value read at run time (an atomic's old value, "
                    "lm.load_scalar), which the tiles' rules do not follow";
  }
  Spreader sp(k);
  for (auto &[tensor, group] : groups) sp.judge(group);
}

Spread spreadAcrossChains(const Kernel &k, const std::vector<WorkspaceAccess *> &group, int64_t chain,
                          std::string &why) {
  if (group.empty()) return Spread::Disjoint;
  Spreader(k, chain).judge(group);
  why = group.front()->spreadWhy;
  return group.front()->spread;
}

namespace {
// The grid dimension along which flag turns order a store (-1: none): the
// role waits on a flag before it, once per block, and exchanges that flag
// (passing the turn on, or resetting it) only after it, and the blocks
// sharing the flag's element differ in that one dimension. Whether the
// turns themselves are right is the flag rules' (FlagWaits.cpp); given
// them, the blocks of a chain store one after another, the last one last.
int64_t turnDim(const Kernel &k, const CrossBlockFacts &cb, const Event &store) {
  for (const FlagWait &w : cb.flagWaits) {
    // (A wait under a branch orders only the stores inside it; the stores
    // judged here lie under no branch.)
    if (!w.once || !w.where.empty() || !w.sharersKnown || w.event->role != store.role || w.event->index > store.index)
      continue;
    bool passed = false, after = true;
    for (const WorkspaceAccess &x : cb.accesses)
      if (x.kind == WorkspaceAccess::Kind::Atomic && x.tensor == w.tensor && x.event->role == store.role &&
          x.op == "exch") {
        passed = true;
        after = after && x.event->index > store.index;
      }
    if (!passed || !after) continue;
    int64_t dim = -1;
    for (size_t d = 0; d < k.grid.size(); ++d) {
      const Value &g = k.grid[d];
      if (w.blockDims.count(static_cast<int64_t>(d)) || (g.isConstInt() && *g.constInt == 1)) continue;
      if (dim >= 0) return -1;  // chains over two dimensions: not judged here
      dim = static_cast<int64_t>(d);
    }
    if (dim >= 0) return dim;
  }
  return -1;
}
}  // namespace

std::vector<OutputOverlap> collectOutputOverlaps(const Kernel &k, const std::vector<RoleEvents> &roles,
                                                 const CrossBlockFacts &cb) {
  std::vector<WorkspaceAccess> stores;
  for (const RoleEvents &r : roles)
    for (const Event &e : r.events) {
      ResourceId t = writtenTensor(*e.op);
      const OpEffects &fx = e.op->info().effects;
      if (t == kNoResource || k.resource(t).workspace || fx.oneElement || fx.reducesInto) continue;
      // Inside any `if` (more statement lists around it than its loops' bodies
      // and the role's): a branch may keep blocks apart.
      if (e.conditional || e.guarded || e.lists.size() > e.loops.size() + 1) continue;
      WorkspaceAccess a;
      a.kind = WorkspaceAccess::Kind::Store;
      a.event = &e;
      a.tensor = t;
      stores.push_back(a);
    }
  std::map<ResourceId, std::vector<WorkspaceAccess *>> groups;
  for (WorkspaceAccess &a : stores) groups[a.tensor].push_back(&a);
  for (auto &[tensor, group] : groups) {
    // Stores all ordered by turns along one dimension: its blocks are one.
    int64_t chain = turnDim(k, cb, *group.front()->event);
    for (const WorkspaceAccess *a : group)
      if (turnDim(k, cb, *a->event) != chain) chain = -1;
    Spreader(k, chain, /*unnamedOverlap=*/true).judge(group);
  }
  std::vector<OutputOverlap> out;
  std::set<ResourceId> seen;
  for (const WorkspaceAccess &a : stores)
    if ((a.spread == Spread::Overlap || a.sameTile) && seen.insert(a.tensor).second)
      out.push_back({a.tensor, a.event->op, a.spreadDim, a.spreadWhy, a.spread == Spread::Overlap});
  return out;
}

}  // namespace cake::analysis
