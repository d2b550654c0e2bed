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
#include <numeric>
#include <optional>

#include "analysis/CrossBlock.h"
#include "analysis/KernelFacts.h"

namespace cake::analysis {

using namespace sema;

namespace {

PolyForm monomial(AtomId a) {
  PolyForm p;
  p.terms[{a}] = 1;
  return p;
}

PolyForm constantPoly(int64_t c) { return PolyForm::of(AffineForm{c, {}}); }

class Spreader {
public:
  explicit Spreader(const Kernel &k) : k_(k) {}

  std::optional<PolyForm> gridExtent(int64_t d, int depth = 0) const {
    if (d < 0 || static_cast<size_t>(d) >= k_.grid.size()) return constantPoly(1);
    const Value &g = k_.grid[static_cast<size_t>(d)];
    if (g.isConstInt()) return constantPoly(*g.constInt);
    if (g.ix == kNoIntExpr) return std::nullopt;
    return expand(k_.ints.form(g.ix), depth + 1);
  }

  // `f` as a polynomial over leaves and non-product atoms.
  std::optional<PolyForm> expand(const AffineForm &f, int depth = 0) const {
    if (depth > 16) return std::nullopt;
    PolyForm r = constantPoly(f.constant);
    for (const auto &[atom, coef] : f.terms) {
      IntExprTable::AtomView v = k_.ints.atomInfo(atom);
      std::optional<PolyForm> t;
      if (v.op == IntOp::Mul && v.lhs && v.rhs) {
        std::optional<PolyForm> a = expand(*v.lhs, depth + 1), b = expand(*v.rhs, depth + 1);
        if (!a || !b) return std::nullopt;
        t = PolyForm::mul(*a, *b);
      } else if (v.op == IntOp::NumBlocks) {
        t = gridExtent(v.value, depth);
      } else {
        t = monomial(atom);
      }
      if (!t) return std::nullopt;
      std::optional<PolyForm> sum = PolyForm::add(r, *t, coef);
      if (!sum) return std::nullopt;
      r = std::move(*sum);
    }
    return r;
  }

  // The same in every block of a launch: parameters, constants and
  // operations on them.
  bool launchConstant(AtomId atom) const {
    IntExprTable::AtomView v = k_.ints.atomInfo(atom);
    if (v.op == IntOp::Param || v.op == IntOp::NumBlocks || v.op == IntOp::NumClusters || v.op == IntOp::SmCount)
      return true;
    if (intOpInfo(v.op).arity == 0) return false;
    auto constant = [&](const AffineForm *f) {
      if (!f) return true;
      for (const auto &[a, c] : f->terms)
        if (!launchConstant(a)) return false;
      return true;
    };
    return constant(v.lhs) && constant(v.rhs);
  }

  struct Step {
    int64_t dim;
    PolyForm step;
  };

  // The block indices coordinate `c` steps by, or why it cannot be read as
  // steps.
  std::optional<std::vector<Step>> steps(const Value &c, std::string &why) const {
    std::vector<Step> out;
    if (c.isConstInt()) return out;
    std::optional<PolyForm> p = c.ix == kNoIntExpr ? std::nullopt : expand(k_.ints.form(c.ix));
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
        } else if (launchConstant(a)) {
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
      std::optional<int64_t> room = PolyForm::constantDifference(st[i].step, reach);
      if (!room || *room < 0) return false;
      std::optional<PolyForm> g = gridExtent(st[i].dim);
      if (!g) return false;
      std::optional<PolyForm> gm1 = PolyForm::add(*g, constantPoly(1), -1);
      std::optional<PolyForm> span = gm1 ? PolyForm::mul(st[i].step, *gm1) : std::nullopt;
      std::optional<PolyForm> next = span ? PolyForm::add(reach, *span, 1) : std::nullopt;
      if (!next) return false;
      reach = std::move(*next);
    }
    return true;
  }

  void judge(WorkspaceAccess &s) const {
    const Operation &op = *s.event->op;
    const Operand *coords = copyCoords(op);
    ResourceId tile = copyTile(op);
    if (!coords || tile == kNoResource) {
      s.spreadWhy = "its coordinates or tile are not known";
      return;
    }
    const std::vector<int64_t> &shape = k_.resource(tile).shape;
    const std::vector<Value> &cs = coords->value.elts;
    std::set<int64_t> spread;  // the dimensions a coordinate proves apart
    std::string firstWhy;
    for (size_t i = 0; i < cs.size(); ++i) {
      // Coordinates innermost first; a tile of lower rank is the innermost.
      int64_t extent = i < shape.size() ? shape[shape.size() - 1 - i] : 1;
      std::string why;
      std::optional<std::vector<Step>> st = steps(cs[i], why);
      if (!st) {
        if (firstWhy.empty()) firstWhy = why;
        continue;
      }
      // Dimensions of one block spread nothing.
      st->erase(std::remove_if(st->begin(), st->end(),
                               [&](const Step &x) {
                                 return static_cast<size_t>(x.dim) >= k_.grid.size() ||
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
      // overlap.
      if (st->size() == 1) {
        std::optional<int64_t> c = PolyForm::constantDifference(st->front().step, constantPoly(0));
        if (c && *c > -extent && *c < extent) {
          s.spread = Spread::Overlap;
          s.spreadDim = st->front().dim;
          s.spreadWhy = fmt::format("lm.block_id({}) steps coordinate {} by {}, less than the tile's {} there: "
                                    "neighbouring blocks' tiles overlap",
                                    st->front().dim, i, *c, extent);
          return;
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
    for (size_t d = 0; d < k_.grid.size(); ++d) {
      const Value &g = k_.grid[d];
      if ((g.isConstInt() && *g.constInt == 1) || spread.count(static_cast<int64_t>(d))) continue;
      s.spread = Spread::Unknown;
      s.spreadDim = static_cast<int64_t>(d);
      s.spreadWhy = firstWhy.empty() ? fmt::format("no coordinate steps by lm.block_id({})", d) : firstWhy;
      return;
    }
    s.spread = Spread::Disjoint;
  }

private:
  const Kernel &k_;
};

}  // namespace

void judgeTileSpread(const Kernel &k, WorkspaceAccess &store) { Spreader(k).judge(store); }

}  // namespace cake::analysis
