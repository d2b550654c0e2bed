// LauncherRanges.cpp - the launcher's range checks (issue 33): every extent
// a kernel touches and every 32-bit integer it computes, bounded at launch
// from the scalars and the grid in overflow-checked int64 interval
// arithmetic (cake_iv), and that arithmetic's support text.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>
#include <tuple>

#include "analysis/ScheduleModel.h"
#include "codegen/Emitter.h"

namespace cake::codegen::detail {

namespace {
std::string int64Literal(int64_t x) {
  if (x == INT64_MIN) return "INT64_MIN";
  if (x < INT32_MIN || x > INT32_MAX) return std::to_string(x) + "LL";
  return std::to_string(x);
}

// The launcher's text computing the range of integers the kernel computes:
// one `const cake_iv` per atom and per affine form of sema's normal forms
// (IntExpr.h), each computed once. A form's range is its constant plus each
// term's coefficient times its atom's range; a leaf's range is what the
// launch gives it (a scalar its value, a block index 0 .. grid - 1, a loop
// variable its loop's start .. stop - 1 over every iteration of every
// enclosing loop); a non-linear atom's range is its operation on its
// operands' ranges. The range of a form holds every value the expression
// takes in any block at any iteration (it may be wider than the values
// taken, never narrower). Inside a branch whose condition compares a loop
// variable with a value that does not depend on it (`if j < 6:`), that
// variable's range is narrowed by the comparison (narrow()): forms that
// depend on it there get ranges of their own.
class RangeText {
public:
  RangeText(const Kernel &k, bool smCount, std::string prefix = "cake_iv")
      : k_(k), smCount_(smCount), prefix_(std::move(prefix)) {
    std::function<void(const std::vector<IrStmt> &)> walk = [&](const std::vector<IrStmt> &body) {
      for (const IrStmt &s : body) {
        if (s.kind == IrStmt::Kind::For) loops_[s.loopId] = &s;
        if (s.kind == IrStmt::Kind::Op && s.op.result.ix != kNoIntExpr) {
          int8_t lo = s.op.info().effects.valueRange;
          if (lo != kNone && s.op.operandAt(lo).present && s.op.operandAt(lo + 1).present)
            valueRanges_[k_.ints.node(s.op.result.ix).value] = &s.op;
        }
        walk(s.body);
        walk(s.orelse);
      }
    };
    for (const RoleBlock &rb : k_.roles) walk(rb.body);
  }
  // The range [lo, hi) an operation reading a value from memory declares
  // for it (OpEffects::valueRange), as an interval: what the kernel uses of
  // the value lies in it (the lowering stops the kernel on any other).
  std::string valueRange(const Operation &op) {
    int8_t lo = op.info().effects.valueRange;
    return define(fmt::format("cake_iv_loop({}, {}, cake_iv_range(1, 1))", ofValue(op.operandAt(lo).value),
                              ofValue(op.operandAt(lo + 1).value)));
  }
  std::string code;  // the launcher's lines

  std::string ofValue(const Value &v) {
    if (v.isConstInt()) return ofForm(AffineForm{*v.constInt, {}});
    if (v.kind == ValueKind::Int && v.ix != kNoIntExpr) return ofForm(k_.ints.form(v.ix));
    return unbounded("an integer without a normal form");
  }
  std::string ofForm(const AffineForm &f) {
    std::string ctx = context(f);
    if (auto it = forms_.find({f, ctx}); it != forms_.end()) return it->second;
    std::string e = fmt::format("cake_iv_range({0}, {0})", int64Literal(f.constant));
    for (const auto &[a, c] : f.terms) e = fmt::format("cake_iv_axpy({}, {}, {})", e, int64Literal(c), ofAtom(a));
    return forms_[{f, ctx}] = define(e);
  }
  // Within a branch on `cond` (a comparison of the normal form lhs - rhs
  // with 0; `taken`: the then-branch, else the else-branch): where it
  // compares an enclosing loop's variable v (coefficient +-1) with a value
  // that does not depend on v, v's range there is clamped by that value's
  // (`v < E`: at most E's largest - 1, by lm.min's range). Returns whether
  // it narrowed; each narrow() that did is undone by one widen().
  bool narrow(const Value &cond, bool taken, const std::vector<const IrStmt *> &loops) {
    if (cond.ix == kNoIntExpr || cond.cmp == CmpOp::None) return false;
    CmpOp cmp = taken ? cond.cmp : negate(cond.cmp);
    const AffineForm &f = k_.ints.form(cond.ix);
    for (const auto &[atom, coef] : f.terms) {
      IntExprTable::AtomView v = k_.ints.atomInfo(atom);
      if (v.op != IntOp::LoopVar || (coef != 1 && coef != -1)) continue;
      uint32_t id = static_cast<uint32_t>(v.value);
      if (std::none_of(loops.begin(), loops.end(), [&](const IrStmt *l) { return l->loopId == id; })) continue;
      // f = coef v + rest: v CMP' bound, bound = -rest / coef.
      AffineForm bound;
      bound.constant = -f.constant * coef;
      for (const auto &[a, c] : f.terms)
        if (a != atom) bound.terms.emplace_back(a, -c * coef);
      std::set<uint32_t> uses;
      k_.ints.loopsIn(bound, uses);
      if (uses.count(id)) continue;
      if (coef == -1)
        cmp = cmp == CmpOp::Lt   ? CmpOp::Gt
              : cmp == CmpOp::Le ? CmpOp::Ge
              : cmp == CmpOp::Gt ? CmpOp::Lt
              : cmp == CmpOp::Ge ? CmpOp::Le
                                 : cmp;
      if (cmp == CmpOp::Ne || cmp == CmpOp::None) return false;
      // Defined where a range first uses it (a branch may copy nothing).
      const IrStmt *l = loop(id);
      narrowed_.push_back({id, atom, bound, cmp,
                           "loop variable " + (l ? l->loopVar : std::string("?")) + " in a branch",
                           std::to_string(nextNarrowing_++), ""});
      return true;
    }
    return false;
  }
  void widen() { narrowed_.pop_back(); }
  // The loops whose variables a form depends on (through any atom).
  void loopsOf(const AffineForm &f, std::set<uint32_t> &out) const { k_.ints.loopsIn(f, out); }
  const IrStmt *loop(uint32_t id) const {
    auto it = loops_.find(id);
    return it == loops_.end() ? nullptr : it->second;
  }
  std::string stepOf(const IrStmt &s) { return s.step != 0 ? ofForm(AffineForm{s.step, {}}) : ofValue(s.stepValue); }

private:
  std::string define(const std::string &e, const std::string &comment = "") {
    std::string name = prefix_ + std::to_string(next_++);
    code += fmt::format("  const cake_iv {} = {};{}\n", name, e, comment.empty() ? "" : "  // " + comment);
    return name;
  }
  std::string unbounded(const std::string &why) {
    return define("cake_iv_make(0, 0, CAKE_IV_UNBOUNDED)", why + ": not bounded by the launcher");
  }
  // The narrowings a form's range depends on (its loops' variables
  // narrowed by enclosing branches), as part of its cache key: "" for none.
  std::string context(const AffineForm &f) const {
    if (narrowed_.empty()) return "";
    std::set<uint32_t> uses;
    k_.ints.loopsIn(f, uses);
    std::string ctx;
    for (const Narrowing &n : narrowed_)
      if (uses.count(n.loop)) ctx += n.key + ",";
    return ctx;
  }
  std::string ofAtom(AtomId a) {
    IntExprTable::AtomView v = k_.ints.atomInfo(a);
    for (size_t i = narrowed_.size(); i-- > 0;)
      if (v.op == IntOp::LoopVar && static_cast<uint32_t>(v.value) == narrowed_[i].loop) {
        if (narrowed_[i].name.empty()) define(i);
        return narrowed_[i].name;
      }
    AffineForm self;
    self.terms.emplace_back(a, 1);
    std::string ctx = context(self);
    if (auto it = atoms_.find({a, ctx}); it != atoms_.end()) return it->second;
    return atoms_[{a, ctx}] = atomRange(v);
  }
  // Defines narrowing i: its variable's range as the branches around it
  // (the narrowings before it) leave it, clamped by its bound's range.
  void define(size_t i) {
    std::vector<Narrowing> inner(narrowed_.begin() + static_cast<std::ptrdiff_t>(i), narrowed_.end());
    narrowed_.resize(i);
    Narrowing &n = inner.front();
    std::string cur = ofAtom(n.atom), b = ofForm(n.bound), e;
    switch (n.cmp) {
    case CmpOp::Lt: e = fmt::format("cake_iv_min({}, cake_iv_axpy({}, 1, cake_iv_range(-1, -1)))", cur, b); break;
    case CmpOp::Le: e = fmt::format("cake_iv_min({}, {})", cur, b); break;
    case CmpOp::Gt: e = fmt::format("cake_iv_max({}, cake_iv_axpy({}, 1, cake_iv_range(1, 1)))", cur, b); break;
    case CmpOp::Ge: e = fmt::format("cake_iv_max({}, {})", cur, b); break;
    default: e = fmt::format("cake_iv_max(cake_iv_min({0}, {1}), {1})", cur, b); break;  // Eq
    }
    n.name = define(e, n.comment);
    narrowed_.insert(narrowed_.end(), inner.begin(), inner.end());
  }
  std::string atomRange(const IntExprTable::AtomView &v) {
    const IntOpInfo &info = intOpInfo(v.op);
    int64_t d = v.value >= 0 && v.value <= 2 ? v.value : 0;
    int64_t cluster = k_.cluster[static_cast<size_t>(d)];
    std::string e, comment;
    if (v.op == IntOp::Param) {
      std::string n = ident(k_.resource(static_cast<ResourceId>(v.value)).name);
      e = fmt::format("cake_iv_range((int64_t){0}, (int64_t){0})", n);
    } else if (v.op == IntOp::LoopVar) {
      const IrStmt *s = loop(static_cast<uint32_t>(v.value));
      if (!s) return unbounded("a loop variable of no loop");
      std::string start = ofValue(s->start), stop = ofValue(s->stop), step = stepOf(*s);
      e = fmt::format("cake_iv_loop({}, {}, {})", start, stop, step);
      comment = "loop variable " + s->loopVar;
    } else if (v.op == IntOp::RoleValue) {
      auto r = valueRanges_.find(v.value);
      if (r == valueRanges_.end()) return unbounded("an atomic's old value");
      return valueRange(*r->second);
    } else if (!info.range) {
      return unbounded("a power of run-time values");
    } else if (info.arity == 0) {  // an index or a count: IntOps.def's range at this grid and cluster
      if (info.place == IntPlace::Host && !smCount_) return unbounded(fmt::format("{} outside the grid", info.source));
      int64_t size = k_.cluster[0] * k_.cluster[1] * k_.cluster[2];
      e = fmt::format(fmt::runtime(info.range), d, cluster, cluster - 1, size - 1);
    } else {
      if (!v.lhs || !v.rhs) return unbounded("an operation without operands");
      std::string l = ofForm(*v.lhs), r = ofForm(*v.rhs);
      e = fmt::format(fmt::runtime(info.range), l, r);
    }
    return define(e, comment);
  }

  const Kernel &k_;
  bool smCount_;
  std::string prefix_;
  std::map<uint32_t, const IrStmt *> loops_;
  std::map<std::pair<AtomId, std::string>, std::string> atoms_;      // by atom and context()
  std::map<int64_t, const Operation *> valueRanges_;                 // RoleValue leaf -> the operation that reads it
  std::map<std::pair<AffineForm, std::string>, std::string> forms_;  // by form and context()
  struct Narrowing {
    uint32_t loop;             // the loop whose variable it narrows
    AtomId atom;               // that variable
    AffineForm bound;          // what the branch compares it with, as `v cmp bound`
    CmpOp cmp;                 // Lt, Le, Gt, Ge or Eq
    std::string comment, key;  // key: unique, for context()
    std::string name;          // its cake_iv, once defined
  };
  std::vector<Narrowing> narrowed_;  // the enclosing branches' narrowings, innermost last
  int next_ = 0, nextNarrowing_ = 0;
};

bool within(const SourceRange &r, const SourceRange &outer) {
  auto before = [](const SourceLoc &a, const SourceLoc &b) {  // a <= b
    return a.line < b.line || (a.line == b.line && a.col <= b.col);
  };
  return outer.valid() && r.valid() && r.begin.file == outer.begin.file && before(outer.begin, r.begin) &&
         before(r.end, outer.end);
}
}  // namespace

// The grid, computed in overflow-checked int64 (cake_iv): its leaves are
// scalars and the multiprocessor count, so each range is one value.
std::string KernelEmitter::gridValues(const std::vector<std::string> &grid) {
  RangeText rt(k_, usesSmCount_, "cake_giv");
  std::string dims[3] = {"1", "1", "1"};
  for (size_t i = 0; i < k_.grid.size() && i < 3; ++i) dims[i] = rt.ofValue(k_.grid[i]);
  std::string o = rt.code, bad;
  for (size_t i = 0; i < 3; ++i)
    if (dims[i] != "1") bad += (bad.empty() ? "" : " || ") + dims[i] + ".flags";
  if (!bad.empty())
    o += fmt::format(
        "  if ({})\n    return cake_fail(msg, CAKE_ERROR_SHAPE, \"the grid ({}, {}, {}) overflows int64\");\n", bad,
        cStringText(grid[0], true), cStringText(grid[1], true), cStringText(grid[2], true));
  for (std::string &d : dims)
    if (d != "1") d += ".lo";
  for (size_t i = 0; i < 3; ++i) o += fmt::format("  cake_grid[{}] = {};  // {}\n", i, dims[i], grid[i]);
  return o;
}

std::vector<const Resource *> KernelEmitter::workspaces() const {
  std::vector<const Resource *> out;
  for (const KernelParam &p : k_.params)
    if (p.workspace && p.resource != kNoResource) out.push_back(&k_.resource(p.resource));
  return out;
}

std::string KernelEmitter::workspaceLayout() {
  std::vector<const Resource *> ws = workspaces();
  if (ws.empty()) return "";
  std::string name = symbol();
  std::string wide;
  for (const KernelParam &p : k_.params) {
    if (p.isBuilder || p.resource == kNoResource) continue;
    const Resource &r = k_.resource(p.resource);
    if (r.kind != ResourceKind::ScalarParam || dtypeInfo(r.dtype).scalar != ScalarKind::Int) continue;
    wide += "int64_t " + ident(p.name) + ", ";
  }
  std::map<ResourceId, GlobalUse> tiled = globalTensors();
  std::string o = "// The workspace: each tensor's shape (outermost first) and byte offset in the\n"
                  "// caller's buffer, 256-byte aligned, and the bytes it needs in all.\n";
  o += fmt::format("[[maybe_unused]] static int cake_{}_workspace_layout({}int64_t (*cake_shape)[5], int64_t "
                   "*cake_offset, int64_t *cake_total, char *msg) {{\n",
                   name, wide);
  o += "  int64_t cake_at = 0;\n";
  for (size_t i = 0; i < ws.size(); ++i) {
    const Resource &w = *ws[i];
    RangeText rt(k_, usesSmCount_, fmt::format("cake_w{}iv", i));
    std::vector<std::string> dims;
    for (const Value &e : w.workspaceShape) dims.push_back(rt.ofValue(e));
    o += fmt::format("  {{  // {}\n", cStringText(w.name));
    o += rt.code;
    std::string bad;
    for (const std::string &d : dims) bad += (bad.empty() ? "" : " || ") + d + ".flags";
    o += fmt::format("  if ({})\n    return cake_fail(msg, CAKE_ERROR_SHAPE, \"workspace {}: its shape overflows "
                     "int64\");\n",
                     bad, cStringText(w.name));
    o += "  int64_t cake_bytes = " + std::to_string(dtypeInfo(w.dtype).bits / 8) + ";\n";
    for (size_t d = 0; d < dims.size(); ++d) {
      o += fmt::format("  cake_shape[{}][{}] = {}.lo;\n", i, d, dims[d]);
      o +=
          fmt::format("  if (cake_shape[{0}][{1}] <= 0 || !cake_mul64(cake_bytes, cake_shape[{0}][{1}], &cake_bytes))\n"
                      "    return cake_fail(msg, CAKE_ERROR_SHAPE, \"workspace {2}: extent {1} is %lld\", "
                      "(long long)cake_shape[{0}][{1}]);\n",
                      i, d, cStringText(w.name));
    }
    // A tensor moved by tiles has rows of whole 16-byte units: every access
    // of a row (16 bytes per lane in the rows layout) stays aligned. One
    // only atomics or accumulator-layout vectors touch needs its elements'
    // alignment, which it has.
    if (auto t = tiled.find(w.id); t != tiled.end() && t->second.align == 16)
      o += fmt::format("  if ((cake_shape[{0}][{1}] * {2}) % 16 != 0)\n    return cake_fail(msg, CAKE_ERROR_SHAPE, "
                       "\"workspace {3}: rows of %lld bytes; the rows of a workspace tensor moved by tiles are "
                       "multiples of 16 bytes\", (long long)(cake_shape[{0}][{1}] * {2}));\n",
                       i, dims.size() - 1, dtypeInfo(w.dtype).bits / 8, cStringText(w.name));
    o += fmt::format("  cake_offset[{}] = cake_at;\n", i);
    o += fmt::format("  if (!cake_add64(cake_at, cake_bytes, &cake_at) || !cake_add64(cake_at, 255, &cake_at))\n"
                     "    return cake_fail(msg, CAKE_ERROR_SHAPE, \"workspace {}: too large\");\n"
                     "  cake_at = cake_at / 256 * 256;\n",
                     cStringText(w.name));
    o += "  }\n";
  }
  o += "  *cake_total = cake_at;\n  return CAKE_SUCCESS;\n}\n\n";
  return o;
}

std::string KernelEmitter::rangeChecks() {
  RangeText rt(k_, usesSmCount_);
  std::string checks;
  auto text = [&](const Value &v) {
    if (v.isConstInt()) return std::to_string(*v.constInt);
    return v.expr ? cStringText(sourceText(sm_, v.expr->range)) : std::string("?");
  };

  // The scalars, for the messages.
  std::string fmtText, args;
  for (const KernelParam &p : k_.params) {
    if (p.isBuilder || p.resource == kNoResource) continue;
    const Resource &r = k_.resource(p.resource);
    if (r.kind != ResourceKind::ScalarParam || dtypeInfo(r.dtype).scalar != ScalarKind::Int) continue;
    fmtText += (fmtText.empty() ? "" : ", ") + cStringText(p.name, true) + " = %lld";
    args += ", (long long)" + ident(p.name);
  }
  std::string head = "  char cake_at[256];  // the scalars, for the messages\n";
  head += fmtText.empty() ? "  snprintf(cake_at, sizeof cake_at, \"this launch\");\n"
                          : fmt::format("  snprintf(cake_at, sizeof cake_at, \"{}\"{});\n", fmtText, args);

  // 1. Every copy's tile lies inside its tensor in every dimension: from
  // the coordinate's least value to its greatest plus the tile's extent
  // there. Tensors of declared shape copied by TMA are exempt: partial tiles
  // are their design, and TMA reads zeros and drops stores past the end.
  std::set<std::tuple<ResourceId, size_t, std::string, int64_t>> seen;
  // 2. A loop whose variable decides when a tensor-core operation
  // initialises its accumulator (init=(k == 0)) runs at least once wherever
  // it is reached, else the accumulator is stored uninitialised (K = 0).
  std::set<uint32_t> initLoops;
  std::vector<const IrStmt *> stack;
  std::function<void(const std::vector<IrStmt> &)> walk = [&](const std::vector<IrStmt> &body) {
    for (const IrStmt &s : body) {
      if (s.kind == IrStmt::Kind::For) stack.push_back(&s);
      if (s.kind == IrStmt::Kind::Op) {
        const OpInfo &info = s.op.info();
        // The copy's tensor and coordinates, and the operand that decides
        // whether an accumulating operation overwrites (the op table's
        // effects and parameter kinds, never names).
        int tensorAt = -1;
        for (size_t i = 0; i < info.params.size() && i < s.op.operands.size(); ++i) {
          ParamKind pk = info.params[i].kind;
          if (s.op.operands[i].present && (pk == ParamKind::TensorP || pk == ParamKind::GlobalTensorP))
            tensorAt = static_cast<int>(i);
        }
        const Operand *coordsOp = analysis::copyCoords(s.op);
        int initAt = info.effects.overwrites != kNone && s.op.operandAt(info.effects.overwrites).present
                         ? info.effects.overwrites
                         : -1;
        ResourceId tile = analysis::copyTile(s.op);
        bool element = info.effects.oneElement;  // one element (an atomic, a scalar read)
        if (tensorAt >= 0 && coordsOp && (tile != kNoResource || element)) {
          const Resource &t = k_.resource(s.op.operands[static_cast<size_t>(tensorAt)].value.resource);
          std::vector<int64_t> shape = analysis::copyExtent(k_, s.op);
          const Value &coords = coordsOp->value;
          if (!(t.tma && !t.dims.empty()) && coords.elts.size() == t.rank && shape.size() <= t.rank) {
            bool reads = info.effects.writes == kReceiver || s.op.result.kind == ValueKind::Resource;
            const char *how = element ? (info.effects.globalWrite ? "updates" : "reads") : reads ? "reads" : "writes";
            for (size_t d = 0; d < t.rank; ++d) {
              const Value &c = coords.elts[t.rank - 1 - d];  // coordinates innermost first
              size_t outer = t.rank - shape.size();
              int64_t extent = d >= outer ? shape[d - outer] : 1;
              std::string iv = rt.ofValue(c);  // one name per normal form
              if (!seen.emplace(t.id, d, iv, extent).second) continue;
              checks += fmt::format("  if (int e = cake_check_extent({}, {}, {}, {}, \"{}\", \"{}\", \"{}\", cake_at, "
                                    "msg)) return e;\n",
                                    iv, extent, ident(t.name), d, cStringText(t.name), text(c), how);
            }
          }
        }
        // 3. A value read from memory with a declared range: the range is
        // not empty (the kernel would stop at every read), where the read is
        // reached at all (its bounds' own ranges are not empty: a read in a
        // loop of no iteration).
        if (int8_t lo = info.effects.valueRange; lo != kNone && s.op.result.ix != kNoIntExpr) {
          std::string iv = rt.ofValue(s.op.result), loIv = rt.ofValue(s.op.operandAt(lo).value),
                      hiIv = rt.ofValue(s.op.operandAt(lo + 1).value);
          checks += fmt::format(
              "  if (({0}.flags & CAKE_IV_EMPTY) && !({1}.flags & CAKE_IV_EMPTY) && !({2}.flags & CAKE_IV_EMPTY))\n"
              "    return cake_fail(msg, CAKE_ERROR_SHAPE, \"the value read at %s:%d has the range [%s, %s), empty at "
              "%s\", \"{3}\", {4}, \"{5}\", \"{6}\", cake_at);\n",
              iv, loIv, hiIv, cStringText(sm_.name(s.op.range.begin.file)), s.op.range.begin.line,
              text(s.op.operandAt(lo).value), text(s.op.operandAt(lo + 1).value));
        }
        if (initAt >= 0) {
          const Value &init = s.op.operands[static_cast<size_t>(initAt)].value;
          if (!(init.kind == ValueKind::Bool && init.boolIsConst) && !stack.empty()) {
            std::set<uint32_t> loops;
            if (init.ix != kNoIntExpr) rt.loopsOf(k_.ints.form(init.ix), loops);
            if (loops.empty()) loops.insert(stack.back()->loopId);  // not known: the innermost loop
            std::string acc = "?";
            for (size_t i = 0; i < info.params.size(); ++i)
              if (info.params[i].kind == ParamKind::AccumulatorP && s.op.operands[i].present &&
                  s.op.operands[i].value.resource != kNoResource)
                acc = k_.resource(s.op.operands[i].value.resource).name;
            for (const IrStmt *l : stack) {
              if (!loops.count(l->loopId) || !initLoops.insert(l->loopId).second) continue;
              std::string start = rt.ofValue(l->start), stop = rt.ofValue(l->stop), step = rt.stepOf(*l);
              std::string loopText = fmt::format("for {} in range({}, {})", l->loopVar, text(l->start), text(l->stop));
              checks +=
                  fmt::format("  if (int e = cake_check_trips({}, {}, {}, \"{}\", \"{}\", cake_at, msg)) return e;\n",
                              start, stop, step, cStringText(loopText), cStringText(acc));
            }
          }
        }
      }
      if (s.kind == IrStmt::Kind::If) {  // each side with what its condition says of a loop variable
        bool narrowed = rt.narrow(s.cond, true, stack);
        walk(s.body);
        if (narrowed) rt.widen();
        narrowed = rt.narrow(s.cond, false, stack);
        walk(s.orelse);
        if (narrowed) rt.widen();
      } else {
        walk(s.body);
        walk(s.orelse);
      }
      if (s.kind == IrStmt::Kind::For) stack.pop_back();
    }
  };
  for (const RoleBlock &rb : k_.roles) walk(rb.body);

  // 4. Every integer the kernel computes fits its 32 bits (int32_t loop
  // variables, scalars, block indices and the arithmetic on them): a tile
  // count of M = 2^31 - 1 must not wrap. The kernel keeps its 32-bit
  // arithmetic (valid launches run the same code); the launcher rejects
  // the scalars that would make it wrap. The grid's expressions are the
  // launcher's own, in int64, and checked above.
  std::map<AffineForm, std::pair<std::pair<uint32_t, uint32_t>, std::string>> ints;
  for (const auto &[e, v] : k_.exprValues) {
    if (v.kind != ValueKind::Int || v.isConstInt() || v.ix == kNoIntExpr || !e) continue;
    if (within(e->range, k_.gridRange) || within(e->range, k_.clusterRange)) continue;
    const AffineForm &f = k_.ints.form(v.ix);
    if (f.isConstant()) continue;
    if (f.constant == 0 && f.terms.size() == 1 && f.terms[0].second == 1) {
      // A block index or loop variable itself is in range by its loop's
      // bounds, a scalar by its type where that is 32 bits signed or less;
      // an i64 or u32 scalar is narrowed to the kernel's int32_t arithmetic.
      IntExprTable::AtomView leaf = k_.ints.atomInfo(f.terms[0].first);
      bool narrowed = leaf.op == IntOp::Param && [&] {
        const DTypeInfo &t = dtypeInfo(k_.resource(static_cast<ResourceId>(leaf.value)).dtype);
        return t.bits > 32 || (t.bits == 32 && t.dtype != DType::I32);
      }();
      if (isLeaf(leaf.op) && !narrowed) continue;
    }
    std::pair<uint32_t, uint32_t> at{e->range.begin.line, e->range.begin.col};
    auto [it, fresh] = ints.try_emplace(f, at, sourceText(sm_, e->range));
    if (!fresh && at < it->second.first) it->second = {at, sourceText(sm_, e->range)};
  }
  std::vector<std::tuple<std::pair<uint32_t, uint32_t>, std::string, const AffineForm *>>
      inOrder;  // by source position
  for (const auto &[f, where] : ints) inOrder.emplace_back(where.first, where.second, &f);
  // Ties (one source position in several members of a role family) by the
  // forms themselves, never by where they lie in memory.
  std::sort(inOrder.begin(), inOrder.end(), [](const auto &a, const auto &b) {
    if (std::get<0>(a) != std::get<0>(b) || std::get<1>(a) != std::get<1>(b))
      return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
    return *std::get<2>(a) < *std::get<2>(b);
  });
  for (const auto &[at, label, f] : inOrder)
    checks += fmt::format("  if (int e = cake_check_i32({}, \"{}\", cake_at, msg)) return e;\n", rt.ofForm(*f),
                          cStringText(label));
  if (checks.empty()) return "";
  return "  // The ranges of the kernel's integers at these scalars, over the grid's blocks\n"
         "  // and the loops' iterations (cake_iv): what it copies and computes.\n" +
         head + rt.code + checks;
}

// The interval arithmetic the range checks compute with, in the launcher
// support text (after cake_add64 and cake_mul64).
const char *const kRangeSupport = R"CAKE(// The range of an integer the kernel computes, over every block and loop
// iteration of one launch: [lo, hi], computed in int64 without overflow.
// CAKE_IV_EMPTY: never computed (under a loop that runs no iteration);
// CAKE_IV_UNBOUNDED: not bounded (an int64 overflow, or a form the launcher
// does not bound); CAKE_IV_DIV0: bounded only where no divisor is 0 (an
// interval of a divisor reached 0), not good enough for an address.
typedef struct cake_iv {
  int64_t lo, hi;
  int flags;
} cake_iv;
enum { CAKE_IV_EMPTY = 1, CAKE_IV_UNBOUNDED = 2, CAKE_IV_DIV0 = 4 };
[[maybe_unused]] static inline cake_iv cake_iv_make(int64_t lo, int64_t hi, int flags) {
  cake_iv r;
  r.lo = lo;
  r.hi = hi;
  r.flags = flags;
  return r;
}
[[maybe_unused]] static inline cake_iv cake_iv_range(int64_t lo, int64_t hi) { return cake_iv_make(lo, hi, lo > hi ? CAKE_IV_EMPTY : 0); }
[[maybe_unused]] static inline int cake_iv_flags(cake_iv a, cake_iv b) {
  return ((a.flags | b.flags) & CAKE_IV_EMPTY) ? CAKE_IV_EMPTY : a.flags | b.flags;
}
[[maybe_unused]] static inline bool cake_iv_done(int f) { return (f & (CAKE_IV_EMPTY | CAKE_IV_UNBOUNDED)) != 0; }
// acc + c * a
[[maybe_unused]] static inline cake_iv cake_iv_axpy(cake_iv acc, int64_t c, cake_iv a) {
  int f = cake_iv_flags(acc, a);
  int64_t x, y, lo, hi;
  if (cake_iv_done(f)) return cake_iv_make(0, 0, f);
  if (!cake_mul64(c, a.lo, &x) || !cake_mul64(c, a.hi, &y)) return cake_iv_make(0, 0, f | CAKE_IV_UNBOUNDED);
  if (x > y) {
    int64_t z = x;
    x = y;
    y = z;
  }
  if (!cake_add64(acc.lo, x, &lo) || !cake_add64(acc.hi, y, &hi)) return cake_iv_make(0, 0, f | CAKE_IV_UNBOUNDED);
  return cake_iv_make(lo, hi, f);
}
// The smallest range holding the four values (a product's or quotient's
// corners).
[[maybe_unused]] static inline cake_iv cake_iv_hull4(const int64_t v[4], int f) {
  cake_iv r = cake_iv_make(v[0], v[0], f);
  for (int i = 1; i < 4; ++i) {
    if (v[i] < r.lo) r.lo = v[i];
    if (v[i] > r.hi) r.hi = v[i];
  }
  return r;
}
[[maybe_unused]] static inline cake_iv cake_iv_mul(cake_iv a, cake_iv b) {
  int f = cake_iv_flags(a, b);
  if (cake_iv_done(f)) return cake_iv_make(0, 0, f);
  int64_t p[4];
  if (!cake_mul64(a.lo, b.lo, &p[0]) || !cake_mul64(a.lo, b.hi, &p[1]) || !cake_mul64(a.hi, b.lo, &p[2]) ||
      !cake_mul64(a.hi, b.hi, &p[3]))
    return cake_iv_make(0, 0, f | CAKE_IV_UNBOUNDED);
  return cake_iv_hull4(p, f);
}
// Python's // (b != 0, not INT64_MIN // -1).
[[maybe_unused]] static inline int64_t cake_fdiv64(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
// The largest magnitude in a (not INT64_MIN).
[[maybe_unused]] static inline int64_t cake_iv_mag(cake_iv a) { return -a.lo > a.hi ? -a.lo : a.hi; }
[[maybe_unused]] static inline cake_iv cake_iv_floordiv(cake_iv a, cake_iv b) {
  int f = cake_iv_flags(a, b);
  if (cake_iv_done(f)) return cake_iv_make(0, 0, f);
  if (a.lo == INT64_MIN || b.lo == INT64_MIN) return cake_iv_make(0, 0, f | CAKE_IV_UNBOUNDED);
  if (b.lo <= 0 && b.hi >= 0)  // |a // b| <= |a| for every other b
    return cake_iv_make(-cake_iv_mag(a), cake_iv_mag(a), f | CAKE_IV_DIV0);
  // Monotone in each operand on one side of 0: the bounds are at corners.
  int64_t q[4] = {cake_fdiv64(a.lo, b.lo), cake_fdiv64(a.lo, b.hi), cake_fdiv64(a.hi, b.lo), cake_fdiv64(a.hi, b.hi)};
  return cake_iv_hull4(q, f);
}
// Python's % (the sign of the divisor).
[[maybe_unused]] static inline cake_iv cake_iv_mod(cake_iv a, cake_iv b) {
  int f = cake_iv_flags(a, b);
  if (cake_iv_done(f)) return cake_iv_make(0, 0, f);
  if (b.lo == INT64_MIN) return cake_iv_make(0, 0, f | CAKE_IV_UNBOUNDED);
  if (b.lo <= 0 && b.hi >= 0) {  // |a % b| < |b| for every other b
    int64_t m = cake_iv_mag(b);
    return cake_iv_make(m > 0 ? 1 - m : 0, m > 0 ? m - 1 : 0, f | CAKE_IV_DIV0);
  }
  if (b.lo > 0) return a.lo >= 0 && a.hi < b.lo ? cake_iv_make(a.lo, a.hi, f) : cake_iv_make(0, b.hi - 1, f);
  return a.hi <= 0 && a.lo > b.hi ? cake_iv_make(a.lo, a.hi, f) : cake_iv_make(b.lo + 1, 0, f);
}
[[maybe_unused]] static inline cake_iv cake_iv_min(cake_iv a, cake_iv b) {
  int f = cake_iv_flags(a, b);
  if (cake_iv_done(f)) return cake_iv_make(0, 0, f);
  return cake_iv_make(a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi, f);
}
[[maybe_unused]] static inline cake_iv cake_iv_max(cake_iv a, cake_iv b) {
  int f = cake_iv_flags(a, b);
  if (cake_iv_done(f)) return cake_iv_make(0, 0, f);
  return cake_iv_make(a.lo > b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi, f);
}
// A loop variable of `for v in range(start, stop, step)`: empty where the
// loop runs no iteration in any block; unbounded for a step that may be 0.
[[maybe_unused]] static inline cake_iv cake_iv_loop(cake_iv start, cake_iv stop, cake_iv step) {
  int f = cake_iv_flags(start, stop) | step.flags;
  if (f & CAKE_IV_EMPTY) f = CAKE_IV_EMPTY;
  if (cake_iv_done(f)) return cake_iv_make(0, 0, f);
  if (step.lo > 0) return stop.hi <= start.lo ? cake_iv_make(0, 0, CAKE_IV_EMPTY) : cake_iv_make(start.lo, stop.hi - 1, f);
  if (step.hi < 0) return start.hi <= stop.lo ? cake_iv_make(0, 0, CAKE_IV_EMPTY) : cake_iv_make(stop.lo + 1, start.hi, f);
  return cake_iv_make(0, 0, f | CAKE_IV_UNBOUNDED);
}

// That the elements a copy touches in one dimension of a tensor, from its
// coordinate there to the coordinate plus the tile's extent, lie inside it.
[[maybe_unused]] static inline int cake_check_extent(cake_iv c, int64_t extent, const cake_tensor *t, int dim, const char *name,
                             const char *coord, const char *how, const char *at, char *msg) {
  if (c.flags & CAKE_IV_EMPTY) return CAKE_SUCCESS;  // never copied
  if (c.flags & (CAKE_IV_UNBOUNDED | CAKE_IV_DIV0))
    return cake_fail(msg, CAKE_ERROR_SHAPE,
                     "tensor %s: at %s the launcher cannot bound the coordinate %s at which the kernel %s dimension %d",
                     name, at, coord, how, dim);
  if (c.lo < 0 || c.hi > t->shape[dim] - extent) {
    int64_t last;
    if (!cake_add64(c.hi, extent - 1, &last)) last = INT64_MAX;
    return cake_fail(msg, CAKE_ERROR_SHAPE,
                     "tensor %s: at %s the kernel %s elements %lld to %lld of dimension %d (coordinate %s), which is %lld",
                     name, at, how, (long long)c.lo, (long long)last, dim, coord,
                     (long long)t->shape[dim]);
  }
  return CAKE_SUCCESS;
}

// That an integer the kernel computes in 32 bits does not overflow.
[[maybe_unused]] static inline int cake_check_i32(cake_iv v, const char *what, const char *at, char *msg) {
  if (v.flags & CAKE_IV_EMPTY) return CAKE_SUCCESS;
  if ((v.flags & CAKE_IV_UNBOUNDED) || v.lo < INT32_MIN || v.hi > INT32_MAX)
    return cake_fail(msg, CAKE_ERROR_SHAPE, "at %s the kernel's 32-bit integer %s overflows (%s)", at, what,
                     (v.flags & CAKE_IV_UNBOUNDED) ? "it exceeds int64" : "it reaches past [-2^31, 2^31)");
  return CAKE_SUCCESS;
}

// That a loop over an accumulating tensor-core operation runs at least once
// in every block that reaches it: otherwise the accumulator it initialises
// is stored uninitialised.
[[maybe_unused]] static inline int cake_check_trips(cake_iv start, cake_iv stop, cake_iv step, const char *loop, const char *acc,
                            const char *at, char *msg) {
  int f = cake_iv_flags(start, stop) | step.flags;
  if (f & CAKE_IV_EMPTY) return CAKE_SUCCESS;  // not reached
  bool once = !(f & (CAKE_IV_UNBOUNDED | CAKE_IV_DIV0)) &&
              ((step.lo > 0 && start.hi < stop.lo) || (step.hi < 0 && start.lo > stop.hi));
  if (!once)
    return cake_fail(msg, CAKE_ERROR_SHAPE,
                     "at %s the loop '%s' may run no iteration, which would leave the accumulator %s uninitialised",
                     at, loop, acc);
  return CAKE_SUCCESS;
}
)CAKE";

}  // namespace cake::codegen::detail
