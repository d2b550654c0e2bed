// SemaCalls: calls bound to the vocabulary table and checked (see Analyzer.h).
#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "sema/Analyzer.h"
#include "sema/ConstEval.h"
#include "sema/Suggest.h"

namespace cake::sema::detail {

namespace {
std::string shapeText(const std::vector<int64_t> &shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + (shape.size() == 1 ? ",)" : ")");
}
}  // namespace

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
  if (callee.kind == ValueKind::Decorator && callee.str == "instantiate") return instantiate(c);
  if (callee.kind != ValueKind::BoundOp) {
    diags_.report(DiagId::SemaNotCallable, c->callee->range, describe(callee));
    return Value::error();
  }
  const OpInfo &op = opInfo(static_cast<OpKind>(callee.op));
  ResourceId receiver = callee.resource;
  std::string name = opDisplayName(op);
  if (receiver != kNoResource) name = res(receiver).name + "." + std::string(op.name);

  if (family_ && (op.scope == OpScope::Kernel || op.scope == OpScope::Role)) {
    diags_.report(DiagId::SemaNotInFamily, c->range, name);
    return Value::error();
  }
  switch (op.scope) {
  case OpScope::Family:
    if (!family_) {
      diags_.report(DiagId::SemaFamilyOpOutside, c->range, name);
      return Value::error();
    }
    break;
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
  if (op.scope == OpScope::Family) {
    familyOp(op, c, operands);
    return Value::none();
  }
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
  case OpResult::Workspace: {
    Value v = declareWorkspace(c, operands);
    if (asStatement && !v.isError()) {
      diags_.report(DiagId::SemaDiscardedDeclaration, c->range, name);
      return Value::error();
    }
    return v;
  }
  case OpResult::RoleInt: {
    // A value computed by the operation where it runs: a leaf numbered in
    // order, the same in every thread of the role.
    Value v = recordOp(op, c, c->range, receiver, std::move(operands));
    if (v.isError() || !kernel_ || !body_ || body_->empty()) return v;
    Value r = Value::runtimeInt(c);
    // A read of memory the kernel does not write (the data gate rejects a
    // kernel that writes it: data.value-read-written) at coordinates and
    // with a range the same in every role of the block yields one value,
    // whichever role reads it: one leaf for all the roles that read it (so
    // the gates see, for instance, that two roles loop the same number of
    // times). A role's second read of it is a leaf of its own (its own
    // variable in the lowering).
    std::optional<int64_t> shared;
    std::optional<std::pair<ResourceId, std::vector<AffineForm>>> key;
    const Operation &recorded = body_->back().op;
    if (op.effects.valueRange != kNone && op.effects.global != kNone) {
      const Value &t = recorded.operandAt(static_cast<size_t>(op.effects.global)).value;
      std::vector<const Value *> parts;
      for (const Operand &o : recorded.operands)
        if (o.value.kind == ValueKind::Tuple)
          for (const Value &e : o.value.elts) parts.push_back(&e);
        else if (o.value.kind == ValueKind::Int)
          parts.push_back(&o.value);
      if (t.resource != kNoResource)
        if (auto forms = blockUniformForms(parts)) key = std::pair(t.resource, std::move(*forms));
    }
    if (key) {
      auto it = sharedReads_.find(*key);
      if (it != sharedReads_.end() && it->second.roles.insert(role_).second) shared = it->second.leaf;
    }
    int64_t leaf = shared ? *shared : kernel_->roleValues++;
    if (key && !shared && !sharedReads_.count(*key)) {
      sharedReads_[*key] = SharedRead{leaf, {role_}};
      kernel_->sharedValues.insert(leaf);
    }
    r.ix = kernel_->ints.leaf(IntOp::RoleValue, leaf);
    // One thread computes it and hands it to the others through the role's
    // shared-memory slot (placed by finalizeKernel) where the role meets for
    // it (an atomic); where every thread computes it, none.
    if (op.effects.syncsRole) kernel_->broadcastAt.emplace(role_, 0);
    body_->back().op.result = r;
    return r;
  }
  case OpResult::Pool:
  case OpResult::View:
  case OpResult::Tmem:
  case OpResult::Regs:
  case OpResult::Role:
  case OpResult::RoleFamily:
  case OpResult::Pipeline:
  case OpResult::Barrier:
  case OpResult::NamedBarrier: {
    Value v = declare(op, c, operands, receiver);
    if (asStatement && !v.isError()) {
      diags_.report(DiagId::SemaDiscardedDeclaration, c->range, name);
      return Value::error();
    }
    return v;
  }
  case OpResult::Fragment:
  case OpResult::FragmentPair:
  case OpResult::None: break;
  }

  // A fragment whose value nobody takes computes nothing.
  if ((op.result == OpResult::Fragment || op.result == OpResult::FragmentPair) && asStatement) {
    diags_.report(DiagId::SemaNoEffect, c->range);
    return Value::error();
  }
  // An operation inside a role: checked stage arguments, then recorded.
  if (op.receiver == Receiver::View) {
    int8_t si = op.effects.stage;
    if (si != kNone && !checkStageArgument(op, c, receiver, operands[static_cast<size_t>(si)])) return Value::error();
  }
  return recordOp(op, c, c->range, receiver, std::move(operands));
}

// Records an operation of a role body (a call, or an operator on fragments)
// and, for fragment math, declares its result.
Value Analyzer::recordOp(const OpInfo &op, const Expr *at, SourceRange range, ResourceId receiver,
                         std::vector<Operand> operands) {
  std::string name = opDisplayName(op);
  // A wait for async groups: its count of groups left in flight is 0 to 7
  // (the safety gate follows a read across that many groups).
  if (int8_t pi = op.effects.pendingGroups; pi != kNone) {
    const Operand &pending = operands[static_cast<size_t>(pi)];
    if (pending.value.constInt && (*pending.value.constInt < 0 || *pending.value.constInt > 7)) {
      diags_.report(DiagId::SemaBadValue, pending.range, op.params[pi].name, name, "0 to 7", *pending.value.constInt);
      return Value::error();
    }
  }
  Value result = Value::none();
  if (op.result == OpResult::Fragment || op.result == OpResult::FragmentPair) {
    std::optional<ResourceId> frag = fragmentResult(op, at, range, operands, receiver);
    if (!frag) return Value::error();
    result.kind = ValueKind::Resource;
    result.resource = *frag;
    result.expr = at;
  }
  if (op.result == OpResult::FragmentPair) {
    // A value and its index (lm.rowargmin): the second an i32 fragment of
    // the first's shape.
    std::vector<int64_t> shape = res(result.resource).shape;
    Resource &index = newResource(ResourceKind::Regs, range);
    index.derived = true;
    index.shape = shape;
    index.dtype = DType::I32;
    index.role = role_;
    index.layout = res(result.resource).layout;
    index.warpsPerRow = res(result.resource).warpsPerRow;
    index.name = fmt::format("%{}", index.id);
    Value second = result;
    second.resource = index.id;
    Value pair;
    pair.kind = ValueKind::Tuple;
    pair.expr = at;
    pair.elts = {result, second};
    result = pair;
  }
  // A row bound (first_rows=R): 1 to the rows of the fragment it moves.
  if (int8_t pi = op.effects.rowBound; pi != kNone && operands[static_cast<size_t>(pi)].present) {
    const Operand &bound = operands[static_cast<size_t>(pi)];
    ResourceId tile = result.kind == ValueKind::Resource ? result.resource : kNoResource;
    for (size_t i = 0; i < op.params.size() && tile == kNoResource; ++i)
      if (op.params[i].kind == ParamKind::RegsP && operands[i].present && operands[i].value.kind == ValueKind::Resource)
        tile = operands[i].value.resource;
    int64_t rows = tile != kNoResource && !res(tile).shape.empty() ? res(tile).shape[0] : 0;
    if (bound.value.constInt && (*bound.value.constInt < 1 || *bound.value.constInt > rows)) {
      diags_.report(DiagId::SemaBadValue, bound.range, op.params[pi].name, name,
                    fmt::format("1 to the fragment's {} rows", rows), *bound.value.constInt);
      return Value::error();
    }
  }
  IrStmt s;
  s.kind = IrStmt::Kind::Op;
  s.range = range;
  s.op.kind = op.kind;
  s.op.range = range;
  s.op.receiver = receiver;
  s.op.operands = std::move(operands);
  for (size_t i = 0; i < op.params.size(); ++i)
    if (op.params[i].kind == ParamKind::ArrivalScope && s.op.operands[i].present) {
      const std::string &per = s.op.operands[i].value.str;
      s.op.scope = per == "thread"      ? ArrivalScope::Thread
                   : per == "warp"      ? ArrivalScope::Warp
                   : per == "warpgroup" ? ArrivalScope::Warpgroup
                                        : ArrivalScope::Role;
    }
  s.op.result = result;
  if (body_) body_->push_back(std::move(s));
  return result;
}

// The fragment a fragment operation yields: the shape its operands
// broadcast to (a row vector M x 1 across columns, a column vector 1 x N
// across rows), M x 1 for a row reduction; the element type of its
// fragment operands, or the one a dtype parameter names (lm.cast).
std::optional<ResourceId> Analyzer::fragmentResult(const OpInfo &op, const Expr *at, SourceRange range,
                                                   const std::vector<Operand> &operands, ResourceId receiver) {
  std::string name = opDisplayName(op);
  std::vector<int64_t> shape;
  std::optional<DType> dtype;
  FragmentLayout layout = FragmentLayout::Accumulator;
  int64_t warpsPerRow = 1;
  const Operand *laidOut = nullptr;  // the first fragment operand: the layout
  const Operand *first = nullptr;    // the first fragment operand: the element type
  const Operand *shaper = nullptr;   // the first operand of the broadcast (a mask counts)
  for (size_t i = 0; i < op.params.size(); ++i) {
    const Operand &o = operands[i];
    ParamKind kind = op.params[i].kind;
    bool mask = kind == ParamKind::MaskP;
    if (!(mask || kind == ParamKind::RegsP || kind == ParamKind::FragmentOrNumber) || !o.present ||
        o.value.kind != ValueKind::Resource)
      continue;
    const Resource &r = res(o.value.resource);
    auto layoutName = [](FragmentLayout l, int64_t p) {
      return l == FragmentLayout::Accumulator ? std::string("accumulator")
             : p == 1                         ? std::string("rows")
                                              : fmt::format("rows (warps_per_row={})", p);
    };
    if (!laidOut) {
      laidOut = &o;
      layout = r.layout;
      warpsPerRow = r.warpsPerRow;
    } else if (r.layout != layout || r.warpsPerRow != warpsPerRow) {
      diags_.report(DiagId::SemaFragmentLayouts, SourceRange::cover(laidOut->range, o.range), name,
                    res(laidOut->value.resource).name, layoutName(layout, warpsPerRow), r.name,
                    layoutName(r.layout, r.warpsPerRow));
      return std::nullopt;
    }
    if (!mask && !first) {
      first = &o;
      dtype = r.dtype;
    } else if (!mask && r.dtype != *dtype) {
      const Resource &f = res(first->value.resource);
      diags_.report(DiagId::SemaFragmentTypes, SourceRange::cover(first->range, o.range), name, f.name,
                    dtypeInfo(*dtype).name, r.name, dtypeInfo(r.dtype).name);
      return std::nullopt;
    }
    if (!shaper) {
      shaper = &o;
      shape = r.shape;
      continue;
    }
    bool fits = r.shape.size() == shape.size();
    for (size_t d = 0; fits && d < shape.size(); ++d) {
      if (r.shape[d] == shape[d] || r.shape[d] == 1) continue;
      if (shape[d] == 1)
        shape[d] = r.shape[d];
      else
        fits = false;
    }
    if (!fits) {
      const Resource &f = res(shaper->value.resource);
      diags_.report(DiagId::SemaFragmentShapes, SourceRange::cover(shaper->range, o.range), name, f.name,
                    shapeText(shape), r.name, shapeText(r.shape));
      return std::nullopt;
    }
  }
  if (!first && receiver != kNoResource) {
    // A load from a view: its shape and element type.
    first = &operands.front();
    shape = res(receiver).shape;
    dtype = res(receiver).dtype;
    // rows=True: a 1 x M view (per-row values laid out as a row of memory)
    // becomes an M x 1 row vector.
    if (op.kind == OpKind::Load) {
      const Operand &rows = operands[static_cast<size_t>(param::Load::rows)];
      if (rows.present && rows.value.constBool) {
        if (shape.size() != 2 || shape[0] != 1 || shape[1] < 2) {
          diags_.report(DiagId::SemaBadValue, rows.range, "rows", name, "True only for a 1 x M view",
                        fmt::format("a view of {}", shapeText(shape)));
          return std::nullopt;
        }
        shape = {shape[1], 1};
      }
      // shape=(1, 1): the view's first element, every thread's.
      const Operand &sub = operands[static_cast<size_t>(param::Load::shape)];
      if (sub.present && !sub.defaulted) {
        std::vector<int64_t> want;
        for (const Value &e : sub.value.elts) want.push_back(e.constInt.value_or(0));
        if (want != std::vector<int64_t>{1, 1} && want != shape) {
          diags_.report(DiagId::SemaBadValue, sub.range, "shape", name,
                        fmt::format("(1, 1) (the first element) or the view's shape {}", shapeText(shape)),
                        shapeText(want));
          return std::nullopt;
        }
        const Operand &lay = operands[static_cast<size_t>(param::Load::layout)];
        if (want != shape && ((rows.present && rows.value.constBool) || (lay.present && lay.value.str == "rows"))) {
          diags_.report(DiagId::SemaBadValue, sub.range, "shape", name,
                        "the view's shape with rows=True or layout=\"rows\"", shapeText(want));
          return std::nullopt;
        }
        shape = want;
      }
      // layout="rows": the view's tile as lm.load_tile reads a global one.
      const Operand &lay = operands[static_cast<size_t>(param::Load::layout)];
      if (lay.present && lay.value.str == "rows") {
        if (rows.present && rows.value.constBool) {
          diags_.report(DiagId::SemaBadValue, rows.range, "rows", name, "False with layout=\"rows\"",
                        "True (rows=True makes an accumulator-layout row vector)");
          return std::nullopt;
        }
        layout = FragmentLayout::Rows;
        warpsPerRow = operands[static_cast<size_t>(param::Load::warps_per_row)].value.constInt.value_or(1);
      } else if (const Operand &p = operands[static_cast<size_t>(param::Load::warps_per_row)];
                 p.present && !p.defaulted) {
        diags_.report(DiagId::SemaBadValue, p.range, "warps_per_row", name, "given only with layout=\"rows\"",
                      "the accumulator layout");
        return std::nullopt;
      }
    }
  }
  if (!first && op.kind == OpKind::LoadTile) {
    // A tile of global memory: the shape, type and layout it names.
    first = &operands[static_cast<size_t>(param::LoadTile::tensor)];
    for (const Value &e : operands[static_cast<size_t>(param::LoadTile::shape)].value.elts)
      shape.push_back(e.constInt.value_or(0));
    dtype = operands[static_cast<size_t>(param::LoadTile::dtype)].value.dtype;
    layout = operands[static_cast<size_t>(param::LoadTile::layout)].value.str == "rows" ? FragmentLayout::Rows
                                                                                        : FragmentLayout::Accumulator;
    warpsPerRow = operands[static_cast<size_t>(param::LoadTile::warps_per_row)].value.constInt.value_or(1);
    // reset=True writes the tile back to zero: only the launch's own
    // workspace may be written behind the caller's back.
    const Operand &reset = operands[static_cast<size_t>(param::LoadTile::reset)];
    if (reset.present && reset.value.constBool && first->value.kind == ValueKind::Resource &&
        first->value.resource != kNoResource && !res(first->value.resource).workspace) {
      diags_.report(DiagId::SemaBadValue, reset.range, "reset", name, "True only for a workspace tensor (lm.workspace)",
                    fmt::format("the tensor parameter '{}'", res(first->value.resource).name));
      return std::nullopt;
    }
  }
  if (!first) {
    // Only numbers: elementwise math needs a fragment to work on.
    const Operand &o = operands[0];
    diags_.report(DiagId::SemaWrongArgType, o.range, op.params[0].name, name, "a register fragment", describe(o.value));
    return std::nullopt;
  }
  if (op.effects.rowReduction) {
    if (shape.size() != 2 || shape[1] == 1) {
      diags_.report(DiagId::SemaReduceVector, first->range, name, res(first->value.resource).name, shapeText(shape));
      return std::nullopt;
    }
    shape = {shape[0], 1};
  }
  for (size_t i = 0; i < op.params.size(); ++i)
    if (op.params[i].kind == ParamKind::DTypeP && operands[i].present) dtype = operands[i].value.dtype;
  if (op.effects.predicate) dtype = DType::I32;
  Resource &frag = newResource(ResourceKind::Regs, range);
  frag.derived = true;
  frag.shape = shape;
  frag.dtype = *dtype;
  frag.layout = layout;
  frag.warpsPerRow = warpsPerRow;
  frag.role = role_;
  // The name it is assigned to belongs to the whole expression, not to the
  // operations computing its parts.
  frag.name = nameHint_.empty() || at != hintExpr_ ? fmt::format("%{}", frag.id) : nameHint_;
  return frag.id;
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
    out[i].range = out[i].valueRange = c->args[i]->range;
    out[i].value = eval(c->args[i]);
  }
  for (const Keyword &k : c->keywords) {
    int idx = op.paramIndex(k.name);
    if (idx < 0) {
      std::vector<std::string> names;
      for (const ParamInfo &p : op.params) names.emplace_back(p.name);
      buildSuggesting(diags_, DiagId::SemaUnknownKeyword, k.nameRange, k.nameRange, k.name, names, name, k.name).emit();
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
    o.valueRange = k.value->range;
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
  // A constant the lowered code holds as it is: integers (coordinates,
  // stages, counts) in 32 bits, numbers in a float, so no literal in the
  // generated CUDA overflows its type.
  auto fitsLowered = [&](const Value &x) {
    if (x.isConstInt() && (*x.constInt < INT32_MIN || *x.constInt > INT32_MAX)) {
      diags_.report(DiagId::SemaBadValue, o.range, p.name, opName,
                    "an integer of 32 bits (-2147483648 .. 2147483647) as lowered code holds it",
                    std::to_string(*x.constInt));
      return false;
    }
    if (x.kind == ValueKind::Float && x.floatIsConst && std::isfinite(x.floatValue) &&
        std::fabs(x.floatValue) > std::numeric_limits<float>::max()) {
      diags_.report(DiagId::SemaBadValue, o.range, p.name, opName,
                    "a number that a 32-bit float holds (at most 3.4028235e38 in magnitude, or an infinity)",
                    fmt::format("{}", x.floatValue));
      return false;
    }
    return true;
  };
  // A warp list: compile-time, non-negative, each warp once.
  auto warpList = [&](const Value &list, const std::string &what) {
    if (list.kind != ValueKind::List && list.kind != ValueKind::Tuple) return wrong();
    if (list.elts.empty()) {
      diags_.report(DiagId::SemaEmptyList, o.range, what);
      return false;
    }
    std::set<int64_t> seen;
    for (const Value &e : list.elts) {
      if (e.kind != ValueKind::Int) return wrong();
      if (!e.constInt) return notConstant();
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
  };
  // One copy per member of a role family (a fragment, a view), named
  // outside the family's body: which member's is meant?
  if (v.kind == ValueKind::Members && !isRoleFamily(v)) {
    diags_.report(DiagId::SemaMemberRequired, o.range, sourceText(sm_, o.valueRange),
                  kernel_->roleFamilies[static_cast<size_t>(v.family)].name);
    return false;
  }
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
  case ParamKind::WarpList: return warpList(v, fmt::format("the '{}' list", p.name));
  case ParamKind::WarpLists: {
    // A role family's members: lists of warps, all of one length.
    auto bad = [&](const std::string &why) {
      diags_.report(DiagId::SemaRoleFamilyWarps, o.range, nameHint_, why);
      return false;
    };
    if (v.kind != ValueKind::List && v.kind != ValueKind::Tuple) return wrong();
    if (v.elts.empty()) {
      diags_.report(DiagId::SemaEmptyList, o.range, fmt::format("the '{}' list", p.name));
      return false;
    }
    for (size_t i = 0; i < v.elts.size(); ++i) {
      const Value &m = v.elts[i];
      if (m.kind != ValueKind::List && m.kind != ValueKind::Tuple)
        return bad(fmt::format("member {} is {}; each member is a list of warps, as in "
                               "warps=[[4, 5, 6, 7], [8, 9, 10, 11]]",
                               i, describe(m)));
      if (!warpList(m, fmt::format("the warps of member {}", i))) return false;
      if (m.elts.size() != v.elts[0].elts.size())
        return bad(fmt::format("member {} has {} warp(s) and member 0 has {}; the members run one body, so each "
                               "has as many warps",
                               i, m.elts.size(), v.elts[0].elts.size()));
    }
    return true;
  }
  case ParamKind::Swizzle:
  case ParamKind::ArrivalScope:
  case ParamKind::LayoutP:
  case ParamKind::AtomicOpP:
  case ParamKind::MemOrderP:
  case ParamKind::MemScopeP: {
    static const std::map<ParamKind, std::vector<std::string>> words = {
        {ParamKind::Swizzle, {"none", "32B", "64B", "128B"}},
        {ParamKind::ArrivalScope, {"role", "warpgroup", "warp", "thread"}},
        {ParamKind::LayoutP, {"accumulator", "rows"}},
        {ParamKind::AtomicOpP, {"add", "max", "min", "exch", "cas"}},
        {ParamKind::MemOrderP, {"relaxed", "acquire", "release", "acq_rel"}},
        {ParamKind::MemScopeP, {"gpu", "cluster"}}};
    const auto &allowed = words.at(p.kind);
    if (v.kind != ValueKind::String) return wrong();
    if (std::find(allowed.begin(), allowed.end(), v.str) == allowed.end()) {
      // The fix-it replaces the string literal, quotes included.
      std::string match = closestMatch(v.str, allowed);
      auto d = diags_.build(DiagId::SemaBadValue, o.range, p.name, opName, paramKindDescription(p.kind),
                            "\"" + v.str + "\"" + didYouMean(v.str, allowed));
      std::string written = sourceText(sm_, o.valueRange);
      if (!match.empty() && !written.empty() && (written[0] == '"' || written[0] == '\''))  // a literal, not a name
        d.fixit(o.valueRange, "\"" + match + "\"");
      d.emit();
      return false;
    }
    return true;
  }
  case ParamKind::DTypeP: return v.kind == ValueKind::DType || wrong();
  case ParamKind::RoleP: return isRes(v, ResourceKind::Role) || isRoleFamily(v) || wrong();
  case ParamKind::RoleFamilyP: return isRoleFamily(v) || wrong();
  case ParamKind::RoleList:
    if (v.kind != ValueKind::List && v.kind != ValueKind::Tuple) return wrong();
    if (v.elts.empty()) {
      diags_.report(DiagId::SemaEmptyList, o.range, fmt::format("the '{}' list", p.name));
      return false;
    }
    for (const Value &e : v.elts)
      if (!isRes(e, ResourceKind::Role) && !isRoleFamily(e)) {
        diags_.report(DiagId::SemaWrongArgType, o.range, p.name, opName, paramKindDescription(p.kind),
                      "a list holding " + describe(e));
        return false;
      }
    return true;
  case ParamKind::PipelineP: return isRes(v, ResourceKind::Pipeline) || wrong();
  case ParamKind::BarrierP: return isRes(v, ResourceKind::Barrier) || wrong();
  case ParamKind::NamedBarrierP: return isRes(v, ResourceKind::NamedBarrier) || wrong();
  case ParamKind::TensorP: return (isRes(v, ResourceKind::TensorParam) && kernel_->resource(v.resource).tma) || wrong();
  case ParamKind::GlobalTensorP:
    // A workspace made a TMA tensor (tma=True) is addressed by threads too.
    return (isRes(v, ResourceKind::TensorParam) &&
            (!kernel_->resource(v.resource).tma || kernel_->resource(v.resource).workspace)) ||
           wrong();
  case ParamKind::TmemP: return isRes(v, ResourceKind::Tmem) || wrong();
  case ParamKind::RegsP: return isRes(v, ResourceKind::Regs) || wrong();
  case ParamKind::MaskP:
    if (!isRes(v, ResourceKind::Regs)) return wrong();
    if (res(v.resource).dtype != DType::I32) {
      diags_.report(DiagId::SemaWrongArgType, o.range, p.name, opName, paramKindDescription(p.kind),
                    fmt::format("a {} fragment", dtypeInfo(res(v.resource).dtype).name));
      return false;
    }
    return true;
  case ParamKind::FragmentOrNumber:
    if (isRes(v, ResourceKind::Regs)) return true;
    return (v.kind == ValueKind::Float || v.kind == ValueKind::Int || wrong()) && fitsLowered(v);
  case ParamKind::IntExpr: return (v.kind == ValueKind::Int || wrong()) && fitsLowered(v);
  case ParamKind::IntTuple:
    if (v.kind != ValueKind::Tuple || v.elts.empty()) return wrong();
    for (const Value &e : v.elts)
      if (e.kind != ValueKind::Int || !fitsLowered(e)) return e.kind == ValueKind::Int ? false : wrong();
    return true;
  case ParamKind::BoolExpr: return v.kind == ValueKind::Bool || wrong();
  case ParamKind::ScheduleP: return (v.kind == ValueKind::Schedule && v.schedule) || wrong();
  case ParamKind::ConstBool:
    if (v.kind != ValueKind::Bool) return wrong();
    if (!v.boolIsConst) {
      return notConstant();
    }
    return true;
  case ParamKind::FloatExpr:
    return (v.kind == ValueKind::Float || v.kind == ValueKind::Int || wrong()) && fitsLowered(v);
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
  case ParamKind::AccumulatorP: return isRes(v, ResourceKind::Tmem) || isRes(v, ResourceKind::Regs) || wrong();
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
  // A copy that completes on a barrier may name a stage of a single-stage
  // view: the stage counts the barrier's phases (a buffer reloaded once per
  // tile); the view has one slot for every stage.
  if (r.stages <= 1 && stage.present && op.effects.signals == kNone) {
    diags_.build(DiagId::SemaNotStaged, stage.range, r.name).note(DiagId::NoteDeclaredHere, r.range, r.name).emit();
    return false;
  }
  return true;
}

}  // namespace cake::sema::detail
