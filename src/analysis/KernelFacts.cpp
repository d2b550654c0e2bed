// KernelFacts: see KernelFacts.h.
#include "analysis/KernelFacts.h"

#include <fmt/format.h>

#include "diagnostics/Check.h"

#include <algorithm>
#include <tuple>

#include "sema/ConstEval.h"

namespace cake::analysis {

using namespace sema;

const BarrierFacts &KernelFacts::barrier(ResourceId b) const {
  static const BarrierFacts none;
  auto it = barriers.find(b);
  return it == barriers.end() ? none : it->second;
}

const KernelFacts &ModuleFacts::of(const Kernel &k) const {
  for (const KernelFacts &f : kernels)
    if (f.kernel == &k) return f;
  CAKE_CHECK(false, "no facts were computed for kernel '" + k.name + "'");
  return kernels.front();
}

ResourceId copiedTensor(const Operation &op) {
  const OpInfo &info = op.info();
  for (size_t i = 0; i < info.params.size(); ++i)
    if (info.params[i].kind == ParamKind::TensorP && op.operands[i].present &&
        op.operands[i].value.kind == ValueKind::Resource)
      return op.operands[i].value.resource;
  return kNoResource;
}

std::string describeBox(const std::vector<int64_t> &box, DType dtype, Swizzle swizzle) {
  std::string s;
  for (size_t i = 0; i < box.size(); ++i) s += (i ? "x" : "") + std::to_string(box[i]);
  return fmt::format("{} {}, swizzle {}", s, dtypeInfo(dtype).name, swizzleName(swizzle));
}

namespace {

void collectBarriers(const Kernel &k, KernelFacts &f) {
  for (const RoleEvents &r : f.roles)
    for (const Event &e : r.events) {
      const OpEffects &fx = e.op->info().effects;
      if (ResourceId b = effectResource(*e.op, fx.signals); b != kNoResource) {
        BarrierFacts &bf = f.barriers[b];
        bf.signals.push_back(&e);
        bf.signallers.insert(r.role);
        if (fx.signal == Signal::CompleteTx) bf.data = true;
      }
      if (ResourceId b = effectResource(*e.op, fx.waits); b != kNoResource) {
        BarrierFacts &bf = f.barriers[b];
        bf.waits.push_back(&e);
        bf.waiters.insert(r.role);
      }
    }
  // Arrivals and transaction bytes per phase: copies on one barrier stage in
  // one statement list share one arrive.expect_tx (codegen issues it from
  // f.expectTx); every other signal arrives as its effects say.
  for (auto &[b, bf] : f.barriers) {
    std::map<std::tuple<const std::vector<IrStmt> *, AffineForm, bool>, const Operation *> groups;
    for (const Event *e : bf.signals) {
      RoleArrivals &ra = bf.arrivals[e->role];
      bf.conditionalSignals |= e->conditional;
      if (e->op->info().effects.signal == Signal::CompleteTx) {
        StageRef stage = stageOperand(*e->op);
        bool known = !stage.present() || stage.ix != kNoIntExpr;
        AffineForm form = stage.present() && known ? k.ints.form(stage.ix) : AffineForm{};
        // A stage without a normal form groups with nothing.
        const Operation *first = e->op;
        bool fresh = true;
        if (known) {
          auto [g, inserted] = groups.try_emplace(std::make_tuple(e->body, form, known), e->op);
          first = g->second;
          fresh = inserted;
        }
        if (fresh) {
          ra.expectTxArrivals = satAdd(ra.expectTxArrivals, 1);
          ra.count = satAdd(ra.count, 1);
        }
        f.expectTx[first] = satAdd(f.expectTx[first], txBytes(k, *e->op));
        ra.copies.push_back(e);
        bf.txBytesPerPhase = satAdd(bf.txBytesPerPhase, txBytes(k, *e->op));
        bf.conditionalCopies |= e->conditional;
      } else {
        int64_t n = arrivalsPerExecution(k, *e);
        ra.arrives.emplace_back(e, n);
        ra.count = satAdd(ra.count, n);
      }
    }
  }
  for (auto &[b, bf] : f.barriers)
    for (const auto &[role, ra] : bf.arrivals) bf.arrivalsPerPhase = satAdd(bf.arrivalsPerPhase, ra.count);

  // A release barrier is the reverse of a data barrier of the same
  // pipeline: those who consume the data release it to those who produce it.
  auto subset = [](const std::set<ResourceId> &a, const std::set<ResourceId> &c) {
    return std::includes(c.begin(), c.end(), a.begin(), a.end());
  };
  for (auto &[b, bf] : f.barriers) {
    const Resource &bar = k.resources[b];
    if (bar.pipeline == kNoResource || bf.data || bf.signallers.empty() || bf.waiters.empty()) continue;
    for (const auto &[d, df] : f.barriers) {
      if (d == b || !df.data || k.resources[d].pipeline != bar.pipeline) continue;
      if (subset(bf.signallers, df.waiters) && subset(bf.waiters, df.signallers)) bf.release = true;
    }
  }
}

void collectTensorMaps(const Kernel &k, KernelFacts &f) {
  for (const RoleEvents &r : f.roles)
    for (const Event &e : r.events) {
      ResourceId t = copiedTensor(*e.op);
      if (t == kNoResource || e.op->receiver == kNoResource) continue;
      const Resource &view = k.resources[e.op->receiver];
      int64_t multicast = multicastCount(*e.op);
      auto [it, fresh] = f.tensorMaps.try_emplace(t);
      TensorMap &map = it->second;
      if (fresh) {
        map = TensorMap{t, view.shape, view.dtype, view.swizzle, multicast, e.op};
        continue;
      }
      if (map.box != view.shape || map.dtype != view.dtype || map.swizzle != view.swizzle ||
          map.multicast != multicast)
        f.tensorMapConflicts.push_back({t, map.firstUse, e.op});
    }
}

}  // namespace

KernelFacts analyzeKernel(const Kernel &k) {
  KernelFacts f;
  f.kernel = &k;
  f.roles = collectEvents(k);
  collectBarriers(k, f);
  collectTensorMaps(k, f);
  return f;
}

ModuleFacts analyzeModule(const Module &m) {
  ModuleFacts facts;
  facts.kernels.reserve(m.kernels.size());
  for (const auto &k : m.kernels) facts.kernels.push_back(analyzeKernel(*k));
  return facts;
}

std::string describeBarrierProtocols(const Module &m, const ModuleFacts &facts) {
  std::string out;
  for (const auto &kp : m.kernels) {
    const Kernel &k = *kp;
    const KernelFacts &f = facts.of(k);
    bool header = false;
    for (const Resource &b : k.resources) {
      if (b.kind != ResourceKind::Barrier) continue;
      if (!header) {
        out += fmt::format("\nbarrier protocols of {}:\n", k.name);
        header = true;
      }
      const BarrierFacts &bf = f.barrier(b.id);
      std::map<ResourceId, int64_t> waits;
      for (const Event *e : bf.waits) waits[e->role] += 1;
      out += fmt::format("  {}: {} mbarrier{}, init_count {}, {}\n", b.name, b.count, b.count == 1 ? "" : "s",
                         b.initCount,
                         bf.release ? "release (waits of the first lap pass)" : "acquire (every wait blocks)");
      for (const auto &[role, ra] : bf.arrivals) {
        std::string how;
        for (const Event *c : ra.copies) how += fmt::format("{}{}", how.empty() ? "expect_tx, " : ", ", c->op->info().name);
        for (const auto &[e, n] : ra.arrives) how += (how.empty() ? "" : ", ") + std::string(e->op->info().name);
        out += fmt::format("    arrives: role '{}' x{} per phase ({})\n", k.resources[role].name, ra.count, how);
      }
      for (const auto &[role, n] : waits)
        out += fmt::format("    waits:   role '{}' ({} wait site{})\n", k.resources[role].name, n,
                           n == 1 ? "" : "s");
      if (bf.txBytesPerPhase) out += fmt::format("    transaction bytes per phase: {}\n", bf.txBytesPerPhase);
      out += fmt::format("    stage s uses mbarrier s % {} with parity (s / {}) % 2{}\n", b.count, b.count,
                         bf.release ? ", inverted" : "");
    }
  }
  return out;
}

}  // namespace cake::analysis
