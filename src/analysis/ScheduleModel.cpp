// ScheduleModel: see ScheduleModel.h.
#include "analysis/ScheduleModel.h"

#include "sema/ConstEval.h"

#include <algorithm>
#include <map>
#include <set>

namespace cake::analysis {

using namespace sema;

namespace {
void flatten(const std::vector<IrStmt> &body, std::vector<const IrStmt *> &loops, bool conditional, RoleEvents &out) {
  for (const IrStmt &s : body) {
    switch (s.kind) {
    case IrStmt::Kind::Op: {
      Event e;
      e.op = &s.op;
      e.role = out.role;
      e.loops = loops;
      e.conditional = conditional;
      e.index = out.events.size();
      e.body = &body;
      out.events.push_back(std::move(e));
      break;
    }
    case IrStmt::Kind::For:
      loops.push_back(&s);
      flatten(s.body, loops, conditional, out);
      loops.pop_back();
      break;
    case IrStmt::Kind::If:
      flatten(s.body, loops, true, out);
      flatten(s.orelse, loops, true, out);
      break;
    case IrStmt::Kind::Let: break;
    }
  }
}
}  // namespace

std::vector<RoleEvents> collectEvents(const Kernel &k) {
  std::vector<RoleEvents> all;
  for (const RoleBlock &b : k.roles) {
    RoleEvents r{b.role, &b, {}};
    std::vector<const IrStmt *> loops;
    flatten(b.body, loops, false, r);
    for (Event &e : r.events) e.threads = executingThreads(k, b.role, *e.op);
    all.push_back(std::move(r));
  }
  return all;
}

ResourceId effectResource(const Operation &op, int8_t slot) {
  if (slot == kNone) return kNoResource;
  if (slot == kReceiver) return op.receiver;
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

// The normal form of a loop bound; nullptr when it has none.
bool sameBound(const Kernel &k, const Value &a, const Value &b) {
  if (a.constInt && b.constInt) return *a.constInt == *b.constInt;
  if (a.ix == kNoIntExpr || b.ix == kNoIntExpr) return false;
  return k.ints.equal(a.ix, b.ix);
}
}  // namespace

bool sameStage(const Kernel &k, const StageRef &a, const StageRef &b) {
  const AffineForm *fa = stageFormOf(k, a), *fb = stageFormOf(k, b);
  return fa && fb && *fa == *fb;
}

StageForm stageForm(const Kernel &k, const StageRef &s) {
  if (!s.present()) return StageForm{true, 0, false, 0, 0};
  if (s.ix == kNoIntExpr) return {};
  return k.ints.stageForm(s.ix);
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
  return true;
}

std::optional<int64_t> constantTripCount(const Event &e) {
  int64_t total = 1;
  for (const IrStmt *l : e.loops) {
    if (!l->start.constInt || !l->stop.constInt || l->step <= 0) return std::nullopt;
    int64_t span;
    if (__builtin_sub_overflow(*l->stop.constInt, *l->start.constInt, &span)) return std::nullopt;
    int64_t n = span <= 0 ? 0 : satAdd(span, l->step - 1) / l->step;
    if (__builtin_mul_overflow(total, n, &total)) return std::nullopt;
  }
  return total;
}

std::string loopNestKey(const SourceManager &sm, const Event &e) {
  std::string key;
  for (const IrStmt *l : e.loops) {
    auto text = [&](const Value &v) {
      if (v.constInt) return std::to_string(*v.constInt);
      if (!v.expr) return std::string("?");
      std::string t = sourceText(sm, v.expr->range);
      t.erase(std::remove(t.begin(), t.end(), ' '), t.end());
      return t;
    };
    key += "range(" + text(l->start) + ", " + text(l->stop) + ", " + text(l->stepValue) + ")";
  }
  return key;
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

bool signalsCluster(const Operation &op) {
  int8_t i = op.info().effects.clusterSignal;
  if (i < 0) return false;
  const Operand &o = op.operands[static_cast<size_t>(i)];
  return o.present && o.value.boolIsConst && o.value.constBool;
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
