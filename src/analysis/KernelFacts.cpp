// KernelFacts: see KernelFacts.h.
#include "analysis/KernelFacts.h"

#include <fmt/format.h>

#include "diagnostics/Check.h"

#include <algorithm>
#include <tuple>

#include "sema/ConstEval.h"
#include "target/TargetInfo.h"

namespace cake::analysis {

using namespace sema;

const BarrierFacts &KernelFacts::barrier(ResourceId b) const {
  static const BarrierFacts none;
  auto it = barriers.find(b);
  return it == barriers.end() ? none : it->second;
}

const std::optional<Region> &KernelFacts::stageRegion(const RoleEvents &r, ResourceId b, const IrStmt *O) const {
  auto it = stageRegions.find(std::make_tuple(r.block, b, O));
  CAKE_CHECK(it != stageRegions.end(), "no running count was computed for a use's barrier and loop");
  return it->second;
}

const KernelFacts &ModuleFacts::of(const Kernel &k) const {
  for (const KernelFacts &f : kernels)
    if (f.kernel == &k) return f;
  CAKE_CHECK(false, "no facts were computed for kernel '" + k.name + "'");
  return kernels.front();
}

int64_t viewRowBytes(const Resource &view) {
  return view.shape.empty() ? 0 : view.shape.back() * dtypeInfo(view.dtype).bits / 8;
}

ResourceId copiedTensor(const Operation &op) {
  const OpInfo &info = op.info();
  for (size_t i = 0; i < info.params.size(); ++i)
    if (info.params[i].kind == ParamKind::TensorP && op.operands[i].present &&
        op.operands[i].value.kind == ValueKind::Resource)
      return op.operands[i].value.resource;
  return kNoResource;
}

std::string describeBox(const std::vector<int64_t> &box, DType dtype, Swizzle swizzle, bool coreMatrices) {
  std::string s;
  for (size_t i = 0; i < box.size(); ++i) s += (i ? "x" : "") + std::to_string(box[i]);
  return fmt::format("{} {}, swizzle {}{}", s, dtypeInfo(dtype).name, swizzleName(swizzle),
                     coreMatrices ? ", 16-byte core-matrix panels" : "");
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
        if (fx.signal == Signal::CompleteTx || fx.signal == Signal::CopyArrive) bf.data = true;
      }
      if (ResourceId b = effectResource(*e.op, fx.waits); b != kNoResource) {
        BarrierFacts &bf = f.barriers[b];
        bf.waits.push_back(&e);
        bf.waiters.insert(r.role);
      }
    }
  for (auto &[b, bf] : f.barriers) {
    bf.waitTurns = turnsOf(k, bf.waits, bf.waiters);
    bf.signalTurns = turnsOf(k, bf.signals, bf.signallers);
  }
  // Arrivals and transaction bytes per phase, by signal site (one loop
  // nest, one stage): copies in one statement list of a site share one
  // arrive.expect_tx (codegen issues it from f.expectTx); every other signal
  // arrives as its effects say. A stage without a normal form is a site of
  // its own. Signals of one site under guards that let different
  // iterations through (`if k > 0` on one copy only) give different counts
  // in different iterations: they count as conditional.
  for (auto &[b, bf] : f.barriers) {
    using SiteKey = std::tuple<ResourceId, std::vector<const IrStmt *>, AffineForm>;
    auto keyOf = [&](const Event &e, bool &known) {
      return SiteKey{e.role, e.loops, formOf(k, stageOperand(*e.op), known)};
    };
    std::map<SiteKey, std::set<std::tuple<bool, AffineForm, AffineForm>>> ranges;
    for (const Event *e : bf.signals) {
      bool known;
      if (!e->alternative)
        ranges[keyOf(*e, known)].insert(e->guarded ? std::make_tuple(true, e->first, e->end)
                                                   : std::make_tuple(false, AffineForm{}, AffineForm{}));
    }
    std::map<SiteKey, size_t> index;
    std::map<std::pair<const std::vector<IrStmt> *, AffineForm>, const Operation *> txGroups;
    for (const Event *e : bf.signals) {
      bool known;
      SiteKey key = keyOf(*e, known);
      const AffineForm &form = std::get<2>(key);
      if (e->alternative) {
        // Its twin in the then-branch is counted; its own branch still
        // issues the arrive.expect_tx for its copies.
        if (e->op->info().effects.signal == Signal::CompleteTx) {
          const Operation *group = e->op;
          if (known) group = txGroups.try_emplace(std::make_pair(e->body, form), e->op).first->second;
          f.expectTx[group] = satAdd(f.expectTx[group], txBytes(k, *e->op));
          f.expectTxCopies[group].push_back(e->op);
        }
        continue;
      }
      RoleArrivals &ra = bf.arrivals[e->role];
      bool conditional = e->conditional || (known && ranges[key].size() > 1);
      bf.conditionalSignals |= conditional;
      size_t site = ra.sites.size();
      if (known) site = index.try_emplace(key, site).first->second;
      if (site == ra.sites.size()) {
        ra.sites.emplace_back();
        ra.sites.back().loops = e->loops;
        ra.sites.back().first = e;
      }
      SignalSite &st = ra.sites[site];
      if (e->op->info().effects.signal == Signal::CompleteTx) {
        const Operation *group = e->op;
        if (known) group = txGroups.try_emplace(std::make_pair(e->body, form), e->op).first->second;
        if (group == e->op) st.count = satAdd(st.count, 1);  // a new arrive.expect_tx
        st.copies.push_back(e);
        st.txBytes = satAdd(st.txBytes, txBytes(k, *e->op));
        f.expectTx[group] = satAdd(f.expectTx[group], txBytes(k, *e->op));
        f.expectTxCopies[group].push_back(e->op);
        bf.conditionalCopies |= conditional;
      } else {
        int64_t n = arrivalsPerExecution(k, *e);
        st.arrives.emplace_back(e, n);
        st.count = satAdd(st.count, n);
      }
    }
    bool turnCounted = false;  // roles taking turns give one phase's signals between them
    for (auto &[role, ra] : bf.arrivals) {
      ra.count = ra.sites.front().count;
      int64_t roleBytes = 0;  // the most one of its sites delivers in a phase
      for (const SignalSite &st : ra.sites) {
        ra.uneven |= st.count != ra.count;
        roleBytes = std::max(roleBytes, st.txBytes);
      }
      if (bf.signalTurns && bf.signalTurns->has(role)) {
        if (turnCounted) continue;
        turnCounted = true;
      }
      bf.txBytesPerPhase = satAdd(bf.txBytesPerPhase, roleBytes);
      bf.arrivalsPerPhase = satAdd(bf.arrivalsPerPhase, ra.count);
    }
  }

  // A release barrier is the reverse of a data barrier of the same
  // pipeline: those who consume the data release it to those who produce it.
  auto subset = [](const std::set<ResourceId> &a, const std::set<ResourceId> &c) {
    return std::includes(c.begin(), c.end(), a.begin(), a.end());
  };
  for (auto &[b, bf] : f.barriers) {
    const Resource &bar = k.resources[b];
    // Declared credits say it; otherwise it is inferred from the pipeline.
    if (bar.credits >= 0) {
      bf.release = bar.credits > 0;
      continue;
    }
    if (bar.pipeline == kNoResource || bf.data || bf.signallers.empty() || bf.waiters.empty()) continue;
    for (const auto &[d, df] : f.barriers) {
      if (d == b || !df.data || k.resources[d].pipeline != bar.pipeline) continue;
      if (subset(bf.signallers, df.waiters) && subset(bf.waiters, df.signallers)) bf.release = true;
    }
  }
}

// The views a descriptor-fed tensor core reads (an asynchronous MMA-family
// operation's read operands) that have no swizzle.
void collectCoreMatrixViews(const Kernel &k, KernelFacts &f, Target target) {
  MmaPath path = targetInfo(target).mma;
  if (path != MmaPath::Wgmma && path != MmaPath::Tcgen05) return;
  for (const RoleEvents &r : f.roles)
    for (const Event &e : r.events) {
      const OpEffects &fx = e.op->info().effects;
      if (fx.group != AsyncGroup::Mma || fx.proxy != Proxy::Async) continue;
      for (int8_t p : fx.reads) {
        if (p == kNone || !e.op->operandAt(p).present) continue;
        ResourceId id = e.op->operandAt(p).value.resource;
        if (id == kNoResource) continue;
        const Resource &v = k.resources[id];
        if (v.kind == ResourceKind::View && v.swizzle == Swizzle::None && v.shape.size() == 2)
          f.coreMatrixViews.insert(id);
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
      bool core = f.coreMatrixViews.count(e.op->receiver) != 0;
      auto [it, fresh] = f.tensorMaps.try_emplace(t);
      TensorMap &map = it->second;
      if (fresh) {
        map = TensorMap{t, view.shape, view.dtype, view.swizzle, multicast, core, e.op, kNoResource, {}, {}, {}};
        continue;
      }
      if (map.box != view.shape || map.dtype != view.dtype || map.swizzle != view.swizzle ||
          map.multicast != multicast || map.coreMatrices != core)
        f.tensorMapConflicts.push_back({t, map.firstUse, e.op});
    }
}

// Which tensor maps may cut their box's outer dimension to the tensor
// (TensorMap::clipExtent): two-dimensional maps of a tensor whose outer
// dimension is a scalar parameter, copied without multicast into views of
// one panel (or out of views of any), every copy's outer coordinate proven
// not negative (a box cut at a negative start would miss real rows), and
// every view loaded from it sharing no byte with another view and written
// by nothing but those loads.
void collectBoxClips(const Kernel &k, KernelFacts &f) {
  std::map<ResourceId, std::set<const Operation *>> writers;  // view -> operations writing it
  for (const RoleEvents &r : f.roles)
    for (const Event &e : r.events) {
      const OpEffects &fx = e.op->info().effects;
      if (fx.writes == kNone) continue;
      ResourceId w = effectResource(*e.op, fx.writes);
      if (w != kNoResource) writers[w].insert(e.op);
    }
  for (auto &[t, map] : f.tensorMaps) {
    const Resource &tensor = k.resources[t];
    std::string &why = map.noClip;
    if (tensor.rank != 2 || tensor.dims.size() != 2 || tensor.dims[0].scalar == kNoResource)
      why = "its tensor is not two-dimensional with a scalar parameter as its outer dimension";
    else if (map.box.size() != 2 || map.box[0] <= 1)
      why = "the box is not two-dimensional with more than one row";
    else if (map.multicast > 1)
      why = "it is multicast";
    else if (map.coreMatrices)
      why = "its view is laid out as core-matrix panels";
    std::set<ResourceId> views;
    std::set<const Operation *> loads;
    for (const RoleEvents &r : f.roles)
      for (const Event &e : r.events) {
        if (!why.empty() || copiedTensor(*e.op) != t) continue;
        // A copy into its view (a load) or out of it (a store), with one
        // coordinate per dimension (sema's data.tma-rank).
        bool load = e.op->info().effects.writes == kReceiver;
        const Operand *coords = copyCoords(*e.op);
        CAKE_CHECK(coords && coords->value.elts.size() == 2, "a copy of a 2-d tensor without two coordinates");
        const Value &outer = coords->value.elts.back();  // coordinates run innermost first
        std::optional<int64_t> low = outer.constInt;
        if (!low && outer.ix != kNoIntExpr) low = lowerBound(k, k.ints.form(outer.ix));
        if (!low || *low < 0) {
          why = "a copy's outer coordinate is not proven non-negative";
          continue;
        }
        if (!load) continue;
        const Resource &v = k.resources[e.op->receiver];
        unsigned swz = swizzleBytes(v.swizzle);
        int64_t rowBytes = viewRowBytes(v);
        const Resource *overlap = nullptr;  // another view over any of its bytes
        for (const Resource &w : k.resources)
          if (w.kind == ResourceKind::View && w.id != v.id && w.pool == v.pool &&
              w.offset < sema::satAdd(v.offset, v.totalBytes) &&
              v.offset < sema::satAdd(w.offset, w.totalBytes))  // saturated: offsets may be near INT64_MAX here
            overlap = &w;
        if (overlap)
          why = fmt::format("view '{}' shares bytes with view '{}'", v.name, overlap->name);
        else if (swz != 0 && rowBytes != swz)  // (an unswizzled row is whole 16-byte chunks: hw.tma-inner-box)
          why = fmt::format("a row of view '{}' is not one swizzle span", v.name);
        views.insert(v.id);
        loads.insert(e.op);
      }
    for (ResourceId v : views)
      for (const Operation *w : writers[v])
        if (why.empty() && !loads.count(w))
          why = fmt::format("view '{}' is also written by '{}'", k.resources[v].name, w->info().name);
    if (!why.empty()) continue;
    map.clipExtent = tensor.dims[0].scalar;
    map.clipViews.assign(views.begin(), views.end());
    for (const RoleEvents &r : f.roles)
      for (const Event &e : r.events)
        for (int8_t p : e.op->info().effects.reads)
          if (p != kNone && views.count(effectResource(*e.op, p))) map.clipReaders.insert(r.role);
  }
}

}  // namespace

KernelFacts analyzeKernel(const Kernel &k, Target target, const SourceManager &sm) {
  KernelFacts f;
  f.kernel = &k;
  f.roles = collectEvents(k);
  collectBarriers(k, f);
  collectCoreMatrixViews(k, f, target);
  collectTensorMaps(k, f);
  if (f.tensorMapConflicts.empty()) collectBoxClips(k, f);
  f.flight = asyncFlight(k, f.roles, target);
  f.drains = roleEndDrains(f.flight, target);
  f.releases = collectReleases(k, f.roles, f.barriers);
  f.stageRegions = collectStageRegions(k, sm, f);
  f.crossBlock = collectCrossBlock(k, f.roles);
  f.outputCoverage = collectOutputCoverage(k, f.roles);
  f.outputOverlaps = collectOutputOverlaps(k, f.roles, f.crossBlock);
  f.paramAccess = collectParamAccess(k, f.roles);
  return f;
}

ModuleFacts analyzeModule(const Module &m, const SourceManager &sm) {
  ModuleFacts facts;
  for (const Kernel *k : m.compiledKernels()) facts.kernels.push_back(analyzeKernel(*k, m.target, sm));
  for (const auto &f : m.families) facts.families.push_back(analyzeFamily(*f, sm));
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
      out += fmt::format(
          "  {}: {} mbarrier{}, init_count {}, {}\n", b.name, b.count, b.count == 1 ? "" : "s", b.initCount,
          fmt::format("{}{}", bf.release ? "release (waits of the first lap pass)" : "acquire (every wait blocks)",
                      b.credits >= 0 ? ", declared" : ""));
      for (const auto &[role, ra] : bf.arrivals) {
        const SignalSite &st = ra.sites.front();
        std::string how;
        for (const Event *c : st.copies)
          how += fmt::format("{}{}", how.empty() ? "expect_tx, " : ", ", c->op->info().name);
        for (const auto &[e, n] : st.arrives) how += (how.empty() ? "" : ", ") + std::string(e->op->info().name);
        out += fmt::format("    arrives: role '{}' x{} per phase ({}){}\n", k.resources[role].name, ra.count, how,
                           ra.sites.size() > 1 ? fmt::format(", from {} sites", ra.sites.size()) : "");
      }
      for (const auto &[role, n] : waits)
        out += fmt::format("    waits:   role '{}' ({} wait site{})\n", k.resources[role].name, n, n == 1 ? "" : "s");
      if (bf.txBytesPerPhase) out += fmt::format("    transaction bytes per phase: {}\n", bf.txBytesPerPhase);
      out += fmt::format("    stage s uses mbarrier s % {} with parity (s / {}) % 2{}\n", b.count, b.count,
                         bf.release ? ", inverted" : "");
    }
    bool mapHeader = false;
    for (const auto &[t, map] : f.tensorMaps) {
      if (!mapHeader) {
        out += fmt::format("\ntensor maps of {}:\n", k.name);
        mapHeader = true;
      }
      out += fmt::format("  {}: box {}", k.resources[t].name,
                         describeBox(map.box, map.dtype, map.swizzle, map.coreMatrices));
      if (map.clipExtent != kNoResource) {
        std::string views;
        for (ResourceId v : map.clipViews)
          views += (views.empty() ? "" : ", ") + fmt::format("'{}'", k.resources[v].name);
        out += fmt::format("; rows cut to {} when it is shorter{}\n", k.resources[map.clipExtent].name,
                           views.empty() ? "" : fmt::format(" (rows past the cut of {} zeroed once)", views));
      } else {
        out += fmt::format("; rows not cut: {}\n", map.noClip);
      }
    }
    out += describeCrossBlock(k, f.crossBlock);
    bool drainHeader = false;
    for (const RoleBlock &rb : k.roles) {
      auto it = f.drains.find(&rb);
      if (it == f.drains.end()) continue;
      if (!drainHeader) {
        out += fmt::format("\nderived at role ends of {}:\n", k.name);
        drainHeader = true;
      }
      for (AsyncGroup g : it->second)
        out += fmt::format("  role '{}': {}\n", k.resources[rb.role].name,
                           g == AsyncGroup::Bulk ? "waits for its TMA stores still in flight (tma_store_wait)"
                                                 : "waits for its tensor-core groups still in flight (mma_wait(0))");
    }
  }
  return out;
}

}  // namespace cake::analysis
