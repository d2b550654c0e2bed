// Coverage.cpp - what the stores of a tensor parameter leave unwritten
// (Coverage.h).
#include "analysis/Coverage.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>

#include "sema/OpTable.h"

namespace cake::analysis {

using namespace sema;

// The tensor parameter an operation writes, or kNoResource: a copy or
// atomic whose tensor operand is a parameter (the op table's parameter
// kinds and effects, never names) and which does not load into its
// receiver or result.
ResourceId writtenTensor(const Operation &op) {
  const OpInfo &info = op.info();
  for (size_t i = 0; i < info.params.size() && i < op.operands.size(); ++i) {
    ParamKind pk = info.params[i].kind;
    if (!op.operands[i].present || (pk != ParamKind::TensorP && pk != ParamKind::GlobalTensorP)) continue;
    bool element = info.effects.oneElement && info.effects.globalWrite;  // an atomic
    bool loads = info.effects.writes == kReceiver || op.result.kind == ValueKind::Resource;
    if (element || (!loads && copyTile(op) != kNoResource)) return op.operands[i].value.resource;
  }
  return kNoResource;
}

namespace {

// One write: per dimension (outermost first) its coordinate's constant and
// extent, and its coefficients' gcd (0: constant coordinate).
struct Write {
  const Operation *op = nullptr;
  ResourceId role = kNoResource;
  std::vector<int64_t> constant, extent, gcd;
  std::vector<std::vector<std::pair<AtomId, int64_t>>> terms;  // the variable part: the tile it writes
};

std::optional<Write> describe(const Kernel &k, const Operation &op, const Resource &t) {
  const Operand *coords = copyCoords(op);
  if (!coords || coords->value.elts.size() != t.rank) return std::nullopt;
  std::vector<int64_t> shape = copyExtent(k, op);
  if (shape.size() > t.rank) return std::nullopt;
  Write w;
  w.op = &op;
  for (size_t d = 0; d < t.rank; ++d) {
    const Value &c = coords->value.elts[t.rank - 1 - d];  // coordinates innermost first
    AffineForm f;
    if (c.isConstInt())
      f.constant = *c.constInt;
    else if (c.kind == ValueKind::Int && c.ix != kNoIntExpr)
      f = k.ints.form(c.ix);
    else
      return std::nullopt;
    int64_t g = 0;
    for (const auto &[atom, coef] : f.terms) {
      if (coef == INT64_MIN) return std::nullopt;  // no magnitude in int64: not judged
      g = std::gcd(g, coef < 0 ? -coef : coef);
    }
    size_t outer = t.rank - shape.size();
    w.constant.push_back(f.constant);
    w.extent.push_back(d >= outer ? shape[d - outer] : 1);
    w.gcd.push_back(g);
    w.terms.push_back(f.terms);
  }
  return w;
}

int64_t floorMod(int64_t a, int64_t p) {
  int64_t r = a % p;
  return r < 0 ? r + p : r;
}

// The first cell of the period no write covers (empty: none).
std::vector<std::pair<int64_t, int64_t>> firstGap(const std::vector<Write> &writes,
                                                  const std::vector<int64_t> &period) {
  size_t rank = period.size();
  // Per dimension with a period: each write's residues, as at most two
  // intervals of [0, P); the breakpoints that cut [0, P) into cells.
  std::vector<std::vector<std::vector<std::pair<int64_t, int64_t>>>> spans(
      writes.size(), std::vector<std::vector<std::pair<int64_t, int64_t>>>(rank));
  std::vector<std::vector<int64_t>> cuts(rank);
  for (size_t d = 0; d < rank; ++d) {
    int64_t p = period[d];
    // Without a period (every coordinate constant): the hull of the writes,
    // whose holes lie inside the tensor (below a write the launcher keeps
    // in bounds).
    int64_t lo0 = INT64_MAX, hi0 = INT64_MIN;
    for (const Write &w : writes) {
      int64_t end;
      if (__builtin_add_overflow(w.constant[d], w.extent[d], &end)) return {};  // not judged
      lo0 = std::min(lo0, w.constant[d]);
      hi0 = std::max(hi0, end);
    }
    // Below 0 lies no element (a copy there writes nothing).
    lo0 = std::max<int64_t>(lo0, 0);
    if (!p && hi0 <= lo0) return {};  // nothing of these writes inside the tensor along d
    cuts[d] = p ? std::vector<int64_t>{0, p} : std::vector<int64_t>{lo0, hi0};
    for (size_t i = 0; i < writes.size(); ++i) {
      auto &s = spans[i][d];
      if (!p) {
        s.push_back({writes[i].constant[d], writes[i].constant[d] + writes[i].extent[d]});
      } else if (writes[i].extent[d] >= p) {
        s.push_back({0, p});
      } else {
        int64_t lo = floorMod(writes[i].constant[d], p), hi;
        if (__builtin_add_overflow(lo, writes[i].extent[d], &hi)) return {};  // not judged
        if (hi <= p) {
          s.push_back({lo, hi});
        } else {
          s.push_back({lo, p});
          s.push_back({0, hi - p});
        }
      }
      for (const auto &[a, b] : s) {
        cuts[d].push_back(a);
        cuts[d].push_back(b);
      }
    }
    if (!p)
      cuts[d].erase(std::remove_if(cuts[d].begin(), cuts[d].end(), [&](int64_t x) { return x < lo0; }), cuts[d].end());
    std::sort(cuts[d].begin(), cuts[d].end());
    cuts[d].erase(std::unique(cuts[d].begin(), cuts[d].end()), cuts[d].end());
  }
  // Every cell, outermost dimension slowest: a few thousand for a handful
  // of writes; past a million cell checks the tensor is not judged.
  double work = static_cast<double>(writes.size());
  for (size_t d = 0; d < rank; ++d) work *= static_cast<double>(cuts[d].size() - 1);
  if (work > 1e6) return {};
  std::vector<size_t> at(rank, 0);
  for (;;) {
    bool covered = false;
    for (size_t i = 0; i < writes.size() && !covered; ++i) {
      bool all = true;
      for (size_t d = 0; d < rank && all; ++d) {
        int64_t lo = cuts[d][at[d]];
        all = std::any_of(spans[i][d].begin(), spans[i][d].end(),
                          [&](const std::pair<int64_t, int64_t> &s) { return s.first <= lo && lo < s.second; });
      }
      covered = all;
    }
    if (!covered) {
      std::vector<std::pair<int64_t, int64_t>> gap;
      for (size_t d = 0; d < rank; ++d) gap.push_back({cuts[d][at[d]], cuts[d][at[d] + 1]});
      return gap;
    }
    size_t d = rank;
    while (d > 0 && ++at[d - 1] + 1 >= cuts[d - 1].size()) at[--d] = 0;
    if (d == 0) return {};
  }
}

}  // namespace

std::vector<OutputCoverage> collectOutputCoverage(const Kernel &k, const std::vector<RoleEvents> &roles) {
  std::vector<OutputCoverage> out;
  for (const Resource &t : k.resources) {
    if (t.kind != ResourceKind::TensorParam || t.rank == 0) continue;
    OutputCoverage c;
    c.tensor = t.id;
    std::vector<Write> writes;
    bool judged = true;
    for (const RoleEvents &r : roles)
      for (const Event &e : r.events) {
        if (writtenTensor(*e.op) != t.id) continue;
        c.writes.push_back(e.op);
        if (std::optional<Write> w = describe(k, *e.op, t)) {
          w->role = e.role;
          writes.push_back(std::move(*w));
        } else
          judged = false;
      }
    if (c.writes.empty()) continue;
    // Each role's writes with one variable part (the same tile) judged
    // together with every other role's writes (which may write the rest of
    // its tiles), not with the role's other groups: one role writes one
    // group's tiles at another time than another group's.
    std::map<std::pair<ResourceId, std::vector<std::vector<std::pair<AtomId, int64_t>>>>, std::vector<Write>> groups;
    for (const Write &w : writes) groups[{w.role, w.terms}].push_back(w);
    for (auto &[key, group] : groups) {
      if (!judged) break;
      std::vector<Write> with = group;
      for (const Write &w : writes)
        if (w.role != key.first) with.push_back(w);
      std::vector<int64_t> period(t.rank, 0);
      for (const Write &w : with)
        for (size_t d = 0; d < t.rank; ++d) period[d] = std::gcd(period[d], w.gcd[d]);
      std::vector<std::pair<int64_t, int64_t>> gap = firstGap(with, period);
      if (gap.empty()) continue;
      c.period = std::move(period);
      c.gap = std::move(gap);
      c.group.clear();
      for (const Write &w : with) c.group.push_back(w.op);
      break;
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::map<ResourceId, ParamAccess> collectParamAccess(const Kernel &k, const std::vector<RoleEvents> &roles) {
  std::map<ResourceId, ParamAccess> out;
  for (const RoleEvents &r : roles)
    for (const Event &e : r.events) {
      const Operation &op = *e.op;
      const OpInfo &info = op.info();
      ResourceId written = writtenTensor(op);
      for (size_t i = 0; i < info.params.size() && i < op.operands.size(); ++i) {
        ParamKind pk = info.params[i].kind;
        if (!op.operands[i].present || (pk != ParamKind::TensorP && pk != ParamKind::GlobalTensorP)) continue;
        ResourceId t = op.operands[i].value.resource;
        if (t == kNoResource || k.resource(t).kind != ResourceKind::TensorParam) continue;
        ParamAccess &a = out[t];
        // An atomic reads the element it writes; any other operation on a
        // tensor operand it does not write reads it.
        if (t == written) {
          a.writes = true;
          if (!a.write) a.write = &op;
          if (info.effects.memoryOrder != kNone || info.effects.reducesInto) a.reads = true;
        } else
          a.reads = true;
      }
    }
  return out;
}

}  // namespace cake::analysis
