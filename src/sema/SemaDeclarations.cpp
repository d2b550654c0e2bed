// SemaDeclarations: resources declared by operations, and the kernel's
// shared-memory layout (see Analyzer.h).
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "sema/Analyzer.h"
#include "sema/ConstEval.h"
#include "sema/Suggest.h"

namespace cake::sema::detail {

Resource &Analyzer::newResource(ResourceKind kind, SourceRange range) {
  Resource r;
  r.kind = kind;
  r.range = range;
  r.id = static_cast<ResourceId>(kernel_->resources.size());
  kernel_->resources.push_back(std::move(r));
  return kernel_->resources.back();
}

// Creates the Resource a declaration stands for, with its derived facts.
Value Analyzer::declare(const OpInfo &op, const CallExpr *c, std::vector<Operand> &ops, ResourceId receiver) {
  // Operands by the table's parameter enums (param::View::offset).
  auto arg = [&](auto p) -> Operand & {
    CAKE_CHECK(op.kind == ParamOf<decltype(p)>::kind && static_cast<size_t>(p) < ops.size(),
               "declaration operand of the wrong operation");
    return ops[static_cast<size_t>(p)];
  };
  auto intArg = [&](auto p) {
    const Operand &o = arg(p);
    CAKE_CHECK(o.value.constInt.has_value(), "a constant parameter without a constant");
    return *o.value.constInt;
  };
  auto shapeArg = [&](auto p) {
    std::vector<int64_t> shape;
    for (const Value &e : arg(p).value.elts) shape.push_back(*e.constInt);
    return shape;
  };
  auto positive = [&](auto n, const char *what) {
    int64_t x = intArg(n);
    if (x <= 0) {
      diags_.report(DiagId::ConstNonPositive, arg(n).range, what, x);
      return false;
    }
    return true;
  };
  auto nonNegative = [&](auto n, const char *what) {
    int64_t x = intArg(n);
    if (x < 0) {
      diags_.report(DiagId::ConstNegative, arg(n).range, what, x);
      return false;
    }
    return true;
  };
  ResourceKind kind = ResourceKind::Pool;
  switch (op.result) {
  case OpResult::Pool: kind = ResourceKind::Pool; break;
  case OpResult::View: kind = ResourceKind::View; break;
  case OpResult::Tmem: kind = ResourceKind::Tmem; break;
  case OpResult::Regs: kind = ResourceKind::Regs; break;
  case OpResult::Role: kind = ResourceKind::Role; break;
  case OpResult::Pipeline: kind = ResourceKind::Pipeline; break;
  case OpResult::Barrier: kind = ResourceKind::Barrier; break;
  case OpResult::NamedBarrier: kind = ResourceKind::NamedBarrier; break;
  case OpResult::RoleFamily: return declareRoleFamily(c, ops);
  case OpResult::Workspace: return declareWorkspace(c, ops);
  case OpResult::RoleInt:
  case OpResult::None:
  case OpResult::Range:
  case OpResult::RuntimeInt:
  case OpResult::Fragment:
  case OpResult::FragmentPair: CAKE_CHECK(false, "declare() called for an operation that declares nothing");
  }
  // Validate before creating the record.
  switch (kind) {
  case ResourceKind::Pool:
    if (!positive(param::Smem::bytes, "the pool size")) return Value::error();
    break;
  case ResourceKind::View:
    if (!nonNegative(param::View::offset, "a view offset") || !positive(param::View::stage, "a stage count"))
      return Value::error();
    break;
  case ResourceKind::Tmem:
    if (!nonNegative(param::Tmem::cols, "a TMEM start column") || !positive(param::Tmem::width, "a TMEM width"))
      return Value::error();
    break;
  case ResourceKind::Role:
    if (!nonNegative(param::Role::regs, "a register budget")) return Value::error();
    break;
  case ResourceKind::Pipeline:
    if (!positive(param::Pipeline::stages, "a stage count")) return Value::error();
    break;
  case ResourceKind::Barrier:
    if (!positive(param::Barrier::count, "a barrier count") ||
        !positive(param::Barrier::init_count, "an arrival count"))
      return Value::error();
    // Credits fit the mbarrier ring only whole: a slot's first phase passes
    // for every slot or for none.
    if (arg(param::Barrier::credits).present && intArg(param::Barrier::credits) != 0 &&
        intArg(param::Barrier::credits) != intArg(param::Barrier::count)) {
      diags_.report(DiagId::SemaBadValue, arg(param::Barrier::credits).range, "credits", "lm.barrier",
                    fmt::format("0 or the barrier's count ({})", intArg(param::Barrier::count)),
                    intArg(param::Barrier::credits));
      return Value::error();
    }
    break;
  case ResourceKind::Regs:
  case ResourceKind::NamedBarrier: break;
  case ResourceKind::TensorParam:
  case ResourceKind::ScalarParam: CAKE_CHECK(false, "a parameter declared by an operation"); break;
  }

  Resource &r = newResource(kind, c->range);
  r.name = nameHint_;
  switch (kind) {
  case ResourceKind::Pool: r.bytes = intArg(param::Smem::bytes); break;
  case ResourceKind::View: {
    r.pool = receiver;
    r.offset = intArg(param::View::offset);
    r.shape = shapeArg(param::View::shape);
    r.dtype = arg(param::View::dtype).value.dtype;
    r.stages = intArg(param::View::stage);
    const std::string &sw = arg(param::View::swizzle).value.str;
    r.swizzle = sw == "32B" ? Swizzle::B32 : sw == "64B" ? Swizzle::B64 : sw == "128B" ? Swizzle::B128 : Swizzle::None;
    r.alias = arg(param::View::alias).value.constBool;
    // Bytes per stage: elements x bits / 8, checked for overflow.
    int64_t elems = 1;
    bool overflow = false;
    for (int64_t d : r.shape) overflow |= __builtin_mul_overflow(elems, d, &elems);
    int64_t bits = 0;
    overflow |= __builtin_mul_overflow(elems, static_cast<int64_t>(dtypeInfo(r.dtype).bits), &bits);
    r.bytesPerStage = satAdd(bits, 7) / 8;
    overflow |= __builtin_mul_overflow(r.bytesPerStage, r.stages, &r.totalBytes);
    if (overflow) {
      diags_.report(DiagId::ConstSizeOverflow, c->range, r.name.empty() ? std::string("view") : r.name);
      r.bytesPerStage = r.totalBytes = 0;
    }
    break;
  }
  case ResourceKind::Tmem:
    r.firstColumn = intArg(param::Tmem::cols);
    r.width = intArg(param::Tmem::width);
    r.shape = shapeArg(param::Tmem::shape);
    r.dtype = arg(param::Tmem::dtype).value.dtype;
    break;
  case ResourceKind::Regs:
    r.shape = shapeArg(param::Regs::shape);
    r.dtype = arg(param::Regs::dtype).value.dtype;
    r.layout = arg(param::Regs::layout).value.str == "rows" ? FragmentLayout::Rows : FragmentLayout::Accumulator;
    r.warpsPerRow = arg(param::Regs::warps_per_row).value.constInt.value_or(1);
    if (arg(param::Regs::role).present) r.role = arg(param::Regs::role).value.resource;  // kNoResource for a family
    break;
  case ResourceKind::Role:
    for (const Value &e : arg(param::Role::warps).value.elts) r.warps.push_back(*e.constInt);
    r.regBudget = intArg(param::Role::regs);
    break;
  case ResourceKind::Pipeline: r.stages = intArg(param::Pipeline::stages); break;
  case ResourceKind::Barrier:
    r.count = intArg(param::Barrier::count);
    // A role family in a list stands for all its members.
    for (auto [list, out] :
         {std::pair{&arg(param::Barrier::prod), &r.producers}, std::pair{&arg(param::Barrier::cons), &r.consumers}})
      for (const Value &e : list->value.elts)
        if (e.kind == ValueKind::Members)
          for (const Value &m : e.elts) out->push_back(m.resource);
        else
          out->push_back(e.resource);
    r.initCount = intArg(param::Barrier::init_count);
    r.initCountWritten = !arg(param::Barrier::init_count).defaulted;
    if (r.initCountWritten) {
      r.initCountSite = arg(param::Barrier::init_count).valueRange;
    } else {
      for (const Operand &o : ops)
        if (o.present && !o.defaulted && o.range.valid() &&
            (!r.initCountSite.valid() || r.initCountSite.begin.line < o.range.end.line ||
             (r.initCountSite.begin.line == o.range.end.line && r.initCountSite.begin.col < o.range.end.col)))
          r.initCountSite = SourceRange(o.range.end);
    }
    if (arg(param::Barrier::pipeline).present) r.pipeline = arg(param::Barrier::pipeline).value.resource;
    if (arg(param::Barrier::credits).present) r.credits = intArg(param::Barrier::credits);
    break;
  case ResourceKind::NamedBarrier:
    // The roles that meet there (a role family: all its members), once each.
    for (const Value &e : arg(param::NamedBarrier::roles).value.elts)
      for (const Value &m : e.kind == ValueKind::Members ? e.elts : std::vector<Value>{e})
        if (std::find(r.consumers.begin(), r.consumers.end(), m.resource) == r.consumers.end())
          r.consumers.push_back(m.resource);
    break;
  case ResourceKind::TensorParam:
  case ResourceKind::ScalarParam: break;
  }
  Value v;
  v.kind = ValueKind::Resource;
  v.resource = r.id;
  v.expr = c;
  // role= a role family: one copy per member.
  if (kind == ResourceKind::Regs && arg(param::Regs::role).value.kind == ValueKind::Members)
    return declareMembers(v, arg(param::Regs::role).value);
  if (kind == ResourceKind::View && arg(param::View::role).value.kind == ValueKind::Members)
    return declareMembers(v, arg(param::View::role).value);
  return v;
}

bool Analyzer::isRoleFamily(const Value &v) const {
  return v.kind == ValueKind::Members && !v.elts.empty() && v.elts[0].resource != kNoResource &&
         kernel_->resources[v.elts[0].resource].kind == ResourceKind::Role;
}

// lm.roles(warps=[[...], [...]], regs=N): one role per inner list, named
// `family[i]`, each with the budget; the value stands for all of them.
Value Analyzer::declareRoleFamily(const CallExpr *c, std::vector<Operand> &ops) {
  const Operand &warps = ops[static_cast<size_t>(param::Roles::warps)];
  const Operand &regs = ops[static_cast<size_t>(param::Roles::regs)];
  if (*regs.value.constInt < 0) {
    diags_.report(DiagId::ConstNegative, regs.range, "a register budget", *regs.value.constInt);
    return Value::error();
  }
  RoleFamily fam;
  fam.name = nameHint_;
  fam.range = c->range;
  Value v;
  v.kind = ValueKind::Members;
  v.family = static_cast<int32_t>(kernel_->roleFamilies.size());
  v.expr = c;
  for (size_t i = 0; i < warps.value.elts.size(); ++i) {
    Resource &r = newResource(ResourceKind::Role, c->range);
    r.name = fmt::format("{}[{}]", nameHint_, i);
    for (const Value &w : warps.value.elts[i].elts) r.warps.push_back(*w.constInt);
    r.regBudget = *regs.value.constInt;
    r.family = v.family;
    r.member = static_cast<int32_t>(i);
    fam.members.push_back(r.id);
    Value m;
    m.kind = ValueKind::Resource;
    m.resource = r.id;
    m.expr = c;
    v.elts.push_back(m);
  }
  kernel_->roleFamilies.push_back(std::move(fam));
  return v;
}

// A fragment or view declared with role= a role family: `first` becomes
// member 0's copy and each other member gets its own (a view's copies one
// after another in the pool); the value stands for all of them.
Value Analyzer::declareMembers(const Value &declared, const Value &family) {
  ResourceId first = declared.resource;
  Value v;
  v.kind = ValueKind::Members;
  v.family = family.family;
  v.expr = declared.expr;
  std::string base = nameHint_;
  for (size_t i = 0; i < family.elts.size(); ++i) {
    ResourceId id = first;
    if (i > 0) {
      Resource copy = res(first);
      copy.id = id = static_cast<ResourceId>(kernel_->resources.size());
      kernel_->resources.push_back(std::move(copy));
    }
    Resource &r = res(id);
    r.name = fmt::format("{}[{}]", base, i);
    r.family = family.family;
    r.member = static_cast<int32_t>(i);
    if (r.kind == ResourceKind::Regs) r.role = family.elts[i].resource;
    if (r.kind == ResourceKind::View)
      r.offset = satAdd(res(first).offset, satMul(static_cast<int64_t>(i), r.totalBytes));
    Value m;
    m.kind = ValueKind::Resource;
    m.resource = id;
    m.expr = v.expr;
    v.elts.push_back(m);
  }
  return v;
}

// lm.workspace(shape=, dtype=): a global tensor in the launch's workspace.
// Its extents are integers of the scalar parameters and constants (the
// launcher computes them before the launch), each at least 1 at run time
// (the launcher checks).
Value Analyzer::declareWorkspace(const CallExpr *c, std::vector<Operand> &ops) {
  const Operand &shape = ops[static_cast<size_t>(param::Workspace::shape)];
  std::function<bool(IntExprId)> hostOnly = [&](IntExprId x) {
    const IntNode &n = kernel_->ints.node(x);
    if (n.op == IntOp::Const || n.op == IntOp::Param) return true;
    if (n.op == IntOp::Let) return hostOnly(n.a);
    const IntOpInfo &info = intOpInfo(n.op);
    if (info.arity == 0 || !info.cuda) return false;
    return hostOnly(n.a) && (info.arity == 1 || hostOnly(n.b));
  };
  if (shape.value.elts.empty() || shape.value.elts.size() > 5) {
    diags_.report(DiagId::SemaBadValue, shape.range, "shape", "lm.workspace", "a tuple of 1 to 5 extents",
                  fmt::format("{} extent(s)", shape.value.elts.size()));
    return Value::error();
  }
  for (const Value &e : shape.value.elts) {
    if (e.constInt && *e.constInt <= 0) {
      diags_.report(DiagId::ConstNonPositive, shape.range, "a workspace extent", *e.constInt);
      return Value::error();
    }
    if (!e.constInt && (e.ix == kNoIntExpr || !hostOnly(e.ix))) {
      SourceRange at = e.expr ? e.expr->range : shape.range;
      diags_.report(DiagId::SemaWorkspaceExtent, at, sourceText(sm_, at));
      return Value::error();
    }
  }
  Resource &r = newResource(ResourceKind::TensorParam, c->range);
  r.name = nameHint_;
  r.tma = ops[static_cast<size_t>(param::Workspace::tma)].value.constBool;
  r.workspace = true;
  r.rank = static_cast<unsigned>(shape.value.elts.size());
  r.dtype = ops[static_cast<size_t>(param::Workspace::dtype)].value.dtype;
  r.workspaceShape = shape.value.elts;
  KernelParam p;
  p.name = r.name;
  p.range = c->range;
  p.resource = r.id;
  p.workspace = true;
  kernel_->params.push_back(p);
  Value v;
  v.kind = ValueKind::Resource;
  v.resource = r.id;
  v.expr = c;
  return v;
}

// Lays out shared memory (pools at 1024-byte boundaries in declaration
// order, then the mbarrier arrays at 8-byte boundaries) and derives the
// block size and each view's address alignment.
void Analyzer::finalizeKernel() {
  Kernel &k = *kernel_;
  int64_t offset = 0;
  auto alignUp = [](int64_t v, int64_t a) { return satAdd(v, a - 1) / a * a; };
  for (Resource &r : k.resources) {
    if (r.kind != ResourceKind::Pool) continue;
    offset = alignUp(offset, 1024);
    r.smemOffset = offset;
    offset = satAdd(offset, r.bytes);
  }
  offset = alignUp(offset, 8);
  int64_t barrierStart = offset;
  for (Resource &r : k.resources) {
    if (r.kind != ResourceKind::Barrier) continue;
    r.smemOffset = offset;
    offset = satAdd(offset, satMul(8, r.count));
  }
  bool tmem = false;
  for (const Resource &r : k.resources) tmem |= r.kind == ResourceKind::Tmem;
  if (tmem) {
    k.tmemSlot = offset;
    offset = satAdd(offset, 16);
  }
  k.barrierBytes = offset - barrierStart;
  // Scratch for row reductions across the warps sharing a row: one f32 per
  // part of each row (the warps of a role hold R x P parts of an R-row
  // tile), a part of the scratch per role.
  std::map<ResourceId, int64_t> need;
  for (const Resource &r : k.resources)
    if (r.kind == ResourceKind::Regs && r.layout == FragmentLayout::Rows && r.warpsPerRow > 1 && r.shape.size() == 2)
      need[r.role] = std::max(need[r.role], satMul(4, satMul(r.shape[0], r.warpsPerRow)));
  for (const auto &[role, bytes] : need) {
    k.reduceScratchAt[role] = k.reduceScratchBytes;
    k.reduceScratchBytes = satAdd(k.reduceScratchBytes, bytes);
  }
  if (k.reduceScratchBytes > 0) {
    offset = alignUp(offset, 16);
    k.reduceScratch = offset;
    offset = satAdd(offset, k.reduceScratchBytes);
  }
  for (auto &[role, at] : k.broadcastAt) {
    offset = alignUp(offset, 16);
    at = offset;
    offset = satAdd(offset, 16);
  }
  k.smemBytes = offset;
  int64_t maxWarp = -1;
  for (Resource &r : k.resources) {
    if (r.kind == ResourceKind::Role)
      for (int64_t w : r.warps) maxWarp = std::max(maxWarp, w);
    if (r.kind == ResourceKind::View && r.pool != kNoResource) {
      int64_t addr = satAdd(k.resources[r.pool].smemOffset, r.offset);
      int64_t a = 1024;
      while (a > 1 && addr % a != 0) a /= 2;
      r.alignment = a;
    }
  }
  k.threads = satMul(32, satAdd(maxWarp, 1));
}

}  // namespace cake::sema::detail
