// Blocks that take turns through a flag (ProgramSafety's sub-check; where
// each wait, exchange and workspace access sits is analysis/CrossBlock's).
//
// The protocol it proves: the blocks that share a flag's element differ in
// one grid dimension d (the flag's coordinates name every other), and
// block b waits until the flag holds a * b; after its wait it passes the
// turn on with lm.atomic(..., value=a * (b + 1), op="exch",
// order="release") in every block but the last, and the last returns the
// flag to 0 (the value the first block waits for, and the workspace's
// between launches). By induction every block's value is written by the
// block before it once that block has had its turn, so no wait is left
// unreleased; the launcher makes every block resident at once (a
// cooperative launch), so the blocks waited for are running.
//  - data: a workspace tile a block reads after its wait is one the blocks
//    of its chain store after their wait and before passing the turn, at
//    the same coordinates, in disjoint tiles for different chains; the
//    first block reads none (no block of the launch has written it), and a
//    block reads it before passing the turn (the next block writes it then).
// Anything else on a flag is -Wunproven (safety.unproven-flag); a wait left
// unreleased, a turn passed with the wrong value or without release order,
// a flag left set, or a data access out of turn is an error
// (safety.cross-block-flag).
#include <fmt/format.h>

#include <set>

#include "passes/safety/Safety.h"

namespace cake::passes::safety {

namespace {

using Kind = WorkspaceAccess::Kind;

class FlagChecks : public Checker {
public:
  using Checker::Checker;

  void run() {
    for (const FlagWait &w : facts_.crossBlock.flagWaits)
      if (check(w) == Outcome::Unproven) unjudgedReads(w);
  }

private:
  enum class Outcome : uint8_t { Proven, Unproven, Error };
  std::set<const WorkspaceAccess *> provenReads_;  // reads checkData proved in turn

  Outcome unproven(const FlagWait &w, const std::string &why) {
    ctx_.diags.report(DiagId::SafetyUnprovenFlag, w.event->op->range, name(w.tensor), why);
    return Outcome::Unproven;
  }
  Outcome error(const SourceRange &at, const FlagWait &w, const std::string &why) {
    auto d = ctx_.diags.build(DiagId::SafetyCrossBlockFlag, at, name(w.tensor), why);
    if (at.begin.line != w.event->op->range.begin.line || at.begin.col != w.event->op->range.begin.col)
      d.note(DiagId::NoteFlagWaitHere, w.event->op->range, name(w.tensor));
    d.emit();
    return Outcome::Error;
  }

  // The reads this wait orders: workspace tensors some block stores, read
  // by the waiting role after it and after no later wait of the role
  // (which orders them instead).
  std::vector<const WorkspaceAccess *> readsAfter(const FlagWait &w) const {
    const CrossBlockFacts &cb = facts_.crossBlock;
    std::vector<const WorkspaceAccess *> out;
    if (!w.once) return out;  // CrossBlock.cpp judges reads after a wait in a loop or branch
    for (const WorkspaceAccess &l : cb.accesses) {
      if (l.kind != Kind::Load || l.event->role != w.event->role || l.event->index < w.event->index ||
          l.tensor == w.tensor || !scopeEncloses(w.where, l.where))
        continue;
      bool stored = false, later = false;
      for (const WorkspaceAccess &s : cb.accesses) stored |= s.kind == Kind::Store && s.tensor == l.tensor;
      for (const FlagWait &x : cb.flagWaits)
        later |= x.once && x.event->role == w.event->role && x.event->index > w.event->index &&
                 x.event->index < l.event->index && scopeEncloses(x.where, l.where);
      if (stored && !later) out.push_back(&l);
    }
    return out;
  }

  // Reads after a wait whose turns are not proven: the cross-block rules
  // (CrossBlock.cpp) left them to this one, which cannot order them, so
  // they stay errors under -Wno-error=unproven.
  void unjudgedReads(const FlagWait &w) {
    for (const WorkspaceAccess *l : readsAfter(w))
      if (!provenReads_.count(l))
        ctx_.diags
            .build(DiagId::SafetyCrossBlockAcquire, l->event->op->range, name(l->event->role), name(l->tensor),
                   fmt::format("after a wait on flag '{}' whose turns are not proven (safety.unproven-flag)",
                               name(w.tensor)))
            .note(DiagId::NoteFlagWaitHere, w.event->op->range, name(w.tensor))
            .emit();
  }

  std::optional<PolyForm> poly(const Value &v) const { return gridPoly(k_, v); }

  // Whether two operations name the same element: equal coordinates.
  bool sameElement(const Operation &a, const Operation &b) const {
    const Operand *x = copyCoords(a), *y = copyCoords(b);
    if (!x || !y || x->value.elts.size() != y->value.elts.size()) return false;
    for (size_t i = 0; i < x->value.elts.size(); ++i) {
      std::optional<PolyForm> p = poly(x->value.elts[i]), q = poly(y->value.elts[i]);
      if (!p || !q || !(*p == *q)) return false;
    }
    return true;
  }

  // Whether a form reads lm.block_id(d).
  bool readsBlock(const PolyForm &p, int64_t d) const {
    for (const auto &[mono, c] : p.terms)
      for (AtomId a : mono)
        if (k_.ints.atomInfo(a).op == IntOp::BlockId && k_.ints.atomInfo(a).value == d) return true;
    return false;
  }

  std::string blockText(int64_t d) const { return fmt::format("lm.block_id({})", d); }

  Outcome check(const FlagWait &w) {
    const CrossBlockFacts &cb = facts_.crossBlock;
    if (!w.sharersKnown) return unproven(w, w.sharersWhy);
    if (!w.once)
      return unproven(w, "it runs in a loop, or under a condition the blocks that share its element may decide "
                         "differently, not once per block");
    // The chain: the one grid dimension of more than one block the flag's
    // coordinates do not name.
    std::vector<int64_t> chains;
    for (size_t d = 0; d < k_.grid.size(); ++d) {
      const Value &g = k_.grid[d];
      if (!w.blockDims.count(static_cast<int64_t>(d)) && !(g.isConstInt() && *g.constInt == 1))
        chains.push_back(static_cast<int64_t>(d));
    }
    if (chains.size() != 1)
      return unproven(w, chains.empty() ? "its coordinates name every grid dimension, so no other block shares its "
                                          "element"
                                        : "the blocks that share its element differ in more than one grid dimension");
    const int64_t d = chains.front();
    const std::string b = blockText(d);
    // The classes of blocks the dimension has: a constant extent of 2 has no
    // middle block, and only a run-time one may be a single block.
    uint8_t possible = kEveryBlock;
    if (const Value &g = k_.grid[static_cast<size_t>(d)]; g.isConstInt())
      possible = *g.constInt == 2 ? kFirstBlock | kLastBlock : kFirstBlock | kMiddleBlocks | kLastBlock;
    auto place = [&](const Scope &where, size_t from) {
      ChainPlace p = chainPlace(k_, where, from, d);
      p.blocks &= possible;
      return p;
    };
    // Its value: a * b.
    std::optional<PolyForm> wv = poly(w.event->op->operand(param::WaitFlag::value).value);
    int64_t a = 0;
    PolyForm rest;
    if (wv)
      for (const auto &[mono, c] : wv->terms) {
        if (mono.size() == 1 && k_.ints.atomInfo(mono[0]).op == IntOp::BlockId && k_.ints.atomInfo(mono[0]).value == d)
          a = c;
        else
          rest.terms[mono] = c;
      }
    if (a == 0 || !rest.isConstant())
      return unproven(w, fmt::format("the value it waits for is not a constant times {}, the index of the blocks "
                                     "that share its element",
                                     b));
    if (a > 32767 || a < -32767)
      return unproven(w, fmt::format("the values {} * {} it waits for may leave the range of an i32", a, b));
    if (rest.constant() != 0 && (rest.constant() > 0) != (a > 0))
      return unproven(w, fmt::format("the first turn is not the block with {} = 0", b));
    // Every update of the flag: an exchange at the same element by the same
    // role, after the wait: a release of a * (b + 1), or a reset to 0.
    std::vector<const WorkspaceAccess *> passes, resets;
    for (const WorkspaceAccess &x : cb.accesses) {
      if (x.tensor != w.tensor || (x.kind == Kind::Load && !x.reset)) continue;
      const SourceRange &at = x.event->op->range;
      // Outside the wait's branches an update runs where the blocks did not
      // wait (or runs again where they did).
      if (!scopeEncloses(w.where, x.where))
        return unproven(w, fmt::format("it is also updated at {}:{}, outside the branches around the wait",
                                       at.begin.line, at.begin.col));
      if (x.kind != Kind::Atomic)
        return unproven(w, fmt::format("it is also written by a {} at {}:{}",
                                       x.kind == Kind::Store ? "store of a tile" : "load with reset=True",
                                       at.begin.line, at.begin.col));
      if (x.event->role != w.event->role || x.op != "exch" || !sameElement(*x.event->op, *w.event->op))
        return unproven(w, fmt::format("it is also updated by an atomic {} at {}:{} that is not an exchange of the "
                                       "same element by role '{}'",
                                       x.op, at.begin.line, at.begin.col, name(w.event->role)));
      std::optional<PolyForm> v = poly(x.event->op->operand(param::Atomic::value).value);
      std::optional<int64_t> diff = v && wv ? PolyForm::constantDifference(*v, *wv) : std::nullopt;
      const bool known = diff.has_value();
      const int64_t delta = diff.value_or(0);
      if (v && v->terms.empty()) {
        resets.push_back(&x);
      } else if (known && delta == a) {
        passes.push_back(&x);
      } else if (known) {
        return error(at, w,
                     fmt::format("the exchange writes {} more than the block waited for, but the block after it "
                                 "waits for {} more: that block waits for ever",
                                 delta, a));
      } else {
        return unproven(w, fmt::format("the exchange at {}:{} writes a value that is neither 0 nor {} more than the "
                                       "one the block waited for",
                                       at.begin.line, at.begin.col, a));
      }
    }
    // The first block waits for 0. Values a * b + c with c of a's sign are
    // all of that sign, and only exchanges of a * (b + 1) + c write them:
    // none writes the first block's; with c of the other sign the turns
    // start at another block, which the rules here do not follow.
    if (rest.constant() != 0) {
      return error(w.event->op->range, w,
                   fmt::format("the block with {} = 0 waits for it to hold {}, but it holds 0 when the launch starts "
                               "and only blocks after that one write it: that block waits for ever",
                               b, rest.constant()));
    }
    // The turn passed on in every block but the last, after the wait.
    uint8_t passing = 0;
    std::vector<std::pair<const WorkspaceAccess *, uint8_t>> passPlaces;  // each pass and the blocks it runs in
    for (const WorkspaceAccess *r : passes) {
      const SourceRange &at = r->event->op->range;
      ChainPlace p = place(r->where, w.where.size());
      if (r->event->index < w.event->index)
        return error(at, w, "the turn is passed on before the block's own wait, so the blocks do not take turns");
      if (!releases(r->order))
        return error(at, w,
                     fmt::format("the exchange that passes the turn on has order \"{}\": the block after it may not "
                                 "see what this one wrote (order=\"release\")",
                                 r->order == MemOrder::Acquire ? "acquire" : "relaxed"));
      if (r->scope != "gpu")
        return error(at, w,
                     fmt::format("the exchange has scope \"{}\", which does not order other blocks' reads "
                                 "(scope=\"gpu\")",
                                 r->scope));
      if (p.loop || p.other)
        return unproven(w, fmt::format("the exchange at {}:{} that passes the turn on is in a loop or under a "
                                       "condition on something other than {}",
                                       at.begin.line, at.begin.col, b));
      passing |= p.blocks;
      passPlaces.emplace_back(r, p.blocks);
    }
    const uint8_t before = (kFirstBlock | kMiddleBlocks) & possible, last = (kLastBlock | kOnlyBlock) & possible;
    if ((passing & before) != before)
      return error(w.event->op->range, w,
                   fmt::format("{} does not pass the turn on: the block after it waits for ever (after the wait, "
                               "in every block but the last: lm.atomic(..., value={}, op=\"exch\", "
                               "order=\"release\"))",
                               (passing & kFirstBlock) == 0 ? "the first block (" + b + " = 0)"
                                                            : "a block between the first and the last",
                               a == 1 ? b + " + 1" : fmt::format("({} + 1) * {}", b, a)));
    // The flag back at 0 when the launch ends: reset by the last block (and
    // by the only one), never by one that passes the turn on.
    uint8_t resetting = 0;
    for (const WorkspaceAccess *r : resets) {
      ChainPlace p = place(r->where, w.where.size());
      const SourceRange &at = r->event->op->range;
      if (p.loop || p.other || r->event->index < w.event->index)
        return unproven(w, fmt::format("the reset at {}:{} is in a loop, under a condition on something other "
                                       "than {}, or before the wait",
                                       at.begin.line, at.begin.col, b));
      if (p.blocks & before)
        return unproven(w, fmt::format("the reset at {}:{} runs in blocks before the last, where it may undo the "
                                       "turn they pass on",
                                       at.begin.line, at.begin.col));
      resetting |= p.blocks;
    }
    if ((passing & last) || (resetting & last) != last)
      return error(w.event->op->range, w,
                   fmt::format("the last block ({0} = lm.num_blocks({1}) - 1) leaves it at {2} when the launch "
                               "ends, and the next launch's first block waits for 0 for ever: reset it there, "
                               "after the wait: lm.atomic(..., value=0, op=\"exch\") in the branch of {0} == "
                               "lm.num_blocks({1}) - 1",
                               b, d,
                               (a == 1 ? "" : std::to_string(a) + " * ") + fmt::format("lm.num_blocks({})", d) +
                                   ((passing & last) ? " (its own pass)" : " - " + std::to_string(a))));
    return checkData(w, d, possible, passing, passPlaces);
  }

  // The workspace the role reads after its wait: handed on in turn.
  // `passing`: the blocks that pass the turn on; `passes`: each pass and the
  // blocks it runs in.
  Outcome checkData(const FlagWait &w, int64_t d, uint8_t possible, uint8_t passing,
                    const std::vector<std::pair<const WorkspaceAccess *, uint8_t>> &passes) {
    const CrossBlockFacts &cb = facts_.crossBlock;
    const std::string b = blockText(d);
    Outcome out = Outcome::Proven;
    auto worst = [&](Outcome o) { out = std::max(out, o); };
    // Reads and stores lie within the wait's branches (readsAfter, and the
    // check of each store below): their places count from there.
    auto place = [&](const Scope &where) {
      ChainPlace p = chainPlace(k_, where, w.where.size(), d);
      p.blocks &= possible;
      return p;
    };
    auto where = [](const WorkspaceAccess &x) {
      return fmt::format("{}:{}", x.event->op->range.begin.line, x.event->op->range.begin.col);
    };
    // Whether a block of `blocks` has passed the turn on before `x`.
    auto afterPass = [&](const WorkspaceAccess &x, uint8_t blocks) {
      for (const auto &[p, in] : passes)
        if (p->event->index < x.event->index && (in & blocks)) return true;
      return false;
    };
    for (const WorkspaceAccess *lp : readsAfter(w)) {
      const WorkspaceAccess &l = *lp;
      std::vector<WorkspaceAccess> stores;
      for (const WorkspaceAccess &s : cb.accesses)
        if (s.kind == Kind::Store && s.tensor == l.tensor) stores.push_back(s);
      const SourceRange &at = l.event->op->range;
      if (l.async) {
        worst(unproven(w, fmt::format("the TMA load of '{}' at {} after it is not covered", name(l.tensor), where(l))));
        continue;
      }
      ChainPlace rp = place(l.where);
      if (rp.other) {
        worst(unproven(w, fmt::format("the read of '{}' at {} is under a condition on something other than {}",
                                      name(l.tensor), where(l), b)));
        continue;
      }
      if (rp.blocks & (kFirstBlock | kOnlyBlock)) {
        worst(error(at, w,
                    fmt::format("the first block ({} = 0) reads '{}', which no block of this launch has written "
                                "before it (it holds the previous launch's data): read it where {} > 0",
                                b, name(l.tensor), b)));
        continue;
      }
      if (afterPass(l, rp.blocks)) {
        worst(error(at, w,
                    fmt::format("role '{}' reads '{}' after passing the turn on, while the block after it may be "
                                "writing it: read it before the exchange",
                                name(l.event->role), name(l.tensor))));
        continue;
      }
      // Every store of the tensor: the tile read, in every block that passes,
      // after its wait and before its pass, or before its wait in the first
      // block only (no block before it reads); a store after a pass would
      // write what the block after it may be reading.
      uint8_t stored = 0;
      bool judged = true;
      for (const WorkspaceAccess &s : stores) {
        const SourceRange &st = s.event->op->range;
        if (!scopeEncloses(w.where, s.where)) {
          worst(unproven(w, fmt::format("'{}' is also written at {}, outside the branches around the wait",
                                        name(l.tensor), where(s))));
          judged = false;
          break;
        }
        ChainPlace sp = place(s.where);
        if (s.event->role != w.event->role || s.async || s.reduce) {
          worst(unproven(
              w, fmt::format("'{}' is also written at {} by a TMA copy or another role", name(l.tensor), where(s))));
          judged = false;
          break;
        }
        const bool early = s.event->index < w.event->index, late = afterPass(s, sp.blocks);
        if ((early && (sp.blocks & (kMiddleBlocks | kLastBlock))) || late) {
          worst(error(st, w,
                      fmt::format("role '{}' writes '{}' {}, while {} may be reading it: write it between the wait "
                                  "and the exchange that passes the turn on",
                                  name(s.event->role), name(s.tensor),
                                  early ? "before its wait for its turn" : "after passing the turn on",
                                  early ? "the block before it" : "the block after it")));
          judged = false;
          break;
        }
        const Operand *cs = copyCoords(*s.event->op);
        bool same = cs && copyCoords(*l.event->op) && sameElement(*s.event->op, *l.event->op) &&
                    copyExtent(k_, *s.event->op) == copyExtent(k_, *l.event->op);
        bool chainFree = true;
        if (cs)
          for (const Value &c : cs->value.elts) {
            std::optional<PolyForm> p = poly(c);
            chainFree &= p && !readsBlock(*p, d);
          }
        if (!same || !chainFree || sp.other) {
          worst(unproven(w, fmt::format("the write of '{}' at {} is not the tile read at {} (the same coordinates, "
                                        "which do not name {})",
                                        name(s.tensor), where(s), where(l), b)));
          judged = false;
          break;
        }
        if (!sp.loop) stored |= sp.blocks;
      }
      if (!judged) continue;
      if ((stored & passing) != passing) {
        worst(unproven(w, fmt::format("'{}' is not stored, at the tile read at {}, in every block that passes the "
                                      "turn on (between its wait and its pass, in no loop)",
                                      name(l.tensor), where(l))));
        continue;
      }
      std::vector<WorkspaceAccess> copies = stores;
      std::vector<WorkspaceAccess *> group;
      for (WorkspaceAccess &c : copies) group.push_back(&c);
      std::string why;
      Spread spread = spreadAcrossChains(k_, group, d, why);
      if (spread == Spread::Overlap)
        worst(error(stores.front().event->op->range, w,
                    fmt::format("blocks that take turns at different elements of it store overlapping tiles of "
                                "'{}': {}",
                                name(l.tensor), why)));
      else if (spread == Spread::Unknown)
        worst(unproven(w, fmt::format("the tiles of '{}' that blocks of different turns store are not proven "
                                      "apart: {}",
                                      name(l.tensor), why)));
      else
        provenReads_.insert(&l);
    }
    return out;
  }
};

}  // namespace

void checkFlagWaits(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  if (!f.crossBlock.flagWaits.empty()) FlagChecks(ctx, k, f).run();
}

}  // namespace cake::passes::safety
