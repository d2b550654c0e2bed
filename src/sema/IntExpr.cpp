// IntExpr: see IntExpr.h.
#include "sema/IntExpr.h"

#include <algorithm>
#include <set>

#include "sema/ConstEval.h"

namespace cake::sema {

const IntOpInfo &intOpInfo(IntOp op) {
  static constexpr IntOpInfo kTable[] = {
#define INT_OP(Enum, Arity, Traits, Source, Cuda, Wrapper, Place, Least, Range, Prec, Same) \
  {IntOp::Enum, #Enum, Arity, Traits, Source, Cuda, Wrapper, IntPlace::Place, Least, Range, Prec, IntSame::Same},
#include "sema/IntOps.def"
#undef INT_OP
  };
  return kTable[static_cast<size_t>(op)];
}

// The one place the operations compute on constants.
std::optional<int64_t> foldInt(IntOp op, int64_t a, int64_t b) {
  auto result = [](ConstResult r) { return r.ok() ? std::optional<int64_t>(r.value) : std::nullopt; };
  switch (op) {
  case IntOp::Add: return result(foldIntBinary(ast::BinaryOp::Add, a, b));
  case IntOp::Sub: return result(foldIntBinary(ast::BinaryOp::Sub, a, b));
  case IntOp::Mul: return result(foldIntBinary(ast::BinaryOp::Mul, a, b));
  case IntOp::FloorDiv: return result(foldIntBinary(ast::BinaryOp::FloorDiv, a, b));
  case IntOp::Mod: return result(foldIntBinary(ast::BinaryOp::Mod, a, b));
  case IntOp::Pow: return result(foldIntBinary(ast::BinaryOp::Pow, a, b));
  case IntOp::Neg: return result(foldIntNegate(a));
  case IntOp::Min: return std::min(a, b);
  case IntOp::Max: return std::max(a, b);
  case IntOp::Let: return a;
  case IntOp::Const:
  case IntOp::LoopVar:
  case IntOp::Param:
  case IntOp::BlockId:
  case IntOp::NumBlocks:
  case IntOp::ClusterRank:
  case IntOp::ClusterId:
  case IntOp::NumClusters:
  case IntOp::ClusterBlock:
  case IntOp::SmCount:
  case IntOp::RoleValue: break;  // leaves
  }
  return std::nullopt;
}

std::optional<AffineForm> IntExprTable::combine(const AffineForm &a, const AffineForm &b, int64_t s) {
  AffineForm r;
  int64_t bc;
  if (__builtin_mul_overflow(b.constant, s, &bc) || __builtin_add_overflow(a.constant, bc, &r.constant))
    return std::nullopt;
  size_t i = 0, j = 0;
  while (i < a.terms.size() || j < b.terms.size()) {
    if (j == b.terms.size() || (i < a.terms.size() && a.terms[i].first < b.terms[j].first)) {
      r.terms.push_back(a.terms[i++]);
      continue;
    }
    int64_t c;
    if (__builtin_mul_overflow(b.terms[j].second, s, &c)) return std::nullopt;
    if (i < a.terms.size() && a.terms[i].first == b.terms[j].first) {
      if (__builtin_add_overflow(a.terms[i].second, c, &c)) return std::nullopt;
      ++i;
    }
    if (c != 0) r.terms.emplace_back(b.terms[j].first, c);
    ++j;
  }
  return r;
}

namespace {

std::optional<AffineForm> scaled(const AffineForm &a, int64_t s) { return IntExprTable::combine(AffineForm{}, a, s); }

AffineForm constantForm(int64_t v) {
  AffineForm f;
  f.constant = v;
  return f;
}

}  // namespace

AtomId IntExprTable::atom(IntOp op, int64_t value, const AffineForm *lhs, const AffineForm *rhs, IntExprId node) {
  auto key = std::make_tuple(op, value, lhs ? *lhs : AffineForm{}, rhs ? *rhs : AffineForm{});
  auto it = atomIndex_.find(key);
  if (it != atomIndex_.end()) return it->second;
  AtomId id = static_cast<AtomId>(atoms_.size());
  bool loop = op == IntOp::LoopVar || (lhs && dependsOnLoop(*lhs)) || (rhs && dependsOnLoop(*rhs));
  atoms_.push_back(Atom{op, value, std::get<2>(key), std::get<3>(key), node, loop});
  atomIndex_.emplace(std::move(key), id);
  return id;
}

IntExprId IntExprTable::push(const IntNode &n, AffineForm f) {
  IntExprId id = static_cast<IntExprId>(nodes_.size());
  nodes_.push_back(n);
  forms_.push_back(std::move(f));
  interned_.emplace(std::make_tuple(n.op, n.value, n.a, n.b), id);
  return id;
}

IntExprId IntExprTable::constant(int64_t v) {
  if (auto it = interned_.find({IntOp::Const, v, kNoIntExpr, kNoIntExpr}); it != interned_.end()) return it->second;
  return push(IntNode{IntOp::Const, v}, constantForm(v));
}

IntExprId IntExprTable::leaf(IntOp op, int64_t value) {
  if (op == IntOp::Const) return constant(value);
  if (auto it = interned_.find({op, value, kNoIntExpr, kNoIntExpr}); it != interned_.end()) return it->second;
  IntExprId id = static_cast<IntExprId>(nodes_.size());
  AffineForm f;
  f.terms.emplace_back(atom(op, value, nullptr, nullptr, id), 1);
  return push(IntNode{op, value}, f);
}

IntExprId IntExprTable::unary(IntOp op, IntExprId a) {
  if (auto it = interned_.find({op, 0, a, kNoIntExpr}); it != interned_.end()) return it->second;
  IntExprId id = static_cast<IntExprId>(nodes_.size());
  std::optional<AffineForm> f = scaled(form(a), -1);
  if (!f) {  // overflow: the node is an atom of its own
    f = AffineForm{};
    f->terms.emplace_back(atom(op, static_cast<int64_t>(id), nullptr, nullptr, id), 1);
  }
  return push(IntNode{op, 0, a}, *f);
}

IntExprId IntExprTable::let(int64_t name, IntExprId value) {
  if (auto it = interned_.find({IntOp::Let, name, value, kNoIntExpr}); it != interned_.end()) return it->second;
  return push(IntNode{IntOp::Let, name, value}, form(value));
}

IntExprId IntExprTable::binary(IntOp op, IntExprId a, IntExprId b) {
  if (auto it = interned_.find({op, 0, a, b}); it != interned_.end()) return it->second;
  const AffineForm fa = form(a), fb = form(b);
  // x * 1, 1 * x and x // 1 are x: a parameter set to 1 (-DCM=1) leaves
  // no `* 1` in the generated code and the launcher's messages.
  auto one = [](const AffineForm &f) { return f.isConstant() && f.constant == 1; };
  if (op == IntOp::Mul && one(fb)) return a;
  if (op == IntOp::Mul && one(fa)) return b;
  if (op == IntOp::FloorDiv && one(fb)) return a;
  IntExprId id = static_cast<IntExprId>(nodes_.size());
  std::optional<AffineForm> f;
  const IntOpInfo &info = intOpInfo(op);
  auto nonLinear = [&]() {
    const AffineForm *l = &fa, *r = &fb;
    if (info.has(kCommutative) && *r < *l) std::swap(l, r);
    AffineForm g;
    g.terms.emplace_back(atom(op, 0, l, r, id), 1);
    return g;
  };
  if (info.arity != 2) {
    // not a binary operation: an atom of its own
  } else if (info.has(kSum) || info.has(kDifference)) {
    f = IntExprTable::combine(fa, fb, info.has(kSum) ? 1 : -1);
  } else if (info.has(kScales) && (fa.isConstant() || fb.isConstant())) {
    f = fb.isConstant() ? scaled(fa, fb.constant) : scaled(fb, fa.constant);
  } else if (fa.isConstant() && fb.isConstant()) {
    if (std::optional<int64_t> r = foldInt(op, fa.constant, fb.constant)) f = constantForm(*r);
  } else if (info.has(kRightUnit) && fb == constantForm(1)) {
    f = fa;
  } else if (info.has(kIdempotent) && fa == fb) {
    f = fa;
  } else {
    f = nonLinear();
  }
  if (!f) {  // overflow, or not a binary operation: the node is an atom of its own
    f = AffineForm{};
    f->terms.emplace_back(atom(op, static_cast<int64_t>(id) + 1, nullptr, nullptr, id), 1);
  }
  return push(IntNode{op, 0, a, b}, *f);
}

std::optional<int64_t> IntExprTable::constantValue(IntExprId x) const {
  const AffineForm &f = form(x);
  if (!f.isConstant()) return std::nullopt;
  return f.constant;
}

std::optional<int64_t> IntExprTable::constantDifference(const AffineForm &a, const AffineForm &b) {
  std::optional<AffineForm> d = combine(a, b, -1);
  if (!d || !d->isConstant()) return std::nullopt;
  return d->constant;
}

void IntExprTable::loopsIn(const AffineForm &f, std::set<uint32_t> &out) const {
  for (const auto &[a, c] : f.terms) {
    AtomView v = atomInfo(a);
    if (v.op == IntOp::LoopVar) out.insert(static_cast<uint32_t>(v.value));
    loopsIn(*v.lhs, out);
    loopsIn(*v.rhs, out);
  }
}

bool IntExprTable::dependsOnLoop(const AffineForm &f) const {
  return std::any_of(f.terms.begin(), f.terms.end(), [&](const auto &t) { return atoms_[t.first].loopDependent; });
}

std::pair<int64_t, AffineForm> IntExprTable::splitLoopVar(const AffineForm &f, uint32_t loopId) const {
  std::pair<int64_t, AffineForm> out{0, AffineForm{}};
  out.second.constant = f.constant;
  for (const auto &[a, coeff] : f.terms)
    if (atoms_[a].op == IntOp::LoopVar && atoms_[a].value == static_cast<int64_t>(loopId))
      out.first = coeff;
    else
      out.second.terms.emplace_back(a, coeff);  // stays sorted
  return out;
}

std::optional<AffineForm> IntExprTable::substituteLoopVar(const AffineForm &f, uint32_t loopId,
                                                          const AffineForm &value) const {
  auto [coeff, rest] = splitLoopVar(f, loopId);
  if (coeff == 0) return f;
  return combine(rest, value, coeff);
}

namespace {
std::optional<PolyForm> expandAt(const IntExprTable &t, const AffineForm &f,
                                 const std::function<std::optional<PolyForm>(AtomId)> &leaf, int depth) {
  if (depth > 16) return std::nullopt;
  std::optional<PolyForm> r = PolyForm::of(AffineForm{f.constant, {}});
  for (const auto &[atom, coef] : f.terms) {
    IntExprTable::AtomView v = t.atomInfo(atom);
    std::optional<PolyForm> term;
    if (v.op == IntOp::Mul && v.lhs && v.rhs) {
      std::optional<PolyForm> a = expandAt(t, *v.lhs, leaf, depth + 1), b = expandAt(t, *v.rhs, leaf, depth + 1);
      if (a && b) term = PolyForm::mul(*a, *b);
    } else {
      if (leaf) term = leaf(atom);
      if (!term) {
        term = PolyForm{};
        term->terms[{atom}] = 1;
      }
    }
    if (!term || !(r = PolyForm::add(*r, *term, coef))) return std::nullopt;
  }
  return r;
}
}  // namespace

std::optional<PolyForm> IntExprTable::expandProducts(const AffineForm &f,
                                                     const std::function<std::optional<PolyForm>(AtomId)> &leaf) const {
  return expandAt(*this, f, leaf, 0);
}

std::optional<PolyForm> IntExprTable::substituteAtom(const PolyForm &p, AtomId a, const PolyForm &value) {
  std::optional<PolyForm> out = PolyForm{};
  for (const auto &[mono, coef] : p.terms) {
    PolyForm rest;
    std::vector<AtomId> others;
    int power = 0;
    for (AtomId x : mono) {
      if (x == a)
        ++power;
      else
        others.push_back(x);
    }
    rest.terms[others] = coef;
    std::optional<PolyForm> term = rest;
    for (int i = 0; i < power && term; ++i) term = PolyForm::mul(*term, value);
    if (!term || !(out = PolyForm::add(*out, *term, 1))) return std::nullopt;
  }
  return out;
}

PolyForm PolyForm::of(const AffineForm &f) {
  PolyForm p;
  if (f.constant != 0) p.terms[{}] = f.constant;
  for (const auto &[a, c] : f.terms) p.terms[{a}] = c;
  return p;
}

std::optional<PolyForm> PolyForm::add(const PolyForm &a, const PolyForm &b, int64_t scale) {
  PolyForm out = a;
  for (const auto &[m, c] : b.terms) {
    int64_t scaled, sum;
    if (__builtin_mul_overflow(c, scale, &scaled)) return std::nullopt;
    int64_t &slot = out.terms[m];
    if (__builtin_add_overflow(slot, scaled, &sum)) return std::nullopt;
    slot = sum;
    if (slot == 0) out.terms.erase(m);
  }
  return out;
}

std::optional<PolyForm> PolyForm::mul(const PolyForm &a, const PolyForm &b) {
  PolyForm out;
  for (const auto &[ma, ca] : a.terms)
    for (const auto &[mb, cb] : b.terms) {
      std::vector<AtomId> m = ma;
      m.insert(m.end(), mb.begin(), mb.end());
      std::sort(m.begin(), m.end());
      int64_t c, sum;
      if (__builtin_mul_overflow(ca, cb, &c)) return std::nullopt;
      int64_t &slot = out.terms[m];
      if (__builtin_add_overflow(slot, c, &sum)) return std::nullopt;
      slot = sum;
    }
  for (auto it = out.terms.begin(); it != out.terms.end();) it = it->second == 0 ? out.terms.erase(it) : std::next(it);
  return out;
}

std::optional<int64_t> PolyForm::constantDifference(const PolyForm &a, const PolyForm &b) {
  auto d = add(a, b, -1);
  if (!d || !d->isConstant()) return std::nullopt;
  return d->constant();
}

StageForm IntExprTable::stageForm(IntExprId x, bool allowScaled) const {
  StageForm s;
  const AffineForm &f = form(x);
  s.offset.constant = f.constant;
  AffineForm extra;  // the scaled term's constant part, added after the loop (terms stay sorted)
  for (const auto &[a, coeff] : f.terms) {
    if (!atoms_[a].loopDependent) {
      s.offset.terms.emplace_back(a, coeff);  // stays sorted: terms are
      continue;
    }
    if (atoms_[a].op == IntOp::LoopVar) {
      s.loops.emplace_back(static_cast<uint32_t>(atoms_[a].value), coeff);
      continue;
    }
    // coeff * (c * t + b) * X with X loop-invariant and not a constant, b a
    // constant: (coeff * c * X) * t + coeff * b * X.
    if (!allowScaled || atoms_[a].op != IntOp::Mul || s.scaledLoop) return StageForm{};
    const AffineForm *side = &atoms_[a].lhs, *factor = &atoms_[a].rhs;
    if (dependsOnLoop(*factor)) std::swap(side, factor);
    if (dependsOnLoop(*factor) || side->terms.size() != 1 || atoms_[side->terms[0].first].op != IntOp::LoopVar)
      return StageForm{};
    int64_t termCoeff = coeff;
    auto scaledFactor = [&, termCoeff](int64_t by) -> std::optional<AffineForm> {
      int64_t m;
      if (__builtin_mul_overflow(termCoeff, by, &m)) return std::nullopt;
      return combine(AffineForm{}, *factor, m);
    };
    auto c = scaledFactor(side->terms[0].second);
    auto b = scaledFactor(side->constant);
    if (!c || !b) return StageForm{};
    extra = *b;
    s.scaledLoop = std::make_pair(static_cast<uint32_t>(atoms_[side->terms[0].first].value), *c);
  }
  // A loop counted both ways (t * 2 + t * X) is not one scaled term.
  if (s.scaledLoop &&
      std::any_of(s.loops.begin(), s.loops.end(), [&](const auto &t) { return t.first == s.scaledLoop->first; }))
    return StageForm{};
  auto offset = combine(s.offset, extra, 1);
  if (!offset) return StageForm{};
  s.offset = *offset;
  s.ok = true;
  return s;
}

IntExprId IntExprTable::findLeaf(IntExprId x, const std::function<bool(const IntNode &)> &pred,
                                 const std::function<bool(const IntNode &)> &skip) const {
  // Iterative (expressions may be long chains), left operand first.
  std::vector<IntExprId> todo = {x};
  std::set<IntExprId> seen;
  while (!todo.empty()) {
    IntExprId id = todo.back();
    todo.pop_back();
    if (id == kNoIntExpr || id >= nodes_.size() || !seen.insert(id).second) continue;
    const IntNode &n = nodes_[id];
    if (isLeaf(n.op)) {
      if (pred(n)) return id;
      continue;
    }
    if (skip && skip(n)) continue;
    todo.push_back(n.b);
    todo.push_back(n.a);
  }
  return kNoIntExpr;
}

}  // namespace cake::sema
