// Cost.cpp - counting a launch's work at a shape, the calibrated model of
// its time, and the report (see Cost.h).
#include "analysis/Cost.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <queue>
#include <set>

#include "analysis/ScheduleModel.h"
#include "lexer_parser/Ast.h"
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
  case IntOp::RoleValue: return std::nullopt;
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
    for (const RoleBlock &rb : env_.k.roles) {
      env_.loops.clear();
      BlockWork before = w;
      if (!stmts(rb.body)) return false;
      BlockWork::RoleWork r{w.flops16 - before.flops16, w.flops8 - before.flops8, w.flopsOther - before.flopsOther,
                            w.elementOps - before.elementOps};
      if (r.flops16 + r.flops8 + r.flopsOther + r.elementOps > 0) w.roles.push_back(r);
    }
    for (const auto &[view, n] : laps_) {
      int64_t stages = std::max<int64_t>(1, env_.k.resources[view].stages);
      w.laps = std::max(w.laps, static_cast<double>(n) / static_cast<double>(stages));
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
    if (!write) kw_.tensorRead[env_.k.resources[tensor].name] += b;
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
        if (ef.oneElement) {  // an atomic or a scalar read: one 32-bit element
          (ef.globalWrite ? w.genericStore : w.genericLoad) += 4;
          return;
        }
        ResourceId tile = copyTile(o);
        if (tile == kNoResource) return;
        const Resource &r = k.resources[tile];
        // The fragment's element type is what moves (a tensor of
        // LM.tensorNd has none of its own).
        double b = static_cast<double>(elements(r.shape)) * dtypeBytes(r.dtype);
        (ef.globalWrite ? w.genericStore : w.genericLoad) += b;
        if (ef.globalWrite) w.stores = true;
        access(o, tensor, ef.globalWrite, r.shape, r.dtype);
      }
      return;
    }
    if (o.info().result == OpResult::Fragment && o.result.resource != kNoResource) {
      const Resource &r = k.resources[o.result.resource];
      w.elementOps += static_cast<double>(elements(r.shape));
    }
  }

  Env &env_;
  KernelWork &kw_;
  int64_t &budget_;
  std::set<TileKey> &tiles_;
  const std::map<ResourceId, std::vector<int64_t>> &dims_;
  BlockWork *w_ = nullptr;
  std::map<ResourceId, int64_t> laps_;
  std::string stopped_;
};

// Registers of a block: each role's threads times its register budget
// (regs=, setmaxnreg), or where it has none, its fragments' 32-bit words
// per thread and some for addresses and indices.
int64_t estimateRegs(const Kernel &k) {
  std::map<ResourceId, double> words;
  for (const Resource &r : k.resources)
    if (r.kind == ResourceKind::Regs && r.role != kNoResource) {
      int64_t threads = roleThreads(k, r.role);
      if (threads > 0)
        words[r.role] +=
            static_cast<double>(elements(r.shape)) * dtypeInfo(r.dtype).bits / 32.0 / static_cast<double>(threads);
    }
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

std::optional<KernelWork> countWork(const Kernel &k, const ShapeValues &shape, int64_t smCount, std::string &why) {
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
  kw.clusterSize = env.cluster[0] * env.cluster[1] * env.cluster[2];
  kw.threads = k.threads;
  kw.smemBytes = k.smemBytes;
  kw.regsPerBlock = estimateRegs(k);
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

const Calibration *calibrationFor(Target t) {
  static const std::vector<Calibration> table = {
#define CALIBRATION(T, gpu, sms, t16, t8, tO, d16, d8, eops, hbm, run, l2, fill, gen, red, launch, lat, blk, smem, \
                    thr, regs, bps, src)                                                                           \
  Calibration{Target::T, gpu, sms, t16,    t8,  tO,  d16,  d8,  eops, hbm, run, l2,                                \
              fill,      gen, red, launch, lat, blk, smem, thr, regs, bps, src},
#include "target/Calibration.def"
#undef CALIBRATION
  };
  for (const Calibration &c : table)
    if (c.target == t) return &c;
  return nullptr;
}

namespace {
// The numeric fields of a calibration, by their Calibration.def names.
struct Field {
  const char *name;
  double Calibration::*real;
  int64_t Calibration::*integer;
  double lo = 1e-6, hi = 1e9;  // what a value may be (no GPU is outside)
};
const std::vector<Field> &calibrationFields() {
  static const std::vector<Field> f = {
      {"sms", nullptr, &Calibration::sms, 1, 4096},
      {"tflops16PerSm", &Calibration::tflops16PerSm, nullptr},
      {"tflops8PerSm", &Calibration::tflops8PerSm, nullptr},
      {"tflopsOtherPerSm", &Calibration::tflopsOtherPerSm, nullptr},
      {"tflops16Device", &Calibration::tflops16Device, nullptr},
      {"tflops8Device", &Calibration::tflops8Device, nullptr},
      {"elementGopsPerSm", &Calibration::elementGopsPerSm, nullptr},
      {"hbmGBs", &Calibration::hbmGBs, nullptr},
      {"hbmRunOverheadBytes", &Calibration::hbmRunOverheadBytes, nullptr},
      {"l2GBs", &Calibration::l2GBs, nullptr},
      {"smFillGBs", &Calibration::smFillGBs, nullptr},
      {"smGenericGBs", &Calibration::smGenericGBs, nullptr},
      {"l2ReduceGBs", &Calibration::l2ReduceGBs, nullptr},
      {"launchUs", &Calibration::launchUs, nullptr},
      {"copyLatencyUs", &Calibration::copyLatencyUs, nullptr},
      {"blockUs", &Calibration::blockUs, nullptr},
      {"smemPerSm", nullptr, &Calibration::smemPerSm, 1024, 16777216},
      {"threadsPerSm", nullptr, &Calibration::threadsPerSm, 32, 65536},
      {"regsPerSm", nullptr, &Calibration::regsPerSm, 1024, 16777216},
      {"blocksPerSm", nullptr, &Calibration::blocksPerSm, 1, 1024},
  };
  return f;
}
}  // namespace

std::optional<Calibration> parseCalibration(const std::string &text, const Calibration *base, Target target,
                                            std::string &error) {
  static std::deque<std::string> strings;  // gpu and source outlive the parse (a deque keeps them in place)
  Calibration c = base ? *base : Calibration{};
  c.target = target;
  if (!base) c.gpu = "", c.source = "";
  std::set<std::string> given;
  size_t lineNo = 0, at = 0;
  while (at <= text.size()) {
    size_t nl = text.find('\n', at);
    std::string line = text.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    at = nl == std::string::npos ? text.size() + 1 : nl + 1;
    ++lineNo;
    if (size_t hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    auto trim = [](std::string x) {
      size_t b = x.find_first_not_of(" \t\r"), e = x.find_last_not_of(" \t\r");
      return b == std::string::npos ? std::string() : x.substr(b, e - b + 1);
    };
    line = trim(line);
    if (line.empty()) continue;
    size_t eq = line.find('=');
    if (eq == std::string::npos) {
      error = fmt::format("line {}: expected NAME = VALUE", lineNo);
      return std::nullopt;
    }
    std::string name = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
    if (!given.insert(name).second) {
      error = fmt::format("line {}: '{}' is given twice", lineNo, name);
      return std::nullopt;
    }
    if (name == "gpu" || name == "source") {
      strings.push_back(value);
      (name == "gpu" ? c.gpu : c.source) = strings.back();
      continue;
    }
    const Field *f = nullptr;
    for (const Field &x : calibrationFields())
      if (name == x.name) f = &x;
    if (!f) {
      std::string names;
      for (const Field &x : calibrationFields()) names += (names.empty() ? "" : ", ") + std::string(x.name);
      error = fmt::format("line {}: unknown field '{}' (the fields: gpu, source, {})", lineNo, name, names);
      return std::nullopt;
    }
    char *end = nullptr;
    bool decimal = !value.empty() && value.find_first_not_of("0123456789.eE+-") == std::string::npos;
    double v = decimal ? std::strtod(value.c_str(), &end) : 0;
    if (!decimal || *end != '\0' || !std::isfinite(v) || v < f->lo || v > f->hi || (f->integer && v != std::floor(v))) {
      error = fmt::format("line {}: '{}' for {} is not a{} from {:g} to {:g}", lineNo, value, name,
                          f->integer ? "n integer" : " decimal number", f->lo, f->hi);
      return std::nullopt;
    }
    if (f->real)
      c.*(f->real) = v;
    else
      c.*(f->integer) = static_cast<int64_t>(v);
  }
  if (!base)
    for (const Field &x : calibrationFields())
      if (!given.count(x.name)) {
        error =
            fmt::format("the target has no calibration of its own, so every field is needed: '{}' is missing", x.name);
        return std::nullopt;
      }
  return c;
}

Estimate estimate(const KernelWork &w, const Calibration &c) {
  Estimate e;
  // Residency: shared memory (1 KB of each block's is the system's), threads, registers.
  int64_t bySmem = w.smemBytes > 0 ? c.smemPerSm / (w.smemBytes + 1024) : INT64_MAX;
  int64_t byThreads = w.threads > 0 ? c.threadsPerSm / w.threads : INT64_MAX;
  int64_t byRegs = w.regsPerBlock > 0 ? c.regsPerSm / w.regsPerBlock : INT64_MAX;
  // A block that does not fit an SM at all is placed alone (the launch
  // would fail: the report says so with the limit).
  e.blocksPerSm = std::max<int64_t>(1, std::min({bySmem, byThreads, byRegs, c.blocksPerSm}));
  int64_t least = std::min({bySmem, byThreads, byRegs, c.blocksPerSm});
  e.residencyLimit = least == c.blocksPerSm ? "blocks per SM"
                     : least == bySmem      ? "shared memory"
                     : least == byRegs      ? "registers"
                                            : "threads";
  if (least == 0) e.residencyLimit += ", which one block exceeds";
  e.slots = c.sms * e.blocksPerSm;
  e.waves = static_cast<double>(w.blocks) / static_cast<double>(e.slots);
  double share = static_cast<double>(e.blocksPerSm);  // a slot's share of its multiprocessor
  auto us = [](double bytes, double gbs) { return gbs > 0 ? bytes / (gbs * 1e3) : 0.0; };
  double loaded = 0;
  for (const BlockWork &b : w.perBlock) loaded += b.l2Bytes + b.genericLoad;
  double lap = c.copyLatencyUs;
  struct Terms {
    double tensor, role, fill, generic, latency, elem, fixed, total;
  };
  auto tensorUs = [&](double f16, double f8, double other) {
    return (f16 / c.tflops16PerSm + f8 / c.tflops8PerSm + other / c.tflopsOtherPerSm) / 1e6 * share;
  };
  auto blockTerms = [&](const BlockWork &b) {
    Terms t{};
    t.tensor = tensorUs(b.flops16, b.flops8, b.flopsOther);
    // A role's warps issue their tensor-core and CUDA-core work in turn.
    for (const BlockWork::RoleWork &r : b.roles)
      t.role = std::max(t.role, tensorUs(r.flops16, r.flops8, r.flopsOther) +
                                    r.elementOps / (c.elementGopsPerSm * 1e3) * share);
    t.fill = us(b.l2Bytes + b.storeBytes, c.smFillGBs) * share;
    t.generic = us(b.genericLoad + b.genericStore, c.smGenericGBs) * share;
    t.latency = b.laps * lap;
    t.elem = b.elementOps / (c.elementGopsPerSm * 1e3) * share;
    double first = (b.loads ? lap : 0) + (b.genericLoad > 0 ? lap : 0) + (b.stores ? c.copyLatencyUs : 0);
    t.fixed = first + c.blockUs;  // what more blocks of less work each would pay again
    t.total = std::max({t.tensor, t.role, t.fill, t.generic, t.latency, t.elem}) + t.fixed;
    return t;
  };
  // Blocks go to the slot that frees first, in launch order.
  std::priority_queue<double, std::vector<double>, std::greater<double>> slots;
  for (int64_t i = 0; i < std::min<int64_t>(e.slots, w.blocks); ++i) slots.push(0);
  double busy = 0, worst = -1, makespan = 0, criticalLaps = 0;
  Terms critical{};
  for (const BlockWork &b : w.perBlock) {
    Terms t = blockTerms(b);
    double end = slots.top() + t.total;
    slots.pop();
    slots.push(end);
    makespan = std::max(makespan, end);
    busy += t.total;
    e.divisibleUs += t.total - t.fixed;
    e.fixedUs = std::max(e.fixedUs, t.fixed);
    if (t.total > worst) worst = t.total, critical = t, criticalLaps = b.laps;
  }
  // Work that more blocks could share: the longest block's ring goes round
  // at least twice, and its work outweighs its fixed costs.
  e.splittable = criticalLaps >= 2 && critical.total - critical.fixed > critical.fixed;
  e.makespanUs = makespan;
  // Over every slot: a grid that does not fill them leaves the rest idle.
  e.slotEfficiency = makespan > 0 ? busy / (static_cast<double>(e.slots) * makespan) : 1;
  // Each contiguous run of distinct bytes costs HBM some bytes' worth more
  // (a short run wastes part of the bursts and rows it opens).
  e.hbmUs = us(w.uniqueRead + w.uniqueWrite + w.uniqueRuns * c.hbmRunOverheadBytes, c.hbmGBs);
  e.l2Us = us(loaded, c.l2GBs);
  double reduced = 0;
  for (const BlockWork &b : w.perBlock) reduced += b.reduceBytes;
  e.reduceUs = us(reduced, c.l2ReduceGBs);
  e.tensorUs = critical.tensor, e.fillUs = critical.fill, e.latencyUs = critical.latency,
  e.genericUs = critical.generic, e.roleUs = critical.role;
  double f16 = 0, f8 = 0;
  for (const BlockWork &b : w.perBlock) f16 += b.flops16, f8 += b.flops8;
  e.tensorDeviceUs = (f16 / c.tflops16Device + f8 / c.tflops8Device) / 1e6;
  double body = std::max({makespan, e.hbmUs, e.l2Us, e.tensorDeviceUs, e.reduceUs});
  e.timeUs = c.launchUs + body;
  // The bottleneck: what sets the largest term.
  if (c.launchUs >= body)
    e.bottleneck = "launch-overhead";
  else if (e.tensorDeviceUs >= std::max({makespan, e.hbmUs, e.l2Us, e.reduceUs}))
    e.bottleneck = "tensor-pipe";
  else if (e.reduceUs >= std::max({makespan, e.hbmUs, e.l2Us}))
    e.bottleneck = "l2-reductions";
  else if (e.hbmUs >= makespan && e.hbmUs >= e.l2Us)
    e.bottleneck = "hbm-bandwidth";
  else if (e.l2Us >= makespan)
    e.bottleneck = "l2-bandwidth";
  else if (e.splittable && e.slotEfficiency < 0.7)
    e.bottleneck = "wave-quantization";
  else {
    double m =
        std::max({critical.tensor, critical.role, critical.fill, critical.generic, critical.latency, critical.elem});
    if (m <= 0)
      e.bottleneck = "launch-overhead";
    else if (critical.fixed >= m)
      e.bottleneck = "pipeline-latency";  // the block's first copies and its start outweigh its work
    else if (m == critical.tensor || (m == critical.role && critical.role < 1.1 * critical.tensor))
      e.bottleneck = "tensor-pipe";  // a role's own CUDA-core work adds little to its tensor-core time
    else if (m == critical.role)
      e.bottleneck = "role-serialization";
    else if (m == critical.latency)
      e.bottleneck = "pipeline-latency";
    else if (m == critical.fill)
      e.bottleneck = "l2-bandwidth";
    else if (m == critical.generic)
      e.bottleneck = "generic-memory";
    else
      e.bottleneck = "cuda-cores";
  }
  return e;
}

namespace {

std::string shapeText(const ShapeValues &s) {
  std::string t;
  for (const auto &[n, v] : s) t += (t.empty() ? "" : ",") + n + "=" + std::to_string(v);
  return t;
}

struct Totals {
  double load = 0, l2 = 0, store = 0, gload = 0, gstore = 0, f16 = 0, f8 = 0, fo = 0, elem = 0, laps = 0;
  int64_t copies = 0;
};
Totals totals(const KernelWork &w) {
  Totals t;
  for (const BlockWork &b : w.perBlock) {
    t.load += b.loadBytes, t.l2 += b.l2Bytes, t.store += b.storeBytes, t.gload += b.genericLoad;
    t.gstore += b.genericStore, t.f16 += b.flops16, t.f8 += b.flops8, t.fo += b.flopsOther, t.elem += b.elementOps;
    t.copies += b.copies, t.laps = std::max(t.laps, b.laps);
  }
  return t;
}

std::string jsonString(std::string_view s) {
  std::string o = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\')
      o += '\\', o += ch;
    else if (static_cast<unsigned char>(ch) < 0x20)
      o += fmt::format("\\u{:04x}", static_cast<unsigned>(ch));
    else
      o += ch;
  }
  return o + "\"";
}

// A number for JSON: counts (whole numbers) exactly, others to 6 digits,
// null where it is not finite.
std::string num(double x) {
  if (!std::isfinite(x)) return "null";
  if (x == std::floor(x) && std::fabs(x) < 9e15) return fmt::format("{:.0f}", x);
  return fmt::format("{:.6g}", x);
}

std::string bytesText(double b) {
  if (b >= 1e9) return fmt::format("{:.2f} GB", b / 1e9);
  if (b >= 1e6) return fmt::format("{:.2f} MB", b / 1e6);
  if (b >= 1e3) return fmt::format("{:.1f} KB", b / 1e3);
  return fmt::format("{:.0f} B", b);
}

}  // namespace

std::string renderReportText(const std::vector<ReportEntry> &entries) {
  std::string o;
  std::map<std::string, std::string> used;
  for (const ReportEntry &e : entries) {
    const TargetInfo &ti = targetInfo(e.target);
    const Calibration *cal = e.cal ? &*e.cal : nullptr;
    std::string name = e.family.empty() ? fmt::format("kernel '{}'", e.kernel)
                       : e.route.empty()
                           ? fmt::format("family '{}'", e.family)
                           : fmt::format("family '{}', route '{}' (schedule '{}')", e.family, e.route, e.kernel);
    o += fmt::format("{} on {} at {}\n", name, ti.name, shapeText(e.shape));
    if (!e.work) {
      o += fmt::format("  not estimated: {}\n", e.why);
      continue;
    }
    const KernelWork &w = *e.work;
    Totals t = totals(w);
    double flops = t.f16 + t.f8 + t.fo;
    if (e.est && cal) {
      const Estimate &x = *e.est;
      o += fmt::format("  estimated time     {:.2f} us\n", x.timeUs);
      o += fmt::format("  bottleneck         {}\n", x.bottleneck);
      o += fmt::format(
          "  terms (us)         blocks {:.2f}, tensor core {:.2f}, HBM {:.2f}, L2 {:.2f}, L2 additions {:.2f}, "
          "launch {:.2f}\n",
          x.makespanUs, x.tensorDeviceUs, x.hbmUs, x.l2Us, x.reduceUs, cal->launchUs);
      o += fmt::format(
          "  longest block (us) tensor core {:.2f}, one role's issue {:.2f}, fill {:.2f}, ring latency {:.2f}, "
          "generic {:.2f}\n",
          x.tensorUs, x.roleUs, x.fillUs, x.latencyUs, x.genericUs);
      o += fmt::format("  placement          {} per SM (by {}; {} slots), {:.2f} waves, slots busy {:.0f}%\n",
                       x.blocksPerSm, x.residencyLimit, x.slots, x.waves, 100 * x.slotEfficiency);
      used[std::string(ti.name)] = fmt::format("{} ({})", cal->gpu, cal->source);
    } else {
      o += fmt::format("  estimated time     none: {} is uncalibrated (counts only)\n", ti.name);
    }
    o += fmt::format("  grid               {} x {} x {} = {} blocks, {} threads, {} of shared memory\n", w.grid[0],
                     w.grid[1], w.grid[2], w.blocks, w.threads, bytesText(static_cast<double>(w.smemBytes)));
    if (flops > 0)
      o += fmt::format("  tensor core        {:.4g} GFLOP (bf16/f16 {:.4g}, fp8/i8 {:.4g}, other {:.4g})\n",
                       flops / 1e9, t.f16 / 1e9, t.f8 / 1e9, t.fo / 1e9);
    o += fmt::format("  copies to smem     {} ({} into blocks, {} from L2), longest ring {:.0f} laps\n", t.copies,
                     bytesText(t.load), bytesText(t.l2), t.laps);
    if (t.store > 0) o += fmt::format("  copies to global   {}\n", bytesText(t.store));
    if (t.gload + t.gstore > 0)
      o += fmt::format("  thread accesses    loads {}, stores {}\n", bytesText(t.gload), bytesText(t.gstore));
    o += fmt::format("  distinct bytes     read {}, written {}\n", bytesText(w.uniqueRead), bytesText(w.uniqueWrite));
    for (const std::string &u : w.unknowns) o += fmt::format("  not exact          {}\n", u);
  }
  for (const auto &[target, text] : used) o += fmt::format("calibration of {}: {}\n", target, text);
  return o;
}

std::string renderReportJson(const std::vector<ReportEntry> &entries) {
  std::string o = "{\n  \"format\": 1,\n  \"reports\": [";
  bool firstEntry = true;
  for (const ReportEntry &e : entries) {
    const TargetInfo &ti = targetInfo(e.target);
    const Calibration *cal = e.cal ? &*e.cal : nullptr;
    o += firstEntry ? "\n" : ",\n";
    firstEntry = false;
    o += "    {\"target\": " + jsonString(ti.name) + ", \"calibration\": " +
         (cal ? fmt::format("{{\"gpu\": {}, \"source\": {}}}", jsonString(cal->gpu), jsonString(cal->source))
              : std::string("null"));
    o += ", \"kernel\": " + jsonString(e.kernel);
    if (!e.family.empty()) o += ", \"family\": " + jsonString(e.family) + ", \"route\": " + jsonString(e.route);
    o += ", \"shape\": {";
    bool f = true;
    for (const auto &[n, v] : e.shape) {
      o += fmt::format("{}{}: {}", f ? "" : ", ", jsonString(n), v);
      f = false;
    }
    o += "}";
    if (!e.work) {
      o += ", \"estimated\": false, \"why\": " + jsonString(e.why) + "}";
      continue;
    }
    const KernelWork &w = *e.work;
    Totals t = totals(w);
    if (e.est && cal) {
      const Estimate &x = *e.est;
      o += fmt::format(", \"estimated\": true, \"time_us\": {}, \"bottleneck\": {}", num(x.timeUs),
                       jsonString(x.bottleneck));
      o += fmt::format(", \"terms_us\": {{\"blocks\": {}, \"tensor_device\": {}, \"hbm\": {}, \"l2\": {}, "
                       "\"l2_reductions\": {}, \"launch\": {}}}",
                       num(x.makespanUs), num(x.tensorDeviceUs), num(x.hbmUs), num(x.l2Us), num(x.reduceUs),
                       num(cal->launchUs));
      o += fmt::format(", \"longest_block_us\": {{\"tensor\": {}, \"role\": {}, \"fill\": {}, \"latency\": {}, "
                       "\"generic\": {}}}",
                       num(x.tensorUs), num(x.roleUs), num(x.fillUs), num(x.latencyUs), num(x.genericUs));
      o += fmt::format(", \"blocks_per_sm\": {}, \"residency_limit\": {}", x.blocksPerSm, jsonString(x.residencyLimit));
      o += fmt::format(", \"waves\": {}, \"slot_efficiency\": {}", num(x.waves), num(x.slotEfficiency));
    } else {
      o += ", \"estimated\": false, \"why\": " + jsonString(std::string(ti.name) + " is uncalibrated");
    }
    o += fmt::format(", \"grid\": [{}, {}, {}], \"blocks\": {}, \"threads\": {}, \"smem_bytes\": {}", w.grid[0],
                     w.grid[1], w.grid[2], w.blocks, w.threads, w.smemBytes);
    o += fmt::format(", \"flops\": {{\"bf16_f16\": {}, \"fp8_i8\": {}, \"other\": {}}}", num(t.f16), num(t.f8),
                     num(t.fo));
    o += fmt::format(", \"bytes\": {{\"to_smem\": {}, \"from_l2\": {}, \"to_global\": {}, \"thread_loads\": {}, "
                     "\"thread_stores\": {}, \"distinct_read\": {}, \"distinct_written\": {}}}",
                     num(t.load), num(t.l2), num(t.store), num(t.gload), num(t.gstore), num(w.uniqueRead),
                     num(w.uniqueWrite));
    o += fmt::format(", \"copies\": {}, \"ring_laps\": {}", t.copies, num(t.laps));
    o += ", \"not_exact\": [";
    for (size_t i = 0; i < w.unknowns.size(); ++i) o += (i ? ", " : "") + jsonString(w.unknowns[i]);
    o += "]}";
  }
  o += "\n  ]\n}\n";
  return o;
}

std::vector<Hint> hints(const Kernel &k, const KernelWork &w, const Estimate &e, const Calibration &c,
                        const std::string &shapeText) {
  std::vector<Hint> out;
  auto pct = [](double x) { return fmt::format("{:.0f}", 100 * x); };
  auto us = [](double x) { return fmt::format("{:.1f}", x); };
  // An idle last wave: the busy slot time spread evenly over every slot.
  if (e.splittable && e.slotEfficiency < 0.75 && e.bottleneck != "hbm-bandwidth" && e.bottleneck != "launch-overhead") {
    // Spread evenly, the work divides over the slots; each block's fixed
    // costs (first copies, its start) do not.
    double even = c.launchUs + std::max({e.divisibleUs / static_cast<double>(e.slots) + e.fixedUs, e.hbmUs, e.l2Us,
                                         e.tensorDeviceUs, e.reduceUs});
    double gain = 1 - even / e.timeUs;
    if (gain >= 0.10)
      out.push_back({DiagId::HintWaves,
                     k.gridRange.begin.valid() ? k.gridRange : k.nameRange,
                     {shapeText, std::to_string(w.blocks), std::to_string(e.slots), std::to_string(e.blocksPerSm),
                      std::to_string(c.sms), pct(e.slotEfficiency), pct(gain), us(even), us(e.timeUs)}});
  }
  return out;
}

}  // namespace cake::analysis
