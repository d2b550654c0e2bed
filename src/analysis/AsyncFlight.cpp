// AsyncFlight: see AsyncFlight.h.
#include "analysis/AsyncFlight.h"

#include <algorithm>

namespace cake::analysis {

using namespace sema;

AsyncGroup trackedGroup(const Operation &op, Target target) {
  AsyncGroup g = op.info().effects.group;
  if (g == AsyncGroup::Mma && targetInfo(target).mma == MmaPath::MmaSync) return AsyncGroup::None;
  return g;
}

bool readsThroughAsyncProxy(const Operation &op, Target target) {
  const OpEffects &fx = op.info().effects;
  if (fx.proxy != Proxy::Async) return false;
  return !(fx.group == AsyncGroup::Mma && targetInfo(target).mma == MmaPath::MmaSync);
}

namespace {

// In-flight reads of one async family: issued but not in a committed
// group, and committed groups, oldest first.
struct GroupState {
  std::vector<FlightRead> open;
  std::vector<std::vector<FlightRead>> committed;
};
struct AsyncState {
  std::map<AsyncGroup, GroupState> groups;
  // Reads the elected thread has waited for, which the role's other
  // threads have not yet synchronised with (a role sync ends them).
  std::vector<FlightRead> unsynced;
  template <class F>
  void eachList(F f) {
    for (auto &[g, gs] : groups) {
      f(gs.open);
      for (auto &c : gs.committed) f(c);
    }
    f(unsynced);
  }
  // Every read in flight, in the order FlightPoint lists them.
  std::vector<FlightRead> reads() const {
    std::vector<FlightRead> out;
    for (const auto &[g, gs] : groups) {
      out.insert(out.end(), gs.open.begin(), gs.open.end());
      for (const auto &c : gs.committed) out.insert(out.end(), c.begin(), c.end());
    }
    for (FlightRead x : unsynced) {
      x.waited = true;
      out.push_back(x);
    }
    return out;
  }
};

// Loops deeper than this are followed through one iteration only (each
// level walks its body twice, so the cost doubles per level).
constexpr int kMaxCarriedLoopDepth = 4;

class FlightWalker {
public:
  FlightWalker(const Kernel &k, const std::vector<RoleEvents> &roles, Target target)
      : k_(k), roles_(roles), target_(target) {
    // A read can stay in flight across as many iterations as the deepest
    // ring or the largest pending count allows: walk that many (at most 9:
    // a ring counts as at most 8 stages, and pending is 0 to 7).
    int64_t carried = 2;
    for (const Resource &v : k_.resources)
      if (v.kind == ResourceKind::View) carried = std::max(carried, std::min<int64_t>(v.stages, 8) + 1);
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) carried = std::max(carried, e.op->pendingGroups() + 2);
    carriedIterations_ = static_cast<int>(std::min<int64_t>(carried, 9));
  }

  std::vector<RoleFlight> run() {
    std::vector<RoleFlight> out;
    for (const RoleBlock &rb : k_.roles) {
      bool async = false;
      for (const RoleEvents &r : roles_)
        if (r.block == &rb)
          for (const Event &e : r.events) async |= trackedGroup(*e.op, target_) != AsyncGroup::None;
      if (!async) continue;
      out.push_back(RoleFlight{&rb, {}, {}});
      points_ = &out.back().points;
      AsyncState st;
      walk(rb.body, rb.role, st, 0);
      st.unsynced.clear();  // waited for: over, whichever thread waited
      out.back().atEnd = st.reads();
    }
    return out;
  }

private:
  void walk(const std::vector<IrStmt> &body, ResourceId role, AsyncState &st, int depth) {
    for (const IrStmt &s : body) switch (s.kind) {
      case IrStmt::Kind::Op: op(s.op, role, st); break;
      case IrStmt::Kind::For: {
        // A loop that may run zero times leaves what was in flight before it
        // as it was: its waits may not run.
        std::optional<AsyncState> entry;
        if (!loopRunsAtLeastOnce(k_, s)) entry = st;
        walk(s.body, role, st, depth + 1);  // the first iteration
        if (depth >= kMaxCarriedLoopDepth) {
          if (entry) st = merged(st, *entry);
          break;
        }
        // Later iterations, as many as a read may stay in flight across (a
        // ring's depth, a pending count): each time, a stage named by the
        // loop variable means one step earlier. What stays in flight leaves
        // the loop.
        for (int i = 1; i < (depth < 2 ? carriedIterations_ : 2); ++i) {
          st.eachList([&](std::vector<FlightRead> &l) { shiftStages(l, s); });
          walk(s.body, role, st, depth + 1);
        }
        // After the loop, what is still in flight was issued in its last
        // iteration: the loop variable is stop - 1 there.
        st.eachList([&](std::vector<FlightRead> &l) { lastIteration(l, s); });
        if (entry) st = merged(st, *entry);
        break;
      }
      case IrStmt::Kind::If: {
        AsyncState taken = st, other = st;
        walk(s.body, role, taken, depth);
        walk(s.orelse, role, other, depth);
        st = merged(taken, other);
        break;
      }
      case IrStmt::Kind::Let: break;
      }
  }

  // What is in flight after either of two paths (the sides of an `if`; a
  // loop's iterations and its skipping): the reads of both, their groups
  // aligned from the newest.
  static AsyncState merged(AsyncState a, AsyncState b) {
    AsyncState out;
    for (AsyncGroup g : {AsyncGroup::Mma, AsyncGroup::Bulk}) {
      GroupState &x = a.groups[g], &y = b.groups[g];
      bool aLonger = x.committed.size() >= y.committed.size();
      GroupState m = aLonger ? x : y;
      const GroupState &rest = aLonger ? y : x;
      addMissing(m.open, rest.open);
      for (size_t i = 0; i < rest.committed.size(); ++i)
        addMissing(m.committed[m.committed.size() - rest.committed.size() + i], rest.committed[i]);
      out.groups[g] = std::move(m);
    }
    out.unsynced = a.unsynced;
    addMissing(out.unsynced, b.unsynced);
    return out;
  }

  // Adds to `into` the reads of `from` it does not hold yet (both branches
  // of an `if` carry what was in flight before it).
  static void addMissing(std::vector<FlightRead> &into, const std::vector<FlightRead> &from) {
    for (const FlightRead &f : from) {
      bool have = false;
      for (const FlightRead &g : into)
        have |= g.op == f.op && g.view == f.view && g.stageKnown == f.stageKnown && g.stage == f.stage;
      if (!have) into.push_back(f);
    }
  }

  void shiftStages(std::vector<FlightRead> &group, const IrStmt &loop) {
    for (FlightRead &f : group) {
      if (!f.stageKnown) continue;
      for (const auto &[atom, coeff] : f.stage.terms)
        if (k_.ints.atomIsLeaf(atom, IntOp::LoopVar) && k_.ints.atomValue(atom) == loop.loopId) {
          int64_t delta;
          if (loop.step <= 0 || __builtin_mul_overflow(coeff, loop.step, &delta) ||
              __builtin_sub_overflow(f.stage.constant, delta, &f.stage.constant))
            f.stageKnown = false;  // a run-time step: the earlier stage has no form
        }
    }
  }

  // Rewrites stages over the loop's variable to their value in its last
  // iteration (stop - 1, for a loop of step 1 whose stop has a form);
  // otherwise the stage is no longer known.
  void lastIteration(std::vector<FlightRead> &group, const IrStmt &loop) {
    for (FlightRead &f : group) {
      if (!f.stageKnown || k_.ints.splitLoopVar(f.stage, loop.loopId).first == 0) continue;
      std::optional<AffineForm> last;
      if (loop.step == 1 && loop.stop.ix != kNoIntExpr) {
        AffineForm stop = k_.ints.form(loop.stop.ix);
        if (!__builtin_sub_overflow(stop.constant, 1, &stop.constant))
          last = k_.ints.substituteLoopVar(f.stage, loop.loopId, stop);
      }
      if (last)
        f.stage = *last;
      else
        f.stageKnown = false;
    }
  }

  // One operation: records what is in flight around it, then applies its
  // effects.
  void op(const Operation &op, ResourceId role, AsyncState &st) {
    FlightPoint p;
    p.op = &op;
    p.before = st.reads();
    const OpEffects &fx = op.info().effects;
    bool changes = fx.syncsRole && !st.unsynced.empty();
    if (fx.syncsRole) st.unsynced.clear();
    AsyncGroup g = trackedGroup(op, target_);
    if (g != AsyncGroup::None) {
      changes = true;
      GroupState &gs = st.groups[g];
      // The register fragments a tensor-core operation reads (A) and writes
      // (the accumulator) belong to it until its group is waited for.
      if (g == AsyncGroup::Mma) {
        for (int8_t slot : fx.reads)
          if (ResourceId v = effectResource(op, slot); v != kNoResource && k_.resources[v].kind == ResourceKind::Regs)
            gs.open.push_back({v, {}, true, &op, false});
        if (ResourceId v = effectResource(op, fx.writes);
            v != kNoResource && k_.resources[v].kind == ResourceKind::Regs)
          gs.open.push_back({v, {}, true, &op, true});
      }
      if (fx.proxy == Proxy::Async)
        for (int8_t slot : fx.reads) {
          ResourceId v = effectResource(op, slot);
          if (v == kNoResource || k_.resources[v].kind != ResourceKind::View) continue;
          bool known;
          AffineForm f = formOf(k_, effectStage(op, slot), known);
          gs.open.push_back({v, f, known, &op});
        }
      if (fx.closesGroup) {
        gs.committed.push_back(std::move(gs.open));
        gs.open.clear();
      } else if (fx.waitsGroup) {
        int64_t all = roleThreads(k_, role);
        while (static_cast<int64_t>(gs.committed.size()) > op.pendingGroups()) {
          // Only the waiting threads know the reads are over.
          if (executingThreads(k_, role, op) < all)
            st.unsynced.insert(st.unsynced.end(), gs.committed.front().begin(), gs.committed.front().end());
          gs.committed.erase(gs.committed.begin());
        }
      }
    }
    if (changes) {
      p.changes = true;
      p.afterChange = st.reads();
    }
    if (!p.before.empty() || !p.after().empty()) points_->push_back(std::move(p));
  }

  const Kernel &k_;
  const std::vector<RoleEvents> &roles_;
  Target target_;
  int carriedIterations_ = 2;  // iterations walked per loop at the outer two levels
  std::vector<FlightPoint> *points_ = nullptr;
};

}  // namespace

std::vector<RoleFlight> asyncFlight(const Kernel &k, const std::vector<RoleEvents> &roles, Target target) {
  return FlightWalker(k, roles, target).run();
}

std::optional<size_t> accessEnd(const Kernel &k, const RoleEvents &r, const Event &e, Target target) {
  const OpEffects &fx = e.op->info().effects;
  if (trackedGroup(*e.op, target) == AsyncGroup::None) return e.index;
  // A wait retires only groups closed before it: the access's own
  // operation (a TMA store closes its group) or a commit between them in a
  // statement list around either, so it runs whenever both do.
  auto closedBefore = [&](const Event &w) {
    if (fx.closesGroup) return true;
    for (const Event &c : r.events) {
      const OpEffects &cf = c.op->info().effects;
      if (c.index > e.index && c.index < w.index && cf.closesGroup && cf.group == fx.group &&
          (inEnclosingList(c, w) || inEnclosingList(c, e)))
        return true;
    }
    return false;
  };
  for (const Event &x : r.events) {
    const OpEffects &xf = x.op->info().effects;
    if (x.index <= e.index || x.conditional || x.guarded) continue;
    // tcgen05 work: a commit's arrival comes when it is done.
    if (fx.group == AsyncGroup::Mma && xf.signal == Signal::CommitArrive) return x.index;
    if (!xf.waitsGroup || xf.group != fx.group || x.op->pendingGroups() != 0) continue;
    // A wait in a loop around it but not around the access, which may run
    // no iteration, may not run at all.
    bool skippable = false;
    for (const IrStmt *l : x.loops)
      if (std::find(e.loops.begin(), e.loops.end(), l) == e.loops.end() && !loopRunsAtLeastOnce(k, *l))
        skippable = true;
    if (!skippable && closedBefore(x)) return x.index;
  }
  return std::nullopt;
}

std::map<const RoleBlock *, std::vector<AsyncGroup>> roleEndDrains(const std::vector<RoleFlight> &flight,
                                                                   Target target) {
  std::map<const RoleBlock *, std::vector<AsyncGroup>> out;
  for (const RoleFlight &rf : flight)
    for (AsyncGroup g : {AsyncGroup::Mma, AsyncGroup::Bulk}) {
      // tcgen05 MMAs complete through lm.commit to a barrier; only wgmma
      // groups are waited for by group.
      if (g == AsyncGroup::Mma && targetInfo(target).mma != MmaPath::Wgmma) continue;
      if (std::any_of(rf.atEnd.begin(), rf.atEnd.end(),
                      [&](const FlightRead &x) { return trackedGroup(*x.op, target) == g; }))
        out[rf.block].push_back(g);
    }
  return out;
}

}  // namespace cake::analysis
