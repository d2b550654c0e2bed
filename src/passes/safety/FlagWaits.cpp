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

#include "passes/safety/Safety.h"

namespace cake::passes::safety {

namespace {

using Kind = WorkspaceAccess::Kind;

class FlagChecks : public Checker {
public:
  using Checker::Checker;

  void run() {
    for (const FlagWait &w : facts_.crossBlock.flagWaits) check(w);
  }

private:
  void unproven(const FlagWait &w, const std::string &why) {
    ctx_.diags.report(DiagId::SafetyUnprovenFlag, w.event->op->range, name(w.tensor), why);
  }
  void error(const SourceRange &at, const FlagWait &w, const std::string &why) {
    auto d = ctx_.diags.build(DiagId::SafetyCrossBlockFlag, at, name(w.tensor), why);
    if (at.begin.line != w.event->op->range.begin.line || at.begin.col != w.event->op->range.begin.col)
      d.note(DiagId::NoteFlagWaitHere, w.event->op->range, name(w.tensor));
    d.emit();
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

  void check(const FlagWait &w) {
    const CrossBlockFacts &cb = facts_.crossBlock;
    if (!w.once) return unproven(w, "it runs in a loop or under a condition, not once per block");
    if (!w.sharersKnown) return unproven(w, w.sharersWhy);
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
    // Every update of the flag: an exchange at the same element by the same
    // role, after the wait: a release of a * (b + 1), or a reset to 0.
    std::vector<const WorkspaceAccess *> passes, resets;
    for (const WorkspaceAccess &x : cb.accesses) {
      if (x.tensor != w.tensor || x.kind == Kind::Load) continue;
      const SourceRange &at = x.event->op->range;
      if (x.kind == Kind::Store)
        return unproven(w,
                        fmt::format("it is also written by a store of a tile at {}:{}", at.begin.line, at.begin.col));
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
        error(at, w,
              fmt::format("the exchange writes {} more than the block waited for, but the block after it waits "
                          "for {} more: that block waits for ever",
                          delta, a));
        return;
      } else {
        return unproven(w, fmt::format("the exchange at {}:{} writes a value that is neither 0 nor {} more than the "
                                       "one the block waited for",
                                       at.begin.line, at.begin.col, a));
      }
    }
    if (rest.constant() != 0) {
      error(w.event->op->range, w,
            fmt::format("the block with {} = 0 waits for it to hold {}, but it holds 0 when the launch starts and "
                        "only blocks after that one write it: that block waits for ever",
                        b, rest.constant()));
      return;
    }
    // The turn passed on in every block but the last, after the wait.
    uint8_t passing = 0;
    for (const WorkspaceAccess *r : passes) {
      const SourceRange &at = r->event->op->range;
      ChainPlace p = chainPlace(k_, r->where, w.where.size(), d);
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
    }
    if ((passing & (kFirstBlock | kMiddleBlocks)) != (kFirstBlock | kMiddleBlocks))
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
      ChainPlace p = chainPlace(k_, r->where, w.where.size(), d);
      const SourceRange &at = r->event->op->range;
      if (p.loop || p.other || r->event->index < w.event->index)
        return unproven(w, fmt::format("the reset at {}:{} is in a loop, under a condition on something other "
                                       "than {}, or before the wait",
                                       at.begin.line, at.begin.col, b));
      if (p.blocks & (kFirstBlock | kMiddleBlocks))
        return unproven(w, fmt::format("the reset at {}:{} runs in blocks before the last, where it may undo the "
                                       "turn they pass on",
                                       at.begin.line, at.begin.col));
      resetting |= p.blocks;
    }
    if ((passing & (kLastBlock | kOnlyBlock)) || (resetting & (kLastBlock | kOnlyBlock)) != (kLastBlock | kOnlyBlock))
      return error(
          w.event->op->range, w,
          fmt::format("the last block ({0} = lm.num_blocks({1}) - 1) leaves it at {2} when the launch "
                      "ends, and the next launch's first block waits for 0 for ever: reset it there, "
                      "after the wait: lm.atomic(..., value=0, op=\"exch\") in the branch of {0} == "
                      "lm.num_blocks({1}) - 1",
                      b, d,
                      (a == 1 ? "" : std::to_string(a) + " * ") + fmt::format("lm.num_blocks({})", d) +
                          ((passing & (kLastBlock | kOnlyBlock)) ? " (its own pass)" : " - " + std::to_string(a))));
    checkData(w, d, *passes.front());
  }

  // The workspace the role reads after its wait: handed on in turn.
  void checkData(const FlagWait &w, int64_t d, const WorkspaceAccess &release) {
    const CrossBlockFacts &cb = facts_.crossBlock;
    const std::string b = blockText(d);
    for (const WorkspaceAccess &l : cb.accesses) {
      if (l.kind != Kind::Load || l.event->role != w.event->role || l.event->index < w.event->index ||
          l.tensor == w.tensor)
        continue;
      std::vector<WorkspaceAccess> stores;
      for (const WorkspaceAccess &s : cb.accesses)
        if (s.kind == Kind::Store && s.tensor == l.tensor) stores.push_back(s);
      if (stores.empty()) continue;  // nothing other blocks write
      const SourceRange &at = l.event->op->range;
      auto where = [](const WorkspaceAccess &x) {
        return fmt::format("{}:{}", x.event->op->range.begin.line, x.event->op->range.begin.col);
      };
      if (l.async) {
        unproven(w, fmt::format("the TMA load of '{}' at {} after it is not covered", name(l.tensor), where(l)));
        continue;
      }
      ChainPlace lp = chainPlace(k_, l.where, w.where.size(), d);
      if (lp.other) {
        unproven(w, fmt::format("the read of '{}' at {} is under a condition on something other than {}",
                                name(l.tensor), where(l), b));
        continue;
      }
      if (lp.blocks & (kFirstBlock | kOnlyBlock)) {
        error(at, w,
              fmt::format("the first block ({} = 0) reads '{}', which no block of this launch has written before "
                          "it (it holds the previous launch's data): read it where {} > 0",
                          b, name(l.tensor), b));
        continue;
      }
      if (l.event->index > release.event->index && (lp.blocks & (kFirstBlock | kMiddleBlocks))) {
        error(at, w,
              fmt::format("role '{}' reads '{}' after passing the turn on, while the block after it may be writing "
                          "it: read it before the exchange",
                          name(l.event->role), name(l.tensor)));
        continue;
      }
      for (const WorkspaceAccess &s : stores) {
        const SourceRange &st = s.event->op->range;
        ChainPlace sp = chainPlace(k_, s.where, 0, d);
        if (s.event->role != w.event->role || s.async || s.reduce) {
          unproven(w,
                   fmt::format("'{}' is also written at {} by a TMA copy or another role", name(l.tensor), where(s)));
          break;
        }
        if (s.event->index < w.event->index || s.event->index > release.event->index) {
          error(st, w,
                fmt::format("role '{}' writes '{}' {}, while {} may be reading it: write it between the wait and "
                            "the exchange that passes the turn on",
                            name(s.event->role), name(s.tensor),
                            s.event->index < w.event->index ? "before its wait for its turn"
                                                            : "after passing the turn on",
                            s.event->index < w.event->index ? "the block before it" : "the block after it"));
          break;
        }
        const Operand *cs = copyCoords(*s.event->op), *cl = copyCoords(*l.event->op);
        bool same = cs && cl && sameElement(*s.event->op, *l.event->op) &&
                    copyExtent(k_, *s.event->op) == copyExtent(k_, *l.event->op);
        bool chainFree = true;
        if (cs)
          for (const Value &c : cs->value.elts) {
            std::optional<PolyForm> p = poly(c);
            chainFree &= p && !readsBlock(*p, d);
          }
        if (!same || !chainFree || sp.loop || sp.other ||
            (sp.blocks & (kFirstBlock | kMiddleBlocks)) != (kFirstBlock | kMiddleBlocks)) {
          unproven(w, fmt::format("the write of '{}' at {} is not the tile read at {} (the same coordinates, "
                                  "which do not name {}), in every block that passes the turn on",
                                  name(s.tensor), where(s), where(l), b));
          break;
        }
      }
      std::vector<WorkspaceAccess> copies = stores;
      std::vector<WorkspaceAccess *> group;
      for (WorkspaceAccess &c : copies) group.push_back(&c);
      std::string why;
      Spread spread = spreadAcrossChains(k_, group, d, why);
      if (spread == Spread::Overlap)
        error(stores.front().event->op->range, w,
              fmt::format("blocks that take turns at different elements of it store overlapping tiles of '{}': {}",
                          name(l.tensor), why));
      else if (spread == Spread::Unknown)
        unproven(w, fmt::format("the tiles of '{}' that blocks of different turns store are not proven apart: {}",
                                name(l.tensor), why));
    }
  }
};

}  // namespace

void checkFlagWaits(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  if (!f.crossBlock.flagWaits.empty()) FlagChecks(ctx, k, f).run();
}

}  // namespace cake::passes::safety
