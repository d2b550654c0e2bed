// PassManager: the ordered list of gates, and the barrier protocol summary
// that `--emit=ir` appends.
#include <fmt/format.h>

#include <map>

#include "passes/Passes.h"
#include "passes/ScheduleModel.h"

namespace cake::passes {

using namespace sema;

void runCheckPasses(const Module &m, const SourceManager &sm, DiagnosticEngine &diags) {
  PassContext ctx{m, sm, diags};
  using Pass = void (*)(const PassContext &, const Kernel &);
  static const Pass kPipeline[] = {
      checkScheduleSemantics,   // 1. structure: roles, barriers, stage counts, unused declarations
      checkHardwareCompliance,  // 2. the exact target
      checkDataConsistency,     // 3. producers and consumers agree on the data
      checkProgramSafety,       // 4. no stale reads, races or hangs
  };
  for (const auto &k : m.kernels)
    for (Pass pass : kPipeline) {
      if (diags.fatalOccurred()) return;
      pass(ctx, *k);
    }
}

std::string describeBarrierProtocols(const Module &m, const SourceManager &sm) {
  std::string out;
  for (const auto &kp : m.kernels) {
    const Kernel &k = *kp;
    std::vector<RoleEvents> roles = collectEvents(k);
    bool header = false;
    for (const Resource &b : k.resources) {
      if (b.kind != ResourceKind::Barrier) continue;
      if (!header) {
        out += fmt::format("\nbarrier protocols of {}:\n", k.name);
        header = true;
      }
      std::map<ResourceId, std::pair<int64_t, std::string>> arrivals;
      std::map<ResourceId, int64_t> waits;
      int64_t tx = 0;
      for (const RoleEvents &r : roles)
        for (const Event &e : r.events) {
          const OpEffects &fx = e.op->info().effects;
          if (effectResource(*e.op, fx.signals) == b.id) {
            auto &[n, how] = arrivals[r.role];
            if (fx.signal == Signal::CompleteTx) {
              tx += txBytes(k, *e.op);
              if (how.find("expect_tx") == std::string::npos) {
                n += 1;
                how += std::string(how.empty() ? "" : ", ") + "expect_tx";
              }
              how += fmt::format(", {}", e.op->info().name);
            } else {
              n += arrivalsPerExecution(k, e);
              how += std::string(how.empty() ? "" : ", ") + std::string(e.op->info().name);
            }
          }
          if (effectResource(*e.op, fx.waits) == b.id) waits[r.role] += 1;
        }
      bool release = isReleaseBarrier(k, b.id, roles);
      out += fmt::format("  {}: {} mbarrier{}, init_count {}, {}\n", b.name, b.count, b.count == 1 ? "" : "s",
                         b.initCount,
                         release ? "release (waits of the first lap pass)" : "acquire (every wait blocks)");
      for (const auto &[role, a] : arrivals)
        out += fmt::format("    arrives: role '{}' x{} per phase ({})\n", k.resources[role].name, a.first, a.second);
      for (const auto &[role, n] : waits)
        out += fmt::format("    waits:   role '{}' ({} wait site{})\n", k.resources[role].name, n,
                           n == 1 ? "" : "s");
      if (tx) out += fmt::format("    transaction bytes per phase: {}\n", tx);
      out += fmt::format("    stage s uses mbarrier s % {} with parity (s / {}) % 2{}\n", b.count, b.count,
                         release ? ", inverted" : "");
    }
  }
  (void)sm;
  return out;
}

}  // namespace cake::passes
