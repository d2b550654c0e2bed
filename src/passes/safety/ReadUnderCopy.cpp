// Reads under the role's own copies (ProgramSafety's sub-check, run right
// after checkReadBeforeWait):
//  - checkReadUnderCopy: no read of a slot follows the role's own
//    asynchronous copy into that slot in the same iteration unless a wait
//    on the copy's barrier comes between (safety.read-under-copy).
#include <algorithm>

#include "passes/safety/Safety.h"

namespace cake::passes::safety {

namespace {

class ReadUnderCopyChecks : public Checker {
public:
  using Checker::Checker;

  // A role that reads a slot after issuing its own asynchronous copy into
  // that slot in the same iteration (a refill `stage=j + 4` on a ring of 4,
  // then a read of stage j) reads while the copy may be landing, whatever
  // wait for the slot came before the copy: only a wait between the two
  // orders them. Slots are the same when the stages differ by a multiple of
  // the view's stages (of the view or an alias with the same slots); the
  // copy's loops are the read's or enclose it.
  void checkReadUnderCopy() {
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events)
        for (int8_t slot : e.op->info().effects.reads) {
          ResourceId v = effectResource(*e.op, slot);
          if (v == kNoResource || k_.resources[v].kind != ResourceKind::View) continue;
          StageRef read = effectStage(*e.op, slot);
          int64_t stages = k_.resources[v].stages;
          for (const Event &x : r.events) {
            if (x.index >= e.index) break;
            const OpEffects &xf = x.op->info().effects;
            ResourceId got = effectResource(*x.op, xf.signals);
            ResourceId xv = effectResource(*x.op, xf.writes);
            if (got == kNoResource || xv == kNoResource || !sameSlots(xv, v) || x.loops.size() > e.loops.size() ||
                !std::equal(x.loops.begin(), x.loops.end(), e.loops.begin()))
              continue;
            StageRef copied = effectStage(*x.op, kReceiver);
            if (stages > 1) {
              bool kc, kr;
              AffineForm fc = formOf(k_, copied, kc), fr = formOf(k_, read, kr);
              std::optional<int64_t> d = kc && kr ? IntExprTable::constantDifference(fc, fr) : std::nullopt;
              if (!d || *d % stages != 0) continue;
            }
            // A wait on the copy's barrier between them (at a stage the
            // sequence check judges), or no wait for the slot before the
            // copy (read-before-wait's case): said there.
            bool waited = false, before = false;
            for (const Event &w : r.events) {
              if (effectResource(*w.op, w.op->info().effects.waits) != got || !covers(k_, w, e)) continue;
              waited |= w.index > x.index && w.index < e.index;
              before |= w.index < x.index && (stages <= 1 || sameStage(k_, stageOperand(*w.op), read));
            }
            if (waited || !before) continue;
            ctx_.diags
                .build(DiagId::SafetyReadUnderCopy, e.op->range, name(r.role), stageOf(v, read), name(v),
                       stages > 1 ? "stage " + stageText(ctx_.sm, copied) : std::string("its only slot"), name(got))
                .note(DiagId::NoteWrittenHere, x.op->range, name(v))
                .emit();
            break;
          }
        }
  }
};

}  // namespace

void checkReadUnderCopy(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  ReadUnderCopyChecks(ctx, k, f).checkReadUnderCopy();
}

}  // namespace cake::passes::safety
