// SemaStatements: statements of a kernel and its roles (see Analyzer.h).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "lexer_parser/AstClone.h"
#include "sema/Analyzer.h"
#include "sema/ConstEval.h"
#include "sema/Suggest.h"

namespace cake::sema::detail {

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
  case NodeKind::FunctionDef:
    diags_.report(DiagId::SemaNestedDef, static_cast<const FunctionDef *>(s)->nameRange);
    break;
  case NodeKind::ImportStmt:
  case NodeKind::FromImportStmt: diags_.report(DiagId::SemaImportInSchedule, s->range); break;
  default: break;
  }
}

void Analyzer::assign(const AssignStmt *a) {
  const NameExpr *first = a->targets.empty() ? nullptr : dyn_cast<NameExpr>(a->targets[0]);
  // A name already bound to a register fragment, assigned inside a role:
  // the fragment is updated (loop-carried state), not a new one declared.
  if (first && a->targets.size() == 1 && role_ != kNoResource) {
    const Binding *b = lookup(first->name);
    if (b && isFragment(ownCopy(b->value))) {
      ResourceId dest = ownCopy(b->value).resource;
      Value v = eval(a->value);
      if (!v.isError()) assignFragment(a, dest, v);
      return;
    }
    // Fragments of a role family's members, assigned outside the family's
    // body: which member's?
    if (b && b->value.kind == ValueKind::Members && !isRoleFamily(b->value)) {
      eval(a->value);
      diags_.report(DiagId::SemaMemberRequired, first->range, first->name,
                    kernel_->roleFamilies[static_cast<size_t>(b->value.family)].name);
      return;
    }
  }
  nameHint_ = first ? first->name : "";
  hintExpr_ = a->value;
  Value v = eval(a->value);
  nameHint_.clear();
  hintExpr_ = nullptr;
  // A run-time value given a name is a Let: codegen makes it a variable.
  bool runtime = (v.kind == ValueKind::Int && !v.constInt) || (v.kind == ValueKind::Bool && !v.boolIsConst);
  if (kernel_ && first && a->targets.size() == 1 && runtime && v.resource == kNoResource) {
    IrStmt let;
    let.kind = IrStmt::Kind::Let;
    let.range = a->range;
    let.loopVar = first->name;
    let.start = v;
    (body_ ? *body_ : kernel_->lets).push_back(std::move(let));
    // Its uses are the name, which stands for the value's node.
    if (v.kind == ValueKind::Int && v.ix != kNoIntExpr) {
      v.ix = kernel_->ints.let(static_cast<int64_t>(kernel_->letVars.size()), v.ix);
      kernel_->letVars.push_back(first->name);
    }
  }
  for (const Expr *t : a->targets) bindTarget(t, v);
}

// `x = value` where x is a register fragment: the operation that computed
// the value writes x instead of a fresh fragment; a value that is another
// fragment is copied (lm.copy). Shape and element type stay x's.
void Analyzer::assignFragment(const AssignStmt *a, ResourceId dest, const Value &v) {
  const Resource &d = res(dest);
  auto describeFragment = [&](const Resource &r) {
    std::string dims;
    for (size_t i = 0; i < r.shape.size(); ++i) dims += (i ? ", " : "") + std::to_string(r.shape[i]);
    return fmt::format("({}{}) {}", dims, r.shape.size() == 1 ? "," : "", dtypeInfo(r.dtype).name);
  };
  if (!isFragment(v)) {
    diags_.report(DiagId::SemaFragmentAssign, a->value->range, d.name, describe(v), describeFragment(d));
    return;
  }
  if (v.resource == dest) return;  // x = x
  const Resource &src = res(v.resource);
  if (src.shape != d.shape || src.dtype != d.dtype) {
    diags_.report(DiagId::SemaFragmentAssign, a->value->range, d.name,
                  src.name.rfind('%', 0) == 0 ? fmt::format("a {} fragment", describeFragment(src))
                                              : fmt::format("the fragment '{}' {}", src.name, describeFragment(src)),
                  describeFragment(d));
    return;
  }
  // Elements sit in different threads in another layout: no copy moves them.
  if (src.layout != d.layout || src.warpsPerRow != d.warpsPerRow) {
    auto layoutName = [](const Resource &r) {
      return r.layout == FragmentLayout::Accumulator ? std::string("accumulator")
             : r.warpsPerRow == 1                    ? std::string("rows")
                                                     : fmt::format("rows (warps_per_row={})", r.warpsPerRow);
    };
    diags_.report(DiagId::SemaFragmentLayouts, a->range, "=", d.name, layoutName(d), src.name, layoutName(src));
    return;
  }
  // The value was just computed by the last operation recorded: it writes x.
  if (body_ && !body_->empty()) {
    IrStmt &last = body_->back();
    if (last.kind == IrStmt::Kind::Op && last.op.result.kind == ValueKind::Resource &&
        last.op.result.resource == v.resource && src.derived) {
      last.op.result.resource = dest;
      return;
    }
  }
  std::vector<Operand> operands(1);
  operands[0].present = true;
  operands[0].range = a->value->range;
  operands[0].value = v;
  Value copied = recordOp(opInfo(OpKind::Copy), a->value, a->range, kNoResource, std::move(operands));
  if (copied.isError() || !body_ || body_->empty()) return;
  body_->back().op.result.resource = dest;
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
  // A declaration takes the name it is first bound to, and so does an
  // unnamed fragment (one of a pair: `v, i = lm.rowargmin(s)`).
  if (v.kind == ValueKind::Resource && kernel_ && v.resource != kNoResource &&
      (res(v.resource).name.empty() || (res(v.resource).derived && res(v.resource).name.rfind('%', 0) == 0)))
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
  // Nothing to bind for a role: it is its own name (a family binds its
  // member index).
  if (!w->items[0].alias.empty() && !isRoleFamily(v))
    diags_.report(DiagId::SemaWithAlias, w->items[0].aliasRange, w->items[0].alias);
  if (v.isError()) return;
  if (isRoleFamily(v)) {
    familyBody(w, v);
    return;
  }
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

// `with family as i:` is the block of every member of the family: its body
// is analysed once per member, on a copy of its nodes, with `i` the
// member's index (a constant). A diagnostic the copies report alike is
// reported once, with a note naming the members it holds for.
void Analyzer::familyBody(const WithStmt *w, const Value &family) {
  const WithItem &item = w->items[0];
  const RoleFamily &fam = kernel_->roleFamilies[static_cast<size_t>(family.family)];
  if (role_ != kNoResource) {
    diags_.build(DiagId::SemaNestedRole, item.context->range, fam.name, nameOf(role_))
        .note(DiagId::NoteRoleEntered, roleRange_, nameOf(role_))
        .emit();
    return;
  }
  struct Reported {
    Diagnostic diag;
    std::string key;              // what makes two copies' diagnostics the same
    std::vector<size_t> members;  // the members that reported it
  };
  std::vector<Reported> reported;
  auto keyOf = [](const Diagnostic &d) {
    auto one = [](const Diagnostic &x) {
      const SourceRange &r = x.range;
      return fmt::format("{}|{}:{}:{}-{}:{}|{}", static_cast<int>(x.kind), r.begin.file, r.begin.line, r.begin.col,
                         r.end.line, r.end.col, x.message);
    };
    std::string k = one(d);
    for (const Diagnostic &n : d.notes) k += "\n" + one(n);
    for (const FixIt &f : d.fixits)
      k += fmt::format("\nfix {}:{}-{}:{} {}", f.range.begin.line, f.range.begin.col, f.range.end.line, f.range.end.col,
                       f.text);
    return k;
  };
  for (size_t m = 0; m < family.elts.size() && !diags_.fatalOccurred(); ++m) {
    std::vector<Diagnostic> captured;
    diags_.setCapture(&captured);
    ResourceId member = family.elts[m].resource;
    kernel_->roles.push_back(RoleBlock{member, w->range, {}});
    role_ = member;
    roleRange_ = item.context->range;
    body_ = &kernel_->roles.back().body;
    scopes_.emplace_back();
    if (!item.alias.empty()) bind(item.alias, Value::constant(static_cast<int64_t>(m)), item.aliasRange);
    stmts(ast::cloneStmts(*kernel_->memberBodies, w->body));
    scopes_.pop_back();
    role_ = kNoResource;
    body_ = nullptr;
    diags_.setCapture(nullptr);
    for (Diagnostic &d : captured) {
      std::string key = keyOf(d);
      auto same = std::find_if(reported.begin(), reported.end(), [&](const Reported &r) { return r.key == key; });
      if (same != reported.end())
        same->members.push_back(m);
      else
        reported.push_back(Reported{std::move(d), std::move(key), {m}});
    }
  }
  for (Reported &r : reported) {
    std::string which;
    if (r.members.size() == family.elts.size() && r.members.size() > 1) {
      which = "every member";
    } else if (r.members.size() == 1) {
      which = fmt::format("member {}", r.members[0]);
    } else {
      which = "members ";
      for (size_t i = 0; i < r.members.size(); ++i)
        which += (i == 0 ? "" : i + 1 == r.members.size() ? " and " : ", ") + std::to_string(r.members[i]);
    }
    r.diag.notes.push_back(diags_.makeDiagnostic(DiagId::NoteInRoleFamily, item.context->range, which, fam.name));
    diags_.emitCaptured(std::move(r.diag));
  }
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
  if (cond.boolIsConst) {
    // A compile-time condition (a module constant such as CAUSAL) picks its
    // branch here: the gates and the lowering see only what runs. Like an
    // `if` outside roles it opens no scope: what the branch taken binds is
    // visible after it.
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

}  // namespace cake::sema::detail
