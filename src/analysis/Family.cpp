// Family: see Family.h.
#include "analysis/Family.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <set>

#include "diagnostics/Check.h"
#include "sema/ConstEval.h"

namespace cake::analysis {

using namespace sema;

namespace {

constexpr int64_t kMaxValue = INT32_MAX;  // the parameters are 32-bit
constexpr int64_t kMaxPeriod = 1 << 12;   // lcm of the moduli of one parameter
constexpr int64_t kMaxCells = int64_t(1) << 20;

// A guard as a tree of comparisons (each `lhs - rhs <op> 0`, a node of the
// signature's integers) under and, or and not.
struct Guard {
  enum class Kind : uint8_t { Const, Cmp, And, Or, Not } kind = Kind::Const;
  bool value = false;
  IntExprId ix = kNoIntExpr;
  CmpOp cmp = CmpOp::None;
  SourceRange range;
  std::vector<Guard> kids;
};

class Analysis {
public:
  Analysis(const Family &fam, const SourceManager &sm, FamilyFacts &out)
      : fam_(fam), k_(*fam.signature), sm_(sm), out_(out) {}

  void run() {
    signatures();
    for (ResourceId id : fam_.integerParams()) {
      pos_[id] = out_.dims.size();
      out_.dims.push_back(id);
      bool declared =
          std::any_of(fam_.domain.begin(), fam_.domain.end(), [&](const FamilyDomain &d) { return d.param == id; });
      if (!declared) out_.undeclared.push_back(id);
    }
    std::vector<Guard> guards;
    for (const FamilyRoute &r : fam_.routes) {
      std::optional<Guard> g = build(r.guard);
      if (g && classify(*g)) {
        guards.push_back(std::move(*g));
        continue;
      }
      if (out_.hostless) out_.hostless->route = &r;
      return;
    }
    decide(guards);
  }

private:
  // ---- signatures ---------------------------------------------------------
  void signatures() {
    std::set<const Kernel *> seen;  // a schedule is compared once, at its first use
    for (const FamilyRoute &r : fam_.routes)
      if (seen.insert(r.schedule).second) compare(r);
    if (fam_.fallback && seen.insert(fam_.fallback->schedule).second) compare(*fam_.fallback);
  }
  static std::vector<const KernelParam *> paramsOf(const Kernel &k) {
    std::vector<const KernelParam *> out;
    for (const KernelParam &p : k.params)
      if (!p.isBuilder && !p.workspace) out.push_back(&p);  // a workspace is the launcher's, not an argument
    return out;
  }
  void compare(const FamilyRoute &route) {
    const Kernel &s = *route.schedule;
    std::vector<const KernelParam *> want = paramsOf(k_), have = paramsOf(s);
    auto mismatch = [&](std::string what, SourceRange where, std::string whereName) {
      out_.mismatches.push_back({&route, std::move(what), where, std::move(whereName)});
    };
    if (want.size() != have.size()) {
      mismatch(fmt::format("it takes {} parameters, the family {}", have.size(), want.size()), s.nameRange, "");
      return;
    }
    for (size_t i = 0; i < want.size(); ++i) {
      const KernelParam &w = *want[i], &h = *have[i];
      if (w.resource == kNoResource || h.resource == kNoResource) continue;  // reported by sema
      const Resource &rw = k_.resource(w.resource), &rh = s.resource(h.resource);
      auto typeText = [](const Resource &r) {
        if (r.kind == ResourceKind::TensorParam) return fmt::format("{}{}d", r.tma ? "LM.tma" : "LM.tensor", r.rank);
        return fmt::format("LM.{}", dtypeInfo(r.dtype).name);
      };
      if (w.name != h.name) {
        mismatch(fmt::format("parameter {} is '{}', the family's is '{}'", i + 1, h.name, w.name), h.range, h.name);
        return;
      }
      if (rw.kind != rh.kind || rw.rank != rh.rank || rw.tma != rh.tma ||
          (rw.kind == ResourceKind::ScalarParam && rw.dtype != rh.dtype)) {
        mismatch(fmt::format("'{}' is {}, the family's is {}", h.name, typeText(rh), typeText(rw)), h.range, h.name);
        return;
      }
      if (rw.kind == ResourceKind::TensorParam && !rw.dims.empty() && !rh.dims.empty() &&
          declaredShape(k_, rw) != declaredShape(s, rh)) {
        mismatch(fmt::format("tensor '{}' has the shape {}, the family's {}", h.name, declaredShape(s, rh),
                             declaredShape(k_, rw)),
                 h.range, h.name);
        return;
      }
    }
  }

  // ---- guards -------------------------------------------------------------
  void hostless(std::string what, SourceRange at) {
    out_.decided = false;
    out_.hostless = FamilyFacts::Hostless{std::move(what), at, nullptr};
  }
  void undecided(std::string why, SourceRange at) {
    out_.decided = false;
    out_.undecidedWhy = std::move(why);
    out_.undecidedAt = at;
  }
  std::optional<Guard> build(const ast::Expr *e) {
    CAKE_CHECK(e, "a route's guard is a required argument, bound by sema");
    if (e->kind == ast::NodeKind::NameExpr) {
      auto def = k_.nameDefs.find(e);
      if (def != k_.nameDefs.end() && def->second != e) return build(def->second);
    }
    auto it = k_.exprValues.find(e);
    const Value *v = it == k_.exprValues.end() ? nullptr : &it->second;
    Guard g;
    g.range = e->range;
    if (v && v->kind == ValueKind::Bool && v->boolIsConst) {
      g.kind = Guard::Kind::Const;
      g.value = v->constBool;
      return g;
    }
    if (auto *b = dyn_cast<ast::BinaryExpr>(e); b && (b->op == ast::BinaryOp::And || b->op == ast::BinaryOp::Or)) {
      g.kind = b->op == ast::BinaryOp::And ? Guard::Kind::And : Guard::Kind::Or;
      for (const ast::Expr *x : {static_cast<const ast::Expr *>(b->lhs), static_cast<const ast::Expr *>(b->rhs)}) {
        std::optional<Guard> kid = build(x);
        if (!kid) return std::nullopt;
        g.kids.push_back(std::move(*kid));
      }
      return g;
    }
    if (auto *u = dyn_cast<ast::UnaryExpr>(e); u && u->op == ast::UnaryOp::Not) {
      g.kind = Guard::Kind::Not;
      std::optional<Guard> kid = build(u->operand);
      if (!kid) return std::nullopt;
      g.kids.push_back(std::move(*kid));
      return g;
    }
    if (v && v->kind == ValueKind::Bool && v->cmp != CmpOp::None && v->ix != kNoIntExpr) {
      g.kind = Guard::Kind::Cmp;
      g.ix = v->ix;
      g.cmp = v->cmp;
      return g;
    }
    hostless(fmt::format("'{}', which is not a comparison of integers", sourceText(sm_, e->range)), e->range);
    return std::nullopt;
  }

  // Whether a form holds an expression whose normal form overflowed: the
  // table keeps it as an operation atom without operands (a real one always
  // has an operand that is not a constant).
  bool overflowed(const AffineForm &f) const {
    for (const auto &[a, c] : f.terms) {
      IntExprTable::AtomView v = k_.ints.atomInfo(a);
      if (isLeaf(v.op)) continue;
      if ((v.lhs->isConstant() && (v.op == IntOp::Neg || v.rhs->isConstant())) || overflowed(*v.lhs) ||
          (v.op != IntOp::Neg && overflowed(*v.rhs)))
        return true;
    }
    return false;
  }
  // The parameters a form reads; false if it reads anything else.
  bool paramsOf(const AffineForm &f, std::set<ResourceId> &out) const {
    for (const auto &[a, c] : f.terms) {
      IntExprTable::AtomView v = k_.ints.atomInfo(a);
      if (v.op == IntOp::Param) {
        out.insert(static_cast<ResourceId>(v.value));
      } else if (isLeaf(v.op)) {
        return false;
      } else if (!paramsOf(*v.lhs, out) || (v.op != IntOp::Neg && !paramsOf(*v.rhs, out))) {
        return false;
      }
    }
    return true;
  }
  // +1 if the form never decreases as parameter p grows, -1 if it never
  // increases, 0 if it is constant; nullopt if neither can be shown.
  std::optional<int> direction(const AffineForm &f, ResourceId p) const {
    int dir = 0;
    for (const auto &[a, c] : f.terms) {
      IntExprTable::AtomView v = k_.ints.atomInfo(a);
      std::optional<int> d;
      if (v.op == IntOp::Param && static_cast<ResourceId>(v.value) == p) {
        d = 1;
      } else if (v.op == IntOp::FloorDiv && v.rhs->isConstant() && v.rhs->constant > 0) {
        d = direction(*v.lhs, p);
      } else if ((v.op == IntOp::Min || v.op == IntOp::Max)) {
        std::optional<int> l = direction(*v.lhs, p), r = direction(*v.rhs, p);
        if (l && r && (*l == 0 || *r == 0 || *l == *r)) d = *l != 0 ? *l : *r;
      }
      if (!d) return std::nullopt;
      int signed_ = *d * (c > 0 ? 1 : -1);
      if (signed_ != 0 && dir != 0 && signed_ != dir) return std::nullopt;
      if (signed_ != 0) dir = signed_;
    }
    return dir;
  }
  // The modulus whose residue decides a form (every term a remainder of an
  // affine form of p by a positive constant), or nullopt.
  std::optional<int64_t> period(const AffineForm &f, ResourceId p) const {
    int64_t l = 1;
    for (const auto &[a, c] : f.terms) {
      IntExprTable::AtomView v = k_.ints.atomInfo(a);
      if (v.op != IntOp::Mod || !v.rhs->isConstant() || v.rhs->constant <= 0) return std::nullopt;
      for (const auto &[la, lc] : v.lhs->terms) {
        IntExprTable::AtomView lv = k_.ints.atomInfo(la);
        if (lv.op != IntOp::Param || static_cast<ResourceId>(lv.value) != p) return std::nullopt;
      }
      l = std::lcm(l, v.rhs->constant);
      if (l > kMaxPeriod) return std::nullopt;
    }
    return l;
  }

  std::optional<int64_t> eval(const AffineForm &f, const std::vector<int64_t> &env) const {
    std::optional<int64_t> x = f.constant;
    for (const auto &[a, c] : f.terms) {
      std::optional<int64_t> t = evalAtom(a, env);
      if (!t || !x) return std::nullopt;
      std::optional<int64_t> term = foldInt(IntOp::Mul, c, *t);
      x = term ? foldInt(IntOp::Add, *x, *term) : std::nullopt;
    }
    return x;
  }
  std::optional<int64_t> evalAtom(AtomId a, const std::vector<int64_t> &env) const {
    IntExprTable::AtomView v = k_.ints.atomInfo(a);
    if (v.op == IntOp::Param) {
      auto it = pos_.find(static_cast<ResourceId>(v.value));
      if (it == pos_.end()) return std::nullopt;
      return env[it->second];
    }
    if (isLeaf(v.op)) return std::nullopt;
    std::optional<int64_t> l = eval(*v.lhs, env);
    if (!l) return std::nullopt;
    // A sum or difference is an atom only where its form overflowed.
    if (intOpInfo(v.op).has(kSum) || intOpInfo(v.op).has(kDifference)) return std::nullopt;
    if (intOpInfo(v.op).arity == 1) return foldInt(v.op, *l);
    std::optional<int64_t> r = eval(*v.rhs, env);
    if (!r) return std::nullopt;
    return foldInt(v.op, *l, *r);
  }
  std::optional<bool> eval(const Guard &g, const std::vector<int64_t> &env) const {
    switch (g.kind) {
    case Guard::Kind::Const: return g.value;
    case Guard::Kind::Cmp: {
      std::optional<int64_t> x = eval(k_.ints.form(g.ix), env);
      if (!x) return std::nullopt;
      return holds(g.cmp, *x);
    }
    case Guard::Kind::Not: {
      std::optional<bool> x = eval(g.kids[0], env);
      if (!x) return std::nullopt;
      return !*x;
    }
    case Guard::Kind::And:
    case Guard::Kind::Or: {
      std::optional<bool> a = eval(g.kids[0], env), b = eval(g.kids[1], env);
      if (!a || !b) return std::nullopt;
      return g.kind == Guard::Kind::And ? (*a && *b) : (*a || *b);
    }
    }
    return std::nullopt;
  }

  // Break points and moduli of every comparison; false (undecided) for one
  // the cells cannot represent.
  bool classify(const Guard &g) {
    for (const Guard &kid : g.kids)
      if (!classify(kid)) return false;
    if (g.kind != Guard::Kind::Cmp) return true;
    const AffineForm &f = k_.ints.form(g.ix);
    std::set<ResourceId> ps;
    // A block or cluster index, the device's multiprocessor count: values
    // the host's dispatcher does not have.
    IntExprId other = k_.ints.findLeaf(
        g.ix, [](const IntNode &n) { return n.op != IntOp::Const && n.op != IntOp::Param && n.op != IntOp::LoopVar; });
    if (other != kNoIntExpr || !paramsOf(f, ps)) {
      hostless(fmt::format("'{}'", other != kNoIntExpr ? k_.leafText(k_.ints.node(other)) : sourceText(sm_, g.range)),
               g.range);
      return false;
    }
    if (overflowed(f)) {
      undecided(fmt::format("'{}' overflows 64 bits", sourceText(sm_, g.range)), g.range);
      return false;
    }
    if (ps.size() > 1) {
      undecided(fmt::format("'{}' compares several parameters", sourceText(sm_, g.range)), g.range);
      return false;
    }
    if (ps.empty()) return true;
    ResourceId p = *ps.begin();
    size_t i = pos_.at(p);
    compares_[i].push_back({g.ix, g.cmp});
    if (std::optional<int64_t> l = period(f, p)) {
      periods_[i] = std::lcm(periods_.count(i) ? periods_[i] : 1, *l);
      if (periods_[i] > kMaxPeriod) {
        undecided(
            fmt::format("the remainders in the guards of '{}' have a period over {}", k_.resource(p).name, kMaxPeriod),
            g.range);
        return false;
      }
      return true;
    }
    std::optional<int> dir = direction(f, p);
    if (!dir) {
      undecided(fmt::format("'{}' is neither monotone in '{}' nor a remainder of it", sourceText(sm_, g.range),
                            k_.resource(p).name),
                g.range);
      return false;
    }
    // The comparison changes value only where the form's sign does: at the
    // first value where it reaches 0 and the first where it passes 0.
    std::vector<int64_t> env(out_.dims.size(), 1);
    auto signAt = [&](int64_t x) -> std::optional<int64_t> {
      env[i] = x;
      std::optional<int64_t> y = eval(f, env);
      if (!y) return std::nullopt;
      return *dir < 0 ? -*y : *y;
    };
    for (int64_t threshold : {0, 1}) {  // first x with h(x) >= threshold
      int64_t lo = 1, hi = kMaxValue;
      std::optional<int64_t> top = signAt(hi);
      if (!top) {
        undecided(fmt::format("'{}' overflows 64 bits", sourceText(sm_, g.range)), g.range);
        return false;
      }
      if (*top < threshold) continue;
      while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        std::optional<int64_t> y = signAt(mid);
        if (!y) {
          undecided(fmt::format("'{}' overflows 64 bits", sourceText(sm_, g.range)), g.range);
          return false;
        }
        if (*y >= threshold)
          hi = mid;
        else
          lo = mid + 1;
      }
      breaks_[i].insert(lo);
    }
    return true;
  }

  void decide(const std::vector<Guard> &guards) {
    // Each parameter's cells: one representative per (interval, residue).
    std::vector<std::vector<int64_t>> cells(out_.dims.size());
    int64_t total = 1;
    for (size_t i = 0; i < out_.dims.size(); ++i) {
      FamilyDomain d = fam_.domainOf(out_.dims[i]);
      int64_t l = std::lcm(d.multiple, periods_.count(i) ? periods_[i] : 1);
      if (l > kMaxPeriod) {
        undecided(fmt::format("the domain and remainders of '{}' have a period over {}", k_.resource(out_.dims[i]).name,
                              kMaxPeriod),
                  d.range);
        return;
      }
      std::vector<int64_t> points = {d.lo};
      for (int64_t b : breaks_[i])
        if (b > d.lo && b <= d.hi) points.push_back(b);
      points.push_back(d.hi + 1);
      for (size_t s = 0; s + 1 < points.size(); ++s) {
        int64_t a = points[s], b = points[s + 1] - 1;
        for (int64_t r = 0; r < l; r += d.multiple) {
          int64_t x = a + *foldInt(IntOp::Mod, r - a, l);  // l > 0, small operands
          if (x <= b) cells[i].push_back(x);
        }
      }
      merge(i, cells[i]);
      total *= static_cast<int64_t>(cells[i].size());
      if (total > kMaxCells) {
        undecided(fmt::format("the guards split the domain into more than {} cells", kMaxCells), SourceRange());
        return;
      }
    }
    out_.routes.assign(guards.size(), {});
    for (auto &r : out_.routes) r.reachable = false, r.emptyInDomain = true;
    std::vector<std::set<size_t>> covered(guards.size());
    std::vector<size_t> at(cells.size(), 0);
    std::vector<int64_t> env(cells.size());
    for (int64_t n = 0; n < total; ++n) {
      for (size_t i = 0; i < cells.size(); ++i) env[i] = cells[i][at[i]];
      std::optional<size_t> first;
      for (size_t r = 0; r < guards.size(); ++r) {
        std::optional<bool> v = eval(guards[r], env);
        if (!v) {
          undecided(fmt::format("the guard of route '{}' cannot be evaluated at {} (an overflow or a division by "
                                "zero)",
                                fam_.routes[r].name, out_.shapeText(env)),
                    fam_.routes[r].guardRange);
          out_.routes.clear();
          return;
        }
        if (!*v) continue;
        out_.routes[r].emptyInDomain = false;
        if (!first) {
          first = r;
          if (!out_.routes[r].reachable) out_.routes[r].witness = env;
          out_.routes[r].reachable = true;
        } else {
          covered[r].insert(*first);
        }
      }
      if (!first && !out_.fallbackOnly) out_.fallbackOnly = env;
      for (size_t i = cells.size(); i-- > 0;) {  // the odometer, last parameter fastest
        if (++at[i] < cells[i].size()) break;
        at[i] = 0;
      }
    }
    for (size_t r = 0; r < guards.size(); ++r) out_.routes[r].coveredBy.assign(covered[r].begin(), covered[r].end());
    out_.decided = true;
  }

  // Every comparison names one parameter, so two values of it on which each
  // of its comparisons comes out the same (true, false, or not evaluable)
  // give every guard the same value beside any values of the others: the
  // cells keep the first value of each such class. (The first shape that
  // reaches a route, or only the fallback, is made of first values, so the
  // witnesses are those of the whole grid.)
  void merge(size_t i, std::vector<int64_t> &values) const {
    auto it = compares_.find(i);
    if (it == compares_.end()) {  // no comparison names it: one value stands for all
      values.resize(std::min<size_t>(values.size(), 1));
      return;
    }
    std::vector<int64_t> env(out_.dims.size(), 1), kept;
    std::set<std::vector<int8_t>> seen;
    for (int64_t x : values) {
      env[i] = x;
      std::vector<int8_t> outcome;
      for (const auto &[ix, cmp] : it->second) {
        std::optional<int64_t> y = eval(k_.ints.form(ix), env);
        outcome.push_back(y ? static_cast<int8_t>(holds(cmp, *y)) : int8_t(-1));
      }
      if (seen.insert(std::move(outcome)).second) kept.push_back(x);
    }
    values = std::move(kept);
  }

  const Family &fam_;
  const Kernel &k_;
  const SourceManager &sm_;
  FamilyFacts &out_;
  std::map<ResourceId, size_t> pos_;                                     // parameter -> its index in dims
  std::map<size_t, std::set<int64_t>> breaks_;                           // by dims index
  std::map<size_t, int64_t> periods_;                                    // by dims index
  std::map<size_t, std::vector<std::pair<IntExprId, CmpOp>>> compares_;  // each parameter's comparisons
};

}  // namespace

std::string FamilyFacts::shapeText(const std::vector<int64_t> &shape) const {
  std::string s;
  for (size_t i = 0; i < shape.size() && i < dims.size(); ++i)
    s += fmt::format("{}{} = {}", i ? ", " : "", family->signature->resource(dims[i]).name, shape[i]);
  return s;
}

FamilyFacts analyzeFamily(const Family &family, const SourceManager &sm) {
  FamilyFacts facts;
  facts.family = &family;
  Analysis(family, sm, facts).run();
  return facts;
}

}  // namespace cake::analysis
