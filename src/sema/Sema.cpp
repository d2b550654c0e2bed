// Sema: see Sema.h. Statements are handled top-down (module, kernel, role,
// loop); expressions are evaluated to Values; calls are bound to their
// OpTable entry, checked parameter by parameter, and either declare a
// resource or append an Operation to the current role's body.
#include "sema/Sema.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "sema/ConstEval.h"
#include "sema/Suggest.h"

namespace cake::sema {

using namespace ast;

namespace {

struct Binding {
  Value value;
  SourceRange range;
};

class Analyzer {
public:
  Analyzer(Target target, const SourceManager &sm, DiagnosticEngine &diags, ModuleLoader *loader)
      : sm_(sm), diags_(diags), loader_(loader) {
    module_ = std::make_unique<Module>();
    module_->target = target;
  }

  std::unique_ptr<Module> run(const ast::Module &m);
  void setImported() { imported_ = true; }

private:
  // ---- statements ----
  void moduleStmt(const Stmt *s);
  void importStmt(const ImportStmt *i);
  void fromImportStmt(const FromImportStmt *f);
  const Module *loadModule(const std::string &dotted, SourceRange range);
  void kernel(const FunctionDef *f);
  void scheduleOptions(const Expr *decorator);
  void stmts(const std::vector<Stmt *> &list);
  void stmt(const Stmt *s);
  void assign(const AssignStmt *a);
  void bindTarget(const Expr *target, const Value &v);
  void bind(const std::string &name, const Value &v, SourceRange range);
  void exprStmt(const ExprStmt *e);
  void withStmt(const WithStmt *w);
  void forStmt(const ForStmt *f);
  void ifStmt(const IfStmt *i);
  void finalizeKernel();

  // ---- expressions ----
  Value eval(const Expr *e);
  Value evalExpr(const Expr *e);
  void remember(const Expr *e, const Value &v);
  Value evalName(const NameExpr *n);
  Value evalAttribute(const AttributeExpr *a);
  Value evalSubscript(const SubscriptExpr *s);
  Value evalUnary(const UnaryExpr *u);
  Value evalBinaryChain(const BinaryExpr *b);
  Value evalBinary(const BinaryExpr *b, Value l);
  Value evalCall(const CallExpr *c, bool allowRange = false, bool asStatement = false);
  // The expression node of an integer value (constants get one on demand).
  IntExprId intId(const Value &v);
  IntExprId intBinary(BinaryOp op, IntExprId a, IntExprId b);
  Value constError(ConstError err, SourceRange r);

  // ---- calls ----
  bool bindArguments(const CallExpr *c, const OpInfo &op, std::vector<Operand> &out);
  bool checkOperand(const OpInfo &op, const ParamInfo &p, Operand &o);
  Value declare(const OpInfo &op, const CallExpr *c, std::vector<Operand> &operands, ResourceId receiver);
  bool checkStageArgument(const OpInfo &op, const CallExpr *c, ResourceId view, const Operand &stage);

  // ---- helpers ----
  std::string describe(const Value &v) const;
  std::string opDisplayName(const OpInfo &op) const;
  std::vector<std::string> visibleNames() const;
  const Binding *lookup(const std::string &name) const;
  Resource &newResource(ResourceKind kind, SourceRange range);
  Resource &res(ResourceId id) { return kernel_->resources[id]; }
  std::string nameOf(ResourceId id) const { return kernel_->resources[id].name; }

  const SourceManager &sm_;
  DiagnosticEngine &diags_;
  ModuleLoader *loader_;
  bool imported_ = false;  // analysing a module for an importer
  std::unique_ptr<Module> module_;
  Kernel *kernel_ = nullptr;
  std::vector<std::map<std::string, Binding>> scopes_;  // [0] is the module scope
  ResourceId role_ = kNoResource;    // the role whose block we are in
  SourceRange roleRange_;
  std::vector<IrStmt> *body_ = nullptr;
  std::string nameHint_;            // the name a declaration is being bound to
  uint32_t nextLoop_ = 0;
  std::set<const Expr *> loopTargets_;  // loop variables' declarations
};

// ---------------------------------------------------------------------------
// module level

std::unique_ptr<Module> Analyzer::run(const ast::Module &m) {
  module_->file = m.file;
  scopes_.emplace_back();
  for (const Stmt *s : m.body) {
    if (diags_.fatalOccurred()) break;  // e.g. -fmax-errors reached
    moduleStmt(s);
  }
  // Module-level constants are what importers see.
  for (const auto &[name, b] : scopes_.front()) {
    ValueKind k = b.value.kind;
    if (k == ValueKind::Int || k == ValueKind::Bool || k == ValueKind::Float || k == ValueKind::String ||
        k == ValueKind::Tuple || k == ValueKind::List || k == ValueKind::DType)
      module_->exports[name] = b.value;
  }
  bool emptyFile = sm_.text(m.file).find_first_not_of(" \t\r\n\f") == std::string::npos;
  bool triedKernel = std::any_of(m.body.begin(), m.body.end(), [](const Stmt *s) { return isa<FunctionDef>(s); });
  if (module_->kernels.empty() && !emptyFile && !triedKernel && !imported_)
    diags_.report(DiagId::SemaNoSchedule, SourceRange(SourceLoc{m.file, 0, 0}));
  return std::move(module_);
}

void Analyzer::moduleStmt(const Stmt *s) {
  if (auto *f = dyn_cast<FunctionDef>(s)) {
    kernel(f);
  } else if (auto *a = dyn_cast<AssignStmt>(s)) {
    // Module-level constants: literals and arithmetic on them.
    assign(a);
  } else if (auto *i = dyn_cast<ImportStmt>(s)) {
    importStmt(i);
  } else if (auto *fi = dyn_cast<FromImportStmt>(s)) {
    fromImportStmt(fi);
  } else if (isa<PassStmt>(s)) {
  } else {
    diags_.report(DiagId::SemaModuleStatement, s->range);
  }
}

const Module *Analyzer::loadModule(const std::string &dotted, SourceRange range) {
  if (!loader_) {
    diags_.report(DiagId::SemaModuleNotFound, range, dotted, "(no module search path)");
    return nullptr;
  }
  const Module *m = loader_->load(dotted, range);
  if (m) module_->imports[dotted] = m;
  return m;
}

// import a.b.c [as d]: binds `d` to the module, or `a` to the package whose
// attribute chain b.c reaches it, as Python does.
void Analyzer::importStmt(const ImportStmt *i) {
  for (const ImportName &n : i->names) {
    const Module *m = loadModule(n.name, n.range);
    if (!m) continue;
    Value v;
    if (!n.alias.empty()) {
      v.kind = ValueKind::ModuleRef;
      v.module = m;
      v.str = n.name;
      bind(n.alias, v, n.range);
      continue;
    }
    std::string head = n.name.substr(0, n.name.find('.'));
    if (head == n.name) {
      v.kind = ValueKind::ModuleRef;
      v.module = m;
    } else {
      v.kind = ValueKind::Package;
    }
    v.str = head;
    // `import a.b` then `import a.c` share the binding of `a`.
    if (lookup(head) && lookup(head)->value.kind == ValueKind::Package && v.kind == ValueKind::Package) continue;
    bind(head, v, n.range);
  }
}

// from a.b import X [as Y]: binds module constants.
void Analyzer::fromImportStmt(const FromImportStmt *f) {
  const Module *m = loadModule(f->module, f->moduleRange);
  if (!m) return;
  for (const ImportName &n : f->names) {
    auto it = m->exports.find(n.name);
    if (it == m->exports.end()) {
      std::vector<std::string> names;
      for (const auto &[k, _] : m->exports) names.push_back(k);
      diags_.report(DiagId::SemaUnknownImport, n.range, f->module, n.name, didYouMean(n.name, names));
      continue;
    }
    bind(n.alias.empty() ? n.name : n.alias, it->second, n.range);
  }
}

void Analyzer::kernel(const FunctionDef *f) {
  // @cake.schedule or @cake.schedule(...)
  const Expr *schedule = nullptr;
  bool badDecorator = false;
  for (const Expr *d : f->decorators) {
    const Expr *callee = d;
    if (auto *c = dyn_cast<CallExpr>(d)) callee = c->callee;
    auto *a = dyn_cast<AttributeExpr>(callee);
    auto *base = a ? dyn_cast<NameExpr>(a->object) : nullptr;
    if (a && base && base->name == "cake" && a->attr == "schedule" && !lookup("cake")) {
      schedule = d;
    } else {
      diags_.report(DiagId::SemaUnknownDecorator, d->range);
      badDecorator = true;
    }
  }
  if (!schedule) {
    if (!badDecorator) diags_.report(DiagId::SemaNotSchedule, f->nameRange, f->name);
    return;
  }

  auto k = std::make_unique<Kernel>();
  k->name = f->name;
  k->range = f->range;
  k->nameRange = f->nameRange;
  kernel_ = k.get();
  module_->kernels.push_back(std::move(k));
  scopes_.emplace_back();

  // Parameters: the builder handle first, then typed tensors and scalars.
  for (size_t i = 0; i < f->params.size(); ++i) {
    const Param &p = f->params[i];
    KernelParam kp;
    kp.name = p.name;
    kp.range = p.range;
    if (p.defaultValue) diags_.report(DiagId::SemaParamDefault, p.defaultValue->range, p.name);
    if (i == 0) {
      if (p.annotation) {
        diags_.report(DiagId::SemaMissingBuilder, p.range, f->name);
      } else {
        kp.isBuilder = true;
        Value v;
        v.kind = ValueKind::Builder;
        bind(p.name, v, p.range);
        kernel_->params.push_back(kp);
        continue;
      }
    }
    Value type = p.annotation ? eval(p.annotation) : Value::error();
    Value v;
    if (type.kind == ValueKind::TensorType) {
      Resource &r = newResource(ResourceKind::TensorParam, p.range);
      r.name = p.name;
      r.rank = type.rank;
      v.kind = ValueKind::Resource;
      v.resource = r.id;
      kp.resource = r.id;
    } else if (type.kind == ValueKind::ScalarType) {
      Resource &r = newResource(ResourceKind::ScalarParam, p.range);
      r.name = p.name;
      r.dtype = type.dtype;
      kp.resource = r.id;
      // A scalar parameter is a runtime number in expressions.
      bool isFloat = type.dtype == DType::F32 || type.dtype == DType::F16 || type.dtype == DType::BF16;
      v.kind = isFloat ? ValueKind::Float : ValueKind::Int;
      v.resource = r.id;
      if (!isFloat) v.ix = kernel_->ints.leaf(IntOp::Param, r.id);
    } else {
      if (!type.isError() || !p.annotation) diags_.report(DiagId::SemaParamType, p.range, p.name);
      v = Value::error();
    }
    bind(p.name, v, p.range);
    kernel_->params.push_back(kp);
  }
  if (f->params.empty()) diags_.report(DiagId::SemaMissingBuilder, f->nameRange, f->name);

  scheduleOptions(schedule);
  stmts(f->body);
  finalizeKernel();
  scopes_.pop_back();
  kernel_ = nullptr;
}

void Analyzer::scheduleOptions(const Expr *decorator) {
  auto *c = dyn_cast<CallExpr>(decorator);
  if (!c) return;
  if (!c->args.empty())
    diags_.report(DiagId::SemaTooManyArguments, c->args[0]->range, "cake.schedule", 0, c->args.size());
  static const std::vector<std::string> options = {"grid", "cluster"};
  std::set<std::string> seen;
  for (const Keyword &k : c->keywords) {
    if (!seen.insert(k.name).second) {
      diags_.report(DiagId::SemaDuplicateArgument, k.nameRange, k.name, "cake.schedule");
      continue;
    }
    Value v = eval(k.value);
    if (v.isError()) continue;
    if (k.name == "grid") {
      if (v.kind != ValueKind::Tuple || v.elts.empty() || v.elts.size() > 3 ||
          std::any_of(v.elts.begin(), v.elts.end(), [](const Value &e) { return e.kind != ValueKind::Int; })) {
        diags_.report(DiagId::SemaWrongArgType, k.value->range, "grid", "cake.schedule",
                      "a tuple of one to three integers", describe(v));
        continue;
      }
      kernel_->grid = v.elts;
    } else if (k.name == "cluster") {
      if (v.kind != ValueKind::Tuple || v.elts.empty() || v.elts.size() > 3) {
        diags_.report(DiagId::SemaWrongArgType, k.value->range, "cluster", "cake.schedule",
                      "a tuple of one to three compile-time integers", describe(v));
        continue;
      }
      for (size_t i = 0; i < v.elts.size(); ++i) {
        const Value &e = v.elts[i];
        if (!e.isConstInt()) {
          diags_.report(DiagId::SemaNotConstant, k.value->range, "the cluster shape");
          break;
        }
        if (*e.constInt <= 0) {
          diags_.report(DiagId::ConstNonPositive, k.value->range, "a cluster dimension", *e.constInt);
          break;
        }
        kernel_->cluster[i] = *e.constInt;
      }
    } else {
      diags_.report(DiagId::SemaUnknownScheduleOption, k.nameRange, k.name, didYouMean(k.name, options));
    }
  }
}

// ---------------------------------------------------------------------------
// statements

void Analyzer::stmts(const std::vector<Stmt *> &list) {
  for (const Stmt *s : list) {
    if (diags_.fatalOccurred()) return;
    stmt(s);
  }
}

void Analyzer::stmt(const Stmt *s) {
  switch (s->kind) {
  case NodeKind::AssignStmt: assign(static_cast<const AssignStmt *>(s)); break;
  case NodeKind::ExprStmt: exprStmt(static_cast<const ExprStmt *>(s)); break;
  case NodeKind::WithStmt: withStmt(static_cast<const WithStmt *>(s)); break;
  case NodeKind::ForStmt: forStmt(static_cast<const ForStmt *>(s)); break;
  case NodeKind::IfStmt: ifStmt(static_cast<const IfStmt *>(s)); break;
  case NodeKind::PassStmt: break;
  case NodeKind::FunctionDef: diags_.report(DiagId::SemaNestedDef, static_cast<const FunctionDef *>(s)->nameRange); break;
  case NodeKind::ImportStmt:
  case NodeKind::FromImportStmt: diags_.report(DiagId::SemaImportInSchedule, s->range); break;
  default: break;
  }
}

void Analyzer::assign(const AssignStmt *a) {
  const NameExpr *first = a->targets.empty() ? nullptr : dyn_cast<NameExpr>(a->targets[0]);
  nameHint_ = first ? first->name : "";
  Value v = eval(a->value);
  nameHint_.clear();
  // A run-time value given a name is a Let: codegen makes it a variable.
  bool runtime = (v.kind == ValueKind::Int && !v.constInt) || (v.kind == ValueKind::Bool && !v.boolIsConst);
  if (kernel_ && first && a->targets.size() == 1 && runtime && v.resource == kNoResource) {
    IrStmt let;
    let.kind = IrStmt::Kind::Let;
    let.range = a->range;
    let.loopVar = first->name;
    let.start = v;
    (body_ ? *body_ : kernel_->lets).push_back(std::move(let));
  }
  for (const Expr *t : a->targets) bindTarget(t, v);
}

void Analyzer::bindTarget(const Expr *target, const Value &v) {
  if (auto *n = dyn_cast<NameExpr>(target)) {
    bind(n->name, v, n->range);
    return;
  }
  if (auto *t = dyn_cast<TupleExpr>(target)) {
    if (v.isError()) {
      for (const Expr *e : t->elts) bindTarget(e, v);
      return;
    }
    if (v.kind != ValueKind::Tuple || v.elts.size() != t->elts.size()) {
      std::string what = v.kind == ValueKind::Tuple ? fmt::format("{} values", v.elts.size()) : describe(v);
      diags_.report(DiagId::SemaUnpackArity, target->range, what, t->elts.size());
      for (const Expr *e : t->elts) bindTarget(e, Value::error());
      return;
    }
    for (size_t i = 0; i < t->elts.size(); ++i) bindTarget(t->elts[i], v.elts[i]);
    return;
  }
  diags_.report(DiagId::SemaAssignTarget, target->range);
}

void Analyzer::bind(const std::string &name, const Value &v, SourceRange range) {
  auto &scope = scopes_.back();
  auto it = scope.find(name);
  if (it != scope.end()) {
    diags_.build(DiagId::SemaRedefinition, range, name)
        .note(DiagId::NotePreviousDefinition, it->second.range, name)
        .emit();
    return;
  }
  scope[name] = Binding{v, range};
  // A declaration takes the name it is first bound to.
  if (v.kind == ValueKind::Resource && kernel_ && v.resource != kNoResource && res(v.resource).name.empty())
    res(v.resource).name = name;
}

void Analyzer::exprStmt(const ExprStmt *e) {
  if (auto *c = dyn_cast<CallExpr>(e->expr)) {
    // Declarations used as statements are reported by evalCall.
    evalCall(c, false, true);
    return;
  }
  Value v = eval(e->expr);
  if (!v.isError()) diags_.report(DiagId::SemaNoEffect, e->range);
}

void Analyzer::withStmt(const WithStmt *w) {
  if (!kernel_) return;
  if (w->items.size() != 1) {
    diags_.report(DiagId::SemaWithNotRole, w->items.size() > 1 ? w->items[1].context->range : w->range,
                  "several roles at once");
    return;
  }
  Value v = eval(w->items[0].context);
  if (v.isError()) return;
  if (v.kind != ValueKind::Resource || res(v.resource).kind != ResourceKind::Role) {
    diags_.report(DiagId::SemaWithNotRole, w->items[0].context->range, describe(v));
    return;
  }
  if (role_ != kNoResource) {
    diags_.build(DiagId::SemaNestedRole, w->items[0].context->range, nameOf(v.resource), nameOf(role_))
        .note(DiagId::NoteRoleEntered, roleRange_, nameOf(role_))
        .emit();
    return;
  }
  kernel_->roles.push_back(RoleBlock{v.resource, w->range, {}});
  role_ = v.resource;
  roleRange_ = w->items[0].context->range;
  body_ = &kernel_->roles.back().body;
  scopes_.emplace_back();
  stmts(w->body);
  scopes_.pop_back();
  role_ = kNoResource;
  body_ = nullptr;
}

void Analyzer::forStmt(const ForStmt *f) {
  if (role_ == kNoResource) {
    diags_.report(DiagId::SemaOutsideRole, f->range, "for");
    return;
  }
  auto *call = dyn_cast<CallExpr>(f->iter);
  Value range = call ? evalCall(call, true) : eval(f->iter);
  if (range.isError()) return;
  if (range.kind != ValueKind::Range) {
    diags_.report(DiagId::SemaForNotRange, f->iter->range);
    return;
  }
  auto *var = dyn_cast<NameExpr>(f->target);
  if (!var) {
    diags_.report(DiagId::SemaForTarget, f->target->range);
    return;
  }
  IrStmt loop;
  loop.kind = IrStmt::Kind::For;
  loop.range = f->range;
  loop.loopVar = var->name;
  loop.loopId = nextLoop_++;
  kernel_->loopVars[loop.loopId] = var->name;
  loop.start = range.elts[0];
  loop.stop = range.elts[1];
  loop.step = range.elts[2].constInt.value_or(0);
  loop.stepValue = range.elts[2];
  std::vector<IrStmt> *outer = body_;
  outer->push_back(std::move(loop));
  body_ = &outer->back().body;
  scopes_.emplace_back();
  loopTargets_.insert(var);
  Value index = Value::runtimeInt(var);
  index.ix = kernel_->ints.leaf(IntOp::LoopVar, outer->back().loopId);
  bind(var->name, index, var->range);
  stmts(f->body);
  scopes_.pop_back();
  body_ = outer;
}

void Analyzer::ifStmt(const IfStmt *i) {
  Value cond = eval(i->cond);
  if (cond.isError()) return;
  if (cond.kind != ValueKind::Bool) {
    diags_.report(DiagId::SemaWrongArgType, i->cond->range, "condition", "if", "a boolean", describe(cond));
    return;
  }
  if (role_ == kNoResource) {
    // Outside roles an `if` chooses declarations at compile time.
    if (!cond.boolIsConst) {
      diags_.report(DiagId::SemaNotConstant, i->cond->range, "a condition outside a role");
      return;
    }
    stmts(cond.constBool ? i->body : i->orelse);
    return;
  }
  IrStmt s;
  s.kind = IrStmt::Kind::If;
  s.range = i->range;
  s.cond = cond;
  std::vector<IrStmt> *outer = body_;
  outer->push_back(std::move(s));
  IrStmt &added = outer->back();
  body_ = &added.body;
  scopes_.emplace_back();
  stmts(i->body);
  scopes_.pop_back();
  body_ = &added.orelse;
  scopes_.emplace_back();
  stmts(i->orelse);
  scopes_.pop_back();
  body_ = outer;
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
  k.barrierBytes = offset - barrierStart;
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

// ---------------------------------------------------------------------------
// expressions

Value Analyzer::constError(ConstError err, SourceRange r) {
  DiagId id = err == ConstError::Overflow         ? DiagId::ConstOverflow
              : err == ConstError::DivisionByZero ? DiagId::ConstDivisionByZero
                                                  : DiagId::ConstNegativeExponent;
  diags_.report(id, r);
  return Value::error();
}

// Every integer and boolean an expression inside a kernel evaluates to is
// remembered for codegen, which lowers runtime expressions from the AST. The
// recursive kinds are dispatched here directly, so that a deep expression
// costs two stack frames per level (eval and the kind's function), not three.
Value Analyzer::eval(const Expr *e) {
  if (!e) return Value::error();
  Value v;
  switch (e->kind) {
  case NodeKind::UnaryExpr: v = evalUnary(static_cast<const UnaryExpr *>(e)); break;
  case NodeKind::BinaryExpr: v = evalBinaryChain(static_cast<const BinaryExpr *>(e)); break;
  case NodeKind::CallExpr: v = evalCall(static_cast<const CallExpr *>(e)); break;
  case NodeKind::AttributeExpr: v = evalAttribute(static_cast<const AttributeExpr *>(e)); break;
  case NodeKind::SubscriptExpr: v = evalSubscript(static_cast<const SubscriptExpr *>(e)); break;
  default: v = evalExpr(e); break;
  }
  if (kernel_ && v.kind == ValueKind::Int && v.constInt) v.ix = kernel_->ints.constant(*v.constInt);
  if (kernel_ && (v.kind == ValueKind::Int || v.kind == ValueKind::Bool || v.kind == ValueKind::BoundOp ||
                  v.kind == ValueKind::Float))
    remember(e, v);
  return v;
}

// Out of line, so that eval's stack frame (one per level of a deep
// expression) stays small.
[[gnu::noinline]] void Analyzer::remember(const Expr *e, const Value &v) { kernel_->exprValues[e] = v; }

// Names, literals, tuples and lists.
Value Analyzer::evalExpr(const Expr *e) {
  Value v;
  switch (e->kind) {
  case NodeKind::NameExpr: return evalName(static_cast<const NameExpr *>(e));
  case NodeKind::IntLit:
    v = Value::constant(static_cast<const IntLit *>(e)->value);
    v.expr = e;
    return v;
  case NodeKind::FloatLit:
    v.kind = ValueKind::Float;
    v.floatValue = static_cast<const FloatLit *>(e)->value;
    v.expr = e;
    return v;
  case NodeKind::StringLit:
    v.kind = ValueKind::String;
    v.str = static_cast<const StringLit *>(e)->value;
    v.expr = e;
    return v;
  case NodeKind::BoolLit:
    v.kind = ValueKind::Bool;
    v.boolIsConst = true;
    v.constBool = static_cast<const BoolLit *>(e)->value;
    v.expr = e;
    return v;
  case NodeKind::NoneLit: return Value::none();
  case NodeKind::TupleExpr:
  case NodeKind::ListExpr: {
    const auto &elts = e->kind == NodeKind::TupleExpr ? static_cast<const TupleExpr *>(e)->elts
                                                      : static_cast<const ListExpr *>(e)->elts;
    v.kind = e->kind == NodeKind::TupleExpr ? ValueKind::Tuple : ValueKind::List;
    v.expr = e;
    bool bad = false;
    for (const Expr *x : elts) {
      v.elts.push_back(eval(x));
      bad |= v.elts.back().isError();
    }
    return bad ? Value::error() : v;
  }
  case NodeKind::SliceExpr:
    diags_.report(DiagId::SemaNotIndexable, e->range, "a slice");
    return Value::error();
  default: return Value::error();
  }
}

const Binding *Analyzer::lookup(const std::string &name) const {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) return &f->second;
  }
  return nullptr;
}

std::vector<std::string> Analyzer::visibleNames() const {
  std::vector<std::string> names = {"LM", "cake"};
  for (const auto &scope : scopes_)
    for (const auto &[n, b] : scope) names.push_back(n);
  return names;
}

Value Analyzer::evalName(const NameExpr *n) {
  if (const Binding *b = lookup(n->name)) {
    Value v = b->value;
    // Runtime values remember where they were used, for the IR printer.
    if ((v.kind == ValueKind::Int && !v.constInt) || (v.kind == ValueKind::Bool && !v.boolIsConst)) {
      if (kernel_ && b->value.expr && !loopTargets_.count(b->value.expr)) kernel_->nameDefs[n] = b->value.expr;
      v.expr = n;
    }
    if (v.kind == ValueKind::Float && v.resource != kNoResource) v.expr = n;
    return v;
  }
  Value v;
  if (n->name == "LM") {
    v.kind = ValueKind::LMTypes;
    return v;
  }
  if (n->name == "cake") {
    v.kind = ValueKind::CakeModule;
    return v;
  }
  diags_.report(DiagId::SemaUndefinedName, n->range, n->name, didYouMean(n->name, visibleNames()));
  return Value::error();
}

Value Analyzer::evalAttribute(const AttributeExpr *a) {
  Value obj = eval(a->object);
  if (obj.isError()) return obj;
  const std::string &attr = a->attr;
  Value v;
  v.expr = a;
  auto boundOp = [&](Receiver recv) -> std::optional<Value> {
    for (const OpInfo &op : allOps()) {
      if (op.receiver == recv && op.name == attr) {
        Value b;
        b.kind = ValueKind::BoundOp;
        b.op = static_cast<uint16_t>(op.kind);
        b.receiverKind = obj.kind;
        b.resource = obj.resource;
        b.expr = a;
        return b;
      }
    }
    return std::nullopt;
  };
  auto opNames = [&](Receiver recv) {
    std::vector<std::string> names;
    for (const OpInfo &op : allOps())
      if (op.receiver == recv) names.emplace_back(op.name);
    return names;
  };
  switch (obj.kind) {
  case ValueKind::Builder: {
    if (auto d = parseDType(attr)) {
      v.kind = ValueKind::DType;
      v.dtype = *d;
      return v;
    }
    if (auto b = boundOp(Receiver::Builder)) return *b;
    std::vector<std::string> names = opNames(Receiver::Builder);
    for (const DTypeInfo &d : allDTypes()) names.emplace_back(d.name);
    diags_.report(DiagId::SemaUnknownOperation, a->attrRange, "the builder", attr, didYouMean(attr, names));
    return Value::error();
  }
  case ValueKind::LMTypes: {
    if (attr.size() == 5 && attr.rfind("tma", 0) == 0 && attr[4] == 'd' && attr[3] >= '1' && attr[3] <= '5') {
      v.kind = ValueKind::TensorType;
      v.rank = static_cast<unsigned>(attr[3] - '0');
      return v;
    }
    if (auto d = parseDType(attr)) {
      v.kind = ValueKind::ScalarType;
      v.dtype = *d;
      return v;
    }
    std::vector<std::string> names = {"tma1d", "tma2d", "tma3d", "tma4d", "tma5d"};
    for (const DTypeInfo &d : allDTypes()) names.emplace_back(d.name);
    diags_.report(DiagId::SemaUnknownParamType, a->attrRange, attr, didYouMean(attr, names));
    return Value::error();
  }
  case ValueKind::Package: {
    std::string dotted = obj.str + "." + attr;
    auto it = module_->imports.find(dotted);
    if (it != module_->imports.end()) {
      v.kind = ValueKind::ModuleRef;
      v.module = it->second;
      v.str = dotted;
      return v;
    }
    for (const auto &[name, m] : module_->imports)
      if (name.rfind(dotted + ".", 0) == 0) {
        v.kind = ValueKind::Package;
        v.str = dotted;
        return v;
      }
    diags_.report(DiagId::SemaUnknownAttribute, a->attrRange, "package '" + obj.str + "'", attr, "");
    return Value::error();
  }
  case ValueKind::ModuleRef: {
    auto it = obj.module->exports.find(attr);
    if (it != obj.module->exports.end()) {
      Value c = it->second;
      c.expr = a;
      return c;
    }
    std::vector<std::string> names;
    for (const auto &[k, _] : obj.module->exports) names.push_back(k);
    diags_.report(DiagId::SemaUnknownImport, a->attrRange, obj.str, attr, didYouMean(attr, names));
    return Value::error();
  }
  case ValueKind::CakeModule:
    if (attr == "schedule") {
      v.kind = ValueKind::Decorator;
      return v;
    }
    diags_.report(DiagId::SemaUnknownAttribute, a->attrRange, "'cake'", attr,
                  didYouMean(attr, {"schedule"}));
    return Value::error();
  case ValueKind::Resource: {
    const Resource &r = res(obj.resource);
    if (r.kind == ResourceKind::Pool) {
      if (auto b = boundOp(Receiver::Pool)) return *b;
      diags_.report(DiagId::SemaUnknownOperation, a->attrRange, "pool '" + r.name + "'", attr,
                    didYouMean(attr, opNames(Receiver::Pool)));
      return Value::error();
    }
    if (r.kind == ResourceKind::View) {
      if (attr == "T") {
        Value t = obj;
        t.transposed = !obj.transposed;
        t.expr = a;
        return t;
      }
      if (auto b = boundOp(Receiver::View)) return *b;
      std::vector<std::string> names = opNames(Receiver::View);
      names.push_back("T");
      diags_.report(DiagId::SemaUnknownOperation, a->attrRange, "view '" + r.name + "'", attr,
                    didYouMean(attr, names));
      return Value::error();
    }
    break;
  }
  case ValueKind::ViewStage:
    if (attr == "T") {
      Value t = obj;
      t.transposed = !obj.transposed;
      t.expr = a;
      return t;
    }
    break;
  default: break;
  }
  diags_.report(DiagId::SemaUnknownAttribute, a->attrRange, describe(obj), attr, "");
  return Value::error();
}

Value Analyzer::evalSubscript(const SubscriptExpr *s) {
  Value obj = eval(s->object);
  if (obj.isError()) return obj;
  if (s->indices.size() != 1) {
    diags_.report(DiagId::SemaNotIndexable, s->range, describe(obj) + " with several indices");
    return Value::error();
  }
  const Expr *index = s->indices[0];
  if (obj.kind == ValueKind::Resource && res(obj.resource).kind == ResourceKind::View) {
    const Resource &r = res(obj.resource);
    Value i = eval(index);
    if (i.isError()) return i;
    if (i.kind != ValueKind::Int) {
      diags_.report(DiagId::SemaWrongArgType, index->range, "stage", r.name, "an integer", describe(i));
      return Value::error();
    }
    if (r.stages <= 1) {
      diags_.build(DiagId::SemaNotStaged, s->range, r.name).note(DiagId::NoteDeclaredHere, r.range, r.name).emit();
      return Value::error();
    }
    Value v;
    v.kind = ValueKind::ViewStage;
    v.resource = obj.resource;
    v.stage = index;
    v.stageIx = i.ix;
    v.transposed = obj.transposed;
    v.expr = s;
    return v;
  }
  if (obj.kind == ValueKind::Tuple || obj.kind == ValueKind::List) {
    Value i = eval(index);
    if (i.isError()) return i;
    if (!i.isConstInt()) {
      diags_.report(DiagId::SemaNotConstant, index->range, "a tuple index");
      return Value::error();
    }
    int64_t idx = *i.constInt;
    int64_t n = static_cast<int64_t>(obj.elts.size());
    if (idx < -n || idx >= n) {
      diags_.report(DiagId::SemaIndexOutOfRange, index->range, idx, n);
      return Value::error();
    }
    return obj.elts[static_cast<size_t>(idx < 0 ? idx + n : idx)];
  }
  diags_.report(DiagId::SemaNotIndexable, s->object->range, describe(obj));
  return Value::error();
}

Value Analyzer::evalUnary(const UnaryExpr *u) {
  Value x = eval(u->operand);
  if (x.isError()) return x;
  Value v;
  v.expr = u;
  if (u->op == UnaryOp::Not) {
    if (x.kind != ValueKind::Bool) {
      diags_.report(DiagId::SemaBadOperand, u->range, "not", describe(x));
      return Value::error();
    }
    v.kind = ValueKind::Bool;
    v.boolIsConst = x.boolIsConst;
    v.constBool = !x.constBool;
    return v;
  }
  if (x.kind == ValueKind::Int) {
    v.kind = ValueKind::Int;
    if (x.constInt) {
      if (u->op == UnaryOp::Pos) return x;
      ConstResult r = foldIntNegate(*x.constInt);
      if (!r.ok()) return constError(r.error, u->range);
      v.constInt = r.value;
    } else if (kernel_ && x.ix != kNoIntExpr) {
      v.ix = u->op == UnaryOp::Pos ? x.ix : kernel_->ints.unary(IntOp::Neg, x.ix);
    }
    return v;
  }
  if (x.kind == ValueKind::Float) {
    v.kind = ValueKind::Float;
    v.floatValue = u->op == UnaryOp::Neg ? -x.floatValue : x.floatValue;
    v.resource = x.resource;
    return v;
  }
  diags_.report(DiagId::SemaBadOperand, u->range, unaryOpSpelling(u->op), describe(x));
  return Value::error();
}

// A left-leaning chain (a + b + c + ...) is evaluated along its spine in a
// loop, so a long statement costs no stack depth; nesting (brackets, unary
// and power chains) is bounded by the parser.
Value Analyzer::evalBinaryChain(const BinaryExpr *top) {
  std::vector<const BinaryExpr *> spine;
  const Expr *x = top;
  while (auto *b = dyn_cast<BinaryExpr>(x)) {
    spine.push_back(b);
    x = b->lhs;
  }
  Value v = eval(x);
  for (auto it = spine.rbegin(); it != spine.rend(); ++it) {
    v = evalBinary(*it, std::move(v));
    if (kernel_ && *it != top &&
        (v.kind == ValueKind::Int || v.kind == ValueKind::Bool || v.kind == ValueKind::Float))
      remember(*it, v);
  }
  return v;
}

// `l` is the value of b->lhs, already evaluated.
Value Analyzer::evalBinary(const BinaryExpr *b, Value l) {
  Value r = eval(b->rhs);
  if (l.isError() || r.isError()) return Value::error();
  Value v;
  v.expr = b;
  BinaryOp op = b->op;
  std::string opText = binaryOpSpelling(op);
  if (op == BinaryOp::And || op == BinaryOp::Or) {
    if (l.kind != ValueKind::Bool || r.kind != ValueKind::Bool) {
      diags_.report(DiagId::SemaBadOperand, b->opRange, opText,
                    describe(l.kind != ValueKind::Bool ? l : r));
      return Value::error();
    }
    v.kind = ValueKind::Bool;
    v.boolIsConst = l.boolIsConst && r.boolIsConst;
    v.constBool = op == BinaryOp::And ? (l.constBool && r.constBool) : (l.constBool || r.constBool);
    return v;
  }
  bool numeric = (l.kind == ValueKind::Int || l.kind == ValueKind::Float) &&
                 (r.kind == ValueKind::Int || r.kind == ValueKind::Float);
  bool comparison = op == BinaryOp::Lt || op == BinaryOp::Gt || op == BinaryOp::Le || op == BinaryOp::Ge ||
                    op == BinaryOp::Eq || op == BinaryOp::Ne;
  if (comparison && (op == BinaryOp::Eq || op == BinaryOp::Ne) && l.kind == ValueKind::String &&
      r.kind == ValueKind::String) {
    v.kind = ValueKind::Bool;
    v.boolIsConst = true;
    v.constBool = (l.str == r.str) == (op == BinaryOp::Eq);
    return v;
  }
  if (!numeric) {
    diags_.report(DiagId::SemaBadOperand, b->opRange, opText,
                  describe(l.kind == ValueKind::Int || l.kind == ValueKind::Float ? r : l));
    return Value::error();
  }
  bool bothInt = l.kind == ValueKind::Int && r.kind == ValueKind::Int;
  if (op == BinaryOp::Div && bothInt) {
    diags_.report(DiagId::SemaTrueDivision, b->opRange);
    return Value::error();
  }
  if (comparison) {
    v.kind = ValueKind::Bool;
    if (bothInt && l.constInt && r.constInt) {
      v.boolIsConst = true;
      v.constBool = *foldIntCompare(op, *l.constInt, *r.constInt);
    }
    return v;
  }
  if (bothInt) {
    v.kind = ValueKind::Int;
    if (l.constInt && r.constInt) {
      ConstResult res = foldIntBinary(op, *l.constInt, *r.constInt);
      if (!res.ok()) return constError(res.error, b->range);
      v.constInt = res.value;
    } else if ((op == BinaryOp::FloorDiv || op == BinaryOp::Mod) && r.constInt && *r.constInt == 0) {
      return constError(ConstError::DivisionByZero, b->range);
    } else if (kernel_) {
      v.ix = intBinary(op, intId(l), intId(r));
    }
    return v;
  }
  v.kind = ValueKind::Float;
  v.resource = kNoResource;
  return v;
}

IntExprId Analyzer::intId(const Value &v) {
  if (!kernel_ || v.kind != ValueKind::Int) return kNoIntExpr;
  if (v.constInt) return kernel_->ints.constant(*v.constInt);
  return v.ix;
}

IntExprId Analyzer::intBinary(BinaryOp op, IntExprId a, IntExprId b) {
  if (a == kNoIntExpr || b == kNoIntExpr) return kNoIntExpr;
  IntOp iop = IntOp::Add;
  switch (op) {
  case BinaryOp::Add: iop = IntOp::Add; break;
  case BinaryOp::Sub: iop = IntOp::Sub; break;
  case BinaryOp::Mul: iop = IntOp::Mul; break;
  case BinaryOp::FloorDiv: iop = IntOp::FloorDiv; break;
  case BinaryOp::Mod: iop = IntOp::Mod; break;
  case BinaryOp::Pow: iop = IntOp::Pow; break;
  case BinaryOp::Div:
  case BinaryOp::Lt:
  case BinaryOp::Gt:
  case BinaryOp::Le:
  case BinaryOp::Ge:
  case BinaryOp::Eq:
  case BinaryOp::Ne:
  case BinaryOp::And:
  case BinaryOp::Or: return kNoIntExpr;  // not integer arithmetic
  }
  return kernel_->ints.binary(iop, a, b);
}

// ---------------------------------------------------------------------------
// calls

std::string Analyzer::opDisplayName(const OpInfo &op) const {
  return fmt::format("{}.{}", op.receiver == Receiver::Builder ? "lm" : receiverName(op.receiver), op.name);
}

Value Analyzer::evalCall(const CallExpr *c, bool allowRange, bool asStatement) {
  Value callee = eval(c->callee);
  if (callee.isError()) {
    // Still check the arguments for their own errors.
    for (const Expr *a : c->args) eval(a);
    for (const Keyword &k : c->keywords) eval(k.value);
    return callee;
  }
  if (callee.kind != ValueKind::BoundOp) {
    diags_.report(DiagId::SemaNotCallable, c->callee->range, describe(callee));
    return Value::error();
  }
  const OpInfo &op = opInfo(static_cast<OpKind>(callee.op));
  ResourceId receiver = callee.resource;
  std::string name = opDisplayName(op);
  if (receiver != kNoResource) name = res(receiver).name + "." + std::string(op.name);

  switch (op.scope) {
  case OpScope::Kernel:
    if (role_ != kNoResource) {
      diags_.report(DiagId::SemaDeclarationInRole, c->range, name, nameOf(role_));
      return Value::error();
    }
    if (!kernel_) return Value::error();
    break;
  case OpScope::Role:
    if (role_ == kNoResource) {
      diags_.report(DiagId::SemaOutsideRole, c->range, name);
      return Value::error();
    }
    break;
  case OpScope::Loop:
    if (!allowRange) {
      diags_.report(DiagId::SemaRangeOutsideFor, c->range);
      return Value::error();
    }
    break;
  case OpScope::Anywhere: break;
  }

  std::vector<Operand> operands;
  if (!bindArguments(c, op, operands)) return Value::error();
  if ((op.scope == OpScope::Anywhere || op.scope == OpScope::Loop) && kernel_)
    kernel_->valueOps.push_back({op.kind, c->range});

  switch (op.result) {
  case OpResult::Range: {
    Value v;
    v.kind = ValueKind::Range;
    v.expr = c;
    v.elts = {operands[0].value, operands[1].value, operands[2].value};
    if (operands[2].value.constInt && *operands[2].value.constInt <= 0) {
      diags_.report(DiagId::ConstNonPositive, operands[2].range, "the loop step", *operands[2].value.constInt);
      return Value::error();
    }
    return v;
  }
  case OpResult::RuntimeInt: {
    if (!isLeaf(op.effects.value)) {
      // A binary operation on two integers (min, max): folded when both are
      // constants.
      const Value &a = operands[0].value, &b = operands[1].value;
      IntExprId ia = intId(a), ib = intId(b);
      Value v = Value::runtimeInt(c);
      if (kernel_ && ia != kNoIntExpr && ib != kNoIntExpr) {
        v.ix = kernel_->ints.binary(op.effects.value, ia, ib);
        if (auto folded = kernel_->ints.constantValue(v.ix)) {
          v = Value::constant(*folded);
          v.expr = c;
        }
      } else if (a.constInt && b.constInt) {  // outside a kernel (a grid expression)
        IntExprTable scratch;
        IntExprId f = scratch.binary(op.effects.value, scratch.constant(*a.constInt), scratch.constant(*b.constInt));
        v = Value::constant(*scratch.constantValue(f));
        v.expr = c;
      }
      return v;
    }
    // A leaf keyed by a parameter (lm.block_id(dim)): the key is a grid dimension.
    if (!operands.empty() && operands[0].value.constInt &&
        (*operands[0].value.constInt < 0 || *operands[0].value.constInt > 2)) {
      diags_.report(DiagId::SemaBadValue, operands[0].range, op.params[0].name, name, "0, 1 or 2",
                    *operands[0].value.constInt);
      return Value::error();
    }
    Value v = Value::runtimeInt(c);
    if (kernel_) {
      const Value &key = operands.empty() ? Value::none() : operands[0].value;
      v.ix = kernel_->ints.leaf(op.effects.value, key.constInt.value_or(0));
    }
    return v;
  }
  case OpResult::Pool:
  case OpResult::View:
  case OpResult::Tmem:
  case OpResult::Regs:
  case OpResult::Role:
  case OpResult::Pipeline:
  case OpResult::Barrier: {
    Value v = declare(op, c, operands, receiver);
    if (asStatement && !v.isError()) {
      diags_.report(DiagId::SemaDiscardedDeclaration, c->range, name);
      return Value::error();
    }
    return v;
  }
  case OpResult::Fragment:
  case OpResult::None: break;
  }

  // An operation inside a role: checked stage arguments, then recorded.
  if (op.receiver == Receiver::View) {
    int8_t si = op.effects.stage;
    if (si != kNone && !checkStageArgument(op, c, receiver, operands[static_cast<size_t>(si)])) return Value::error();
  }
  IrStmt s;
  s.kind = IrStmt::Kind::Op;
  s.range = c->range;
  s.op.kind = op.kind;
  s.op.range = c->range;
  s.op.receiver = receiver;
  s.op.operands = operands;
  for (size_t i = 0; i < op.params.size(); ++i)
    if (op.params[i].kind == ParamKind::ArrivalScope && operands[i].present) {
      const std::string &per = operands[i].value.str;
      s.op.scope = per == "thread" ? ArrivalScope::Thread
                 : per == "warp"   ? ArrivalScope::Warp
                 : per == "warpgroup" ? ArrivalScope::Warpgroup
                                      : ArrivalScope::Role;
    }
  Value result = Value::none();
  if (op.result == OpResult::Fragment) {
    // Copy first: newResource may reallocate the table.
    std::vector<int64_t> srcShape = res(operands[0].value.resource).shape;
    DType srcType = res(operands[0].value.resource).dtype;
    Resource &frag = newResource(ResourceKind::Regs, c->range);
    frag.derived = true;
    frag.shape = srcShape;
    frag.dtype = srcType;
    frag.role = role_;
    // A dtype parameter (lm.cast) sets the result's element type.
    for (size_t i = 0; i < op.params.size(); ++i)
      if (op.params[i].kind == ParamKind::DTypeP && operands[i].present) frag.dtype = operands[i].value.dtype;
    if (op.effects.rowReduction && !frag.shape.empty()) frag.shape = {frag.shape[0], 1};
    frag.name = nameHint_.empty() ? fmt::format("%{}", frag.id) : nameHint_;
    result.kind = ValueKind::Resource;
    result.resource = frag.id;
    result.expr = c;
  }
  s.op.result = result;
  if (body_) body_->push_back(std::move(s));
  return result;
}

// Binds positional and keyword arguments to the table's parameters, fills
// defaults and checks each operand.
bool Analyzer::bindArguments(const CallExpr *c, const OpInfo &op, std::vector<Operand> &out) {
  std::string name = opDisplayName(op);
  out.assign(op.params.size(), Operand{});
  bool ok = true;
  if (c->args.size() > op.params.size()) {
    diags_.report(DiagId::SemaTooManyArguments, c->args[op.params.size()]->range, name, op.params.size(),
                  c->args.size());
    ok = false;
  }
  for (size_t i = 0; i < c->args.size() && i < op.params.size(); ++i) {
    out[i].present = true;
    out[i].range = c->args[i]->range;
    out[i].value = eval(c->args[i]);
  }
  for (const Keyword &k : c->keywords) {
    int idx = op.paramIndex(k.name);
    if (idx < 0) {
      std::vector<std::string> names;
      for (const ParamInfo &p : op.params) names.emplace_back(p.name);
      diags_.report(DiagId::SemaUnknownKeyword, k.nameRange, name, k.name, didYouMean(k.name, names));
      eval(k.value);
      ok = false;
      continue;
    }
    Operand &o = out[static_cast<size_t>(idx)];
    if (o.present) {
      diags_.report(DiagId::SemaDuplicateArgument, k.nameRange, k.name, name);
      ok = false;
      continue;
    }
    o.present = true;
    o.range = SourceRange::cover(k.nameRange, k.value->range);
    o.value = eval(k.value);
  }
  for (size_t i = 0; i < op.params.size(); ++i) {
    const ParamInfo &p = op.params[i];
    Operand &o = out[i];
    if (o.present) {
      if (o.value.isError()) {
        ok = false;
        continue;
      }
      ok &= checkOperand(op, p, o);
      continue;
    }
    if (p.required) {
      diags_.report(DiagId::SemaMissingArgument, c->range, p.name, name);
      ok = false;
      continue;
    }
    switch (p.defaultKind) {
    case ParamInfo::Default::Int:
      o.present = o.defaulted = true;
      o.value = Value::constant(p.defaultInt);
      break;
    case ParamInfo::Default::Bool:
      o.present = o.defaulted = true;
      o.value.kind = ValueKind::Bool;
      o.value.boolIsConst = true;
      o.value.constBool = p.defaultInt != 0;
      break;
    case ParamInfo::Default::String:
      o.present = o.defaulted = true;
      o.value.kind = ValueKind::String;
      o.value.str = std::string(p.defaultString);
      break;
    case ParamInfo::Default::Absent: break;
    }
  }
  return ok;
}

bool Analyzer::checkOperand(const OpInfo &op, const ParamInfo &p, Operand &o) {
  std::string opName = opDisplayName(op);
  const Value &v = o.value;
  auto wrong = [&]() {
    diags_.report(DiagId::SemaWrongArgType, o.range, p.name, opName, paramKindDescription(p.kind), describe(v));
    return false;
  };
  auto isRes = [&](const Value &x, ResourceKind k) {
    return x.kind == ValueKind::Resource && x.resource != kNoResource && res(x.resource).kind == k;
  };
  auto notConstant = [&]() {
    diags_.report(DiagId::SemaNotConstant, o.range, fmt::format("argument '{}' of '{}'", p.name, opName));
    return false;
  };
  switch (p.kind) {
  case ParamKind::ConstInt:
    if (v.kind != ValueKind::Int) return wrong();
    if (!v.constInt) {
      return notConstant();
    }
    return true;
  case ParamKind::ConstIntTuple:
    if (v.kind != ValueKind::Tuple || v.elts.empty()) return wrong();
    for (size_t i = 0; i < v.elts.size(); ++i) {
      const Value &e = v.elts[i];
      if (e.kind != ValueKind::Int) return wrong();
      if (!e.constInt) {
        return notConstant();
      }
      if (*e.constInt <= 0) {
        diags_.report(DiagId::ConstNonPositive, o.range, fmt::format("dimension {} of '{}'", i, p.name), *e.constInt);
        return false;
      }
    }
    return true;
  case ParamKind::WarpList: {
    if (v.kind != ValueKind::List && v.kind != ValueKind::Tuple) return wrong();
    if (v.elts.empty()) {
      diags_.report(DiagId::SemaEmptyList, o.range, fmt::format("the '{}' list", p.name));
      return false;
    }
    std::set<int64_t> seen;
    for (const Value &e : v.elts) {
      if (e.kind != ValueKind::Int) return wrong();
      if (!e.constInt) {
        return notConstant();
      }
      if (*e.constInt < 0) {
        diags_.report(DiagId::ConstNegative, o.range, "a warp index", *e.constInt);
        return false;
      }
      if (!seen.insert(*e.constInt).second) {
        diags_.report(DiagId::SemaDuplicateWarp, o.range, *e.constInt);
        return false;
      }
    }
    return true;
  }
  case ParamKind::Swizzle:
  case ParamKind::ArrivalScope: {
    static const std::vector<std::string> swz = {"none", "32B", "64B", "128B"};
    static const std::vector<std::string> scopes = {"role", "warpgroup", "warp", "thread"};
    const auto &allowed = p.kind == ParamKind::Swizzle ? swz : scopes;
    if (v.kind != ValueKind::String) return wrong();
    if (std::find(allowed.begin(), allowed.end(), v.str) == allowed.end()) {
      diags_.report(DiagId::SemaBadValue, o.range, p.name, opName, paramKindDescription(p.kind),
                    "\"" + v.str + "\"" + didYouMean(v.str, allowed));
      return false;
    }
    return true;
  }
  case ParamKind::DTypeP: return v.kind == ValueKind::DType || wrong();
  case ParamKind::RoleP: return isRes(v, ResourceKind::Role) || wrong();
  case ParamKind::RoleList:
    if (v.kind != ValueKind::List && v.kind != ValueKind::Tuple) return wrong();
    if (v.elts.empty()) {
      diags_.report(DiagId::SemaEmptyList, o.range, fmt::format("the '{}' list", p.name));
      return false;
    }
    for (const Value &e : v.elts)
      if (!isRes(e, ResourceKind::Role)) {
        diags_.report(DiagId::SemaWrongArgType, o.range, p.name, opName, paramKindDescription(p.kind),
                      "a list holding " + describe(e));
        return false;
      }
    return true;
  case ParamKind::PipelineP: return isRes(v, ResourceKind::Pipeline) || wrong();
  case ParamKind::BarrierP: return isRes(v, ResourceKind::Barrier) || wrong();
  case ParamKind::TensorP: return isRes(v, ResourceKind::TensorParam) || wrong();
  case ParamKind::TmemP: return isRes(v, ResourceKind::Tmem) || wrong();
  case ParamKind::RegsP: return isRes(v, ResourceKind::Regs) || wrong();
  case ParamKind::IntExpr: return v.kind == ValueKind::Int || wrong();
  case ParamKind::IntTuple:
    if (v.kind != ValueKind::Tuple || v.elts.empty()) return wrong();
    for (const Value &e : v.elts)
      if (e.kind != ValueKind::Int) return wrong();
    return true;
  case ParamKind::BoolExpr: return v.kind == ValueKind::Bool || wrong();
  case ParamKind::ConstBool:
    if (v.kind != ValueKind::Bool) return wrong();
    if (!v.boolIsConst) {
      return notConstant();
    }
    return true;
  case ParamKind::FloatExpr: return v.kind == ValueKind::Float || v.kind == ValueKind::Int || wrong();
  case ParamKind::OperandP:
    if (v.kind == ValueKind::ViewStage || isRes(v, ResourceKind::Regs)) return true;
    if (isRes(v, ResourceKind::View)) {
      const Resource &r = res(v.resource);
      if (r.stages > 1) {
        diags_.build(DiagId::SemaStageRequired, o.range, r.name, r.stages, r.name + "[s]")
            .note(DiagId::NoteDeclaredHere, r.range, r.name)
            .emit();
        return false;
      }
      return true;
    }
    return wrong();
  case ParamKind::AccumulatorP:
    return isRes(v, ResourceKind::Tmem) || isRes(v, ResourceKind::Regs) || wrong();
  }
  return wrong();
}

// A view operation's `stage=`: required on a staged view, refused on an
// unstaged one.
bool Analyzer::checkStageArgument(const OpInfo &op, const CallExpr *c, ResourceId view, const Operand &stage) {
  const Resource &r = res(view);
  if (r.stages > 1 && !stage.present) {
    diags_.build(DiagId::SemaStageRequired, c->range, r.name, r.stages, "stage=s")
        .note(DiagId::NoteDeclaredHere, r.range, r.name)
        .emit();
    return false;
  }
  if (r.stages <= 1 && stage.present) {
    diags_.build(DiagId::SemaNotStaged, stage.range, r.name).note(DiagId::NoteDeclaredHere, r.range, r.name).emit();
    return false;
  }
  return true;
}

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
  case OpResult::None:
  case OpResult::Range:
  case OpResult::RuntimeInt:
  case OpResult::Fragment: CAKE_CHECK(false, "declare() called for an operation that declares nothing");
  }
  // Validate before creating the record.
  switch (kind) {
  case ResourceKind::Pool:
    if (!positive(param::Smem::bytes, "the pool size")) return Value::error();
    break;
  case ResourceKind::View:
    if (!nonNegative(param::View::offset, "a view offset") || !positive(param::View::stage, "a stage count")) return Value::error();
    break;
  case ResourceKind::Tmem:
    if (!nonNegative(param::Tmem::cols, "a TMEM start column") || !positive(param::Tmem::width, "a TMEM width")) return Value::error();
    break;
  case ResourceKind::Role:
    if (!nonNegative(param::Role::regs, "a register budget")) return Value::error();
    break;
  case ResourceKind::Pipeline:
    if (!positive(param::Pipeline::stages, "a stage count")) return Value::error();
    break;
  case ResourceKind::Barrier:
    if (!positive(param::Barrier::count, "a barrier count") || !positive(param::Barrier::init_count, "an arrival count")) return Value::error();
    break;
  case ResourceKind::Regs: break;
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
    if (arg(param::Regs::role).present) r.role = arg(param::Regs::role).value.resource;
    break;
  case ResourceKind::Role:
    for (const Value &e : arg(param::Role::warps).value.elts) r.warps.push_back(*e.constInt);
    r.regBudget = intArg(param::Role::regs);
    break;
  case ResourceKind::Pipeline: r.stages = intArg(param::Pipeline::stages); break;
  case ResourceKind::Barrier:
    r.count = intArg(param::Barrier::count);
    for (const Value &e : arg(param::Barrier::prod).value.elts) r.producers.push_back(e.resource);
    for (const Value &e : arg(param::Barrier::cons).value.elts) r.consumers.push_back(e.resource);
    r.initCount = intArg(param::Barrier::init_count);
    if (arg(param::Barrier::pipeline).present) r.pipeline = arg(param::Barrier::pipeline).value.resource;
    break;
  case ResourceKind::TensorParam:
  case ResourceKind::ScalarParam: break;
  }
  Value v;
  v.kind = ValueKind::Resource;
  v.resource = r.id;
  v.expr = c;
  return v;
}

// ---------------------------------------------------------------------------

std::string Analyzer::describe(const Value &v) const {
  auto named = [&](const char *what) {
    if (v.resource == kNoResource || !kernel_) return std::string(what);
    const std::string &n = kernel_->resources[v.resource].name;
    return n.empty() ? std::string(what) : fmt::format("{} '{}'", what, n);
  };
  switch (v.kind) {
  case ValueKind::Error: return "an erroneous value";
  case ValueKind::None: return "None";
  case ValueKind::Bool: return v.boolIsConst ? (v.constBool ? "True" : "False") : "a boolean";
  case ValueKind::Int: return v.constInt ? fmt::format("the integer {}", *v.constInt) : "a runtime integer";
  case ValueKind::Float: return "a number";
  case ValueKind::String: return fmt::format("the string \"{}\"", v.str);
  case ValueKind::DType: return fmt::format("the dtype '{}'", dtypeInfo(v.dtype).name);
  case ValueKind::Tuple: return "a tuple";
  case ValueKind::List: return "a list";
  case ValueKind::Builder: return "the builder handle";
  case ValueKind::LMTypes: return "'LM'";
  case ValueKind::CakeModule: return "'cake'";
  case ValueKind::TensorType: return "a tensor type";
  case ValueKind::ScalarType: return "a scalar type";
  case ValueKind::Decorator: return "a decorator";
  case ValueKind::BoundOp: return fmt::format("the operation '{}'", opInfo(static_cast<OpKind>(v.op)).name);
  case ValueKind::ViewStage: return named("a stage of view");
  case ValueKind::Range: return "a loop range";
  case ValueKind::Package: return fmt::format("the package '{}'", v.str);
  case ValueKind::ModuleRef: return fmt::format("the module '{}'", v.str);
  case ValueKind::Resource: {
    if (v.resource == kNoResource || !kernel_) return "a resource";
    switch (kernel_->resources[v.resource].kind) {
    case ResourceKind::TensorParam: return named("the tensor");
    case ResourceKind::ScalarParam: return named("the scalar");
    case ResourceKind::Pool: return named("the pool");
    case ResourceKind::View: return named("the view");
    case ResourceKind::Tmem: return named("the TMEM region");
    case ResourceKind::Regs: return named("the register fragment");
    case ResourceKind::Role: return named("the role");
    case ResourceKind::Pipeline: return named("the pipeline");
    case ResourceKind::Barrier: return named("the barrier");
    }
  }
  }
  return "a value";
}

}  // namespace

std::unique_ptr<Module> analyze(const ast::Module &ast, Target target, const SourceManager &sm,
                                DiagnosticEngine &diags, ModuleLoader *loader, bool imported) {
  Analyzer a(target, sm, diags, loader);
  if (imported) a.setImported();
  return a.run(ast);
}

}  // namespace cake::sema
