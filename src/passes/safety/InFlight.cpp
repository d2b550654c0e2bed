// Nothing is released or overwritten while an asynchronous read of it may
// still run (ProgramSafety's sub-check checkReleaseInFlight; what is in
// flight where is analysis/AsyncFlight's walk):
//  - a stage is not released (an arrive on a barrier whose waiters write the
//    buffer, or a copy that signals such a barrier) while an asynchronous tensor-core operation that reads it may
//    still run: a wgmma read ends when a wait leaves fewer groups in flight
//    than were committed after it; a tcgen05 read ends only for a commit's
//    arrival (release-in-flight). Loops are followed into their next
//    iteration, so a group kept in flight across the back edge is seen;
//  - the role's threads do not overwrite a view an asynchronous read may
//    still be reading, or that only the elected thread has waited for;
//  - nor read or write a register fragment a wgmma still in flight reads or
//    writes.
#include <set>

#include "passes/safety/Safety.h"
#include "sema/ConstEval.h"

namespace cake::passes::safety {

namespace {

class InFlightChecks : public Checker {
public:
  using Checker::Checker;

  // Each point of each role's walk, in walk order.
  void checkReleaseInFlight() {
    for (const RoleFlight &rf : facts_.flight)
      for (const FlightPoint &p : rf.points) checkPoint(p, rf.block->role);
  }

private:
  void checkPoint(const FlightPoint &p, ResourceId role) {
    const Operation &op = *p.op;
    const OpEffects &fx = op.info().effects;
    // A generic write by the role's threads into a view an async read may
    // still be reading, or that the elected thread alone has waited for.
    if (ResourceId v = effectResource(op, fx.writes);
        v != kNoResource && fx.proxy == Proxy::Generic && k_.resources[v].kind == ResourceKind::View) {
      bool known;
      AffineForm stage = formOf(k_, effectStage(op, kReceiver), known);
      for (const FlightRead &f : p.before) {
        if (f.view != v || !sameSlot(f, stage, known) || !reported_.insert({&op, f.view}).second) continue;
        ctx_.diags
            .build(DiagId::SafetyOverwriteInFlight, op.range, name(role), stageOf(v, effectStage(op, kReceiver)),
                   name(v), f.op->info().name,
                   f.waited ? "the elected thread has waited for it, but the role's other threads have not: "
                              "lm.role_sync() after the wait"
                            : waitHint(*f.op, true))
            .note(DiagId::NoteAsyncReadHere, f.op->range, name(v))
            .emit();
      }
    }
    if (trackedGroup(op, ctx_.module.target) == AsyncGroup::None) checkFragmentUse(op, role, p.after());
    // A commit's arrival comes when the tensor core is done: it releases
    // nothing early. A plain arrive releases now; so does a copy signalling
    // a barrier whose waiters rewrite the view (its arrival does not wait
    // for the role's own bulk store reading it: the next tile's TMA loads
    // on 'full' issued before the TMA store of the last tile is waited for).
    if (fx.signal == Signal::None || fx.signal == Signal::CommitArrive) return;
    ResourceId b = effectResource(op, fx.signals);
    auto rel = facts_.releases.views.find(b);
    if (b == kNoResource || rel == facts_.releases.views.end()) return;
    StageRef released = stageOperand(op);
    bool known;
    AffineForm stage = formOf(k_, released, known);
    for (const FlightRead &f : p.after()) {
      if (f.waited || !releasesTo(k_, facts_, b, f.view, role)) continue;
      // The release lets the waiter rewrite stage r + shift: the same buffer
      // as the read when the stages agree modulo the view's depth.
      int64_t depth = k_.resources[f.view].stages;
      std::optional<int64_t> shift = freedShift(k_, facts_, b, f.view);
      std::optional<int64_t> d =
          known && f.stageKnown && shift ? IntExprTable::constantDifference(f.stage, stage) : std::nullopt;
      if (d) *d -= *shift;
      if (depth > 1 && d && *d % depth != 0) continue;
      if (!reported_.insert({&op, f.view}).second) continue;
      // Copies signalling one barrier together (a_s and b_s on 'full'): the
      // first of them stands for the group.
      if (fx.signal != Signal::Arrive && !copyReported_.insert({b, f.op}).second) continue;
      if (depth > 1 && !d) {
        ctx_.diags
            .build(DiagId::SafetyUnprovenReleaseInFlight, op.range, name(role), stageText(ctx_.sm, released),
                   name(f.view), name(b), f.op->info().name,
                   f.stageKnown ? std::string("in an earlier iteration")
                                : std::string("earlier, at a stage with no normal form,"))
            .note(DiagId::NoteAsyncReadHere, f.op->range, name(f.view))
            .emit();
        continue;
      }
      ctx_.diags
          .build(DiagId::SafetyReleaseInFlight, op.range, name(role), stageOf(f.view, released), name(f.view), name(b),
                 f.op->info().name, waitHint(*f.op, false))
          .note(DiagId::NoteAsyncReadHere, f.op->range, name(f.view))
          .emit();
    }
  }

  // An operation of the role's threads that reads or writes a register
  // fragment a tensor-core operation still in flight reads or writes: its
  // registers are the wgmma's until the wait that retires its group (PTX:
  // accessing them before is undefined). Each thread's own wait covers its
  // registers, so only reads not yet waited for count.
  void checkFragmentUse(const Operation &op, ResourceId role, const std::vector<FlightRead> &inFlight) {
    const OpEffects &fx = op.info().effects;
    std::vector<ResourceId> used;
    for (int8_t slot : fx.reads) used.push_back(effectResource(op, slot));
    used.push_back(effectResource(op, fx.writes));
    if (op.result.kind == ValueKind::Resource) used.push_back(op.result.resource);
    for (ResourceId v : used) {
      if (v == kNoResource || k_.resources[v].kind != ResourceKind::Regs) continue;
      for (const FlightRead &f : inFlight) {
        // Once per fragment and wgmma: the first use is where to wait.
        if (f.waited || f.view != v || !reported_.insert({f.op, v}).second) continue;
        ctx_.diags
            .build(DiagId::SafetyFragmentInFlight, op.range, name(role), name(v), f.op->info().name,
                   f.written ? "writes" : "reads", waitHint(*f.op, true))
            .note(DiagId::NoteIssuedHere, f.op->range, f.op->info().name)
            .emit();
      }
    }
  }

  // Whether an in-flight read names the slot of `stage` (equal modulo the
  // view's depth; an unknown stage may be any).
  bool sameSlot(const FlightRead &f, const AffineForm &stage, bool known) const {
    int64_t depth = k_.resources[f.view].stages;
    if (depth <= 1) return true;
    std::optional<int64_t> d = known && f.stageKnown ? IntExprTable::constantDifference(f.stage, stage) : std::nullopt;
    return !d || *d % depth == 0;
  }

  // How to end an async read before its buffer is reused.
  std::string waitHint(const Operation &reader, bool overwrite) const {
    if (reader.info().effects.group == AsyncGroup::Bulk)
      return overwrite ? "wait for it first: lm.tma_store_wait(), then lm.role_sync() so every thread's stores "
                         "come after the elected thread's wait"
                       : "wait for it first: lm.tma_store_wait() before the arrive";
    if (targetInfo(ctx_.module.target).mma == MmaPath::Wgmma)
      return overwrite ? "wait for it first: lm.mma_commit() after it, then lm.mma_wait()"
                       : "wait for it first: lm.mma_commit() after it, then lm.mma_wait() before the arrive";
    return "signal the release with lm.commit, whose arrival comes when the tensor core is done";
  }

  // (operation, view or fragment) pairs already reported: one diagnostic each.
  std::set<std::pair<const Operation *, ResourceId>> reported_;
  std::set<std::pair<ResourceId, const Operation *>> copyReported_;
};

}  // namespace

void checkReleaseInFlight(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  InFlightChecks(ctx, k, f).checkReleaseInFlight();
}

}  // namespace cake::passes::safety
