// SemaExpressions: expressions to Values, and the integer-expression IR
// (see Analyzer.h).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "sema/Analyzer.h"
#include "sema/ConstEval.h"
#include "sema/Suggest.h"

namespace cake::sema::detail {

// ---------------------------------------------------------------------------
// expressions

Value Analyzer::constError(ConstError err, SourceRange r) {
  using NoArgs = DiagIdWithArgs<0>;
  NoArgs id = err == ConstError::Overflow         ? NoArgs(DiagId::ConstOverflow)
              : err == ConstError::DivisionByZero ? NoArgs(DiagId::ConstDivisionByZero)
                                                  : NoArgs(DiagId::ConstNegativeExponent);
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
    v.floatIsConst = true;
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
  case NodeKind::SliceExpr: diags_.report(DiagId::SemaNotIndexable, e->range, "a slice"); return Value::error();
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

// In the body of a member of a role family, a fragment or view declared
// with role=family is the member's own copy.
Value Analyzer::ownCopy(const Value &v) const {
  if (v.kind == ValueKind::Members && !isRoleFamily(v) && role_ != kNoResource && res(role_).family == v.family &&
      res(role_).member >= 0)
    return v.elts[static_cast<size_t>(res(role_).member)];
  return v;
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
    return ownCopy(v);
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
  buildSuggesting(diags_, DiagId::SemaUndefinedName, n->range, n->range, n->name, visibleNames(), n->name).emit();
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
    buildSuggesting(diags_, DiagId::SemaUnknownOperation, a->attrRange, a->attrRange, attr, names, "the builder", attr)
        .emit();
    return Value::error();
  }
  case ValueKind::LMTypes: {
    // LM.tmaNd: a tensor TMA copies read through a descriptor; LM.tensorNd:
    // one cp.async copies read through a pointer and strides.
    for (bool tma : {true, false}) {
      std::string head = tma ? "tma" : "tensor";
      if (attr.size() == head.size() + 2 && attr.rfind(head, 0) == 0 && attr.back() == 'd' &&
          attr[head.size()] >= '1' && attr[head.size()] <= '5') {
        v.kind = ValueKind::TensorType;
        v.rank = static_cast<unsigned>(attr[head.size()] - '0');
        v.tma = tma;
        return v;
      }
    }
    if (auto d = parseDType(attr)) {
      v.kind = ValueKind::ScalarType;
      v.dtype = *d;
      return v;
    }
    std::vector<std::string> names = {"tma1d",    "tma2d",    "tma3d",    "tma4d",    "tma5d",
                                      "tensor1d", "tensor2d", "tensor3d", "tensor4d", "tensor5d"};
    for (const DTypeInfo &d : allDTypes()) names.emplace_back(d.name);
    buildSuggesting(diags_, DiagId::SemaUnknownParamType, a->attrRange, a->attrRange, attr, names, attr).emit();
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
    buildSuggesting(diags_, DiagId::SemaUnknownImport, a->attrRange, a->attrRange, attr, names, obj.str, attr).emit();
    return Value::error();
  }
  case ValueKind::CakeModule:
    if (attr == "schedule" || attr == "family" || attr == "instantiate") {
      v.kind = ValueKind::Decorator;
      v.str = attr;
      return v;
    }
    buildSuggesting(diags_, DiagId::SemaUnknownAttribute, a->attrRange, a->attrRange, attr,
                    {"schedule", "family", "instantiate"}, "'cake'", attr)
        .emit();
    return Value::error();
  case ValueKind::Resource: {
    const Resource &r = res(obj.resource);
    if (r.kind == ResourceKind::Pool) {
      if (auto b = boundOp(Receiver::Pool)) return *b;
      buildSuggesting(diags_, DiagId::SemaUnknownOperation, a->attrRange, a->attrRange, attr, opNames(Receiver::Pool),
                      "pool '" + r.name + "'", attr)
          .emit();
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
      buildSuggesting(diags_, DiagId::SemaUnknownOperation, a->attrRange, a->attrRange, attr, names,
                      "view '" + r.name + "'", attr)
          .emit();
      return Value::error();
    }
    break;
  }
  case ValueKind::Members:
    if (!isRoleFamily(obj)) {
      diags_.report(DiagId::SemaMemberRequired, a->object->range, sourceText(sm_, a->object->range),
                    kernel_->roleFamilies[static_cast<size_t>(obj.family)].name);
      return Value::error();
    }
    break;
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
  if (obj.kind == ValueKind::Members) {
    // family[i], copy[i]: one member's role, fragment or view.
    const RoleFamily &fam = kernel_->roleFamilies[static_cast<size_t>(obj.family)];
    Value i = eval(index);
    if (i.isError()) return i;
    if (i.kind != ValueKind::Int) {
      diags_.report(DiagId::SemaWrongArgType, index->range, "member index", sourceText(sm_, s->object->range),
                    "an integer", describe(i));
      return Value::error();
    }
    if (!i.isConstInt()) {
      diags_.report(DiagId::SemaNotConstant, index->range, "a member index");
      return Value::error();
    }
    if (*i.constInt < 0 || *i.constInt >= static_cast<int64_t>(obj.elts.size())) {
      diags_.report(DiagId::SemaMemberIndex, index->range, *i.constInt, fam.name, obj.elts.size());
      return Value::error();
    }
    return obj.elts[static_cast<size_t>(*i.constInt)];
  }
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

namespace {
// How deep a run-time boolean's kept operands go (and, or, not), and how
// deep they may go.
constexpr int kBoolTreeDepth = 8;
int boolTreeDepth(const Value &v) {
  if (v.kind != ValueKind::Bool || v.cmp != CmpOp::None || v.elts.empty()) return 0;
  int d = 0;
  for (const Value &e : v.elts) d = std::max(d, boolTreeDepth(e));
  return d + 1;
}
}  // namespace

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
    v.cmp = negate(x.cmp);
    v.ix = x.ix;
    if (!x.boolIsConst && x.cmp == CmpOp::None && !x.elts.empty() &&
        boolTreeDepth(x) < kBoolTreeDepth) {  // not (a or b)
      v.str = "not";
      v.elts.push_back(std::move(x));
    }
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
  if (isFragment(x) && u->op != UnaryOp::Not) {
    if (u->op == UnaryOp::Pos) return x;
    Value minusOne;
    minusOne.kind = ValueKind::Float;
    minusOne.floatValue = -1.0;
    return fragmentOperator(OpKind::Mul, u, u->range, u->operand, x, u, minusOne);
  }
  if (x.kind == ValueKind::Float) {
    v.kind = ValueKind::Float;
    v.floatValue = u->op == UnaryOp::Neg ? -x.floatValue : x.floatValue;
    v.floatIsConst = x.floatIsConst;
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
    if (kernel_ && *it != top && (v.kind == ValueKind::Int || v.kind == ValueKind::Bool || v.kind == ValueKind::Float))
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
      diags_.report(DiagId::SemaBadOperand, b->opRange, opText, describe(l.kind != ValueKind::Bool ? l : r));
      return Value::error();
    }
    v.kind = ValueKind::Bool;
    v.boolIsConst = l.boolIsConst && r.boolIsConst;
    v.constBool = op == BinaryOp::And ? (l.constBool && r.constBool) : (l.constBool || r.constBool);
    // Its operands, for the analyses that evaluate it (valueOnFirstRun), up
    // to a depth of kBoolTreeDepth: a deeper combination stays opaque (its
    // value unknown to them), so a chain of names built from each other
    // keeps no copy of the whole chain in each.
    if (!v.boolIsConst && std::max(boolTreeDepth(l), boolTreeDepth(r)) < kBoolTreeDepth) {
      v.str = op == BinaryOp::And ? "and" : "or";
      v.elts.reserve(2);  // moved, not copied: a long chain of `or`s stays linear
      v.elts.push_back(std::move(l));
      v.elts.push_back(std::move(r));
    }
    return v;
  }
  // Arithmetic on register fragments is elementwise fragment math.
  if (isFragment(l) || isFragment(r)) {
    static constexpr std::pair<BinaryOp, OpKind> kFragmentOps[] = {{BinaryOp::Add, OpKind::Add},
                                                                   {BinaryOp::Sub, OpKind::Sub},
                                                                   {BinaryOp::Mul, OpKind::Mul},
                                                                   {BinaryOp::Div, OpKind::Div},
                                                                   {BinaryOp::Lt, OpKind::Less}};
    // a > b is b < a.
    if (op == BinaryOp::Gt) return fragmentOperator(OpKind::Less, b, b->opRange, b->rhs, r, b->lhs, l);
    for (const auto &[bop, kind] : kFragmentOps)
      if (bop == op) return fragmentOperator(kind, b, b->opRange, b->lhs, l, b->rhs, r);
    diags_.report(DiagId::SemaBadOperand, b->opRange, opText, describe(isFragment(l) ? l : r));
    return Value::error();
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
    } else if (bothInt && kernel_ && l.ix != kNoIntExpr && r.ix != kNoIntExpr) {
      v.ix = kernel_->ints.binary(IntOp::Sub, l.ix, r.ix);
      v.cmp = op == BinaryOp::Lt   ? CmpOp::Lt
              : op == BinaryOp::Le ? CmpOp::Le
              : op == BinaryOp::Gt ? CmpOp::Gt
              : op == BinaryOp::Ge ? CmpOp::Ge
              : op == BinaryOp::Eq ? CmpOp::Eq
                                   : CmpOp::Ne;
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
  // Constant numbers fold (what -D sets reaches the generated code as its
  // value), with Python's meaning of // and %.
  auto constNumber = [](const Value &x) -> std::optional<double> {
    if (x.kind == ValueKind::Int && x.constInt) return static_cast<double>(*x.constInt);
    if (x.kind == ValueKind::Float && x.floatIsConst) return x.floatValue;
    return std::nullopt;
  };
  std::optional<double> a = constNumber(l), c = constNumber(r);
  if (a && c) {
    bool divides = op == BinaryOp::Div || op == BinaryOp::FloorDiv || op == BinaryOp::Mod;
    if (divides && *c == 0.0) return constError(ConstError::DivisionByZero, b->range);
    double x = 0;
    switch (op) {
    case BinaryOp::Add: x = *a + *c; break;
    case BinaryOp::Sub: x = *a - *c; break;
    case BinaryOp::Mul: x = *a * *c; break;
    case BinaryOp::Div: x = *a / *c; break;
    case BinaryOp::FloorDiv:
    case BinaryOp::Mod: {
      // CPython's float divmod: the remainder from fmod, with the sign of
      // the divisor; the quotient from it, exact where a / c rounds wrongly.
      double mod = std::fmod(*a, *c), div = (*a - mod) / *c;
      if (mod != 0.0 && ((*c < 0) != (mod < 0))) {
        mod += *c;
        div -= 1.0;
      }
      if (mod == 0.0) mod = std::copysign(0.0, *c);
      double floordiv = 0.0;
      if (div != 0.0) {
        floordiv = std::floor(div);
        if (div - floordiv > 0.5) floordiv += 1.0;
      } else {
        floordiv = std::copysign(0.0, *a / *c);
      }
      x = op == BinaryOp::FloorDiv ? floordiv : mod;
      break;
    }
    case BinaryOp::Pow: x = std::pow(*a, *c); break;
    default: return v;
    }
    if (!std::isfinite(x)) {
      diags_.report(DiagId::ConstNotFinite, b->range, std::isnan(x) ? "not a number" : "infinite");
      return Value::error();
    }
    v.floatValue = x;
    v.floatIsConst = true;
  }
  return v;
}

bool Analyzer::isFragment(const Value &v) const {
  return kernel_ && v.kind == ValueKind::Resource && v.resource != kNoResource &&
         kernel_->resources[v.resource].kind == ResourceKind::Regs;
}

// `a + b` (and -, *, /, unary minus) on fragments: the table's operation,
// recorded as if called as lm.add(a, b).
Value Analyzer::fragmentOperator(OpKind kind, const Expr *at, SourceRange opRange, const Expr *lhs, Value l,
                                 const Expr *rhs, Value r) {
  const OpInfo &op = opInfo(kind);
  if (role_ == kNoResource) {
    diags_.report(DiagId::SemaOutsideRole, opRange, opDisplayName(op));
    return Value::error();
  }
  std::vector<Operand> operands(2);
  const Expr *exprs[2] = {lhs, rhs};
  Value values[2] = {std::move(l), std::move(r)};
  for (size_t i = 0; i < 2; ++i) {
    operands[i].present = true;
    operands[i].range = exprs[i]->range;
    operands[i].value = std::move(values[i]);
    if (!checkOperand(op, op.params[i], operands[i])) return Value::error();
  }
  return recordOp(op, at, at->range, kNoResource, std::move(operands));
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
  case ValueKind::Schedule: return fmt::format("the schedule '{}'", v.str);
  case ValueKind::Members: {
    if (!kernel_ || v.family < 0) return "a role family";
    const std::string &fam = kernel_->roleFamilies[static_cast<size_t>(v.family)].name;
    if (isRoleFamily(v)) return fmt::format("the role family '{}'", fam);
    return fmt::format("one copy per member of role family '{}'", fam);
  }
  case ValueKind::Resource: {
    if (v.resource == kNoResource || !kernel_) return "a resource";
    switch (kernel_->resources[v.resource].kind) {
    case ResourceKind::TensorParam: {
      const Resource &t = kernel_->resources[v.resource];
      return named("the tensor") + fmt::format(" (LM.{}{}d)", t.tma ? "tma" : "tensor", t.rank);
    }
    case ResourceKind::ScalarParam: return named("the scalar");
    case ResourceKind::Pool: return named("the pool");
    case ResourceKind::View: return named("the view");
    case ResourceKind::Tmem: return named("the TMEM region");
    case ResourceKind::Regs: {
      // An unnamed fragment (a part of an expression) has no name to give;
      // the caret points at the operand itself.
      const std::string &n = kernel_->resources[v.resource].name;
      if (!n.empty() && n[0] == '%') return "a register fragment (an unnamed part of the expression)";
      return named("the register fragment");
    }
    case ResourceKind::Role: return named("the role");
    case ResourceKind::Pipeline: return named("the pipeline");
    case ResourceKind::Barrier: return named("the barrier");
    case ResourceKind::NamedBarrier: return named("the named barrier");
    }
  }
  }
  return "a value";
}

}  // namespace cake::sema::detail
