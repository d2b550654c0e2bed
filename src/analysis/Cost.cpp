// Cost.cpp - counting a launch's work at a shape (each block's loops and
// guards run at the shape's values) and the route a family takes there (see
// Cost.h). The model is CostModel.cpp, the report CostReport.cpp.
#include "analysis/Cost.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include "analysis/ScheduleModel.h"
#include "lexer_parser/Ast.h"
#include "sema/ConstEval.h"
#include "sema/OpTable.h"

namespace cake::analysis {

using namespace cake::sema;

namespace {

// The most operations and loop iterations the counting runs through for one
// launch (a few seconds), and the most distinct tiles it tells apart: beyond
// them the report says the launch is too large to count, or that its distinct
// bytes are an upper bound.
constexpr int64_t kOperationBudget = 80'000'000;
constexpr size_t kDistinctTiles = 1'000'000;

double dtypeBytes(DType d) { return dtypeInfo(d).bits / 8.0; }

int64_t elements(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

// The values integers take at one point of one block.
struct Env {
  Env(const Kernel &kernel, const std::map<ResourceId, int64_t> &values, int64_t sms)
      : k(kernel), params(values), smCount(sms) {}
  const Kernel &k;
  const std::map<ResourceId, int64_t> &params;
  int64_t smCount = 0;
  int64_t grid[3] = {1, 1, 1}, block[3] = {0, 0, 0}, cluster[3] = {1, 1, 1};
  bool inBlock = false;  // block indices exist (not while the grid is computed)
  // Both sides of `and`/`or` are evaluated (a family's dispatcher checks
  // every divisor of its guards before it evaluates one).
  bool strict = false;
  std::map<uint32_t, int64_t> loops;
  // The old values of the block's atomics (IntOp::RoleValue leaves), as the
  // counting models them (Counter::atomic).
  std::map<int64_t, int64_t> roleValues;
};

std::optional<int64_t> evalInt(const Env &env, IntExprId x) {
  if (x == kNoIntExpr) return std::nullopt;
  const IntNode &n = env.k.ints.node(x);
  auto dim = [&]() { return n.value >= 0 && n.value <= 2 ? static_cast<size_t>(n.value) : 0; };
  switch (n.op) {
  case IntOp::Const: return n.value;
  case IntOp::LoopVar: {
    auto it = env.loops.find(static_cast<uint32_t>(n.value));
    if (it == env.loops.end()) return std::nullopt;
    return it->second;
  }
  case IntOp::Param: {
    auto it = env.params.find(static_cast<ResourceId>(n.value));
    if (it == env.params.end()) return std::nullopt;
    return it->second;
  }
  case IntOp::SmCount: return env.smCount;
  case IntOp::RoleValue: {
    auto it = env.roleValues.find(n.value);
    if (it == env.roleValues.end()) return std::nullopt;
    return it->second;
  }
  default: break;
  }
  if (isLeaf(n.op)) {
    if (!env.inBlock) return std::nullopt;
    size_t d = dim();
    switch (n.op) {
    case IntOp::BlockId: return env.block[d];
    case IntOp::NumBlocks: return env.grid[d];
    case IntOp::ClusterId: return env.block[d] / env.cluster[d];
    case IntOp::NumClusters: return env.grid[d] / env.cluster[d];
    case IntOp::ClusterBlock: return env.block[d] % env.cluster[d];
    case IntOp::ClusterRank:
      return env.block[0] % env.cluster[0] + env.cluster[0] * (env.block[1] % env.cluster[1]) +
             env.cluster[0] * env.cluster[1] * (env.block[2] % env.cluster[2]);
    default: return std::nullopt;
    }
  }
  std::optional<int64_t> a = evalInt(env, n.a);
  if (!a) return std::nullopt;
  if (intOpInfo(n.op).arity == 1) return foldInt(n.op, *a);
  std::optional<int64_t> b = evalInt(env, n.b);
  if (!b) return std::nullopt;
  return foldInt(n.op, *a, *b);
}

std::optional<int64_t> evalValue(const Env &env, const Value &v) {
  if (v.constInt) return *v.constInt;
  if (v.kind == ValueKind::Int) return evalInt(env, v.ix);
  return std::nullopt;
}

std::optional<bool> evalBoolExpr(const Env &env, const ast::Expr *e, int depth = 0);

std::optional<bool> evalBool(const Env &env, const Value &v, int depth = 0) {
  if (v.kind != ValueKind::Bool) return std::nullopt;
  if (v.boolIsConst) return v.constBool;
  if (v.cmp != CmpOp::None && v.ix != kNoIntExpr) {
    std::optional<int64_t> d = evalInt(env, v.ix);
    if (!d) return std::nullopt;
    return holds(v.cmp, *d);
  }
  return evalBoolExpr(env, v.expr, depth + 1);
}

std::optional<bool> evalBoolExpr(const Env &env, const ast::Expr *e, int depth) {
  if (!e || depth > 64) return std::nullopt;
  auto it = env.k.exprValues.find(e);
  if (it != env.k.exprValues.end() && it->second.kind == ValueKind::Bool &&
      (it->second.boolIsConst || it->second.cmp != CmpOp::None))
    return evalBool(env, it->second, depth + 1);
  switch (e->kind) {
  case ast::NodeKind::BoolLit: return static_cast<const ast::BoolLit *>(e)->value;
  case ast::NodeKind::UnaryExpr: {
    const auto *u = static_cast<const ast::UnaryExpr *>(e);
    if (u->op != ast::UnaryOp::Not) return std::nullopt;
    std::optional<bool> x = evalBoolExpr(env, u->operand, depth + 1);
    if (!x) return std::nullopt;
    return !*x;
  }
  case ast::NodeKind::BinaryExpr: {
    const auto *b = static_cast<const ast::BinaryExpr *>(e);
    if (b->op != ast::BinaryOp::And && b->op != ast::BinaryOp::Or) return std::nullopt;
    std::optional<bool> l = evalBoolExpr(env, b->lhs, depth + 1);
    // Python's short circuit: a decided left side decides alone.
    if (!env.strict && l && b->op == ast::BinaryOp::And && !*l) return false;
    if (!env.strict && l && b->op == ast::BinaryOp::Or && *l) return true;
    std::optional<bool> r = evalBoolExpr(env, b->rhs, depth + 1);
    if (!l || !r) return std::nullopt;
    return b->op == ast::BinaryOp::And ? (*l && *r) : (*l || *r);
  }
  case ast::NodeKind::NameExpr: {
    auto def = env.k.nameDefs.find(e);
    if (def != env.k.nameDefs.end() && def->second != e) return evalBoolExpr(env, def->second, depth + 1);
    return std::nullopt;
  }
  default: break;
  }
  return std::nullopt;
}

// The tensor parameter an operation reads or writes in global memory.
ResourceId globalTensor(const Kernel &k, const Operation &op) {
  const OpInfo &info = op.info();
  for (size_t i = 0; i < info.params.size() && i < op.operands.size(); ++i)
    if ((info.params[i].kind == ParamKind::TensorP || info.params[i].kind == ParamKind::GlobalTensorP) &&
        op.operands[i].present && op.operands[i].value.resource != kNoResource &&
        k.resources[op.operands[i].value.resource].kind == ResourceKind::TensorParam)
      return op.operands[i].value.resource;
  return kNoResource;
}

struct TileKey {
  ResourceId tensor;
  bool write;
  std::vector<int64_t> coords, box;
  bool operator<(const TileKey &o) const {
    return std::tie(tensor, write, coords, box) < std::tie(o.tensor, o.write, o.coords, o.box);
  }
};

// Whether a value is computed from one read at run time (lm.atomic's old
// value, lm.load_scalar's element).
bool readsRuntime(const Kernel &k, const Value &v) {
  IntExprId x = v.ix;
  if (v.kind == ValueKind::Bool && v.cmp == CmpOp::None) return true;  // `and`/`or`: not told apart
  if (x == kNoIntExpr) return false;
  return k.ints.findLeaf(x, [](const IntNode &n) { return n.op == IntOp::RoleValue; }) != kNoIntExpr;
}

// Walks one block's roles, counting.
class Counter {
public:
  Counter(Env &env, KernelWork &kw, int64_t &budget, std::set<TileKey> &tiles,
          const std::map<ResourceId, std::vector<int64_t>> &dims)
      : env_(env), kw_(kw), budget_(budget), tiles_(tiles), dims_(dims) {}

  // Why the counting stopped ("" when it did not, or ran out of budget).
  const std::string &stopped() const { return stopped_; }

  bool block(BlockWork &w) {
    w_ = &w;
    laps_.clear();
    openTurns_.clear();
    env_.roleValues.clear();
    addedHere_.clear();
    for (const RoleBlock &rb : env_.k.roles) {
      env_.loops.clear();
      BlockWork before = w;
      if (!stmts(rb.body)) return false;
      closeTurns(nullptr);
      BlockWork::RoleWork r{w.flops16 - before.flops16, w.flops8 - before.flops8, w.flopsOther - before.flopsOther,
                            w.elementOps - before.elementOps, w.genericLoad - before.genericLoad};
      if (r.flops16 + r.flops8 + r.flopsOther + r.elementOps > 0) w.roles.push_back(r);
    }
    for (const auto &[view, n] : laps_) {
      const Resource &v = env_.k.resources[view];
      int64_t stages = std::max<int64_t>(1, v.stages);
      // A ring goes round at least once; with fewer copies than stages,
      // every copy is in flight at once and more stages change nothing.
      int64_t inUse = std::min(stages, n);
      double laps = static_cast<double>(n) / static_cast<double>(inUse);
      if (laps > w.laps || (laps == w.laps && n > w.ringCopies))
        w.laps = laps, w.ringStages = inUse, w.ringCopies = n, w.ringDepth = stages;
      w.inflightBytes += static_cast<double>(inUse) * static_cast<double>(v.bytesPerStage);
      kw_.ringViews.insert(view);
    }
    return true;
  }

private:
  void unknown(const std::string &what) {
    if (std::find(kw_.unknowns.begin(), kw_.unknowns.end(), what) == kw_.unknowns.end() && kw_.unknowns.size() < 8)
      kw_.unknowns.push_back(what);
  }

  bool stmts(const std::vector<IrStmt> &body) {
    for (const IrStmt &s : body) {
      switch (s.kind) {
      case IrStmt::Kind::Let: break;
      case IrStmt::Kind::Op:
        if (--budget_ < 0) return false;
        op(s.op);
        break;
      case IrStmt::Kind::If: {
        if (--budget_ < 0) return false;
        std::optional<bool> c = evalBool(env_, s.cond);
        if (!c && !readsRuntime(env_.k, s.cond)) {
          stopped_ = "a branch's condition divides by zero or overflows at this shape";
          return false;
        }
        if (!c) {
          // Decided by a value read at run time. An equality holds for one
          // value of many (the last of the blocks counting on a counter):
          // counted as false; any other comparison as true.
          bool equality = s.cond.cmp == CmpOp::Eq;
          unknown(equality ? "a branch on a value read at run time being equal to one value: counted as not taken"
                           : "a branch on a value read at run time: counted as taken");
          if (!stmts(equality ? s.orelse : s.body)) return false;
          break;
        }
        if (!stmts(*c ? s.body : s.orelse)) return false;
        break;
      }
      case IrStmt::Kind::For: {
        std::optional<int64_t> lo = evalValue(env_, s.start), hi = evalValue(env_, s.stop);
        std::optional<int64_t> step = s.step ? std::optional<int64_t>(s.step) : evalValue(env_, s.stepValue);
        if (step && *step == 0) {
          stopped_ = fmt::format("the loop over '{}' has step 0 at this shape: it would not end", s.loopVar);
          return false;
        }
        if (!lo || !hi || !step) {
          if (!readsRuntime(env_.k, s.start) && !readsRuntime(env_.k, s.stop) && !readsRuntime(env_.k, s.stepValue)) {
            stopped_ =
                fmt::format("the bounds of the loop over '{}' divide by zero or overflow at this shape", s.loopVar);
            return false;
          }
          unknown("a loop whose bounds are read at run time (counted once)");
          env_.loops[s.loopId] = lo.value_or(0);
          if (!stmts(s.body)) return false;
          env_.loops.erase(s.loopId);
          break;
        }
        for (int64_t i = *lo; *step > 0 ? i < *hi : i > *hi;) {
          if (--budget_ < 0) return false;
          env_.loops[s.loopId] = i;
          if (!stmts(s.body)) return false;
          if (__builtin_add_overflow(i, *step, &i)) break;
        }
        env_.loops.erase(s.loopId);
        break;
      }
      }
    }
    return true;
  }

  // The bytes of a tile at its coordinates, clipped to the tensor's
  // declared extent (loads past the end read nothing from memory).
  // The bytes of a tile at its coordinates, clipped to the tensor's
  // declared extent (loads past the end read nothing from memory), and the
  // contiguous runs of memory they lie in (a row of the box, or several
  // where the box spans whole rows of the tensor).
  std::pair<double, double> tileBytes(ResourceId tensor, const std::vector<int64_t> &boxOuterFirst,
                                      const std::vector<int64_t> &coordsInnerFirst, DType dt) {
    double n = static_cast<double>(elements(boxOuterFirst));
    double run = boxOuterFirst.empty() ? 1 : static_cast<double>(boxOuterFirst.back());
    auto d = dims_.find(tensor);
    if (d != dims_.end() && d->second.size() == coordsInnerFirst.size()) {
      size_t rank = d->second.size();
      std::vector<int64_t> box(rank, 1);
      for (size_t i = 0; i < boxOuterFirst.size() && i < rank; ++i)
        box[rank - 1 - i] = boxOuterFirst[boxOuterFirst.size() - 1 - i];
      n = 1;
      run = 1;
      bool whole = true;  // every inner dimension so far taken whole: the run goes on
      for (size_t i = rank; i-- > 0;) {
        int64_t c = coordsInnerFirst[rank - 1 - i];
        // The box's part inside [0, extent): TMA reads nothing outside.
        int64_t extent = std::max<int64_t>(0, std::min(d->second[i], c + box[i]) - std::max<int64_t>(0, c));
        n *= static_cast<double>(extent);
        if (whole) run *= static_cast<double>(extent);
        whole = whole && c == 0 && extent == d->second[i];
      }
    }
    double bytes = n * dtypeBytes(dt);
    double runBytes = run * dtypeBytes(dt);
    return {bytes, runBytes > 0 ? bytes / runBytes : 0};
  }

  void access(const Operation &op, ResourceId tensor, bool write, const std::vector<int64_t> &box, DType dt) {
    const Operand *c = copyCoords(op);
    std::vector<int64_t> coords;
    bool known = c != nullptr;
    if (c)
      for (const Value &e : c->value.elts) {
        std::optional<int64_t> x = evalValue(env_, e);
        if (!x) {
          known = false;
          break;
        }
        coords.push_back(*x);
      }
    if (!known) {
      unknown("a tile whose coordinates are read at run time (its bytes counted as distinct)");
      (write ? kw_.uniqueWrite : kw_.uniqueRead) += static_cast<double>(elements(box)) * dtypeBytes(dt);
      kw_.uniqueRuns += elements(box) / std::max<int64_t>(1, box.empty() ? 1 : box.back());
      return;
    }
    TileKey key{tensor, write, coords, box};
    if (tiles_.size() >= kDistinctTiles) {
      unknown(fmt::format("more than {} distinct tiles: the rest counted as distinct", kDistinctTiles));
    } else if (!tiles_.insert(std::move(key)).second) {
      return;
    }
    auto [b, runs] = tileBytes(tensor, box, coords, dt);
    (write ? kw_.uniqueWrite : kw_.uniqueRead) += b;
    kw_.uniqueRuns += runs;
  }

  void op(const Operation &o) {
    const Kernel &k = env_.k;
    const OpEffects &ef = o.info().effects;
    BlockWork &w = *w_;
    if (ef.group == AsyncGroup::Mma && ef.writes != kNone) {
      const Operand &acc = o.operandAt(0), &a = o.operandAt(1);
      if (acc.value.resource == kNoResource || a.value.resource == kNoResource) return;
      const Resource &ar = k.resources[acc.value.resource], &aa = k.resources[a.value.resource];
      if (ar.shape.size() != 2 || aa.shape.size() != 2) return;
      int64_t kk = a.value.transposed ? aa.shape[0] : aa.shape[1];
      double flops = 2.0 * static_cast<double>(ar.shape[0] * ar.shape[1] * kk);
      if (aa.dtype == DType::BF16 || aa.dtype == DType::F16)
        w.flops16 += flops;
      else if (aa.dtype == DType::E4M3 || aa.dtype == DType::E5M2 || aa.dtype == DType::I8)
        w.flops8 += flops;  // 8-bit operands: twice the 16-bit rate
      else
        w.flopsOther += flops;
      return;
    }
    ResourceId tensor = globalTensor(k, o);
    if (tensor != kNoResource) {
      bool readsReceiver =
          std::find(std::begin(ef.reads.idx), std::end(ef.reads.idx), kReceiver) != std::end(ef.reads.idx);
      if (ef.writes == kReceiver && o.receiver != kNoResource) {  // global -> shared
        const Resource &v = k.resources[o.receiver];
        double b = static_cast<double>(v.bytesPerStage);
        int64_t mc = multicastCount(o);
        w.loadBytes += b;
        w.l2Bytes += mc > 1 ? b / static_cast<double>(mc) : b;
        w.loads = true;
        ++w.copies;
        ++laps_[o.receiver];
        access(o, tensor, false, v.shape, v.dtype);
        return;
      }
      if (readsReceiver && o.receiver != kNoResource) {  // shared -> global
        const Resource &v = k.resources[o.receiver];
        w.storeBytes += static_cast<double>(v.bytesPerStage);
        if (ef.reducesInto) w.reduceBytes += static_cast<double>(v.bytesPerStage);
        w.stores = true;
        access(o, tensor, true, v.shape, v.dtype);
        return;
      }
      if (ef.global != kNone) {
        if (ef.oneElement) {  // an atomic, a flag wait or a scalar read: one 32-bit element
          (ef.globalWrite ? w.genericStore : w.genericLoad) += 4;
          if (ef.memoryOrder != kNone) atomic(o, tensor);
          if (ef.awaitsValue != kNone) flagWait(o, tensor);
          return;
        }
        ResourceId tile = copyTile(o);
        if (tile == kNoResource) return;
        const Resource &r = k.resources[tile];
        // The fragment's element type is what moves (a tensor of
        // LM.tensorNd has none of its own), over the rows the copy moves.
        std::vector<int64_t> extent = copyExtent(k, o);
        double b = static_cast<double>(elements(extent)) * dtypeBytes(r.dtype);
        (ef.globalWrite ? w.genericStore : w.genericLoad) += b;
        if (ef.globalWrite) w.stores = true;
        access(o, tensor, ef.globalWrite, extent, r.dtype);
      }
      return;
    }
    if (o.info().result == OpResult::Fragment && o.result.resource != kNoResource) {
      const Resource &r = k.resources[o.result.resource];
      w.elementOps += static_cast<double>(elements(r.shape));
    }
  }

  // The bytes the block's threads have moved so far (a turn's are what
  // moves between its wait and its exchange).
  double genericBytes() const { return w_->genericLoad + w_->genericStore; }

  // A wait on a flag: a turn of the block's, open until the block exchanges
  // the flag's element or its role ends.
  void flagWait(const Operation &o, ResourceId tensor) {
    std::vector<int64_t> key{static_cast<int64_t>(tensor)};
    for (const Value &e : o.operand(param::WaitFlag::coords).value.elts) {
      std::optional<int64_t> x = evalValue(env_, e);
      if (!x) return unknown("a flag wait whose element the shape does not decide: its turn not modelled");
      key.push_back(*x);
    }
    std::optional<int64_t> v = evalValue(env_, o.operand(param::WaitFlag::value).value);
    if (!v) return unknown("a flag wait whose value the shape does not decide: its turn not modelled");
    w_->turns.push_back({key, *v, -genericBytes()});
    openTurns_.push_back(w_->turns.size() - 1);
  }
  // Closes the block's open turns on `key` (all of them: nullptr).
  void closeTurns(const std::vector<int64_t> *key) {
    for (size_t i = 0; i < openTurns_.size();) {
      BlockWork::Turn &t = w_->turns[openTurns_[i]];
      if (key && t.flag != *key) {
        ++i;
        continue;
      }
      t.bytes += genericBytes();
      openTurns_.erase(openTurns_.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }

  // An atomic on a counter: its old value as if the blocks arrived in
  // launch order and every counter started at 0 (a workspace the caller
  // zeroes, reset by its last user), so that a branch on it (split-K's last
  // block, which does the fix-up) is taken by one block of those that
  // share the counter, as on the GPU. Coordinates or a value not known at
  // this shape, and compare-and-swap, leave the old value unknown.
  void atomic(const Operation &o, ResourceId tensor) {
    std::optional<int64_t> idx;
    if (o.result.ix != kNoIntExpr && env_.k.ints.node(o.result.ix).op == IntOp::RoleValue)
      idx = env_.k.ints.node(o.result.ix).value;
    if (idx) env_.roleValues.erase(*idx);
    const std::string &kind = o.operand(param::Atomic::op).value.str;
    std::optional<int64_t> v = evalValue(env_, o.operand(param::Atomic::value).value);
    std::vector<int64_t> key{static_cast<int64_t>(tensor)};
    for (const Value &e : o.operand(param::Atomic::coords).value.elts) {
      std::optional<int64_t> x = evalValue(env_, e);
      if (!x) return;  // a counter the shape does not name: every counter of the tensor stays as modelled
      key.push_back(*x);
    }
    if (kind == "exch") closeTurns(&key);  // the turn passed on, or the flag reset
    // A compare-and-swap, a value the shape does not decide, or a counter
    // one block adds to twice (a work queue: the blocks take turns on the
    // GPU, not one block's whole loop after another's) make the counter
    // unknown from then on.
    bool again = kind != "exch" && !addedHere_.insert(key).second;
    if (!v || kind == "cas" || again) unknownCounters_.insert(key);
    if (unknownCounters_.count(key)) {
      if (again) unknown("a counter one block counts on more than once (a work queue): its old values not modelled");
      return;
    }
    // 32-bit arithmetic, as atom.s32 does it.
    auto wrap = [](int64_t x) { return static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(x))); };
    int64_t &cur = counters_[key];
    int64_t old = cur;
    if (kind == "add")
      cur = wrap(static_cast<int64_t>(static_cast<uint32_t>(cur) + static_cast<uint32_t>(*v)));
    else if (kind == "max")
      cur = std::max(cur, wrap(*v));
    else if (kind == "min")
      cur = std::min(cur, wrap(*v));
    else if (kind == "exch")
      cur = wrap(*v);
    else
      return;
    if (idx) {
      env_.roleValues[*idx] = old;
      unknown("an atomic's old value taken as if the blocks arrived in launch order, each counter from 0");
    }
  }

  Env &env_;
  KernelWork &kw_;
  int64_t &budget_;
  std::set<TileKey> &tiles_;
  std::map<std::vector<int64_t>, int64_t> counters_;  // the counters' values so far in this launch
  std::set<std::vector<int64_t>> unknownCounters_;    // counters whose values are not modelled
  std::set<std::vector<int64_t>> addedHere_;          // the counters this block has counted on
  std::vector<size_t> openTurns_;                     // the block's turns (BlockWork::turns) not yet passed on
  const std::map<ResourceId, std::vector<int64_t>> &dims_;
  BlockWork *w_ = nullptr;
  std::map<ResourceId, int64_t> laps_;
  std::string stopped_;
};

// A role's fragments live at once: the most 32-bit words per thread held
// at any operation of its body, by liveness over the body in order (both
// branches of an `if` in turn; a fragment used in a loop and made before it
// is live through the loop). An operand whose last use is an operation
// gives its registers to that operation's result (elementwise operations
// work in place), so what counts at an operation is what lives past it and
// its result.
double liveWords(const Kernel &k, const RoleBlock &rb, int64_t threads) {
  struct Range {
    size_t def = SIZE_MAX, last = 0;
  };
  std::map<ResourceId, Range> ranges;
  std::vector<ResourceId> results;               // the fragment each position makes (or none)
  std::vector<std::pair<size_t, size_t>> loops;  // each loop's positions [from, to), inner loops first
  auto isRegs = [&](ResourceId r) { return r != kNoResource && k.resources[r].kind == ResourceKind::Regs; };
  auto touch = [&](ResourceId r, size_t at) {
    Range &x = ranges[r];
    x.def = std::min(x.def, at);
    x.last = std::max(x.last, at);
  };
  std::function<void(const std::vector<IrStmt> &)> walk = [&](const std::vector<IrStmt> &body) {
    for (const IrStmt &st : body) {
      if (st.kind == IrStmt::Kind::Op) {
        size_t at = results.size();
        for (const Operand &o : st.op.operands) {
          if (isRegs(o.value.resource)) touch(o.value.resource, at);
          for (const Value &e : o.value.elts)
            if (isRegs(e.resource)) touch(e.resource, at);
        }
        ResourceId made = isRegs(st.op.result.resource) ? st.op.result.resource : kNoResource;
        if (made != kNoResource) touch(made, at);
        results.push_back(made);
      } else if (st.kind == IrStmt::Kind::For) {
        size_t from = results.size();
        std::set<ResourceId> before;
        for (const auto &[r, x] : ranges) before.insert(r);
        walk(st.body);
        size_t to = results.size();
        // Made before the loop and used in it: live through all of it.
        for (auto &[r, x] : ranges)
          if (before.count(r) && x.last >= from && to > 0) x.last = std::max(x.last, to - 1);
        loops.emplace_back(from, to);
      } else if (st.kind == IrStmt::Kind::If) {
        walk(st.body);
        walk(st.orelse);
      }
    }
  };
  walk(rb.body);
  // Made in a loop and used after it (an accumulator first written in the
  // first iteration): live from the loop's start (inner loops first).
  for (const auto &[from, to] : loops)
    for (auto &[r, x] : ranges)
      if (x.def >= from && x.def < to && x.last >= to) x.def = from;
  double peak = 0;
  for (size_t at = 0; at < results.size(); ++at) {
    double live = 0;
    for (const auto &[r, x] : ranges)
      if (x.def <= at && (x.last > at || r == results[at]))
        live += static_cast<double>(elements(k.resources[r].shape)) * dtypeInfo(k.resources[r].dtype).bits / 32.0;
    peak = std::max(peak, live);
  }
  return peak / static_cast<double>(threads);
}

// Registers of a block: each role's threads times its register budget
// (regs=, setmaxnreg), or where it has none, the most words its fragments
// hold at once per thread (liveWords) and some for addresses and indices.
int64_t estimateRegs(const Kernel &k, Target target) {
  std::map<ResourceId, double> words;
  for (const RoleBlock &rb : k.roles) {
    int64_t threads = roleThreads(k, rb.role);
    if (threads > 0) words[rb.role] = std::max(words[rb.role], liveWords(k, rb, threads));
  }
  // With setmaxnreg budgets the block holds what it is launched with
  // (__launch_bounds__ for blocks_per_sm), whatever its roles move.
  bool budgets = std::any_of(k.resources.begin(), k.resources.end(),
                             [](const Resource &r) { return r.kind == ResourceKind::Role && r.regBudget > 0; });
  if (budgets) return satMul(launchRegisters(k, target), std::max<int64_t>(k.threads, 32));
  int64_t total = 0;
  for (const Resource &r : k.resources) {
    if (r.kind != ResourceKind::Role) continue;
    int64_t perThread =
        r.regBudget > 0 ? r.regBudget : std::min<int64_t>(255, static_cast<int64_t>(std::ceil(words[r.id])) + 32);
    total += roleThreads(k, r.id) * perThread;
  }
  return total;
}

}  // namespace

std::optional<KernelWork> countWork(const Kernel &k, Target target, const ShapeValues &shape, int64_t smCount,
                                    std::string &why) {
  std::map<ResourceId, int64_t> params;
  for (const KernelParam &p : k.params) {
    if (p.resource == kNoResource) continue;
    const Resource &r = k.resources[p.resource];
    if (r.kind != ResourceKind::ScalarParam || dtypeInfo(r.dtype).scalar != ScalarKind::Int) continue;
    auto it = shape.find(r.name);
    if (it != shape.end()) params[p.resource] = it->second;
  }
  // The declared extents of tensors, outermost first (all dimensions known).
  std::map<ResourceId, std::vector<int64_t>> dims;
  for (const KernelParam &p : k.params) {
    if (p.resource == kNoResource) continue;
    const Resource &r = k.resources[p.resource];
    if (r.kind != ResourceKind::TensorParam || r.dims.empty()) continue;
    std::vector<int64_t> d;
    for (const Resource::Dim &x : r.dims) {
      if (x.scalar == kNoResource) {
        d.push_back(x.constant);
        continue;
      }
      auto it = params.find(x.scalar);
      if (it == params.end()) break;
      d.push_back(it->second);
    }
    if (d.size() == r.dims.size()) dims[p.resource] = d;
  }
  KernelWork kw;
  Env env(k, params, smCount);
  for (size_t d = 0; d < 3; ++d) env.cluster[d] = k.cluster.size() > d ? std::max<int64_t>(1, k.cluster[d]) : 1;
  std::string missing;
  for (const KernelParam &p : k.params)
    if (p.resource != kNoResource && k.resources[p.resource].kind == ResourceKind::ScalarParam &&
        dtypeInfo(k.resources[p.resource].dtype).scalar == ScalarKind::Int && !params.count(p.resource))
      missing += (missing.empty() ? "" : ", ") + k.resources[p.resource].name;
  if (!missing.empty()) {
    why = "the kernel needs a value for " + missing + " (--shape " + missing + "=...)";
    return std::nullopt;
  }
  for (size_t d = 0; d < k.grid.size() && d < 3; ++d) {
    std::optional<int64_t> g = evalValue(env, k.grid[d]);
    if (!g) {
      why =
          fmt::format("the grid's dimension {} divides by zero or overflows at this shape: the launcher refuses it", d);
      return std::nullopt;
    }
    if (*g <= 0) {
      why = fmt::format("the grid's dimension {} is {} at this shape: the launcher launches nothing", d, *g);
      return std::nullopt;
    }
    // CUDA's limits on a grid (2^31 - 1 blocks along x, 65535 along y and z).
    int64_t limit = d == 0 ? INT32_MAX : 65535;
    if (*g > limit) {
      why = fmt::format("the grid's dimension {} is {} at this shape, more than CUDA's {}: the launcher refuses it", d,
                        *g, limit);
      return std::nullopt;
    }
    if (*g % env.cluster[d] != 0) {
      why = fmt::format("the grid's dimension {} is {} at this shape, not a multiple of the cluster's {}: the "
                        "launcher refuses it",
                        d, *g, env.cluster[d]);
      return std::nullopt;
    }
    env.grid[d] = *g;
  }
  kw.grid[0] = env.grid[0], kw.grid[1] = env.grid[1], kw.grid[2] = env.grid[2];
  if (__builtin_mul_overflow(env.grid[0], env.grid[1], &kw.blocks) ||
      __builtin_mul_overflow(kw.blocks, env.grid[2], &kw.blocks) || kw.blocks > 4'000'000) {
    why = fmt::format("{} x {} x {} blocks are too many to count one by one", env.grid[0], env.grid[1], env.grid[2]);
    return std::nullopt;
  }
  kw.threads = k.threads;
  kw.smemBytes = k.smemBytes;
  kw.regsPerBlock = estimateRegs(k, target);
  int64_t budget = kOperationBudget;
  std::set<TileKey> tiles;
  Counter counter(env, kw, budget, tiles, dims);
  env.inBlock = true;
  kw.perBlock.resize(static_cast<size_t>(kw.blocks));
  size_t i = 0;
  // Launch order: x fastest, then y, then z.
  for (int64_t z = 0; z < env.grid[2]; ++z)
    for (int64_t y = 0; y < env.grid[1]; ++y)
      for (int64_t x = 0; x < env.grid[0]; ++x) {
        env.block[0] = x, env.block[1] = y, env.block[2] = z;
        if (!counter.block(kw.perBlock[i++])) {
          why = !counter.stopped().empty()
                    ? counter.stopped()
                    : fmt::format("the launch runs more than {} operations and loop iterations: too large to count",
                                  kOperationBudget);
          return std::nullopt;
        }
      }
  return kw;
}

const Kernel *familyRoute(const Family &f, const ShapeValues &shape, std::string &routeName, std::string &why) {
  const Kernel &sig = *f.signature;
  std::map<ResourceId, int64_t> params;
  for (ResourceId p : f.integerParams()) {
    const Resource &r = sig.resources[p];
    auto it = shape.find(r.name);
    if (it == shape.end()) {
      why = fmt::format("the family's routes need a value for {} (--shape {}=...)", r.name, r.name);
      return nullptr;
    }
    FamilyDomain d = f.domainOf(p);
    if (it->second < d.lo || it->second > d.hi || (d.multiple > 1 && it->second % d.multiple != 0)) {
      why = fmt::format("{} = {} is outside the family's domain ({} in {} .. {}{})", r.name, it->second, r.name, d.lo,
                        d.hi, d.multiple > 1 ? fmt::format(", a multiple of {}", d.multiple) : "");
      return nullptr;
    }
    params[p] = it->second;
  }
  Env env(sig, params, 0);
  env.strict = true;
  // As the dispatcher: a guard that divides by zero anywhere (not only in
  // the first route that holds) refuses the shape.
  std::vector<bool> holds;
  for (const FamilyRoute &r : f.routes) {
    auto v = sig.exprValues.find(r.guard);
    std::optional<bool> h = v != sig.exprValues.end() ? evalBool(env, v->second) : evalBoolExpr(env, r.guard);
    if (!h) {
      why = fmt::format("the guard of route '{}' divides by zero or overflows at this shape: the dispatcher refuses "
                        "the shape",
                        r.name);
      return nullptr;
    }
    holds.push_back(*h);
  }
  for (size_t i = 0; i < holds.size(); ++i)
    if (holds[i]) {
      routeName = f.routes[i].name;
      return f.routes[i].schedule;
    }
  if (!f.fallback) {
    why = "no route's guard holds and the family has no fallback";
    return nullptr;
  }
  routeName = f.fallback->name;
  return f.fallback->schedule;
}

}  // namespace cake::analysis
