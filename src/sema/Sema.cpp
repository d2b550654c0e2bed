// Sema: see Sema.h. Statements are handled top-down (module, kernel, role,
// loop); expressions are evaluated to Values; calls are bound to their
// OpTable entry, checked parameter by parameter, and either declare a
// resource or append an Operation to the current role's body. The analyser's
// parts live in the files Analyzer.h lists; this one holds the module level.
#include "sema/Sema.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "sema/Analyzer.h"
#include "sema/ConstEval.h"
#include "sema/Suggest.h"

namespace cake::sema::detail {

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
        k == ValueKind::Tuple || k == ValueKind::List || k == ValueKind::DType || k == ValueKind::Schedule)
      module_->exports[name] = b.value;
  }
  module_->definesUsed = definesUsed_;
  for (const auto &[name, v] : defines_)
    if (!definesUsed_.count(name) && !imported_)
      diags_.report(DiagId::SemaUnusedDefine, SourceRange(SourceLoc{m.file, 0, 0}), name);
  bool emptyFile = sm_.text(m.file).find_first_not_of(" \t\r\n\f") == std::string::npos;
  bool triedKernel = std::any_of(m.body.begin(), m.body.end(), [](const Stmt *s) { return isa<FunctionDef>(s); });
  checkFamilyNames();
  if (module_->kernels.empty() && module_->families.empty() && !emptyFile && !triedKernel && !imported_)
    diags_.report(DiagId::SemaNoSchedule, SourceRange(SourceLoc{m.file, 0, 0}));
  return std::move(module_);
}

void Analyzer::moduleStmt(const Stmt *s) {
  if (auto *f = dyn_cast<FunctionDef>(s)) {
    kernel(f);
  } else if (auto *a = dyn_cast<AssignStmt>(s)) {
    // Module-level constants: literals and arithmetic on them; -D replaces
    // a constant's value (its expression is still checked).
    const NameExpr *n = a->targets.size() == 1 ? dyn_cast<NameExpr>(a->targets[0]) : nullptr;
    auto d = n ? defines_.find(n->name) : defines_.end();
    if (d == defines_.end()) {
      assign(a);
    } else {
      eval(a->value);
      definesUsed_.insert(n->name);
      Value v = d->second;
      v.floatIsConst = v.kind == ValueKind::Float;
      // The expression stays for source locations, except a number's:
      // codegen prints a constant number's value, never its old text.
      v.expr = v.kind == ValueKind::Float ? nullptr : a->value;
      bind(n->name, v, n->range);
    }
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

// cake.instantiate("a.b", NAME=value, ...): the module analysed with those
// module-level constants replaced, as -D replaces them; at module level.
Value Analyzer::instantiate(const CallExpr *c) {
  if (kernel_) {
    diags_.report(DiagId::SemaInstantiate, c->range, "it belongs at module level, as an import does");
    return Value::error();
  }
  const auto *name = c->args.size() == 1 ? dyn_cast<StringLit>(c->args[0]) : nullptr;
  if (!name) {
    diags_.report(DiagId::SemaInstantiate, c->range,
                  "it takes the module's dotted name as one string, then its constants by keyword");
    return Value::error();
  }
  std::map<std::string, std::string> constants;
  std::map<std::string, SourceRange> where;
  for (const Keyword &k : c->keywords) {
    Value v = eval(k.value);
    if (v.isError()) return v;
    std::string text;
    if (v.isConstInt())
      text = std::to_string(*v.constInt);
    else if (v.kind == ValueKind::Bool && v.boolIsConst)
      text = v.constBool ? "True" : "False";
    else if (v.kind == ValueKind::Float && v.floatIsConst) {
      text = fmt::format("{}", v.floatValue);
      // A number stays a number in the instance: 2.0 is not the integer 2.
      if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
    }
    if (text.empty()) {
      diags_.report(DiagId::SemaInstantiate, k.value->range,
                    fmt::format("'{}' must be a compile-time integer, number or boolean, not {}", k.name, describe(v)));
      return Value::error();
    }
    constants[k.name] = text;
    where[k.name] = k.nameRange;
  }
  if (!loader_) {
    diags_.report(DiagId::SemaModuleNotFound, c->range, name->value, "(no module search path)");
    return Value::error();
  }
  const Module *m = loader_->instantiate(name->value, constants, c->range);
  if (!m) return Value::error();
  bool ok = true;
  // Only what the instance's analysis replaced: a constant the module
  // assigns by itself (not one it imports, nor part of a tuple assignment).
  for (const auto &[k, text] : constants) {
    if (m->definesUsed.count(k)) continue;
    if (auto e = m->exports.find(k); e != m->exports.end() && e->second.kind != ValueKind::Schedule) {
      diags_.report(DiagId::SemaInstantiate, where[k],
                    fmt::format("'{}' is not a constant '{}' assigns by itself (one it imports, or one of a tuple "
                                "assignment, cannot be replaced)",
                                k, name->value));
      ok = false;
      continue;
    }
    std::vector<std::string> names;
    for (const auto &[e, v] : m->exports)
      if (v.kind != ValueKind::Schedule) names.push_back(e);
    buildSuggesting(diags_, DiagId::SemaUnknownImport, where[k], where[k], k, names, name->value, k).emit();
    ok = false;
  }
  if (!ok) return Value::error();
  module_->imports[m->name] = m;
  Value v;
  v.kind = ValueKind::ModuleRef;
  v.module = m;
  v.str = m->name;
  return v;
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
      // The fix-it replaces the name only where nothing follows it (no alias).
      buildSuggesting(diags_, DiagId::SemaUnknownImport, n.range, n.alias.empty() ? n.range : SourceRange(), n.name,
                      names, f->module, n.name)
          .emit();
      continue;
    }
    bind(n.alias.empty() ? n.name : n.alias, it->second, n.range);
  }
}

void Analyzer::kernel(const FunctionDef *f) {
  // @cake.schedule or @cake.schedule(...)
  const Expr *schedule = nullptr;
  bool badDecorator = false, isFamily = false;
  for (const Expr *d : f->decorators) {
    const Expr *callee = d;
    if (auto *c = dyn_cast<CallExpr>(d)) callee = c->callee;
    auto *a = dyn_cast<AttributeExpr>(callee);
    auto *base = a ? dyn_cast<NameExpr>(a->object) : nullptr;
    if (a && base && base->name == "cake" && (a->attr == "schedule" || a->attr == "family") && !lookup("cake")) {
      schedule = d;
      isFamily = a->attr == "family";
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
  sharedReads_.clear();
  if (isFamily) {
    module_->families.push_back(std::make_unique<Family>());
    family_ = module_->families.back().get();
    family_->signature = std::move(k);
  } else {
    // A schedule is a value of the module: a family's route names it, and
    // importers see it.
    Value sv;
    sv.kind = ValueKind::Schedule;
    sv.schedule = k.get();
    sv.str = f->name;
    bind(f->name, sv, f->nameRange);
    module_->kernels.push_back(std::move(k));
  }
  scopes_.emplace_back();

  if (f->returns) diags_.report(DiagId::SemaScheduleReturns, f->returns->range);
  // Parameters: the builder handle first, then typed tensors and scalars.
  // A tensor's declared shape (`LM.tma2d[M, K]`) may name parameters that
  // come after it, so it is resolved once all are bound.
  std::vector<std::pair<ResourceId, const SubscriptExpr *>> shapes;
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
    const auto *shape = p.annotation ? dyn_cast<SubscriptExpr>(p.annotation) : nullptr;
    Value type = shape ? eval(shape->object) : p.annotation ? eval(p.annotation) : Value::error();
    Value v;
    if (shape && type.kind != ValueKind::TensorType && !type.isError()) {
      diags_.report(DiagId::SemaParamType, p.range, p.name);
      type = Value::error();
    }
    if (type.kind == ValueKind::TensorType) {
      Resource &r = newResource(ResourceKind::TensorParam, p.range);
      r.name = p.name;
      r.rank = type.rank;
      r.tma = type.tma;
      v.kind = ValueKind::Resource;
      v.resource = r.id;
      kp.resource = r.id;
      if (shape) shapes.emplace_back(r.id, shape);
    } else if (type.kind == ValueKind::ScalarType && dtypeInfo(type.dtype).scalar == ScalarKind::None) {
      diags_.report(DiagId::SemaScalarType, p.range, p.name, dtypeInfo(type.dtype).name);
      v = Value::error();
    } else if (type.kind == ValueKind::ScalarType) {
      Resource &r = newResource(ResourceKind::ScalarParam, p.range);
      r.name = p.name;
      r.dtype = type.dtype;
      kp.resource = r.id;
      // A scalar parameter is a runtime number in expressions.
      bool isFloat = dtypeInfo(type.dtype).scalar == ScalarKind::Float;
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
  for (const auto &[id, shape] : shapes) tensorShape(kernel_->resource(id), shape);

  if (family_) {
    if (auto *c = dyn_cast<CallExpr>(schedule); c && (!c->args.empty() || !c->keywords.empty()))
      diags_.report(DiagId::SemaFamilyOptions, !c->args.empty() ? c->args[0]->range : c->keywords[0].nameRange);
    stmts(f->body);
    family_ = nullptr;
  } else {
    scheduleOptions(schedule);
    stmts(f->body);
    finalizeKernel();
  }
  scopes_.pop_back();
  kernel_ = nullptr;
}

// lm.domain, lm.route and lm.fallback: the family's declarations.
void Analyzer::familyOp(const OpInfo &op, const CallExpr *c, const std::vector<Operand> &operands) {
  Family &fam = *family_;
  const std::string &famName = fam.signature->name;
  auto routeOf = [&](const Operand &sched) {
    FamilyRoute r;
    r.schedule = sched.value.schedule;
    // The name the schedule has here: `decode` after `import ... as decode`.
    // (`small.gemm_bf16` after `small = cake.instantiate(...)`: small_gemm_bf16).
    r.name = sourceText(sm_, sched.valueRange);
    std::replace(r.name.begin(), r.name.end(), '.', '_');
    r.range = c->range;
    r.scheduleRange = sched.valueRange;
    // A schedule from another module is compiled into this one under the
    // name it is bound to here.
    bool own = std::any_of(module_->kernels.begin(), module_->kernels.end(),
                           [&](const auto &k) { return k.get() == r.schedule; });
    if (!own) {
      auto it = std::find_if(module_->importedRoutes.begin(), module_->importedRoutes.end(),
                             [&](const auto &e) { return e.first == r.schedule; });
      if (it == module_->importedRoutes.end())
        module_->importedRoutes.emplace_back(r.schedule, r.name);
      else
        r.name = it->second;
    } else {
      r.name = r.schedule->name;
    }
    return r;
  };
  // The fallback comes last, once.
  if (fam.fallback && op.kind != OpKind::Domain) {
    bool route = op.kind == OpKind::Route;
    using OneArg = DiagIdWithArgs<1>;
    diags_
        .build(route ? OneArg(DiagId::SemaRouteAfterFallback) : OneArg(DiagId::SemaFamilyFallbackTwice), c->range,
               famName)
        .note(route ? OneArg(DiagId::NoteDeclaredHere) : OneArg(DiagId::NotePreviousDefinition), fam.fallback->range,
              "lm.fallback")
        .emit();
    return;
  }
  switch (op.kind) {
  case OpKind::Domain: {
    const Operand &dim = operands[0];
    const Value &d = dim.value;
    bool param = d.kind == ValueKind::Int && d.resource != kNoResource && d.ix != kNoIntExpr &&
                 kernel_->ints.node(d.ix).op == IntOp::Param;
    if (!param) {
      diags_.report(DiagId::SemaFamilyDomain, dim.valueRange, sourceText(sm_, dim.valueRange),
                    "it is not an integer parameter of the family");
      return;
    }
    FamilyDomain fd;
    fd.param = d.resource;
    fd.lo = *operands[1].value.constInt;
    fd.hi = *operands[2].value.constInt;
    fd.multiple = *operands[3].value.constInt;
    fd.range = c->range;
    std::string name = res(fd.param).name, why;
    if (fd.lo < 1)
      why = fmt::format("its lower bound {} is not positive (a shape dimension is at least 1)", fd.lo);
    else if (fd.hi > INT32_MAX)
      why = fmt::format("its upper bound {} does not fit the 32-bit parameter", fd.hi);
    else if (fd.multiple < 1)
      why = fmt::format("'multiple' is {}; it must be positive", fd.multiple);
    // lo <= hi <= INT32_MAX and multiple <= hi keep the rounding below from
    // overflowing (the multiple and the bounds may be any int64).
    else if (fd.lo > fd.hi || fd.multiple > fd.hi || (fd.lo + fd.multiple - 1) / fd.multiple * fd.multiple > fd.hi)
      why = fmt::format("no multiple of {} lies in {} .. {}", fd.multiple, fd.lo, fd.hi);
    for (const FamilyDomain &other : fam.domain)
      if (other.param == fd.param) {
        diags_.build(DiagId::SemaFamilyDomain, c->range, name, "it is declared twice")
            .note(DiagId::NotePreviousDefinition, other.range, name)
            .emit();
        return;
      }
    if (!why.empty()) {
      diags_.report(DiagId::SemaFamilyDomain, c->range, name, why);
      return;
    }
    fam.domain.push_back(fd);
    return;
  }
  case OpKind::Route: {
    FamilyRoute r = routeOf(operands[0]);
    r.guard = operands[1].value.expr;  // `when`, required: bound to its argument
    r.guardRange = operands[1].valueRange;
    fam.routes.push_back(std::move(r));
    return;
  }
  case OpKind::Fallback: {
    fam.fallback = routeOf(operands[0]);
    return;
  }
  default: CAKE_CHECK(false, "a family operation without a meaning in families");
  }
}

// Names of the generated code: each compiled schedule's symbol and each
// family's dispatcher must differ.
void Analyzer::checkFamilyNames() {
  std::map<std::string, std::pair<std::string, SourceRange>> seen;  // symbol -> what, where
  auto claim = [&](const std::string &symbol, const std::string &what, SourceRange at) {
    auto [it, fresh] = seen.try_emplace(symbol, what, at);
    if (!fresh)
      diags_.build(DiagId::SemaFamilyNameConflict, at, symbol, it->second.first, what)
          .note(DiagId::NoteDeclaredHere, it->second.second, symbol)
          .emit();
  };
  // Two local schedules of one name are sema.redefinition already.
  for (const auto &k : module_->kernels)
    seen.try_emplace(k->name, fmt::format("the schedule '{}'", k->name), k->nameRange);
  for (const auto &[k, name] : module_->importedRoutes) {
    SourceRange at;
    for (const auto &fam : module_->families) {
      for (const FamilyRoute &r : fam->routes)
        if (r.schedule == k && !at.valid()) at = r.scheduleRange;
      if (fam->fallback && fam->fallback->schedule == k && !at.valid()) at = fam->fallback->scheduleRange;
    }
    claim(name, fmt::format("the imported schedule '{}'", k->name), at);
  }
  for (const auto &fam : module_->families) {
    claim(fam->signature->name, fmt::format("the family '{}'", fam->signature->name), fam->signature->nameRange);
  }
}

// `A: LM.tma2d[M, K]`: each dimension an integer scalar parameter or a
// positive constant, as many as the tensor's rank.
void Analyzer::tensorShape(Resource &tensor, const SubscriptExpr *shape) {
  if (shape->indices.size() != tensor.rank) {
    diags_.report(DiagId::SemaTensorShapeRank, shape->range, tensor.name, tensor.rank, shape->indices.size());
    return;
  }
  std::vector<Resource::Dim> dims;
  for (size_t i = 0; i < shape->indices.size(); ++i) {
    const Expr *e = shape->indices[i];
    Value d = eval(e);
    if (d.isError()) return;
    Resource::Dim dim;
    if (d.kind == ValueKind::Int && d.constInt && *d.constInt > 0) {
      dim.constant = *d.constInt;
    } else if (d.kind == ValueKind::Int && d.resource != kNoResource && d.ix != kNoIntExpr &&
               kernel_->ints.node(d.ix).op == IntOp::Param) {
      dim.scalar = d.resource;
    } else {
      diags_.report(DiagId::SemaTensorShapeDim, e->range, i, tensor.name, describe(d));
      return;
    }
    dims.push_back(dim);
  }
  tensor.dims = std::move(dims);
}

void Analyzer::scheduleOptions(const Expr *decorator) {
  auto *c = dyn_cast<CallExpr>(decorator);
  if (!c) return;
  if (!c->args.empty())
    diags_.report(DiagId::SemaTooManyArguments, c->args[0]->range, "cake.schedule", 0, c->args.size());
  static const std::vector<std::string> options = {"grid", "cluster", "blocks_per_sm"};
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
      kernel_->gridRange = k.value->range;
    } else if (k.name == "cluster") {
      kernel_->clusterRange = k.value->range;
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
    } else if (k.name == "blocks_per_sm") {
      kernel_->blocksPerSmRange = k.value->range;
      if (!v.isConstInt()) {
        diags_.report(DiagId::SemaNotConstant, k.value->range, "blocks_per_sm");
        continue;
      }
      if (*v.constInt <= 0) {
        diags_.report(DiagId::ConstNonPositive, k.value->range, "blocks_per_sm", *v.constInt);
        continue;
      }
      kernel_->blocksPerSm = *v.constInt;
    } else {
      buildSuggesting(diags_, DiagId::SemaUnknownScheduleOption, k.nameRange, k.nameRange, k.name, options, k.name)
          .emit();
    }
  }
}

}  // namespace cake::sema::detail

namespace cake::sema {

std::unique_ptr<Module> analyze(const ast::Module &ast, Target target, const SourceManager &sm, DiagnosticEngine &diags,
                                ModuleLoader *loader, bool imported,
                                const std::map<std::string, std::string> *defines) {
  detail::Analyzer a(target, sm, diags, loader);
  if (imported) a.setImported();
  if (defines) a.setDefines(*defines);
  return a.run(ast);
}

std::optional<Value> parseDefineValue(const std::string &text) {
  if (text == "True" || text == "False") {
    Value v;
    v.kind = ValueKind::Bool;
    v.boolIsConst = true;
    v.constBool = text == "True";
    return v;
  }
  if (text.empty()) return std::nullopt;
  size_t used = 0;
  try {
    // Integers as the language writes them: decimal, 0x hexadecimal, 0b
    // binary (with an optional sign); numbers in decimal only.
    std::string digits = text;
    bool negative = !digits.empty() && (digits[0] == '-' || digits[0] == '+');
    std::string sign = negative ? digits.substr(0, 1) : "";
    if (negative) digits = digits.substr(1);
    int base = 10;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) base = 16;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B')) base = 2;
    if (base != 10) {
      long long i = std::stoll(sign + digits.substr(2), &used, base);
      if (used == sign.size() + digits.size() - 2) return Value::constant(i);
      return std::nullopt;
    }
    long long i = std::stoll(text, &used, 10);
    if (used == text.size()) return Value::constant(i);
    if (text.find_first_not_of("0123456789.eE+-") != std::string::npos) return std::nullopt;
    double d = std::stod(text, &used);
    if (used == text.size()) {
      Value v;
      v.kind = ValueKind::Float;
      v.floatValue = d;
      return v;
    }
  } catch (const std::exception &) {
  }
  return std::nullopt;
}

}  // namespace cake::sema
