// ScheduleModel: see ScheduleModel.h.
#include "analysis/ScheduleModel.h"

#include <fmt/format.h>

#include "sema/ConstEval.h"

#include <algorithm>
#include <map>
#include <set>

namespace cake::analysis {

int64_t launchRegisters(const sema::Kernel &k, Target target) {
  const TargetInfo &ti = targetInfo(target);
  int64_t warps = std::max<int64_t>(1, sema::satAdd(k.threads, 31) / 32);  // saturated: hostile sizes reach here
  int64_t blocks = std::max<int64_t>(1, k.blocksPerSm);
  // N blocks of W warps fit when each quarter of the file (regsPerSm / 4,
  // in warps of 32 threads at R registers) holds ceil(N W / 4) warps.
  int64_t q = TargetInfo::kRegisterQuarters;
  int64_t perQuarter =
      static_cast<int64_t>(ti.regsPerSm) / q / 32;  // registers a thread could have in one warp a quarter
  int64_t warpsPerQuarter = sema::satAdd(sema::satMul(blocks, warps), q - 1) / q;
  return std::min<int64_t>(ti.regMax, perQuarter / warpsPerQuarter / 8 * 8);  // allocated in 8s: 255 used is 256
}

using namespace sema;

namespace {
// The conditions of the `if`s around a statement inside its innermost loop
// (a condition, and whether the statement is in its else-branch), and
// whether an `if` outside that loop encloses it.
struct Guards {
  std::vector<std::pair<const Value *, bool>> conds;
  bool outer = false;
};

// Narrows [first, end) of `loop` by one condition; false when the condition
// is not `var <op> bound` with a bound at a constant distance from the range.
bool narrow(const Kernel &k, const IrStmt &loop, const Value &cond, bool negated, AffineForm &first, AffineForm &end) {
  if (cond.kind != ValueKind::Bool || cond.cmp == CmpOp::None || cond.ix == kNoIntExpr || loop.step != 1) return false;
  // cond: d <op> 0 with d = c * var + rest, c = +-1; rewrite as var <op> bound.
  const AffineForm &d = k.ints.form(cond.ix);
  CmpOp op = negated ? negate(cond.cmp) : cond.cmp;
  auto [c, rest] = k.ints.splitLoopVar(d, loop.loopId);
  if (c != 1 && c != -1) return false;
  if (k.ints.dependsOnLoop(rest)) return false;
  // var + rest <op> 0  <=>  var <op> -rest; with c = -1: -var + rest <op> 0 <=> var <mirror op> rest.
  std::optional<AffineForm> bound = c == 1 ? IntExprTable::combine(AffineForm{}, rest, -1) : rest;
  if (!bound) return false;
  if (c == -1) op = mirror(op);
  auto plus = [](const AffineForm &f, int64_t n) {
    AffineForm g = f;
    return __builtin_add_overflow(g.constant, n, &g.constant) ? std::optional<AffineForm>() : std::optional(g);
  };
  // first = max(first, lo), end = min(end, hi), when comparable.
  auto raise = [&](const std::optional<AffineForm> &lo) {
    if (!lo) return false;
    auto diff = IntExprTable::constantDifference(*lo, first);
    if (!diff) return false;
    if (*diff > 0) first = *lo;
    return true;
  };
  auto lower = [&](const std::optional<AffineForm> &hi) {
    if (!hi) return false;
    auto diff = IntExprTable::constantDifference(*hi, end);
    if (!diff) return false;
    if (*diff < 0) end = *hi;
    return true;
  };
  switch (op) {
  case CmpOp::None: return false;
  case CmpOp::Gt: return raise(plus(*bound, 1));
  case CmpOp::Ge: return raise(bound);
  case CmpOp::Lt: return lower(bound);
  case CmpOp::Le: return lower(plus(*bound, 1));
  case CmpOp::Eq: return raise(bound) && lower(plus(*bound, 1));
  case CmpOp::Ne: {
    // Only at either end of the range: the first or the last iteration left out.
    if (*bound == first) {
      auto f = plus(first, 1);
      return f && (first = *f, true);
    }
    auto last = plus(end, -1);
    if (last && *bound == *last) return end = *last, true;
    return false;
  }
  }
  return false;
}

// The signals of a branch, in order: (barrier, stage form, arrivals per
// execution, bytes a copy delivers); nullopt when the branch nests loops or
// branches, or a stage has no form.
using BranchSignal = std::tuple<ResourceId, AffineForm, int64_t, int64_t>;
std::optional<std::vector<BranchSignal>> signalsOf(const Kernel &k, ResourceId role, const std::vector<IrStmt> &body) {
  std::vector<BranchSignal> out;
  for (const IrStmt &s : body) {
    if (s.kind == IrStmt::Kind::For || s.kind == IrStmt::Kind::If) return std::nullopt;
    if (s.kind != IrStmt::Kind::Op) continue;
    ResourceId b = effectResource(s.op, s.op.info().effects.signals);
    if (b == kNoResource) continue;
    StageRef st = stageOperand(s.op);
    if (st.present() && st.ix == kNoIntExpr) return std::nullopt;
    Event e;
    e.op = &s.op;
    e.threads = executingThreads(k, role, s.op);
    int64_t bytes = s.op.info().effects.signal == Signal::CompleteTx ? txBytes(k, s.op) : 0;
    out.emplace_back(b, st.present() ? k.ints.form(st.ix) : AffineForm{}, arrivalsPerExecution(k, e), bytes);
  }
  return out;
}

// An `if` (in an unconditional context) whose branches signal alike: one of
// each pair runs whichever way it goes.
void balanceBranches(const Kernel &k, const IrStmt &s, RoleEvents &out, size_t thenStart, size_t elseStart) {
  auto a = signalsOf(k, out.role, s.body), b = signalsOf(k, out.role, s.orelse);
  if (!a || !b || a->empty() || *a != *b) return;
  for (size_t i = thenStart; i < elseStart; ++i)
    if (effectResource(*out.events[i].op, out.events[i].op->info().effects.signals) != kNoResource) {
      // One of the pair runs in every iteration: neither conditional nor
      // narrowed to the guard's iterations.
      out.events[i].conditional = false;
      out.events[i].guarded = false;
      out.events[i].first = out.events[i].end = AffineForm{};
    }
  for (size_t i = elseStart; i < out.events.size(); ++i)
    if (effectResource(*out.events[i].op, out.events[i].op->info().effects.signals) != kNoResource)
      out.events[i].alternative = true;
}

void flatten(const Kernel &k, const std::vector<IrStmt> &body, std::vector<const IrStmt *> &loops, Guards guards,
             RoleEvents &out, std::vector<const std::vector<IrStmt> *> &lists) {
  lists.push_back(&body);
  for (const IrStmt &s : body) {
    switch (s.kind) {
    case IrStmt::Kind::Op: {
      Event e;
      e.op = &s.op;
      e.role = out.role;
      e.loops = loops;
      e.conditional = guards.outer;
      e.index = out.events.size();
      e.body = &body;
      e.lists = lists;
      if (!guards.conds.empty() && !e.conditional) {
        const IrStmt &loop = *loops.back();
        auto first = boundForm(k, loop.start), end = boundForm(k, loop.stop);
        bool ok = first && end;
        for (const auto &[cond, negated] : guards.conds) ok = ok && narrow(k, loop, *cond, negated, *first, *end);
        if (ok) {
          e.guarded = true;
          e.first = *first;
          e.end = *end;
        } else {
          e.conditional = true;
        }
      }
      out.events.push_back(std::move(e));
      break;
    }
    case IrStmt::Kind::For: {
      loops.push_back(&s);
      // Conditions outside this loop do not narrow it: it runs all or nothing.
      Guards inner{{}, guards.outer || !guards.conds.empty()};
      flatten(k, s.body, loops, inner, out, lists);
      loops.pop_back();
      break;
    }
    case IrStmt::Kind::If: {
      Guards taken = guards, other = guards;
      if (loops.empty()) {
        taken.outer = other.outer = true;  // outside any loop: runs once or not at all
      } else {
        taken.conds.push_back({&s.cond, false});
        other.conds.push_back({&s.cond, true});
      }
      size_t thenStart = out.events.size();
      flatten(k, s.body, loops, taken, out, lists);
      size_t elseStart = out.events.size();
      flatten(k, s.orelse, loops, other, out, lists);
      if (guards.conds.empty() && !guards.outer) balanceBranches(k, s, out, thenStart, elseStart);
      break;
    }
    case IrStmt::Kind::Let: break;
    }
  }
  lists.pop_back();
}
}  // namespace

std::vector<RoleEvents> collectEvents(const Kernel &k) {
  std::vector<RoleEvents> all;
  for (const RoleBlock &b : k.roles) {
    RoleEvents r{b.role, &b, {}};
    std::vector<const IrStmt *> loops;
    std::vector<const std::vector<IrStmt> *> lists;
    flatten(k, b.body, loops, Guards{}, r, lists);
    for (Event &e : r.events) e.threads = executingThreads(k, b.role, *e.op);
    all.push_back(std::move(r));
  }
  return all;
}

std::optional<AffineForm> boundForm(const Kernel &k, const Value &v) {
  if (v.ix == kNoIntExpr) return std::nullopt;
  return k.ints.form(v.ix);
}

bool holdsAfterFirstIteration(const Kernel &k, const IrStmt &loop, const Value &cond, bool negated) {
  auto first = boundForm(k, loop.start), end = boundForm(k, loop.stop);
  if (!first || !end) return false;
  AffineForm f = *first, e = *end;
  return narrow(k, loop, cond, negated, f, e) && IntExprTable::constantDifference(f, *first) == 1 && e == *end;
}

bool inEnclosingList(const Event &s, const Event &x) {
  return s.role == x.role && s.body && std::find(x.lists.begin(), x.lists.end(), s.body) != x.lists.end();
}

bool otherArms(const Event &a, const Event &b) {
  if (a.role != b.role) return false;
  // The innermost list around both, and the lists each is in just inside it.
  size_t d = 0;
  while (d < a.lists.size() && d < b.lists.size() && a.lists[d] == b.lists[d]) ++d;
  if (d == 0 || d >= a.lists.size() || d >= b.lists.size()) return false;
  for (const IrStmt &s : *a.lists[d - 1])
    if (s.kind == IrStmt::Kind::If &&
        ((&s.body == a.lists[d] && &s.orelse == b.lists[d]) || (&s.orelse == a.lists[d] && &s.body == b.lists[d])))
      return true;
  return false;
}

std::pair<int64_t, int64_t> slotBytes(const Resource &view, int64_t slot) {
  if (view.stages <= 1) return {view.offset, satAdd(view.offset, view.totalBytes)};
  return {satAdd(view.offset, satMul(slot, view.bytesPerStage)),
          satAdd(view.offset, satMul(slot + 1, view.bytesPerStage))};
}

bool sameLayout(const Resource &a, const Resource &b) {
  return a.pool == b.pool && a.offset == b.offset && a.shape == b.shape && a.dtype == b.dtype &&
         a.swizzle == b.swizzle && a.stages == b.stages;
}

ResourceId effectResource(const Operation &op, int8_t slot) {
  if (slot == kNone) return kNoResource;
  if (slot == kReceiver) return op.receiver;
  if (slot == kResult) return op.result.kind == ValueKind::Resource ? op.result.resource : kNoResource;
  const Operand &o = op.operands[static_cast<size_t>(slot)];
  if (!o.present) return kNoResource;
  if (o.value.kind == ValueKind::Resource || o.value.kind == ValueKind::ViewStage) return o.value.resource;
  return kNoResource;
}

const Operand *copyCoords(const Operation &op) {
  const OpInfo &info = op.info();
  for (size_t i = 0; i < info.params.size(); ++i)
    if (info.params[i].kind == ParamKind::IntTuple && op.operands[i].present) return &op.operands[i];
  return nullptr;
}

bool tilesApart(const Kernel &k, const Operation &a, const Operation &b, bool fixed) {
  const Operand *ca = copyCoords(a), *cb = copyCoords(b);
  ResourceId ta = copyTile(a), tb = copyTile(b);
  if (!ca || !cb || ta == kNoResource || tb == kNoResource || ca->value.elts.size() != cb->value.elts.size())
    return false;
  if (fixed)
    for (const Operand *c : {ca, cb})
      for (const Value &x : c->value.elts)
        if (x.ix != kNoIntExpr && k.ints.dependsOnLoop(k.ints.form(x.ix))) return false;
  const std::vector<int64_t> sa = copyExtent(k, a), sb = copyExtent(k, b);
  for (size_t d = 0; d < ca->value.elts.size(); ++d) {
    const Value &x = ca->value.elts[d], &y = cb->value.elts[d];
    std::optional<int64_t> delta =  // b's coordinate minus a's
        x.constInt && y.constInt ? std::optional<int64_t>(*y.constInt - *x.constInt)
        : x.ix != kNoIntExpr && y.ix != kNoIntExpr
            ? IntExprTable::constantDifference(k.ints.form(y.ix), k.ints.form(x.ix))
            : std::nullopt;
    if (!delta || d >= sa.size() || d >= sb.size()) continue;
    if (*delta >= sa[sa.size() - 1 - d] || -*delta >= sb[sb.size() - 1 - d]) return true;  // innermost first
  }
  return false;
}

ResourceId copyTile(const Operation &op) {
  if (op.receiver != kNoResource) return op.receiver;
  if (op.result.kind == ValueKind::Resource) return op.result.resource;
  const OpInfo &info = op.info();
  for (size_t i = 0; i < info.params.size(); ++i)
    if (info.params[i].kind == ParamKind::RegsP && op.operands[i].present &&
        op.operands[i].value.kind == ValueKind::Resource)
      return op.operands[i].value.resource;
  return kNoResource;
}

std::vector<int64_t> copyExtent(const Kernel &k, const Operation &op) {
  ResourceId tile = copyTile(op);
  if (tile == kNoResource) return {};
  std::vector<int64_t> shape = k.resource(tile).shape;
  if (std::optional<int64_t> rows = op.rowBound(); rows && !shape.empty() && *rows > 0)
    shape[0] = std::min(shape[0], *rows);
  return shape;
}

StageRef stageOperand(const Operation &op) {
  int8_t i = op.info().effects.stage;
  if (i == kNone) return {};
  const Operand &o = op.operandAt(i);
  if (!o.present) return {};
  return {o.value.ix, o.value.expr};
}

StageRef effectStage(const Operation &op, int8_t slot) {
  if (slot == kReceiver) return stageOperand(op);
  if (slot < 0) return {};
  const Operand &o = op.operands[static_cast<size_t>(slot)];
  if (o.present && o.value.kind == ValueKind::ViewStage) return {o.value.stageIx, o.value.stage};
  return {};
}

namespace {
// The normal form of a stage argument; nullptr when it has no node.
const AffineForm *stageFormOf(const Kernel &k, const StageRef &s) {
  static const AffineForm zero;
  if (!s.present()) return &zero;
  if (s.ix == kNoIntExpr) return nullptr;
  return &k.ints.form(s.ix);
}
}  // namespace

bool sameBound(const Kernel &k, const Value &a, const Value &b) {
  if (a.constInt && b.constInt) return *a.constInt == *b.constInt;
  if (a.ix == kNoIntExpr || b.ix == kNoIntExpr) return false;
  return k.ints.equal(a.ix, b.ix);
}

bool sameStage(const Kernel &k, const StageRef &a, const StageRef &b) {
  const AffineForm *fa = stageFormOf(k, a), *fb = stageFormOf(k, b);
  return fa && fb && *fa == *fb;
}

StageForm stageForm(const Kernel &k, const StageRef &s, bool allowScaled) {
  if (!s.present()) {
    StageForm zero;
    zero.ok = true;
    return zero;
  }
  if (s.ix == kNoIntExpr) return {};
  return k.ints.stageForm(s.ix, allowScaled);
}

AffineForm formOf(const Kernel &k, const StageRef &s, bool &known) {
  known = !s.present() || s.ix != kNoIntExpr;
  return s.present() && known ? k.ints.form(s.ix) : AffineForm{};
}

std::string stageText(const SourceManager &sm, const StageRef &s) {
  if (!s.present()) return "0";
  std::string t = sourceText(sm, s.expr->range);
  t.erase(std::remove(t.begin(), t.end(), ' '), t.end());
  return t;
}

bool sameLoopNest(const Kernel &k, const Event &a, const Event &b) {
  if (a.loops.size() != b.loops.size()) return false;
  for (size_t i = 0; i < a.loops.size(); ++i) {
    const IrStmt &x = *a.loops[i], &y = *b.loops[i];
    if (!sameBound(k, x.start, y.start) || !sameBound(k, x.stop, y.stop) || !sameBound(k, x.stepValue, y.stepValue))
      return false;
  }
  if (a.guarded || b.guarded) {
    auto ra = iterationRange(k, a), rb = iterationRange(k, b);
    return ra && rb && ra->first == rb->first && ra->end == rb->end;
  }
  return true;
}

std::optional<int64_t> constantTripCount(const Event &e) {
  int64_t total = 1;
  for (size_t i = 0; i < e.loops.size(); ++i) {
    const IrStmt *l = e.loops[i];
    if (l->step <= 0) return std::nullopt;
    int64_t span;
    if (i + 1 == e.loops.size() && e.guarded) {
      if (!e.first.isConstant() || !e.end.isConstant() ||
          __builtin_sub_overflow(e.end.constant, e.first.constant, &span))
        return std::nullopt;
    } else if (!l->start.constInt || !l->stop.constInt ||
               __builtin_sub_overflow(*l->stop.constInt, *l->start.constInt, &span)) {
      return std::nullopt;
    }
    int64_t n = span <= 0 ? 0 : satAdd(span, l->step - 1) / l->step;
    if (__builtin_mul_overflow(total, n, &total)) return std::nullopt;
  }
  return total;
}

std::optional<IterationRange> iterationRange(const Kernel &k, const Event &e) {
  if (e.loops.empty()) return std::nullopt;
  if (e.guarded) return IterationRange{e.first, e.end};
  auto first = boundForm(k, e.loops.back()->start), end = boundForm(k, e.loops.back()->stop);
  if (!first || !end) return std::nullopt;
  return IterationRange{*first, *end};
}

static std::optional<PolyForm> tripProduct(const Kernel &k, const Event &e, const IterationRange *outer);

namespace {
std::optional<int64_t> atomLowerBound(const Kernel &k, AtomId a, int depth);

std::optional<int64_t> formLowerBound(const Kernel &k, const AffineForm &f, int depth) {
  if (depth > 16) return std::nullopt;  // deeply nested atoms: no bound
  int64_t total = f.constant;
  // An index paired with its count (c * id + c2 * count, c < 0 <= c + c2):
  // id <= count - 1, so the pair is at least c2 (count >= 1).
  auto countOf = [&](AtomId a) -> std::optional<std::pair<IntOp, int64_t>> {
    auto v = k.ints.atomInfo(a);
    if (v.op == IntOp::BlockId) return std::make_pair(IntOp::NumBlocks, v.value);
    if (v.op == IntOp::ClusterId) return std::make_pair(IntOp::NumClusters, v.value);
    return std::nullopt;
  };
  std::set<AtomId> paired;
  for (const auto &[a, c] : f.terms) {
    if (c >= 0 || paired.count(a)) continue;
    auto v = k.ints.atomInfo(a);
    if (v.op == IntOp::ClusterRank) {  // at most the cluster's size less one
      int64_t size = 1;
      for (int64_t d : k.cluster) size = satMul(size, d);
      total = satAdd(total, satMul(c, size - 1));
      paired.insert(a);
      continue;
    }
    auto want = countOf(a);
    if (!want) return std::nullopt;
    bool found = false;
    for (const auto &[b, c2] : f.terms) {
      auto w = k.ints.atomInfo(b);
      if (w.op != want->first || w.value != want->second || paired.count(b) || satAdd(c, c2) < 0) continue;
      total = satAdd(total, c2);
      paired.insert(a);
      paired.insert(b);
      found = true;
      break;
    }
    if (!found) return std::nullopt;
  }
  for (const auto &[a, c] : f.terms) {
    if (paired.count(a)) continue;
    auto lb = atomLowerBound(k, a, depth + 1);
    if (!lb) return std::nullopt;
    total = satAdd(total, satMul(c, *lb));
  }
  return total;
}

// The `for` statement of a loop id, in any role's body.
const IrStmt *findLoop(const std::vector<IrStmt> &body, uint32_t loopId) {
  for (const IrStmt &s : body) {
    if (s.kind == IrStmt::Kind::For && s.loopId == loopId) return &s;
    if (const IrStmt *in = findLoop(s.body, loopId)) return in;
    if (const IrStmt *in = findLoop(s.orelse, loopId)) return in;
  }
  return nullptr;
}

const IrStmt *findLoop(const Kernel &k, uint32_t loopId) {
  for (const RoleBlock &rb : k.roles)
    if (const IrStmt *in = findLoop(rb.body, loopId)) return in;
  return nullptr;
}

std::optional<int64_t> atomLowerBoundOf(const Kernel &k, AtomId a, int depth);

// An atom that is a dimension of the grid is at least 1: the launcher
// refuses an empty grid (S // BM blocks: S // BM >= 1 wherever a block runs).
std::optional<int64_t> atomLowerBound(const Kernel &k, AtomId a, int depth) {
  std::optional<int64_t> lb = atomLowerBoundOf(k, a, depth);
  AffineForm single;
  single.terms.push_back({a, 1});
  for (const Value &g : k.grid)
    if (!g.isConstInt() && g.ix != kNoIntExpr && k.ints.form(g.ix) == single)
      return std::max<int64_t>(lb.value_or(1), 1);
  return lb;
}

std::optional<int64_t> atomLowerBoundOf(const Kernel &k, AtomId a, int depth) {
  auto v = k.ints.atomInfo(a);
  switch (v.op) {
  case IntOp::Param:
    for (const Resource &r : k.resources)
      if (r.kind == ResourceKind::TensorParam)
        for (const auto &d : r.dims)
          if (d.scalar == static_cast<ResourceId>(v.value)) return 1;
    return std::nullopt;
  case IntOp::RoleValue: return std::nullopt;  // an atomic's old value: any
  case IntOp::Const:
  case IntOp::BlockId:
  case IntOp::NumBlocks:
  case IntOp::ClusterRank:
  case IntOp::ClusterId:
  case IntOp::NumClusters:
  case IntOp::ClusterBlock:
  case IntOp::SmCount: return intOpInfo(v.op).least;  // the indices from 0, the counts from 1
  case IntOp::FloorDiv: {
    auto l = formLowerBound(k, *v.lhs, depth);
    if (!l) return std::nullopt;
    if (v.rhs->isConstant() && v.rhs->constant > 0) {
      int64_t q = *l / v.rhs->constant;
      return (*l % v.rhs->constant != 0 && *l < 0) ? q - 1 : q;
    }
    auto r = formLowerBound(k, *v.rhs, depth);
    if (*l >= 0 && r && *r >= 1) return 0;
    return std::nullopt;
  }
  case IntOp::Mod:
    if (v.rhs->isConstant() && v.rhs->constant > 0) return 0;
    return std::nullopt;
  case IntOp::Mul: {
    auto l = formLowerBound(k, *v.lhs, depth), r = formLowerBound(k, *v.rhs, depth);
    if (l && r && *l >= 0 && *r >= 0) return satMul(*l, *r);
    return std::nullopt;
  }
  case IntOp::Min: {
    auto l = formLowerBound(k, *v.lhs, depth), r = formLowerBound(k, *v.rhs, depth);
    if (l && r) return std::min(*l, *r);
    return std::nullopt;
  }
  case IntOp::Max: {
    auto l = formLowerBound(k, *v.lhs, depth), r = formLowerBound(k, *v.rhs, depth);
    if (l && r) return std::max(*l, *r);
    return l ? l : r;
  }
  case IntOp::LoopVar: {
    // Within its loop, a variable stepping up from its start is at least
    // that start.
    const IrStmt *loop = findLoop(k, static_cast<uint32_t>(v.value));
    if (!loop || loop->step <= 0) return std::nullopt;
    std::optional<AffineForm> start = boundForm(k, loop->start);
    if (!start) return std::nullopt;
    return formLowerBound(k, *start, depth + 1);
  }
  case IntOp::Add:
  case IntOp::Sub:
  case IntOp::Pow:
  case IntOp::Neg:
  case IntOp::Let: return std::nullopt;  // a named value has its value's form, never an atom
  }
  return std::nullopt;
}
}  // namespace

std::optional<int64_t> lowerBound(const Kernel &k, const AffineForm &f) { return formLowerBound(k, f, 0); }

bool loopRunsAtLeastOnce(const Kernel &k, const IrStmt &loop) {
  if (loop.step <= 0) return false;
  auto first = boundForm(k, loop.start), end = boundForm(k, loop.stop);
  if (!first || !end) return false;
  std::optional<AffineForm> trips = IntExprTable::combine(*end, *first, -1);
  return trips && lowerBound(k, *trips).value_or(0) >= 1;
}

std::optional<std::vector<LevelRange>> nestRanges(const Kernel &k, const Event &e, const IterationRange *outer) {
  std::vector<LevelRange> out;
  for (size_t i = 0; i < e.loops.size(); ++i) {
    const IrStmt &l = *e.loops[i];
    std::optional<IterationRange> r;
    int64_t step = l.step;
    if (i == 0 && outer) {
      r = *outer;
      step = 1;
    } else if (i + 1 == e.loops.size()) {
      r = iterationRange(k, e);
    } else {
      auto first = boundForm(k, l.start), end = boundForm(k, l.stop);
      if (first && end) r = IterationRange{*first, *end};
    }
    if (!r || step == 0) return std::nullopt;
    out.push_back(LevelRange{r->first, r->end, step});
  }
  return out;
}

std::optional<PolyForm> tripForm(const Kernel &k, const Event &e) {
  if (auto n = constantTripCount(e)) {
    PolyForm f;
    if (*n != 0) f.terms[{}] = *n;
    return f;
  }
  return tripProduct(k, e, nullptr);
}

std::optional<PolyForm> tripForm(const Kernel &k, const Event &e, const IterationRange &outer) {
  if (e.loops.empty()) return std::nullopt;
  return tripProduct(k, e, &outer);
}

// The product of the nest's trip counts; `outer`, when given, is the
// outermost loop's range at step 1. A run-time count is its end - first,
// which is the count whenever the loop runs.
std::optional<AffineForm> levelTrips(const Kernel &k, const Event &e, size_t i) {
  const IrStmt &l = *e.loops[i];
  std::optional<IterationRange> r;
  if (i + 1 == e.loops.size())
    r = iterationRange(k, e);
  else if (l.start.ix != kNoIntExpr && l.stop.ix != kNoIntExpr)
    r = IterationRange{k.ints.form(l.start.ix), k.ints.form(l.stop.ix)};
  if (!r) return std::nullopt;
  return IntExprTable::combine(r->end, r->first, -1);
}

static std::optional<PolyForm> tripProduct(const Kernel &k, const Event &e, const IterationRange *outer) {
  PolyForm total;
  total.terms[{}] = 1;
  int unprovenFactors = 0, provenFactors = 0;  // run-time counts, by whether they are proven >= 0
  for (size_t i = 0; i < e.loops.size(); ++i) {
    const IrStmt &l = *e.loops[i];
    if (l.step != 1 && !(i == 0 && outer)) return std::nullopt;
    std::optional<AffineForm> n =
        i == 0 && outer ? IntExprTable::combine(outer->end, outer->first, -1) : levelTrips(k, e, i);
    if (!n) return std::nullopt;
    // A bound over an enclosing loop's variable (range(0, i)) has no product.
    if (e.loops.size() > 1 && k.ints.dependsOnLoop(*n)) return std::nullopt;
    if (n->isConstant()) {
      n->constant = std::max<int64_t>(0, n->constant);
    } else {
      // A run-time count is end - first only when that is not negative; a
      // product of two of them is the trips only if both are proven so
      // ((-M) * (-N) is M * N, where the loops run 0 times).
      bool proven = lowerBound(k, *n).value_or(-1) >= 0;
      if (!proven && ++unprovenFactors + provenFactors > 1) return std::nullopt;
      if (proven && ++provenFactors + unprovenFactors > 1 && unprovenFactors > 0) return std::nullopt;
    }
    std::optional<PolyForm> product = PolyForm::mul(total, PolyForm::of(*n));
    // Deep nests of many-term bounds multiply out to many monomials: no
    // count past a size any schedule needs (hostile input stays fast).
    if (!product || product->terms.size() > 256) return std::nullopt;
    total = std::move(*product);
  }
  return total;
}

bool covers(const Kernel &k, const Event &w, const Event &e) {
  if (w.role != e.role || w.index >= e.index || w.loops.size() > e.loops.size()) return false;
  if (!std::equal(w.loops.begin(), w.loops.end(), e.loops.begin())) return false;
  if (w.conditional) return false;
  if (!w.guarded) return true;
  // A guarded W covers only events of its loop on iterations it runs.
  if (e.loops.size() != w.loops.size()) return false;
  auto r = iterationRange(k, e);
  if (!r) return false;
  auto lo = IntExprTable::constantDifference(r->first, w.first), hi = IntExprTable::constantDifference(w.end, r->end);
  return lo && hi && *lo >= 0 && *hi >= 0;
}

std::string boundText(const SourceManager &sm, const Value &b) {
  if (b.constInt) return std::to_string(*b.constInt);
  return b.expr ? sourceText(sm, b.expr->range) : std::string("?");
}

std::string loopNestKey(const SourceManager &sm, const Event &e) {
  std::string key;
  for (const IrStmt *l : e.loops) {
    auto text = [&](const Value &v) {
      std::string t = boundText(sm, v);
      t.erase(std::remove(t.begin(), t.end(), ' '), t.end());
      return t;
    };
    key += "range(" + text(l->start) + ", " + text(l->stop) + ", " + text(l->stepValue) + ")";
  }
  return key;
}

int64_t roleThreads(const Kernel &k, ResourceId role) {
  return 32 * static_cast<int64_t>(k.resources[role].warps.size());
}

int64_t executingThreads(const Kernel &k, ResourceId role, const Operation &op) {
  const OpEffects &fx = op.info().effects;
  int64_t warps = static_cast<int64_t>(k.resources[role].warps.size());
  if (fx.single) return 1;
  if (fx.signal == Signal::Arrive) switch (op.scope) {
    case ArrivalScope::Role: return 1;
    case ArrivalScope::Warpgroup: return std::max<int64_t>(1, warps / 4);
    case ArrivalScope::Warp: return warps;
    case ArrivalScope::Thread: return 32 * warps;
    }
  return 32 * warps;
}

int64_t arrivalsPerExecution(const Kernel &k, const Event &e) {
  const OpEffects &fx = e.op->info().effects;
  switch (fx.signal) {
  case Signal::CompleteTx:
  case Signal::CommitArrive: return 1;
  case Signal::CopyArrive: return e.threads;  // each thread, once its chunks land
  case Signal::Arrive: {
    // Each executing thread arrives once; a cluster-wide signal makes every
    // block of the cluster arrive on each block's barrier.
    int64_t n = e.threads;
    if (signalsCluster(*e.op)) n = satMul(n, clusterSize(k));
    return n;
  }
  case Signal::None: return 0;
  }
  return 0;
}

int64_t multicastCount(const Operation &op) {
  int8_t i = op.info().effects.multicast;
  if (i < 0) return 0;
  int64_t n = op.operands[static_cast<size_t>(i)].value.constInt.value_or(0);
  return n > 1 ? n : 0;
}

int64_t multicastDim(const Operation &op) {
  if (op.kind != OpKind::TmaLoad || !multicastCount(op)) return -1;
  const Operand &d = op.operand(param::TmaLoad::multicast_dim);
  return d.present && d.value.constInt ? *d.value.constInt : -1;
}

bool multicastSpans(const Kernel &k, const Operation &op, int64_t dim) {
  if (dim < 0 || dim > 2 || k.cluster[static_cast<size_t>(dim)] < 2) return false;
  int64_t d = multicastDim(op);
  return d < 0 || d == dim;
}

bool signalsCluster(const Operation &op) {
  int8_t i = op.info().effects.clusterSignal;
  if (i < 0) return false;
  const Operand &o = op.operands[static_cast<size_t>(i)];
  return o.present && o.value.boolIsConst && o.value.constBool;
}

std::optional<std::string> clusterVarying(const Kernel &k, const AffineForm &f, int depth) {
  if (depth > 32) return std::string("an expression nested too deeply");
  for (const auto &[atom, coef] : f.terms) {
    IntExprTable::AtomView a = k.ints.atomInfo(atom);
    const IntOpInfo &info = intOpInfo(a.op);
    switch (info.same) {
    case IntSame::Launch:
    case IntSame::Cluster:
    case IntSame::Iteration: continue;  // a loop's iteration: its bounds are checked themselves
    case IntSame::Read:
      if (k.sharedValues.count(a.value)) continue;
      return std::string("a value read in each block (an atomic's old value, or a read sema does not share)");
    case IntSame::Block:
      // A block's index, or its place in the cluster, along a dimension the
      // cluster does not span is the same in all of the cluster's blocks.
      if ((a.op == IntOp::BlockId || a.op == IntOp::ClusterBlock) && a.value >= 0 && a.value <= 2 &&
          k.cluster[static_cast<size_t>(a.value)] <= 1)
        continue;
      return fmt::format(fmt::runtime(info.source), a.value);
    case IntSame::Operands:
      for (const AffineForm *g : {a.lhs, a.rhs})
        if (g && (info.arity > 1 || g == a.lhs))
          if (auto why = clusterVarying(k, *g, depth + 1)) return why;
    }
  }
  return std::nullopt;
}

int64_t clusterSize(const Kernel &k) {
  int64_t n = 1;
  for (int64_t c : k.cluster) n = satMul(n, std::max<int64_t>(1, c));
  return n;
}

int64_t txBytes(const Kernel &k, const Operation &op) {
  ResourceId dst = effectResource(op, op.info().effects.writes);
  if (dst == kNoResource) return 0;
  return k.resources[dst].bytesPerStage;
}

}  // namespace cake::analysis
