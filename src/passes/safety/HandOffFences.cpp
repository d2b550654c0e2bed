// Hand-off fences (ProgramSafety's sub-check, run with checkProxyFences):
// generic-proxy stores that another role reads through the async proxy are
// fenced by the writer between the stores and the hand-off.
#include <fmt/format.h>

#include <set>

#include "passes/safety/Safety.h"
#include "target/TargetInfo.h"

namespace cake::passes::safety {

namespace {

class HandOffFenceChecks : public Checker {
public:
  using Checker::Checker;

  // Across roles: generic-proxy stores that another role reads through the
  // async proxy (its TMA store or MMA operand, after a barrier or named
  // barrier hand-off) need a fence of the writer after them, in the
  // write's iteration or after its loop, and before the hand-off: no
  // signal of the writer between the stores and the fence on a barrier the
  // reader waits on (or a named barrier it meets) before its read.
  void checkHandOffFences() {
    // Before sm_90 there is no async proxy to order against (the fence
    // lowers to nothing; mma.sync reads shared memory with ldmatrix).
    if (targetInfo(ctx_.module.target).sm < 90) return;
    std::set<const Event *> reported;
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        const OpEffects &fx = e.op->info().effects;
        if (!readsThroughAsyncProxy(*e.op, ctx_.module.target)) continue;  // not mma.sync (sm_120a)
        for (int8_t slot : fx.reads) {
          ResourceId v = effectResource(*e.op, slot);
          if (v == kNoResource || k_.resources[v].kind != ResourceKind::View) continue;
          for (const RoleEvents &o : roles_) {
            if (o.role == r.role) continue;
            for (const Event &w : o.events) {
              const OpEffects &wf = w.op->info().effects;
              if (wf.proxy != Proxy::Generic || effectResource(*w.op, wf.writes) != v) continue;
              // A signal of the writer, between the stores and the fence,
              // on a barrier the reader waits on (or a named barrier it
              // meets) before its read: a hand-off before the fence.
              // (A release barrier's arrival frees a slot: the reader's waits
              // on it are for the writer's reads, not a hand-over.)
              std::set<ResourceId> awaited;
              for (const Event &x : r.events)
                if (x.index < e.index)
                  for (int8_t slot : {x.op->info().effects.waits, x.op->info().effects.meets})
                    if (ResourceId b = effectResource(*x.op, slot);
                        b != kNoResource &&
                        !(k_.resources[b].kind == ResourceKind::Barrier && facts_.barrier(b).release))
                      awaited.insert(b);
              auto handOffBefore = [&](const Event &f) -> const Event * {
                for (const Event &h : o.events) {
                  if (h.index <= w.index || h.index >= f.index) continue;
                  for (int8_t slot : {h.op->info().effects.signals, h.op->info().effects.meets})
                    if (ResourceId b = effectResource(*h.op, slot); b != kNoResource && awaited.count(b)) return &h;
                }
                return nullptr;
              };
              bool fenced = false;
              const Event *early = nullptr;
              for (const Event &f : o.events)
                if (f.op->info().effects.fence && f.index > w.index && f.loops.size() <= w.loops.size() &&
                    std::equal(f.loops.begin(), f.loops.end(), w.loops.begin())) {
                  const Event *h = handOffBefore(f);
                  fenced |= h == nullptr;
                  early = early ? early : h;
                }
              if (fenced || !reported.insert(&w).second) continue;
              auto d = ctx_.diags.build(DiagId::SafetyHandOffProxyFence, w.op->range, name(o.role), name(v),
                                        name(r.role), e.op->info().name,
                                        early ? std::string(" before it hands them over") : std::string());
              d.note(DiagId::NoteAsyncReadHere, e.op->range, name(v));
              if (early) d.note(DiagId::NoteHandOffHere, early->op->range, name(o.role));
              d.emit();
            }
          }
        }
      }
  }
};

}  // namespace

void checkHandOffFences(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  HandOffFenceChecks(ctx, k, f).checkHandOffFences();
}

}  // namespace cake::passes::safety
