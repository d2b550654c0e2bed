// CrossBlock: see CrossBlock.h.
#include "analysis/CrossBlock.h"

#include "analysis/KernelFacts.h"

#include <fmt/format.h>

#include <functional>
#include <map>
#include <set>

namespace cake::analysis {

using namespace sema;

bool acquires(MemOrder o) { return o == MemOrder::Acquire || o == MemOrder::AcqRel; }
bool releases(MemOrder o) { return o == MemOrder::Release || o == MemOrder::AcqRel; }

bool scopeEncloses(const Scope &outer, const Scope &inner) {
  if (outer.size() > inner.size()) return false;
  for (size_t i = 0; i < outer.size(); ++i)
    if (outer[i] != inner[i]) return false;
  return true;
}

const WorkspaceAccess *CrossBlockFacts::atomic(int64_t roleValue) const {
  for (const WorkspaceAccess &a : accesses)
    if (a.kind == WorkspaceAccess::Kind::Atomic && a.roleValue == roleValue) return &a;
  return nullptr;
}

namespace {

MemOrder orderOf(const std::string &s) {
  return s == "acquire"   ? MemOrder::Acquire
         : s == "release" ? MemOrder::Release
         : s == "acq_rel" ? MemOrder::AcqRel
                          : MemOrder::Relaxed;
}

// The atomic values (IntOp::RoleValue leaves) a normal form reads.
std::set<int64_t> roleValuesIn(const Kernel &k, const AffineForm &f) {
  std::set<int64_t> out;
  for (const auto &[atom, c] : f.terms) {
    IntExprTable::AtomView v = k.ints.atomInfo(atom);
    if (v.op == IntOp::RoleValue) out.insert(v.value);
    if (v.lhs)
      for (int64_t x : roleValuesIn(k, *v.lhs)) out.insert(x);
    if (v.rhs)
      for (int64_t x : roleValuesIn(k, *v.rhs)) out.insert(x);
  }
  return out;
}

// How many blocks of the grid update the element an atomic names: its
// coordinates must be distinct block indices (times nonzero constants, plus
// terms every block shares), so that blocks agreeing on those indices, and
// only they, share the element; the others' grid extents multiply.
void countSharers(const Kernel &k, const Value &coords, WorkspaceAccess &a) {
  std::set<int64_t> dims;
  for (const Value &c : coords.elts) {
    if (c.isConstInt()) continue;
    if (c.ix == kNoIntExpr) {
      a.sharersWhy = "a coordinate has no normal form";
      return;
    }
    int blockTerms = 0;
    for (const auto &[atom, coef] : k.ints.form(c.ix).terms) {
      IntExprTable::AtomView v = k.ints.atomInfo(atom);
      if (v.op == IntOp::Param) continue;  // the same in every block
      if (v.op != IntOp::BlockId || ++blockTerms > 1 || !dims.insert(v.value).second) {
        a.sharersWhy = "its coordinates are not distinct block indices (lm.block_id), so which blocks share an "
                       "element is not known";
        return;
      }
    }
  }
  a.blockDims = dims;
  for (int d = 0; d < 3; ++d) {
    if (dims.count(d)) continue;
    if (static_cast<size_t>(d) >= k.grid.size()) continue;  // extent 1
    const Value &g = k.grid[static_cast<size_t>(d)];
    if (g.isConstInt()) {
      a.sharersConst *= *g.constInt;
    } else if (a.sharersDim < 0) {
      a.sharersDim = d;
    } else {
      a.sharersWhy = "the blocks sharing an element span two grid dimensions of run-time extent";
      return;
    }
  }
  a.sharersKnown = true;
}

// Whether every block that shares an element named by coordinates over the
// grid dimensions `dims` decides `cond` alike: an integer comparison whose
// leaves are the launch's values (constants, scalars, the grid's extents)
// or indices of those dimensions.
bool sameForSharers(const Kernel &k, const Value &cond, const std::set<int64_t> &dims) {
  if (cond.kind != ValueKind::Bool || cond.cmp == CmpOp::None || cond.ix == kNoIntExpr) return false;
  return k.ints.findLeaf(cond.ix, [&](const IntNode &n) {
    if (n.op == IntOp::BlockId) return !dims.count(n.value);
    return intOpInfo(n.op).same != IntSame::Launch;
  }) == kNoIntExpr;
}

struct Walker {
  const Kernel &k;
  std::map<const Operation *, const Event *> events;
  CrossBlockFacts &out;
  std::vector<CounterGuard> guards;
  Scope scope;
  int loops = 0;
  std::vector<const Value *> conds;  // the enclosing branches' conditions (not constant ones)

  void walk(const std::vector<IrStmt> &body) {
    for (const IrStmt &s : body) {
      switch (s.kind) {
      case IrStmt::Kind::Op: visit(s.op); break;
      case IrStmt::Kind::For:
        ++loops;
        scope.emplace_back(&s, 0);
        walk(s.body);
        scope.pop_back();
        --loops;
        break;
      case IrStmt::Kind::If: {
        std::set<int64_t> values;
        if (s.cond.ix != kNoIntExpr) values = roleValuesIn(k, k.ints.form(s.cond.ix));
        bool constant = s.cond.kind == ValueKind::Bool && s.cond.boolIsConst;
        if (!constant) conds.push_back(&s.cond);
        size_t mark = guards.size();
        for (int64_t v : values) guards.push_back({&s, v, s.cond.cmp == CmpOp::Eq});
        if (!constant) scope.emplace_back(&s, 1);
        walk(s.body);
        if (!constant) scope.back().second = 2;
        guards.resize(mark);
        for (int64_t v : values) guards.push_back({&s, v, s.cond.cmp == CmpOp::Ne});  // `!=`'s else: equal
        walk(s.orelse);
        guards.resize(mark);
        if (!constant) scope.pop_back();
        if (!constant) conds.pop_back();
        break;
      }
      case IrStmt::Kind::Let: break;
      }
    }
  }

  void visit(const Operation &op) {
    const OpEffects &fx = op.info().effects;
    if (fx.waitsGroup && fx.group == AsyncGroup::Bulk && fx.waitsWrites != kNone) {
      const Operand &v = op.operandAt(fx.waitsWrites);
      auto ev = events.find(&op);
      if (v.present && v.value.constBool && ev != events.end())
        out.visibleWaits.push_back({ev->second, op.pendingGroups(), scope});
      return;
    }
    // A TMA copy names its tensor by a TensorP operand (copiedTensor).
    ResourceId tensor = fx.global != kNone ? op.operandAt(fx.global).value.resource : copiedTensor(op);
    if (fx.global != kNone && !op.operandAt(fx.global).present) return;
    if (tensor != kNoResource && fx.reducesInto && !k.resource(tensor).workspace &&
        dtypeInfo(k.resource(op.receiver).dtype).scalar == ScalarKind::Float)
      out.paramAdditions = true;
    if (tensor == kNoResource || !k.resource(tensor).workspace) return;
    auto ev = events.find(&op);
    if (ev == events.end()) return;
    if (fx.awaitsValue != kNone) {  // a flag wait: the flag protocol's, not a data access
      WorkspaceAccess probe;
      if (const Operand *coords = copyCoords(op)) countSharers(k, coords->value, probe);
      // Under branches every block sharing its element decides alike (a
      // uniform `if S > 1:`), the blocks of a chain all wait, once, or none
      // does.
      bool once = loops == 0 && std::all_of(conds.begin(), conds.end(), [&](const Value *c) {
                    return probe.sharersKnown && sameForSharers(k, *c, probe.blockDims);
                  });
      out.flagWaits.push_back({ev->second, tensor, scope, once, probe.sharersKnown, probe.blockDims, probe.sharersWhy});
      return;
    }
    WorkspaceAccess a;
    a.event = ev->second;
    a.tensor = tensor;
    a.guards = guards;
    a.where = scope;
    if (fx.global == kNone) {
      // TMA: into shared memory (a load), or out of it (a store, an addition).
      a.kind = fx.writes == kReceiver ? WorkspaceAccess::Kind::Load : WorkspaceAccess::Kind::Store;
      a.async = true;
      a.reduce = fx.reducesInto;
      out.accesses.push_back(std::move(a));
      return;
    }
    if (fx.memoryOrder != kNone) {
      a.kind = WorkspaceAccess::Kind::Atomic;
      a.order = orderOf(op.operandAt(fx.memoryOrder).value.str);
      a.op = op.operand(param::Atomic::op).value.str;
      a.scope = op.operand(param::Atomic::scope).value.str;
      const Value &v = op.operand(param::Atomic::value).value;
      if (v.isConstInt()) a.value = *v.constInt;
      if (op.result.ix != kNoIntExpr) a.roleValue = k.ints.node(op.result.ix).value;
      countSharers(k, op.operand(param::Atomic::coords).value, a);
      // Under branches that all the blocks sharing its element take alike
      // (split-K's `if S > 1:`), each of them still updates it once.
      a.once = loops == 0 && std::all_of(conds.begin(), conds.end(), [&](const Value *c) {
                 return a.sharersKnown && sameForSharers(k, *c, a.blockDims);
               });
    } else {
      a.kind = fx.globalWrite ? WorkspaceAccess::Kind::Store : WorkspaceAccess::Kind::Load;
      if (op.kind == OpKind::LoadTile) {
        const Operand &reset = op.operand(param::LoadTile::reset);
        a.reset = reset.present && reset.value.constBool;
      }
    }
    out.accesses.push_back(std::move(a));
  }
};

}  // namespace

namespace {

// The classes of blocks along `d` where `p cmp 0` holds, with p = s (b - c),
// b = lm.block_id(d), s = +-1 and c one of 0, 1, N - 1, N - 2 (N =
// lm.num_blocks(d)), when the comparison tells the first or the last block
// from the others; nullopt for any other.
std::optional<uint8_t> blocksWhere(const Kernel &k, const PolyForm &p, CmpOp cmp, int64_t d) {
  std::optional<std::pair<std::vector<AtomId>, int64_t>> b;  // the block index's term
  for (const auto &[mono, c] : p.terms)
    if (mono.size() == 1 && k.ints.atomInfo(mono[0]).op == IntOp::BlockId && k.ints.atomInfo(mono[0]).value == d &&
        (c == 1 || c == -1))
      b = {mono, c};
  std::optional<PolyForm> ext = gridExtentPoly(k, d);
  if (!b || !ext) return std::nullopt;
  PolyForm rest = p;
  rest.terms.erase(b->first);  // -s c
  if (b->second < 0)           // -(b - c) cmp 0  <=>  (b - c) cmp' 0
    cmp = cmp == CmpOp::Lt   ? CmpOp::Gt
          : cmp == CmpOp::Gt ? CmpOp::Lt
          : cmp == CmpOp::Le ? CmpOp::Ge
          : cmp == CmpOp::Ge ? CmpOp::Le
                             : cmp;
  const uint8_t first = kFirstBlock | kOnlyBlock, notFirst = kMiddleBlocks | kLastBlock;
  const uint8_t last = kLastBlock | kOnlyBlock, notLast = kFirstBlock | kMiddleBlocks;
  // b cmp c, b in [0, N): per c, the classes where it holds (0xff: not one
  // of these sets).
  struct Row {
    int64_t fromEnd, offset;  // c = fromEnd * N + offset
    uint8_t eq, ne, lt, le, gt, ge;
  };
  const Row rows[] = {
      {0, 0, first, notFirst, 0, first, notFirst, kEveryBlock},
      {0, 1, 0xff, 0xff, first, 0xff, 0xff, notFirst},
      {1, -1, last, notLast, notLast, kEveryBlock, 0, last},
      {1, -2, 0xff, 0xff, 0xff, notLast, last, 0xff},
  };
  for (const Row &r : rows) {
    std::optional<PolyForm> c = PolyForm::add(PolyForm::of(AffineForm{r.offset, {}}), r.fromEnd ? *ext : PolyForm{}, 1);
    std::optional<PolyForm> minus = c ? PolyForm::add(PolyForm{}, *c, -b->second) : std::nullopt;
    if (!minus || !(rest == *minus)) continue;
    uint8_t v = cmp == CmpOp::Eq   ? r.eq
                : cmp == CmpOp::Ne ? r.ne
                : cmp == CmpOp::Lt ? r.lt
                : cmp == CmpOp::Le ? r.le
                : cmp == CmpOp::Gt ? r.gt
                : cmp == CmpOp::Ge ? r.ge
                                   : 0xff;
    if (v != 0xff) return v;
  }
  return std::nullopt;
}

}  // namespace

ChainPlace chainPlace(const Kernel &k, const Scope &where, size_t from, int64_t d) {
  ChainPlace out;
  for (size_t i = from; i < where.size(); ++i) {
    const auto &[stmt, side] = where[i];
    if (side == 0) {
      out.loop = true;
      continue;
    }
    std::optional<PolyForm> p =
        stmt->cond.kind == ValueKind::Bool && stmt->cond.ix != kNoIntExpr && stmt->cond.cmp != CmpOp::None
            ? gridPoly(k, k.ints.form(stmt->cond.ix))
            : std::nullopt;
    std::optional<uint8_t> then = p ? blocksWhere(k, *p, stmt->cond.cmp, d) : std::nullopt;
    if (!then) {
      out.other = true;
      continue;
    }
    out.blocks &= side == 1 ? *then : static_cast<uint8_t>(kEveryBlock & ~*then);
  }
  return out;
}

CrossBlockFacts collectCrossBlock(const Kernel &k, const std::vector<RoleEvents> &roles) {
  CrossBlockFacts facts;
  for (const RoleEvents &r : roles) {
    Walker w{k, {}, facts, {}, {}, 0, {}};
    for (const Event &e : r.events) w.events[e.op] = &e;
    w.walk(r.block->body);
  }
  judgeTileSpread(k, facts.accesses);
  return facts;
}

std::string reductionOrder(const Kernel &k, const CrossBlockFacts &f) {
  bool any = f.paramAdditions, dataAtomics = f.paramAdditions;
  for (const WorkspaceAccess &a : f.accesses) {
    any = true;
    // An atomic or a TMA addition into floating-point elements sums in the
    // order the blocks arrive (atomics update i32 counters today).
    if ((a.kind == WorkspaceAccess::Kind::Atomic || a.reduce) &&
        dtypeInfo(k.resource(a.tensor).dtype).scalar == ScalarKind::Float)
      dataAtomics = true;
  }
  if (!any) return "";
  return dataAtomics ? "atomic: floating-point data is added in the order the blocks arrive, which varies between "
                       "launches"
         : !f.flagWaits.empty()
             ? "fixed order: no atomic adds data; blocks that take turns through a flag (lm.wait_flag) add "
               "what they read in turn order"
             : "fixed order: no atomic adds data (atomics only count blocks); the block that finishes adds "
               "what it reads in its program's order";
}

std::string describeCrossBlock(const Kernel &k, const CrossBlockFacts &f) {
  if (f.accesses.empty() && f.flagWaits.empty() && !f.paramAdditions) return "";
  std::string out = fmt::format("\ncross-block protocols of {}:\n", k.name);
  for (const KernelParam &p : k.params) {
    if (!p.workspace || p.resource == kNoResource) continue;
    const Resource &w = k.resource(p.resource);
    std::map<std::string, std::set<std::string>> by;  // what -> roles
    for (const WorkspaceAccess &a : f.accesses) {
      if (a.tensor != w.id) continue;
      std::string what = a.reduce                                 ? "added into (TMA)"
                         : a.kind == WorkspaceAccess::Kind::Store ? a.async ? "stored (TMA)" : "stored"
                         : a.kind == WorkspaceAccess::Kind::Load  ? a.reset ? "loaded and reset to zero" : "loaded"
                                                                  : "updated atomically";
      if (a.kind != WorkspaceAccess::Kind::Atomic) {
        // The innermost branch on an atomic's old value (an inner one may be
        // on a value read by lm.load_scalar).
        for (auto g = a.guards.rbegin(); g != a.guards.rend(); ++g)
          if (const WorkspaceAccess *at = f.atomic(g->roleValue)) {
            what += fmt::format(" in the branch on the old value of '{}'", k.resource(at->tensor).name);
            break;
          }
      }
      by[what].insert(k.resource(a.event->role).name);
    }
    for (const FlagWait &fw : f.flagWaits)
      if (fw.tensor == w.id) by["waited on in turn (lm.wait_flag)"].insert(k.resource(fw.event->role).name);
    out += fmt::format("  workspace {}: rank {}, {}\n", w.name, w.rank, dtypeInfo(w.dtype).name);
    for (const auto &[what, roles] : by) {
      std::string names;
      for (const std::string &r : roles) names += (names.empty() ? "'" : ", '") + r + "'";
      out += fmt::format("    {} by role {}\n", what, names);
    }
  }
  for (const WorkspaceAccess &a : f.accesses) {
    if (a.kind != WorkspaceAccess::Kind::Atomic || a.op != "add" || !a.value) continue;
    std::string blocks = !a.sharersKnown       ? "unknown (" + a.sharersWhy + ")"
                         : a.sharersDim < 0    ? std::to_string(a.sharersConst)
                         : a.sharersConst == 1 ? fmt::format("lm.num_blocks({})", a.sharersDim)
                                               : fmt::format("{} * lm.num_blocks({})", a.sharersConst, a.sharersDim);
    out += fmt::format("  counter {}: add {} ({}) by role '{}'{}; blocks per element: {}\n", k.resource(a.tensor).name,
                       *a.value,
                       a.order == MemOrder::AcqRel    ? "acq_rel"
                       : a.order == MemOrder::Acquire ? "acquire"
                       : a.order == MemOrder::Release ? "release"
                                                      : "relaxed",
                       k.resource(a.event->role).name, a.once ? ", once per block" : "", blocks);
  }
  out += "  reduction: " + reductionOrder(k, f) + "\n";
  return out;
}

namespace {

PolyForm constPoly(int64_t c) { return PolyForm::of(AffineForm{c, {}}); }
PolyForm atomPoly(AtomId a) { return PolyForm::of(AffineForm{0, {{a, 1}}}); }

// For a load whose loop variable v reads part t - v: t, from the first
// coordinate where v's factor is one monomial (t * factor is what the store
// has there beyond the load with v = -index, up to a constant); nullopt
// otherwise.
std::optional<PolyForm> reverseStart(const std::vector<PolyForm> &pl, const std::vector<PolyForm> &ps, AtomId var,
                                     const PolyForm &index) {
  std::optional<PolyForm> minus = PolyForm::add(constPoly(0), index, -1);
  if (!minus) return std::nullopt;
  for (size_t i = 0; i < pl.size(); ++i) {
    std::vector<AtomId> unit;  // the factor's monomial
    int64_t coef = 0;
    int terms = 0;
    for (const auto &[mono, c] : pl[i].terms) {
      long uses = std::count(mono.begin(), mono.end(), var);
      if (uses > 1) return std::nullopt;
      if (uses != 1) continue;
      unit = mono;
      unit.erase(std::find(unit.begin(), unit.end(), var));
      coef = c, ++terms;
    }
    if (terms == 0) continue;
    if (terms > 1 || unit.empty()) return std::nullopt;
    std::optional<PolyForm> a = IntExprTable::substituteAtom(pl[i], var, *minus);
    std::optional<PolyForm> d = a ? PolyForm::add(ps[i], *a, -1) : std::nullopt;  // t * factor + a constant
    if (!d) return std::nullopt;
    PolyForm t;
    for (const auto &[mono, c] : d->terms) {
      if (mono.empty()) continue;  // the constant stays a constant offset
      std::vector<AtomId> rest = mono;
      for (AtomId u : unit) {
        auto it = std::find(rest.begin(), rest.end(), u);
        if (it == rest.end()) return std::nullopt;
        rest.erase(it);
      }
      if (c % coef != 0) return std::nullopt;
      t.terms[rest] = c / coef;
    }
    return t;
  }
  return std::nullopt;
}

}  // namespace

Containment partContains(const Kernel &k, const WorkspaceAccess &load, const WorkspaceAccess &store,
                         const WorkspaceAccess &counter, std::string &why) {
  const Operand *cl = copyCoords(*load.event->op), *cs = copyCoords(*store.event->op);
  std::vector<int64_t> el = copyExtent(k, *load.event->op), es = copyExtent(k, *store.event->op);
  if (!cl || !cs || cl->value.elts.size() != cs->value.elts.size() || el.size() != es.size()) {
    why = "its coordinates or tile are not known";
    return Containment::Unknown;
  }
  size_t n = cl->value.elts.size();
  std::vector<PolyForm> pl, ps;
  for (size_t i = 0; i < n; ++i) {
    std::optional<PolyForm> a = gridPoly(k, cl->value.elts[i]), b = gridPoly(k, cs->value.elts[i]);
    if (!a || !b) {
      why = "a coordinate has no normal form";
      return Containment::Unknown;
    }
    pl.push_back(*a);
    ps.push_back(*b);
  }
  // The store's block indices of dimensions the counter does not name (the
  // count's blocks differ there), and the load's loop variables. Every
  // other atom must have one value in all blocks of the count: the launch's
  // scalars and grid, the counter's own block indices, operations on them.
  // A sharer index inside another atom (`lm.block_id(1) % 2`), a value read
  // at run time (which may differ between blocks), a store's loop variable,
  // or the last block's own sharer index in the load (which would be taken
  // for the store's) is not judged.
  std::function<bool(AtomId, int)> sameInCount = [&](AtomId atom, int depth) {
    if (launchConstant(k, atom)) return true;
    IntExprTable::AtomView v = k.ints.atomInfo(atom);
    if (v.op == IntOp::BlockId) return counter.blockDims.count(v.value) > 0;
    if (intOpInfo(v.op).arity == 0 || depth > 32) return false;
    for (const AffineForm *f : {v.lhs, v.rhs})
      if (f)
        for (const auto &[a, c] : f->terms)
          if (!sameInCount(a, depth + 1)) return false;
    return true;
  };
  std::map<int64_t, AtomId> sharers;
  std::vector<AtomId> vars;
  for (const PolyForm &p : ps)
    for (const auto &[mono, c] : p.terms)
      for (AtomId a : mono) {
        IntExprTable::AtomView v = k.ints.atomInfo(a);
        if (v.op == IntOp::BlockId && !counter.blockDims.count(v.value)) {
          sharers.emplace(v.value, a);
        } else if (!sameInCount(a, 0)) {
          why = "the store's coordinates depend on something other than block indices, the launch's scalars and "
                "constants (an index through an operation, a value read at run time, a loop variable)";
          return Containment::Unknown;
        }
      }
  for (const PolyForm &p : pl)
    for (const auto &[mono, c] : p.terms)
      for (AtomId a : mono) {
        IntExprTable::AtomView v = k.ints.atomInfo(a);
        bool own = false;
        for (const IrStmt *x : load.event->loops) own |= v.op == IntOp::LoopVar && x->loopId == v.value;
        if (own) {
          if (std::find(vars.begin(), vars.end(), a) == vars.end()) vars.push_back(a);
        } else if (!sameInCount(a, 0)) {
          why = v.op == IntOp::BlockId ? "its coordinates name an index that tells the count's blocks apart (the "
                                         "last block's own)"
                                       : "its coordinates depend on something other than its loops, the counter's "
                                         "block indices, the launch's scalars and constants";
          return Containment::Unknown;
        }
      }
  // A loop variable of the load's own loops either indexes the parts (at
  // most one, below) or moves the read within a part: an offset, its loop's
  // constant bounds giving the range of what it adds.
  constexpr AtomId kNoVar = UINT32_MAX;                  // no variable indexes the parts
  std::map<AtomId, std::pair<int64_t, int64_t>> bounds;  // a variable's [first, last] value
  for (AtomId v : vars)
    for (const IrStmt *x : load.event->loops)
      if (x->loopId == static_cast<uint32_t>(k.ints.atomValue(v)) && x->start.isConstInt() && x->stop.isConstInt() &&
          x->step >= 1 && *x->stop.constInt > *x->start.constInt)
        bounds[v] = {*x->start.constInt, *x->stop.constInt - 1};
  // The load's tile against the store's with the sharer indices given: in
  // every coordinate the store's plus a constant and the offsets' terms
  // (constants times offset variables), inside the store's tile over their
  // ranges.
  auto compare = [&](const std::vector<PolyForm> &a, const std::vector<PolyForm> &b, AtomId indexVar, std::string &w) {
    for (size_t i = 0; i < n; ++i) {
      std::optional<PolyForm> diff = PolyForm::add(a[i], b[i], -1);
      size_t r = el.size();  // coordinates innermost first, extents outermost first (1 beyond the tile's rank)
      int64_t room = i < r ? es[r - 1 - i] - el[r - 1 - i] : 0;
      int64_t lo = 0, hi = 0;
      bool constant = diff.has_value();
      for (const auto &[mono, c] : diff ? diff->terms : std::map<std::vector<AtomId>, int64_t>{}) {
        auto off = mono.size() == 1 && mono[0] != indexVar ? bounds.find(mono[0]) : bounds.end();
        if (mono.empty()) {
          lo += c, hi += c;
        } else if (off != bounds.end()) {
          lo += std::min(c * off->second.first, c * off->second.second);
          hi += std::max(c * off->second.first, c * off->second.second);
        } else {
          constant = false;
        }
      }
      if (!constant) {
        w = fmt::format("its coordinate {} is not the store's plus a constant", i);
        return Containment::Unknown;
      }
      if (room < 0) {
        w = fmt::format("its tile is {} wider than the store's along coordinate {}", -room, i);
        return Containment::No;
      }
      if (lo < 0 || hi > room) {
        w = lo == hi ? fmt::format("its coordinate {} is the store's plus {}, outside the store's tile (0 to {})", i,
                                   lo, room)
                     : fmt::format("its coordinate {} is the store's plus {} to {}, outside the store's tile (0 to {})",
                                   i, lo, hi, room);
        return Containment::No;
      }
    }
    return Containment::Yes;
  };
  std::vector<int64_t> dims;
  for (const auto &[d, a] : sharers) dims.push_back(d);
  std::sort(dims.begin(), dims.end());
  // Every other variable an offset: the count's first block along every
  // sharer dimension is read where no variable indexes the parts.
  auto offsetsKnown = [&](AtomId indexVar) {
    for (AtomId v : vars)
      if (v != indexVar && !bounds.count(v)) return false;
    return true;
  };
  // No: some way of reading the load was compared and every one left the
  // store's tile; nothing compared is not a verdict.
  Containment best = Containment::No;
  bool compared = false;
  why = "its loop variables neither index the parts nor run over constant bounds";
  auto note = [&](Containment c, const std::string &w) {
    compared |= c == Containment::No;
    if (c == Containment::Unknown || best == Containment::No) why = w;
    if (c == Containment::Unknown) best = Containment::Unknown;
  };
  if (offsetsKnown(kNoVar)) {
    std::vector<PolyForm> b = ps;
    for (PolyForm &p : b)
      for (const auto &[d, atom] : sharers)
        if (std::optional<PolyForm> q = IntExprTable::substituteAtom(p, atom, constPoly(0))) p = *q;
    std::string w;
    Containment c = compare(pl, b, kNoVar, w);
    if (c == Containment::Yes) return c;
    note(c, w);
  }
  // One loop variable indexing the parts: the sharer indices read as a
  // mixed radix in some order (the first weighing 1, each next the product
  // of the extents before it), running within [0, the product of all).
  for (AtomId var : vars) {
    if (!offsetsKnown(var) || dims.empty()) continue;
    const IrStmt *loop = nullptr;
    for (const IrStmt *x : load.event->loops)
      if (x->loopId == static_cast<uint32_t>(k.ints.atomValue(var))) loop = x;
    std::optional<PolyForm> stop = loop ? gridPoly(k, loop->stop) : std::nullopt;
    // Where it starts: a constant, or a run-time value at least its lower
    // bound at every launch (`range(1 + (S - 1) // 2 * 2, S)`: at least 1).
    std::optional<int64_t> first;
    if (loop && loop->start.isConstInt())
      first = *loop->start.constInt;
    else if (loop && loop->start.ix != kNoIntExpr)
      first = lowerBound(k, k.ints.form(loop->start.ix));
    if (!loop || !first || *first < 0 || loop->step < 1 || !stop) {
      note(Containment::Unknown, "the loop over its parts does not start at a value proven to be at least 0 (a "
                                 "constant, or one whose lower bound is) and step up");
      continue;
    }
    std::vector<int64_t> order = dims;
    do {
      PolyForm index = constPoly(0), weight = constPoly(1);
      bool ok = true;
      for (int64_t d : order) {
        std::optional<PolyForm> term = PolyForm::mul(weight, atomPoly(sharers.at(d)));
        std::optional<PolyForm> sum = term ? PolyForm::add(index, *term, 1) : std::nullopt;
        std::optional<PolyForm> ext = gridExtentPoly(k, d);
        std::optional<PolyForm> next = ext ? PolyForm::mul(weight, *ext) : std::nullopt;
        if (!sum || !next) {
          ok = false;
          break;
        }
        index = *sum;
        weight = *next;
      }
      if (!ok) continue;
      // The loop may read part v - shift (`range(0, S - 1)` reading s + 1:
      // shift -1): v stands for index + shift, the shift that makes the
      // load's coordinates the store's plus constants where v's factor (its
      // coefficient, a polynomial) says.
      auto substituted = [&](int64_t shift) -> std::optional<std::vector<PolyForm>> {
        std::optional<PolyForm> value = PolyForm::add(index, constPoly(shift), 1);
        std::vector<PolyForm> out;
        for (const PolyForm &p : pl) {
          std::optional<PolyForm> q = value ? IntExprTable::substituteAtom(p, var, *value) : std::nullopt;
          if (!q) return std::nullopt;
          out.push_back(*q);
        }
        return out;
      };
      // Forward: v reads part v - shift.
      auto forward = [&]() -> Containment {
        std::optional<std::vector<PolyForm>> a = substituted(0);
        if (!a) return Containment::Unknown;
        int64_t shift = 0;
        for (size_t i = 0; i < n && ok; ++i) {
          PolyForm factor;  // the terms with v, v taken out
          for (const auto &[mono, c] : pl[i].terms) {
            long uses = std::count(mono.begin(), mono.end(), var);
            if (uses > 1) ok = false;
            if (uses != 1) continue;
            std::vector<AtomId> rest = mono;
            rest.erase(std::find(rest.begin(), rest.end(), var));
            factor.terms[rest] = c;
          }
          std::optional<PolyForm> diff = PolyForm::add((*a)[i], ps[i], -1);
          if (!ok || !diff || factor.terms.empty() || diff->isConstant()) continue;
          // The first monomial of the factor that is not the constant fixes it.
          auto m =
              std::find_if(factor.terms.begin(), factor.terms.end(), [](const auto &t) { return !t.first.empty(); });
          if (m == factor.terms.end()) continue;
          auto d = diff->terms.find(m->first);
          int64_t dc = d == diff->terms.end() ? 0 : d->second;
          if (dc % m->second != 0) continue;
          shift = -dc / m->second;
          break;
        }
        if (!ok) return Containment::Unknown;
        if (shift != 0) a = substituted(shift);
        if (!a) return Containment::Unknown;
        // The parts read (the variable v reads part v - shift) stay within
        // [0, the product of the extents) over the loop: start - shift >= 0
        // and stop - shift <= the product.
        std::optional<int64_t> slack = PolyForm::constantDifference(weight, *stop);
        if (!slack || *slack + shift < 0 || *first - shift < 0) {
          note(Containment::Unknown, "the loop over its parts is not proven to stay below the number of the count's "
                                     "blocks");
          return Containment::Unknown;
        }
        std::string w;
        Containment c = compare(*a, ps, var, w);
        if (c != Containment::Yes) note(c, w);
        return c;
      };
      if (forward() == Containment::Yes) return Containment::Yes;
      // In reverse (part t - v: `S - 1 - s`): v stands for t - index, t a
      // polynomial of values the same in every block of the count that makes
      // the coordinates the store's plus constants.
      std::optional<PolyForm> t = reverseStart(pl, ps, var, index);
      bool uniform = t.has_value();
      for (const auto &[mono, c] : t ? t->terms : std::map<std::vector<AtomId>, int64_t>{})
        for (AtomId a : mono) uniform &= sameInCount(a, 0);
      if (!uniform) continue;
      std::optional<PolyForm> value = PolyForm::add(*t, index, -1);
      std::vector<PolyForm> r;
      for (const PolyForm &p : pl)
        if (std::optional<PolyForm> q = value ? IntExprTable::substituteAtom(p, var, *value) : std::nullopt)
          r.push_back(*q);
      // The parts read, t - v for v in [start, stop), within [0, the
      // product): t - (stop - 1) >= 0 and t - start <= the product - 1.
      std::optional<PolyForm> t1 = PolyForm::add(*t, constPoly(1), 1);
      std::optional<int64_t> low = t1 ? PolyForm::constantDifference(*t1, *stop) : std::nullopt;
      std::optional<int64_t> high = PolyForm::constantDifference(weight, *t);
      if (r.size() != n || !low || *low < 0 || !high || *high - 1 + *first < 0) {
        note(Containment::Unknown, "the loop over its parts in reverse is not proven to stay within the count's "
                                   "blocks");
        continue;
      }
      std::string w;
      Containment cr = compare(r, ps, var, w);
      if (cr == Containment::Yes) return cr;
      note(cr, w);
    } while (std::next_permutation(order.begin(), order.end()));
  }
  return best == Containment::No && !compared ? Containment::Unknown : best;
}

}  // namespace cake::analysis
