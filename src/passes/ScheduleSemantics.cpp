// ScheduleSemantics: the schedule's structure is coherent.
//
// The gate is a list of named sub-checks, run in this order (each emits its
// diagnostics in program or declaration order):
//  - checkOverlappingRoles: roles have disjoint warps;
//  - checkIdleWarps: no warp of the block is left idle;
//  - checkRoleBlocks: each role has one `with` block;
//  - checkUndeclaredBarrierRoles: a role that arrives on (waits on) a barrier
//    is among its declared producers (consumers);
//  - checkBarrierDeclarations: every declared producer of a barrier arrives
//    on it, every declared consumer waits on it, and the barrier has as many
//    stages as its pipeline;
//  - checkViewStageCounts: a staged view has as many stages as the barrier
//    its copies complete on;
//  - checkFragmentRoles: a register fragment declared for a role
//    (`lm.regs(role=r)`) is used by that role only: registers are private to
//    the threads that hold them;
//  - checkUnused: declarations nobody uses are reported (warning, -Wunused).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/ScheduleModel.h"
#include "passes/Passes.h"

namespace cake::passes {

using namespace sema;
using namespace analysis;

namespace {

std::string roleList(const Kernel &k, const std::vector<ResourceId> &ids) {
  std::string s;
  for (ResourceId id : ids) s += (s.empty() ? "'" : ", '") + k.resources[id].name + "'";
  return "[" + s + "]";
}

class ScheduleChecker {
public:
  ScheduleChecker(const PassContext &ctx, const Kernel &k, const KernelFacts &f) : ctx_(ctx), k_(k), roles_(f.roles) {
    // Who arrives on and waits on each barrier, from the operations' effects.
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        const OpEffects &fx = e.op->info().effects;
        if (ResourceId sb = effectResource(*e.op, fx.signals); sb != kNoResource) signallers_[sb].insert(r.role);
        if (ResourceId wb = effectResource(*e.op, fx.waits); wb != kNoResource) waiters_[wb].insert(r.role);
      }
  }

  void run() {
    checkOverlappingRoles();
    if (checkHasRoles()) checkIdleWarps();
    checkRoleBlocks();
    checkUndeclaredBarrierRoles();
    checkBarrierDeclarations();
    checkViewStageCounts();
    checkFragmentRoles();
    checkUnused();
  }

private:
  const std::string &name(ResourceId id) const { return k_.resources[id].name; }

  // Each fragment once, at its first use by another role.
  void checkFragmentRoles() {
    std::set<ResourceId> reported;
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events)
        for (const Operand &o : e.op->operands) {
          if (!o.present || o.value.kind != ValueKind::Resource || o.value.resource == kNoResource) continue;
          const Resource &x = k_.resources[o.value.resource];
          if (x.kind != ResourceKind::Regs || x.role == kNoResource || x.role == r.role) continue;
          if (!reported.insert(x.id).second) continue;
          ctx_.diags
              .build(DiagId::ScheduleFragmentRole, o.range.valid() ? o.range : e.op->range, name(r.role), x.name,
                     name(x.role))
              .note(DiagId::NoteDeclaredHere, x.range, x.name)
              .emit();
        }
  }

  // No warp belongs to two roles; the role declared later is the one
  // reported, with a note at the first owner.
  void checkOverlappingRoles() {
    std::map<int64_t, ResourceId> owner;
    for (const Resource &r : k_.resources) {
      if (r.kind != ResourceKind::Role) continue;
      for (int64_t w : r.warps) {
        auto [it, inserted] = owner.emplace(w, r.id);
        if (!inserted) {
          const Resource &other = k_.resources[it->second];
          ctx_.diags.build(DiagId::ScheduleOverlappingRoles, r.range, w, other.name, r.name)
              .note(DiagId::NoteRoleDeclaredHere, other.range, other.name)
              .emit();
        }
      }
    }
  }

  // A kernel runs its roles' warps: with none, its block would have no
  // threads and could not launch.
  bool checkHasRoles() {
    for (const Resource &r : k_.resources)
      if (r.kind == ResourceKind::Role) return true;
    ctx_.diags.report(DiagId::ScheduleNoRoles, k_.nameRange, k_.name);
    return false;
  }

  // Every warp of the block belongs to some role. (Blocks over the thread
  // limit are the hardware gate's to report.)
  void checkIdleWarps() {
    std::set<int64_t> owned;
    for (const Resource &r : k_.resources)
      if (r.kind == ResourceKind::Role) owned.insert(r.warps.begin(), r.warps.end());
    std::string idle;
    for (int64_t w = 0; k_.threads <= targetInfo(ctx_.module.target).maxThreads && w < k_.threads / 32; ++w)
      if (!owned.count(w)) idle += (idle.empty() ? "" : ", ") + std::to_string(w);
    if (!idle.empty()) ctx_.diags.report(DiagId::ScheduleIdleWarps, k_.nameRange, idle, k_.threads);
  }

  // One `with` block per role.
  void checkRoleBlocks() {
    std::map<ResourceId, const RoleBlock *> firstBlock;
    for (const RoleBlock &b : k_.roles) {
      auto [it, inserted] = firstBlock.emplace(b.role, &b);
      if (!inserted)
        ctx_.diags.build(DiagId::ScheduleDuplicateRoleBlock, b.range, name(b.role))
            .note(DiagId::NoteFirstRoleBlock, it->second->range, name(b.role))
            .emit();
    }
  }

  // A role that signals (waits on) a barrier must be among its declared
  // producers (consumers). Per operation, the signal is judged before the
  // wait.
  void checkUndeclaredBarrierRoles() {
    auto judge = [&](const Operation &op, ResourceId role, ResourceId b, const std::vector<ResourceId> &declared,
                     DiagIdWithArgs<3> undeclared) {
      if (std::count(declared.begin(), declared.end(), role)) return;
      ctx_.diags.build(undeclared, op.range, name(role), name(b), roleList(k_, declared))
          .note(DiagId::NoteBarrierDeclaredHere, k_.resources[b].range, name(b))
          .emit();
    };
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        const Operation &op = *e.op;
        const OpEffects &fx = op.info().effects;
        ResourceId sb = effectResource(op, fx.signals);
        ResourceId wb = effectResource(op, fx.waits);
        if (sb != kNoResource) judge(op, r.role, sb, k_.resources[sb].producers, DiagId::ScheduleUndeclaredProducer);
        if (wb != kNoResource) judge(op, r.role, wb, k_.resources[wb].consumers, DiagId::ScheduleUndeclaredConsumer);
      }
  }

  // Per barrier, in declaration order: its declared roles take part, and
  // its stage count matches its pipeline's.
  void checkBarrierDeclarations() {
    for (const Resource &b : k_.resources) {
      if (b.kind != ResourceKind::Barrier) continue;
      checkProducersArrive(b);
      checkConsumersWait(b);
      checkPipelineStageCount(b);
    }
  }

  // Every declared producer of `b` arrives on it somewhere.
  void checkProducersArrive(const Resource &b) {
    for (ResourceId p : b.producers)
      if (!signallers_[b.id].count(p))
        ctx_.diags.build(DiagId::ScheduleProducerNeverArrives, b.range, name(p), b.name)
            .note(DiagId::NoteRoleDeclaredHere, k_.resources[p].range, name(p))
            .emit();
  }

  // Every declared consumer of `b` waits on it somewhere.
  void checkConsumersWait(const Resource &b) {
    for (ResourceId c : b.consumers)
      if (!waiters_[b.id].count(c))
        ctx_.diags.build(DiagId::ScheduleConsumerNeverWaits, b.range, name(c), b.name)
            .note(DiagId::NoteRoleDeclaredHere, k_.resources[c].range, name(c))
            .emit();
  }

  // A barrier of a pipeline has one mbarrier per pipeline stage.
  void checkPipelineStageCount(const Resource &b) {
    if (b.pipeline == kNoResource || k_.resources[b.pipeline].stages == b.count) return;
    const Resource &p = k_.resources[b.pipeline];
    ctx_.diags
        .build(DiagId::ScheduleStageCountMismatch, b.range, "barrier", b.name, b.count, "its pipeline", p.name,
               p.stages)
        .note(DiagId::NoteDeclaredHere, p.range, p.name)
        .emit();
  }

  // A staged view filled by copies completing on a barrier has as many
  // stages as the barrier has mbarriers (each view, barrier pair once).
  void checkViewStageCounts() {
    std::set<std::pair<ResourceId, ResourceId>> reported;
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        const OpEffects &fx = e.op->info().effects;
        ResourceId b = effectResource(*e.op, fx.signals);
        ResourceId v = effectResource(*e.op, fx.writes);
        if (b == kNoResource || v == kNoResource || k_.resources[v].kind != ResourceKind::View) continue;
        const Resource &view = k_.resources[v];
        const Resource &bar = k_.resources[b];
        if (view.stages > 1 && view.stages != bar.count && reported.insert({v, b}).second)
          ctx_.diags
              .build(DiagId::ScheduleStageCountMismatch, e.op->range, "view", view.name, view.stages, "barrier",
                     bar.name, bar.count)
              .note(DiagId::NoteBarrierDeclaredHere, bar.range, bar.name)
              .emit();
      }
  }

  // Unused declarations. Uses: operations' operands and receivers, views of
  // a pool, barriers of a pipeline, roles entered or named by barriers and
  // fragments. Derived resources and scalar parameters are exempt.
  void checkUnused() {
    std::set<ResourceId> used;
    for (const RoleEvents &r : roles_)
      for (const Event &e : r.events) {
        const Operation &op = *e.op;
        if (op.receiver != kNoResource) used.insert(op.receiver);
        for (const Operand &o : op.operands) {
          if (!o.present) continue;
          if (o.value.kind == ValueKind::Resource || o.value.kind == ValueKind::ViewStage)
            used.insert(o.value.resource);
        }
      }
    for (const Resource &r : k_.resources) {
      if (r.kind == ResourceKind::View && r.pool != kNoResource) used.insert(r.pool);
      if (r.kind == ResourceKind::Barrier) {
        if (r.pipeline != kNoResource) used.insert(r.pipeline);
        for (ResourceId p : r.producers) used.insert(p);
        for (ResourceId c : r.consumers) used.insert(c);
      }
      if (r.kind == ResourceKind::Regs && r.role != kNoResource) used.insert(r.role);
    }
    for (const RoleBlock &b : k_.roles) used.insert(b.role);
    for (const Resource &r : k_.resources) {
      if (used.count(r.id) || r.derived || r.kind == ResourceKind::ScalarParam) continue;
      ctx_.diags.report(DiagId::ScheduleUnused, r.range, resourceKindName(r.kind), r.name);
    }
  }

  const PassContext &ctx_;
  const Kernel &k_;
  const std::vector<RoleEvents> &roles_;
  // Roles that signal (wait on) each barrier, whether declared or not.
  std::map<ResourceId, std::set<ResourceId>> signallers_, waiters_;
};

}  // namespace

void checkScheduleSemantics(const PassContext &ctx, const Kernel &k, const KernelFacts &f) {
  ScheduleChecker(ctx, k, f).run();
}

}  // namespace cake::passes
