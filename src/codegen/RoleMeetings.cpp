// RoleMeetings.cpp - the meetings the lowering derives inside a role
// (docs/language.md 8.4): after a wait by every warp of a role, before an
// operation one elected thread issues, the role's warps meet at its own
// named barrier. A wait by parity is fooled by a warp that reads it only
// after the barrier has completed that phase and begun the next: the
// elected thread's operation (a copy, an arrive, a tcgen05 MMA) can let
// another role complete the next phase while a slow warp of this one has
// not yet read the phase it waits for.
#include <fmt/format.h>

#include "codegen/Emitter.h"

namespace cake::codegen::detail {

// Issued by one elected thread (or one per warpgroup) of a role that runs
// on all its threads, and signals a barrier: what can let another role
// complete a phase. (An elected operation that signals nothing, a TMA store
// or its wait, needs no meeting: the signal that follows it gets one.)
bool KernelEmitter::electedOp(const Operation &o) const {
  if (o.info().effects.signal == Signal::None) return false;
  if (o.info().effects.single) return true;
  return o.kind == OpKind::Arrive && (o.scope == ArrivalScope::Role || o.scope == ArrivalScope::Warpgroup);
}

// Every warp of the role (or of each warpgroup) takes part before anyone
// goes on: a role sync, a named-barrier meeting, or a wgmma (the warpgroup's
// wgmma runs only once all four warps issued it, and what follows it in a
// schedule the gates accept waits for it before it releases anything).
bool KernelEmitter::meetsRole(const Operation &o) const {
  const OpEffects &e = o.info().effects;
  return e.syncsRole || e.meets != kNone || (o.kind == OpKind::Mma && ti_.mma == MmaPath::Wgmma);
}

// Whether a wait is still unmet after `body`, given whether one was before
// it (the same transfer as stmts' emission: loops feed their end back to
// their head, and may run zero times; an `if` joins its branches).
bool KernelEmitter::waitedAfter(const std::vector<IrStmt> &body, bool in) const {
  if (auto it = waitedMemo_.find({&body, in}); it != waitedMemo_.end()) return it->second;
  bool waited = in;
  for (const IrStmt &s : body) {
    switch (s.kind) {
    case IrStmt::Kind::Op:
      if (waited && electedOp(s.op)) waited = false;
      if (s.op.kind == OpKind::Wait)
        waited = true;
      else if (meetsRole(s.op))
        waited = false;
      break;
    case IrStmt::Kind::For: {
      bool entry = waited || waitedAfter(s.body, waited);
      waited = waitedAfter(s.body, entry) || (entry && !analysis::loopRunsAtLeastOnce(k_, s));
      break;
    }
    case IrStmt::Kind::If: waited = waitedAfter(s.body, waited) || waitedAfter(s.orelse, waited); break;
    case IrStmt::Kind::Let: break;
    }
  }
  waitedMemo_.emplace(std::make_pair(&body, in), waited);
  return waited;
}

void KernelEmitter::meetBeforeElected(const Operation &o, RoleCtx &rc) {
  if (!rc.waited || !electedOp(o)) return;
  rc.waited = false;
  if (rc.singleThread || rc.threads <= 32) return;  // one thread, or one warp's lanes waiting together
  line(fmt::format("{}({}u, {}u);  // derived: every warp of role '{}' has passed its wait before one thread acts",
                   w_.use("cake_named_barrier_sync"), rc.barrierId, rc.threads, rc.role->name));
}

void KernelEmitter::noteWaitOrMeeting(const Operation &o, RoleCtx &rc) const {
  if (o.kind == OpKind::Wait)
    rc.waited = true;
  else if (meetsRole(o))
    rc.waited = false;
}

}  // namespace cake::codegen::detail
