// Cross-block hand-offs through the launch's workspace (ProgramSafety's
// sub-check; which role stores, loads and counts what, under which branches,
// is analysis/CrossBlock's):
//  - acquire: a role reads a workspace tensor that other blocks write only
//    in a branch on the old value of an atomic that acquires (order
//    "acquire" or "acq_rel"), which comes before the read;
//  - release: each block's writes of such a tensor come before that atomic,
//    which releases them (order "release" or "acq_rel");
//  - count: the branch takes the block that sees the last count: with N
//    blocks each adding v to the element, the one whose old value is
//    (N - 1) v (N from the grid, when the atomic's coordinates are distinct
//    block indices; otherwise -Wunproven);
//  - reset: that branch returns the counter to 0, so the next launch starts
//    from it;
//  - TMA writes: a TMA store or addition before that atomic is complete
//    there (lm.tma_store_wait(visible=True) between them, nothing left
//    pending);
//  - additions: a tensor the blocks add into (tma_reduce_add) is read back
//    to zero in that branch (load_tile(reset=True) of the same tile), and
//    not stored plainly anywhere else.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "passes/safety/Safety.h"
#include "sema/ConstEval.h"

namespace cake::passes::safety {

namespace {

using Kind = WorkspaceAccess::Kind;

const char *orderName(MemOrder o) {
  switch (o) {
  case MemOrder::Relaxed: return "relaxed";
  case MemOrder::Acquire: return "acquire";
  case MemOrder::Release: return "release";
  case MemOrder::AcqRel: return "acq_rel";
  }
  return "?";
}

bool sameCoords(const Kernel &k, const Operation &a, const Operation &b) {
  const Value &x = a.operand(param::Atomic::coords).value, &y = b.operand(param::Atomic::coords).value;
  if (x.elts.size() != y.elts.size()) return false;
  for (size_t i = 0; i < x.elts.size(); ++i) {
    const Value &p = x.elts[i], &q = y.elts[i];
    if (p.isConstInt() || q.isConstInt()) {
      if (p.constInt != q.constInt) return false;
    } else if (p.ix == kNoIntExpr || q.ix == kNoIntExpr || k.ints.form(p.ix) != k.ints.form(q.ix)) {
      return false;
    }
  }
  return true;
}

class CrossBlockChecks : public Checker {
public:
  using Checker::Checker;

  void run() {
    const CrossBlockFacts &cb = facts_.crossBlock;
    std::set<ResourceId> written, read;
    for (const WorkspaceAccess &a : cb.accesses) (a.kind == Kind::Store ? written : read).insert(a.tensor);
    // 1. Branches on a counter's old value: the ones that take the last block
    // (the count proven) are where other blocks' data may be read.
    std::set<const IrStmt *> valid, checked;
    std::vector<const WorkspaceAccess *> unbranched;
    for (const WorkspaceAccess &a : cb.accesses) {
      if (a.kind != Kind::Atomic || a.roleValue < 0) continue;
      std::set<const IrStmt *> branches;
      for (const WorkspaceAccess &x : cb.accesses)
        for (const CounterGuard &g : x.guards)
          if (g.roleValue == a.roleValue && g.equality) branches.insert(g.branch);
      for (const IrStmt *b : branches) {
        checked.insert(b);
        if (checkCount(a, *b)) valid.insert(b);
        checkReset(a, *b);
      }
      if (branches.empty()) unbranched.push_back(&a);
    }
    // Branches whose count is unproven (-Wunproven said so; not a count
    // proven wrong) are taken as the last block's for the rules below, so
    // that a schedule lowered with -Wno-error=unproven still has its
    // reads acquired and its writes released.
    std::set<const IrStmt *> taken = valid;
    taken.insert(assumedLast_.begin(), assumedLast_.end());
    // A count no branch takes the last block of (`if t < 1:`, a work
    // queue's tickets) is reset by another counter's last block: every
    // block counts it before it counts there, in the same role.
    for (const WorkspaceAccess *a : unbranched)
      if (a->op == "add" && countable(*a) && !resetAfterAll(*a, valid))
        ctx_.diags.build(DiagId::SafetyCounterNotReset, a->event->op->range, name(a->tensor), "the count of its blocks")
            .emit();
    // 2. Reads of what other blocks write: in such a branch, on an atomic
    // that acquires, before them in the same role.
    std::map<ResourceId, std::set<const WorkspaceAccess *>>
        publishers;  // by tensor: the atomics whose branches read it
    for (const WorkspaceAccess &l : cb.accesses) {
      if (l.kind != Kind::Load || !written.count(l.tensor) || ownTile(l) || afterFlagWait(l)) continue;
      const WorkspaceAccess *weak = nullptr, *good = nullptr;
      bool guarded = false, reported = false;
      for (const CounterGuard &g : l.guards) {
        const WorkspaceAccess *a = cb.atomic(g.roleValue);
        if (!a || a->event->role != l.event->role || a->event->index > l.event->index) continue;
        guarded = true;
        if (!g.equality || !taken.count(g.branch)) {
          reported |= g.equality && checked.count(g.branch);  // the count check said why
          continue;
        }
        (acquires(a->order) ? good : weak) = a;
      }
      if (good) {
        publishers[l.tensor].insert(good);
        bool named = true;
        if (good->sharersKnown)
          for (int64_t d : good->blockDims)
            if (!coordDims(*l.event->op).count(d)) {
              named = false;
              ctx_.diags
                  .build(DiagId::SafetyCrossBlockParts, l.event->op->range, name(l.event->role), "reads",
                         name(l.tensor),
                         fmt::format("at coordinates that do not name lm.block_id({}), which tells the blocks of "
                                     "different counts apart: it may read parts of another count's blocks",
                                     d))
                  .note(DiagId::NoteAtomicHere, good->event->op->range, name(good->tensor))
                  .emit();
              break;
            }
        if (named) checkPartRead(l, *good, taken);
        continue;
      }
      if (reported && !weak) continue;
      std::string why =
          weak      ? fmt::format("in a branch on an atomic of order \"{}\", which does not acquire their writes "
                                       "(order=\"acq_rel\" does)",
                                  orderName(weak->order))
          : guarded ? std::string("in a branch that does not take only the last block to count in (the then-branch "
                                  "of 'old == the last count' does)")
                    : std::string("outside a branch on the old value of an atomic that acquires their writes "
                                  "(order=\"acquire\" or \"acq_rel\")");
      auto d = ctx_.diags.build(DiagId::SafetyCrossBlockAcquire, l.event->op->range, name(l.event->role),
                                name(l.tensor), why);
      if (const WorkspaceAccess *s = firstOf(Kind::Store, l.tensor))
        d.note(DiagId::NoteWrittenHere, s->event->op->range, name(l.tensor));
      if (weak) d.note(DiagId::NoteAtomicHere, weak->event->op->range, name(weak->tensor));
      d.emit();
    }
    // 3. Writes of what other blocks read: before the atomic whose branch
    // reads it, in the same role (its meeting orders the role's writes), and
    // that atomic releases them. The fix-up's own writes are exempt.
    for (const WorkspaceAccess &s : cb.accesses) {
      if (s.kind != Kind::Store || !read.count(s.tensor)) continue;
      bool fixUp = false;
      for (const CounterGuard &g : s.guards) fixUp |= g.equality && taken.count(g.branch) > 0;
      auto pub = publishers.find(s.tensor);
      if (fixUp || pub == publishers.end()) continue;  // no proven reader: the acquire rule speaks
      const WorkspaceAccess *after = nullptr, *before = nullptr, *other = nullptr;
      for (const WorkspaceAccess *a : pub->second) {
        if (a->event->role != s.event->role)
          other = a;
        else if (a->event->index > s.event->index)
          after = !after || releases(a->order) ? a : after;
        else
          before = a;
      }
      if (after && releases(after->order)) {
        checkPartStore(s, *after);
        if (s.async && !visibleBetween(s, *after))
          ctx_.diags
              .build(DiagId::SafetyCrossBlockRelease, s.event->op->range, name(s.event->role), name(s.tensor),
                     "but the TMA copy may still be writing when the atomic after it says it is complete: "
                     "lm.tma_store_wait(visible=True) between them waits until its writes are done")
              .note(DiagId::NoteAtomicHere, after->event->op->range, name(after->tensor))
              .emit();
        continue;
      }
      std::string why =
          after    ? fmt::format("and the atomic after it has order \"{}\", which does not release the write "
                                    "(order=\"acq_rel\" does)",
                                 orderName(after->order))
          : before ? std::string("after the atomic that tells them it is complete")
                   : fmt::format("but the atomic that tells them it is complete is role '{}''s, whose meeting does "
                                 "not order this role's writes",
                                 name(other->event->role));
      const WorkspaceAccess *at = after ? after : before ? before : other;
      ctx_.diags.build(DiagId::SafetyCrossBlockRelease, s.event->op->range, name(s.event->role), name(s.tensor), why)
          .note(DiagId::NoteAtomicHere, at->event->op->range, name(at->tensor))
          .emit();
    }
    // 4. Additions: the tile is read back to zero where the count is
    // complete, and nothing stores into it plainly elsewhere.
    checkAdditions(valid);
  }

private:
  // A read after the role's wait on a flag, once per block: the flag rules'
  // (FlagWaits.cpp) judge it.
  bool afterFlagWait(const WorkspaceAccess &l) const {
    for (const FlagWait &w : facts_.crossBlock.flagWaits)
      if (w.once && w.event->role == l.event->role && w.event->index < l.event->index && w.tensor != l.tensor &&
          scopeEncloses(w.where, l.where))
        return true;
    return false;
  }

  // The grid dimensions a form's value changes with (block and cluster
  // indices, through any operation).
  void blockDimsOf(const AffineForm &f, std::set<int64_t> &out, int depth = 0) const {
    if (depth > 32) return;
    for (const auto &[atom, coef] : f.terms) {
      IntExprTable::AtomView v = k_.ints.atomInfo(atom);
      if (v.op == IntOp::BlockId || v.op == IntOp::ClusterId || v.op == IntOp::ClusterBlock) out.insert(v.value);
      if (v.op == IntOp::ClusterRank) out.insert({0, 1, 2});
      if (v.lhs) blockDimsOf(*v.lhs, out, depth + 1);
      if (v.rhs) blockDimsOf(*v.rhs, out, depth + 1);
    }
  }
  std::set<int64_t> coordDims(const Operation &op) const {
    std::set<int64_t> out;
    if (const Operand *c = copyCoords(op))
      for (const Value &e : c->value.elts)
        if (!e.isConstInt() && e.ix != kNoIntExpr) blockDimsOf(k_.ints.form(e.ix), out);
    return out;
  }

  // A read in the last block's branch of counter `a` lies in a part that a
  // block of its count stores (analysis::partContains), by a plain store of
  // the role before the count; tensors written only by additions are the
  // additions rule's.
  void checkPartRead(const WorkspaceAccess &l, const WorkspaceAccess &a, const std::set<const IrStmt *> &valid) {
    std::string why, unknown;
    const WorkspaceAccess *any = nullptr;
    bool decided = true;
    int stores = 0;
    for (const WorkspaceAccess &s : facts_.crossBlock.accesses) {
      if (s.kind != Kind::Store || s.reduce || s.tensor != l.tensor || s.event->role != l.event->role ||
          s.event->index > a.event->index)
        continue;
      bool fixUp = false;
      for (const CounterGuard &g : s.guards) fixUp |= g.equality && valid.count(g.branch) > 0;
      if (fixUp) continue;
      any = &s;
      ++stores;
      std::string w;
      analysis::Containment c = analysis::partContains(k_, l, s, a, w);
      if (c == analysis::Containment::Yes) return;
      if (c == analysis::Containment::Unknown) decided = false, unknown = w;
      why = w;
    }
    if (!any) return;
    // A read against each store alone: with several, their union may hold it
    // (a part stored in two halves), so only a single store decides.
    if (decided && stores > 1) {
      decided = false;
      unknown = fmt::format("the role stores the tensor {} times and the read is compared with each store alone, "
                            "not with what they store together",
                            stores);
    }
    if (decided)
      ctx_.diags
          .build(DiagId::SafetyCrossBlockParts, l.event->op->range, name(l.event->role), "reads", name(l.tensor),
                 fmt::format("outside every part a block of its count stores ({})", why))
          .note(DiagId::NoteWrittenHere, any->event->op->range, name(l.tensor))
          .note(DiagId::NoteAtomicHere, a.event->op->range, name(a.tensor))
          .emit();
    else
      ctx_.diags.build(DiagId::SafetyUnprovenPartRead, l.event->op->range, name(l.event->role), name(l.tensor), unknown)
          .note(DiagId::NoteWrittenHere, any->event->op->range, name(l.tensor))
          .emit();
  }

  // A part a block stores for the last block of its count: stored whenever
  // the block counts itself in (not under a condition, nor in a loop that
  // may run no iteration, that the atomic is outside of), and at
  // coordinates that name every grid dimension of more than one block, so
  // no two blocks store the same tile (additions excepted: reduce-tile).
  void checkPartStore(const WorkspaceAccess &s, const WorkspaceAccess &a) {
    for (const auto &[stmt, side] : s.where) {
      if (std::find(a.where.begin(), a.where.end(), std::make_pair(stmt, side)) != a.where.end()) continue;
      if (side == 0 && loopRunsAtLeastOnce(k_, *stmt)) continue;
      ctx_.diags
          .build(DiagId::SafetyCrossBlockParts, s.event->op->range, name(s.event->role), "stores", name(s.tensor),
                 side == 0 ? std::string("in a loop that may run no iteration, which the atomic that counts the "
                                         "block in is outside of")
                           : std::string("under a condition the atomic that counts the block in does not share"))
          .note(DiagId::NoteAtomicHere, a.event->op->range, name(a.tensor))
          .emit();
      return;
    }
    // Additions share a tile on purpose (reduce-tile), and a plain store
    // into a tensor the blocks add into is reduce-store's.
    for (const WorkspaceAccess &r : facts_.crossBlock.accesses)
      if (r.reduce && r.tensor == s.tensor) return;
    std::set<int64_t> named = coordDims(*s.event->op);
    for (size_t d = 0; d < k_.grid.size(); ++d) {
      const Value &g = k_.grid[d];
      if ((g.isConstInt() && g.constInt == 1) || named.count(static_cast<int64_t>(d))) continue;
      ctx_.diags
          .build(DiagId::SafetyCrossBlockParts, s.event->op->range, name(s.event->role), "stores", name(s.tensor),
                 fmt::format("at coordinates that do not name lm.block_id({}): blocks that differ only there "
                             "store the same tile",
                             d))
          .note(DiagId::NoteAtomicHere, a.event->op->range, name(a.tensor))
          .emit();
      return;
    }
    // Named, and far enough apart (analysis/TileSpread.cpp).
    if (s.spread == Spread::Overlap)
      ctx_.diags
          .build(DiagId::SafetyCrossBlockParts, s.event->op->range, name(s.event->role), "stores", name(s.tensor),
                 "at tiles that overlap: " + s.spreadWhy)
          .note(DiagId::NoteAtomicHere, a.event->op->range, name(a.tensor))
          .emit();
    else if (s.spread == Spread::Unknown)
      ctx_.diags.build(DiagId::SafetyUnprovenPartTiles, s.event->op->range, name(s.tensor), s.spreadWhy)
          .note(DiagId::NoteAtomicHere, a.event->op->range, name(a.tensor))
          .emit();
  }

  // A group wait with visible=True and nothing pending, by the role of `s`
  // after it and before `a`, that runs whenever both do: within every loop
  // and branch around either (not in a branch or loop of its own).
  bool visibleBetween(const WorkspaceAccess &s, const WorkspaceAccess &a) const {
    for (const VisibleWait &w : facts_.crossBlock.visibleWaits)
      if (w.event->role == s.event->role && (w.pending == 0 || retiredAt(s, w)) && w.event->index > s.event->index &&
          w.event->index < a.event->index && scopeEncloses(w.where, s.where) && scopeEncloses(w.where, a.where))
        return true;
    return false;
  }

  // Whether a wait that leaves `pending` groups has completed the copy `s`:
  // at least that many bulk groups are closed after it, by copies of the
  // role between the two that run whenever both do (the same loops, no
  // condition). A wait for reads only (visible=False) completes no write,
  // so it is not counted.
  bool retiredAt(const WorkspaceAccess &s, const VisibleWait &w) const {
    int64_t later = 0;
    for (const RoleEvents &r : roles_)
      if (r.role == s.event->role)
        for (const Event &x : r.events) {
          const OpEffects &fx = x.op->info().effects;
          if (x.index <= s.event->index || x.index >= w.event->index || !fx.closesGroup ||
              fx.group != s.event->op->info().effects.group)
            continue;
          if (x.loops == s.event->loops && x.loops == w.event->loops && !x.conditional && !x.guarded) ++later;
        }
    return later >= w.pending;
  }

  bool sameTile(const WorkspaceAccess &x, const WorkspaceAccess &y) const {
    const Operand *cx = copyCoords(*x.event->op), *cy = copyCoords(*y.event->op);
    if (!cx || !cy || cx->value.elts.size() != cy->value.elts.size()) return false;
    for (size_t i = 0; i < cx->value.elts.size(); ++i) {
      const Value &p = cx->value.elts[i], &q = cy->value.elts[i];
      if (p.isConstInt() || q.isConstInt()) {
        if (p.constInt != q.constInt) return false;
      } else if (p.ix == kNoIntExpr || q.ix == kNoIntExpr || k_.ints.form(p.ix) != k_.ints.form(q.ix)) {
        return false;
      }
    }
    return tileShape(x) == tileShape(y);
  }

  // A tile the block reads back from where it stored it, which no other
  // block writes: a store of the same tile by the same role before it, that
  // runs whenever the read does; every other write of the tensor in the
  // block (any role's) at a tile a constant apart by at least its extent;
  // the blocks' tiles disjoint (no atomic, addition or load with reset=True
  // touches the tensor). The read is by the role's
  // threads (a TMA load of what they stored would need their meeting and a
  // proxy fence first), and a TMA store is written before it
  // (lm.tma_store_wait(visible=True), which the issuing thread waits for,
  // then lm.role_sync() for the others).
  bool ownTile(const WorkspaceAccess &l) const {
    if (l.async) return false;
    bool stored = false;
    for (const WorkspaceAccess &s : facts_.crossBlock.accesses) {
      if (s.tensor != l.tensor || &s == &l || (s.kind == Kind::Load && !s.reset)) continue;
      // A load that zeros its tile is judged by no spread: other blocks'
      // may reach this one's tile.
      if (s.kind != Kind::Store || s.reduce || s.spread != Spread::Disjoint) return false;
      if (apart(s, l)) continue;
      if (s.event->role != l.event->role || s.event->index > l.event->index || !sameTile(s, l) ||
          !scopeEncloses(s.where, l.where) || (s.async && !writtenForRole(s, l)))
        return false;
      stored = true;
    }
    return stored;
  }

  // Tiles of one block that share no element (no loop around either moves
  // them).
  bool apart(const WorkspaceAccess &x, const WorkspaceAccess &y) const {
    return tilesApart(k_, *x.event->op, *y.event->op, /*fixed=*/true);
  }

  // A visible wait for the TMA store `s` before `l`, then a meeting of the
  // role after it, both running whenever `l` does.
  bool writtenForRole(const WorkspaceAccess &s, const WorkspaceAccess &l) const {
    for (const VisibleWait &w : facts_.crossBlock.visibleWaits) {
      if (w.event->role != s.event->role || !(w.pending == 0 || retiredAt(s, w)) || w.event->index <= s.event->index ||
          w.event->index >= l.event->index || !scopeEncloses(w.where, s.where) || !scopeEncloses(w.where, l.where))
        continue;
      for (const RoleEvents &r : roles_)
        if (r.role == s.event->role)
          for (const Event &x : r.events)
            if (x.op->info().effects.syncsRole && !x.conditional && !x.guarded && x.index > w.event->index &&
                x.index < l.event->index && x.loops == w.event->loops)
              return true;
    }
    return false;
  }

  std::vector<int64_t> tileShape(const WorkspaceAccess &a) const {
    const Operation &op = *a.event->op;
    if (a.async) return k_.resource(op.receiver).shape;
    return copyExtent(k_, op);  // a tile between registers and the tensor, its rows bounded where the copy says
  }

  // The atomic whose proven last-block branch `l` runs in unconditionally:
  // directly in that branch, which sits where the atomic does.
  const WorkspaceAccess *lastBlockAtomic(const WorkspaceAccess &l, const std::set<const IrStmt *> &valid) const {
    for (const CounterGuard &g : l.guards) {
      if (!g.equality || !valid.count(g.branch)) continue;
      const WorkspaceAccess *a = facts_.crossBlock.atomic(g.roleValue);
      if (!a || a->event->role != l.event->role || a->event->index > l.event->index) continue;
      Scope expected = a->where;
      expected.emplace_back(g.branch, g.branch->cond.cmp == CmpOp::Eq ? 1 : 2);
      if (l.where == expected) return a;
    }
    return nullptr;
  }

  // Why the tile an addition writes is not shared by exactly the blocks that
  // count at `a` ("" when it is): its coordinates name the counter's block
  // indices, each alone in its coordinate and times a multiple of the tile's
  // extent there (so blocks of different counts add into disjoint tiles),
  // plus parameters and constants.
  std::string tileMismatch(const WorkspaceAccess &r, const WorkspaceAccess &a) const {
    if (!a.sharersKnown) return a.sharersWhy;
    const Operand *coords = copyCoords(*r.event->op);
    std::vector<int64_t> shape = tileShape(r);
    if (!coords || coords->value.elts.size() != shape.size()) return "its coordinates are not known";
    std::set<int64_t> dims;
    for (size_t i = 0; i < coords->value.elts.size(); ++i) {
      const Value &c = coords->value.elts[i];
      if (c.isConstInt()) continue;
      if (c.ix == kNoIntExpr) return "a coordinate has no normal form";
      int64_t extent = shape[shape.size() - 1 - i];  // coordinates innermost first
      int blocks = 0;
      for (const auto &[atom, coef] : k_.ints.form(c.ix).terms) {
        IntExprTable::AtomView v = k_.ints.atomInfo(atom);
        if (v.op != IntOp::BlockId && launchConstant(atom)) continue;
        if (v.op != IntOp::BlockId)
          return "a coordinate depends on something other than block indices, parameters and constants";
        if (++blocks > 1 || !dims.insert(v.value).second)
          return "a coordinate names two block indices, or one is named twice";
        if (coef % extent != 0)
          return fmt::format("lm.block_id({}) steps a coordinate by {}, not a multiple of the tile's {}", v.value, coef,
                             extent);
      }
    }
    if (dims != a.blockDims) return "its coordinates name other block indices than the counter's";
    return "";
  }

  // Whether a normal form, or an atom, reads only the launch's scalar
  // parameters and constants (the same in every block).
  bool launchConstant(const AffineForm &f) const {
    for (const auto &[atom, coef] : f.terms)
      if (!launchConstant(atom)) return false;
    return true;
  }
  bool launchConstant(AtomId atom) const {
    IntExprTable::AtomView v = k_.ints.atomInfo(atom);
    if (v.op == IntOp::Param) return true;
    const IntOpInfo &info = intOpInfo(v.op);
    if (info.arity == 0) return false;  // a block index, a loop variable, a value read where it runs, ...
    return launchConstant(*v.lhs) && (info.arity == 1 || launchConstant(*v.rhs));
  }

  void checkAdditions(const std::set<const IrStmt *> &valid) {
    const CrossBlockFacts &cb = facts_.crossBlock;
    std::set<ResourceId> reported;
    for (const WorkspaceAccess &r : cb.accesses) {
      if (!r.reduce) continue;
      // The tile read back to zero where the count is complete, by a read
      // that runs there unconditionally, nothing written into it after.
      const WorkspaceAccess *reset = nullptr, *counter = nullptr;
      for (const WorkspaceAccess &l : cb.accesses)
        if (l.kind == Kind::Load && l.reset && l.tensor == r.tensor && sameTile(l, r))
          if (const WorkspaceAccess *a = lastBlockAtomic(l, valid)) reset = &l, counter = a;
      if (!reset) {
        if (reported.insert(r.tensor).second)
          ctx_.diags.build(DiagId::SafetyReduceNotReset, r.event->op->range, name(r.tensor), "tma_reduce_add").emit();
        continue;
      }
      if (std::string why = tileMismatch(r, *counter); !why.empty())
        ctx_.diags.build(DiagId::SafetyReduceTile, r.event->op->range, name(r.tensor), name(counter->tensor), why)
            .note(DiagId::NoteAtomicHere, counter->event->op->range, name(counter->tensor))
            .emit();
      for (const WorkspaceAccess &x : cb.accesses)
        if (x.tensor == r.tensor && x.event->role == reset->event->role && x.event->index > reset->event->index &&
            (x.kind == Kind::Store || (x.kind == Kind::Load && x.reset && &x != reset)) &&
            reported.insert(x.tensor).second)
          ctx_.diags.build(DiagId::SafetyReduceAfterReset, x.event->op->range, name(x.event->role), name(x.tensor))
              .note(DiagId::NoteResetHere, reset->event->op->range, name(x.tensor))
              .emit();
    }
    auto inValid = [&](const WorkspaceAccess &a) {
      for (const CounterGuard &g : a.guards)
        if (g.equality && valid.count(g.branch)) return true;
      return false;
    };
    for (const WorkspaceAccess &s : cb.accesses) {
      if (s.kind != Kind::Store || s.reduce || inValid(s)) continue;
      const WorkspaceAccess *adder = nullptr;
      for (const WorkspaceAccess &r : cb.accesses)
        if (r.reduce && r.tensor == s.tensor) adder = adder ? adder : &r;
      if (!adder) continue;
      ctx_.diags
          .build(DiagId::SafetyReduceStore, s.event->op->range, name(s.event->role), name(s.tensor), "tma_reduce_add")
          .note(DiagId::NoteWrittenHere, adder->event->op->range, name(adder->tensor))
          .emit();
    }
  }

  const WorkspaceAccess *firstOf(Kind kind, ResourceId t) const {
    for (const WorkspaceAccess &a : facts_.crossBlock.accesses)
      if (a.kind == kind && a.tensor == t) return &a;
    return nullptr;
  }

  std::string condText(const IrStmt &b) const {
    return b.cond.expr ? sourceText(ctx_.sm, b.cond.expr->range) : std::string("?");
  }

  bool unproven(const WorkspaceAccess &a, const IrStmt &b, const std::string &why) {
    assumedLast_.insert(&b);
    ctx_.diags.build(DiagId::SafetyUnprovenCrossBlock, b.range, name(a.tensor), why)
        .note(DiagId::NoteAtomicHere, a.event->op->range, name(a.tensor))
        .emit();
    return false;
  }

  // The branch `old == E` takes the last block: E = (N - 1) v.
  bool checkCount(const WorkspaceAccess &a, const IrStmt &b) {
    if (a.op != "add" || !a.value || *a.value <= 0) return unproven(a, b, "it is not an add of a positive constant");
    if (!a.once) return unproven(a, b, "the atomic runs in a loop or under a condition, not once per block");
    if (a.scope != "gpu")
      return unproven(a, b, fmt::format("its scope \"{}\" orders only the blocks of one cluster", a.scope));
    // Every statement, and every role of a family, adds its own count; an
    // exchange counts too unless it sits in a branch on this count's old
    // value (the reset: checkReset says whether it is one), since an
    // exchange elsewhere (a reset at the start) loses other blocks' adds.
    int adds = 0;
    bool exchange = false;  // an exchange outside the branch
    for (const WorkspaceAccess &x : facts_.crossBlock.accesses) {
      if (x.kind != Kind::Atomic || x.tensor != a.tensor) continue;
      bool reset = false;
      for (const CounterGuard &g : x.guards) reset |= x.op == "exch" && g.equality && g.roleValue == a.roleValue;
      adds += !reset;
      exchange |= !reset && x.op == "exch";
    }
    if (adds > 1)
      return unproven(a, b,
                      exchange ? fmt::format("{} atomics of the kernel update it, one an exchange outside the branch "
                                             "on its old value, which may wipe out other blocks' counts",
                                             adds)
                               : fmt::format("{} atomics of the kernel update it, each adding its own count", adds));
    if (!a.sharersKnown) return unproven(a, b, a.sharersWhy);
    if (b.cond.ix == kNoIntExpr) return unproven(a, b, "its condition has no normal form");
    // cond: old - E == 0, as a normal form; make the old value's coefficient 1.
    AffineForm c = k_.ints.form(b.cond.ix);
    int64_t sign = 0;
    AffineForm rest;  // E's negation: old + rest == 0
    for (const auto &[atom, coef] : c.terms) {
      IntExprTable::AtomView v = k_.ints.atomInfo(atom);
      if (v.op == IntOp::RoleValue && v.value == a.roleValue && (coef == 1 || coef == -1))
        sign = coef;
      else
        rest.terms.push_back({atom, coef});
    }
    if (sign == 0) return unproven(a, b, "its condition does not compare the old value itself");
    rest.constant = c.constant * sign;
    for (auto &t : rest.terms) t.second *= sign;
    int64_t v = *a.value, n = a.sharersConst;
    std::string blocks = a.sharersDim < 0 ? std::to_string(n)
                         : n == 1         ? fmt::format("lm.num_blocks({})", a.sharersDim)
                                          : fmt::format("{} * lm.num_blocks({})", n, a.sharersDim);
    std::string last = a.sharersDim < 0 ? std::to_string((n - 1) * v)
                       : v == 1         ? blocks + " - 1"
                                        : fmt::format("{} * {} - {}", blocks, v, v);
    bool match = false, decided = true;
    if (a.sharersDim < 0) {
      match = rest.terms.empty() && -rest.constant == (n - 1) * v;
      decided = rest.terms.empty();
    } else {
      // E = n v NB(d) - v: rest = -n v NB(d) + v.
      match = rest.constant == v && rest.terms.size() == 1 && rest.terms[0].second == -n * v &&
              k_.ints.atomInfo(rest.terms[0].first).op == IntOp::NumBlocks &&
              k_.ints.atomInfo(rest.terms[0].first).value == a.sharersDim;
      // A constant E is decidably wrong for a run-time count only as a
      // matter of shapes; a different run-time expression is not decided.
      decided = rest.terms.size() == 1 && k_.ints.atomInfo(rest.terms[0].first).op == IntOp::NumBlocks;
    }
    if (match) return true;
    if (!decided)
      return unproven(a, b,
                      fmt::format("the last of the {} block(s) adding {} sees {}; the condition compares the "
                                  "old value with something else",
                                  blocks, v, last));
    ctx_.diags.build(DiagId::SafetyCrossBlockCount, b.range, condText(b), name(a.tensor), blocks, v, last)
        .note(DiagId::NoteAtomicHere, a.event->op->range, name(a.tensor))
        .emit();
    return false;
  }

  // The grid dimensions an atomic's coordinates name, when they are
  // integers of block indices, the launch's scalars and constants only
  // (not loop variables or values read at run time).
  std::optional<std::set<int64_t>> atomicDims(const Operation &op) const {
    std::set<int64_t> out;
    for (const Value &e : op.operand(param::Atomic::coords).value.elts) {
      if (e.isConstInt()) continue;
      if (e.ix == kNoIntExpr) return std::nullopt;
      const AffineForm &f = k_.ints.form(e.ix);
      for (const auto &[atom, coef] : f.terms) {
        IntExprTable::AtomView v = k_.ints.atomInfo(atom);
        if (v.op == IntOp::BlockId)
          out.insert(v.value);
        else if (!launchConstant(atom))
          return std::nullopt;
      }
    }
    return out;
  }

  // An atomic the lowering takes (an i32 element named by as many
  // coordinates as the tensor has dimensions); others are refused there.
  bool countable(const WorkspaceAccess &a) const {
    const Resource &t = k_.resources[a.tensor];
    if (a.scope == "cluster" && !targetInfo(ctx_.module.target).clusters) return false;
    return t.workspace && t.dtype == DType::I32 &&
           a.event->op->operand(param::Atomic::coords).value.elts.size() == t.workspaceShape.size();
  }

  // Whether `a`'s element is reset after every block's last update of it:
  // by another add to it at the same coordinates with an equality branch
  // (whose own checks ask for the reset there), or by an exchange with 0
  // at the same coordinates directly in a proven last-block branch of a
  // counter the role updates once per block after `a`.
  bool resetAfterAll(const WorkspaceAccess &a, const std::set<const IrStmt *> &valid) const {
    const CrossBlockFacts &cb = facts_.crossBlock;
    for (const WorkspaceAccess &x : cb.accesses) {
      if (&x == &a || x.kind != Kind::Atomic || x.tensor != a.tensor || !sameCoords(k_, *x.event->op, *a.event->op))
        continue;
      for (const CounterGuard &g : x.guards) {
        const WorkspaceAccess *c = cb.atomic(g.roleValue);
        if (x.op == "add" || !c || !g.equality || !valid.count(g.branch)) continue;
        Scope expected = c->where;
        expected.emplace_back(g.branch, g.branch->cond.cmp == CmpOp::Eq ? 1 : 2);
        // The blocks that update `a`'s element are exactly those that count
        // at `c`'s: the same coordinates, integers of block indices and the
        // launch's scalars (a finer count resets while others still
        // update; a coarser one resets only its last block's element).
        bool covers = atomicDims(*a.event->op) && sameCoords(k_, *a.event->op, *c->event->op);
        if (x.op == "exch" && x.value == 0 && x.where == expected && c->once && c->event->role == a.event->role &&
            a.event->index < c->event->index && covers)
          return true;
      }
      for (const WorkspaceAccess &y : cb.accesses)
        for (const CounterGuard &g : y.guards)
          if (x.op == "add" && g.roleValue == x.roleValue && g.equality) return true;
    }
    return false;
  }

  // The branch returns the element to 0: an exchange with 0 at the same
  // coordinates, directly in it (not under a further condition or in a
  // loop, which may not run it: the next launch would start from the count).
  void checkReset(const WorkspaceAccess &a, const IrStmt &b) {
    if (a.op != "add") return;
    Scope expected = a.where;
    expected.emplace_back(&b, b.cond.cmp == CmpOp::Eq ? 1 : 2);
    for (const WorkspaceAccess &x : facts_.crossBlock.accesses) {
      if (x.kind != Kind::Atomic || x.tensor != a.tensor || x.op != "exch" || x.value != 0) continue;
      if (x.where == expected && x.event->role == a.event->role && sameCoords(k_, *x.event->op, *a.event->op)) return;
    }
    ctx_.diags.build(DiagId::SafetyCounterNotReset, a.event->op->range, name(a.tensor), "the count of its blocks")
        .note(DiagId::NoteCountComplete, b.range, name(a.tensor))
        .emit();
  }

  // Branches on an old value whose count checkCount could not prove.
  std::set<const IrStmt *> assumedLast_;
};

// The blocks of a cluster that meet at each other's barriers (a multicast
// copy completes on every block's barrier; an arrive with cluster=True lands
// in every block) run those operations equally often: the per-block proofs
// of the other sub-checks hold in each block, and the counts agree between
// blocks only where the loops and guards around such an operation are the
// same in every block of the cluster (analysis::clusterVarying). Reported
// once per role and loop (or guard).
class ClusterCounts : public Checker {
public:
  using Checker::Checker;
  void run() {
    if (clusterSize(k_) <= 1) return;
    std::set<std::pair<ResourceId, const void *>> reported;
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        bool multicast = multicastCount(*e.op) > 0;
        if (!multicast && !signalsCluster(*e.op)) continue;
        std::string what = fmt::format("{} at {}:{}", multicast ? "multicast copy" : "arrival in every block",
                                       e.op->range.begin.line, e.op->range.begin.col);
        for (const IrStmt *loop : e.loops)
          for (const Value *bound : {&loop->start, &loop->stop, &loop->stepValue}) {
            if (bound->kind == ValueKind::None) continue;
            std::optional<std::string> why;
            if (std::optional<AffineForm> f = boundForm(k_, *bound))
              why = clusterVarying(k_, *f);
            else if (!bound->constInt)
              why = "a bound the analysis cannot read";
            if (!why || !reported.insert({e.role, loop}).second) continue;
            ctx_.diags.report(DiagId::SafetyUnprovenClusterCount, loop->range, name(e.role), what,
                              fmt::format("the loop over '{}' around it has a bound that uses {}, which may differ "
                                          "between the cluster's blocks",
                                          loop->loopVar, *why));
          }
        if (e.guarded)
          for (const AffineForm *f : {&e.first, &e.end})
            if (std::optional<std::string> why = clusterVarying(k_, *f); why && reported.insert({e.role, e.op}).second)
              ctx_.diags.report(DiagId::SafetyUnprovenClusterCount, e.op->range, name(e.role), what,
                                fmt::format("the condition around it uses {}, which may differ between the "
                                            "cluster's blocks",
                                            *why));
      }
  }
};

}  // namespace

void checkCrossBlock(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  CrossBlockChecks(ctx, k, f).run();
}

void checkClusterCounts(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  ClusterCounts(ctx, k, f).run();
}

}  // namespace cake::passes::safety
