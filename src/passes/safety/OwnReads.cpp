// OwnReads.cpp - a role's own reads of a buffer its elected thread refills
// by copy (a TMA load): the copy is issued by one thread, while the role's
// other warps (or warpgroups) may still read the slot it overwrites. The
// reads are ordered before the copy by a role sync that runs between them,
// or by a release barrier the role's warps arrive at after reading and the
// copy waits for (checkRingReuse in DataFlow.cpp, which asks
// ownReadOrdered for each of the role's reads of a ring it refills).
#include <algorithm>

#include "analysis/StageCount.h"
#include "passes/safety/Safety.h"

namespace cake::passes::safety {

namespace {

bool isUnconditionalSync(const Event &s, const std::vector<const IrStmt *> &loops) {
  return s.op->info().effects.syncsRole && !s.conditional && !s.guarded && s.loops == loops;
}

}  // namespace

// In one loop, the copy e at iteration t overwrites the slot the read x
// last read `lag` iterations before (0: earlier in the same iteration),
// from the stages' constant difference d when each advances one stage an
// iteration: delta = d mod stages, lag = stages - delta (stages when delta
// is 0 and the read comes after the copy in the body). A role sync between
// them in that window orders them: for lag 0 one between the read and the
// copy in the body, for lag 1 one after the read or before the copy, for
// a longer lag any in the body. Unknown stages count as the shortest lag.
// Outside a common loop (the copy after the loop around the read, or both
// straight-line), a role sync between them, or one after the read in the
// body of the loop around it (it runs after the read's last run); a read
// after the copy in no loop around both is after it.
bool Checker::ownReadOrdered(const RoleEvents &r, const Event &e, const Event &x, int8_t slot, int64_t stages) const {
  int64_t all = roleThreads(k_, e.role);
  if (completionUnit(x, all) >= all) return true;  // the elected thread's own read, or one the role completes
  bool inBlock = std::any_of(r.events.begin(), r.events.end(), [&](const Event &y) { return &y == &x; });
  if (!inBlock) return false;
  if (e.loops.empty() || x.loops != e.loops) {
    // A read after the copy, in no loop around both, never precedes it.
    if (x.index >= e.index) return e.loops.empty() || x.loops.empty() || x.loops.front() != e.loops.front();
    if (roleSyncBetween(x.index, e)) return true;
    bool afterLoop = x.loops.size() > e.loops.size() && std::equal(e.loops.begin(), e.loops.end(), x.loops.begin());
    if (afterLoop)
      for (const Event &s : r.events)
        if (isUnconditionalSync(s, x.loops) && s.index > x.index) return true;
    return false;
  }
  StageRef written = effectStage(*e.op, kReceiver);
  analysis::LinearStage lw = analysis::linearStage(k_, ctx_.sm, written, e);
  bool stepOne = lw.ok && lw.scale == 1 && lw.loop == e.loops.back() && e.loops.back()->step == 1;
  bool kw, kr;
  AffineForm fw = formOf(k_, written, kw), fr = formOf(k_, effectStage(*x.op, slot), kr);
  std::optional<int64_t> d = stepOne && kw && kr ? IntExprTable::constantDifference(fw, fr) : std::optional<int64_t>();
  int64_t lag = x.index < e.index ? 0 : 1;
  if (d && stages > 0) {
    int64_t delta = ((*d % stages) + stages) % stages;
    lag = delta == 0 ? (x.index < e.index ? 0 : stages) : stages - delta;
  }
  for (const Event &s : r.events) {
    if (!isUnconditionalSync(s, e.loops)) continue;
    if (lag >= 2 || (lag == 1 && (s.index > x.index || s.index < e.index)) ||
        (lag == 0 && s.index > x.index && s.index < e.index))
      return true;
  }
  return false;
}

// A copy by one elected thread, outside loops, into a view the role's
// warps read apart before it (the same slot: one stage, or a constant
// stage a multiple of the ring apart; an unknown one counts as the same):
// reported unless ownReadOrdered, as a release would order it in a ring.
// Whether it reported.
bool Checker::checkStraightRefill(const RoleEvents &r, const Event &e, ResourceId v) const {
  int64_t all = roleThreads(k_, r.role), stages = k_.resources[v].stages;
  StageRef written = effectStage(*e.op, kReceiver);
  for (const Event &x : r.events) {
    if (x.index >= e.index) continue;
    for (int8_t slot : x.op->info().effects.reads) {
      if (effectResource(*x.op, slot) != v || ownReadOrdered(r, e, x, slot, stages)) continue;
      if (stages > 1) {
        bool kw, kr;
        AffineForm fw = formOf(k_, written, kw), fr = formOf(k_, effectStage(*x.op, slot), kr);
        std::optional<int64_t> d = kw && kr ? IntExprTable::constantDifference(fw, fr) : std::nullopt;
        if (d && *d % stages != 0) continue;  // another slot
      }
      ctx_.diags
          .build(DiagId::SafetyRefillUnderRead, e.op->range, name(r.role), name(v),
                 unitName(completionUnit(x, all), all))
          .note(DiagId::NoteReadHere, x.op->range, name(v))
          .emit();
      return true;
    }
  }
  return false;
}

}  // namespace cake::passes::safety
