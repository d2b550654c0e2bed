// PassManager: the ordered list of gates.
#include "passes/Passes.h"

namespace cake::passes {

using namespace sema;

namespace {
using Pass = void (*)(const PassContext &, const Kernel &, const KernelFacts &);
struct Gate {
  Pass pass;
  const char *name;  // for -fno-gates; empty: always on
};
const Gate kPipeline[] = {
    {checkScheduleSemantics, ""},           // 1. structure: roles, barriers, stage counts, unused declarations
    {checkHardwareCompliance, "hardware"},  // 2. the exact target
    {checkDataConsistency, "data"},         // 3. producers and consumers agree on the data
    {checkProgramSafety, "safety"},         // 4. no stale reads, races or hangs
};
}  // namespace

const std::set<std::string> &gatesThatMayBeOff() {
  static const std::set<std::string> names = [] {
    std::set<std::string> n;
    for (const Gate &g : kPipeline)
      if (*g.name) n.insert(g.name);
    return n;
  }();
  return names;
}

std::set<std::string> runCheckPasses(const Module &m, const analysis::ModuleFacts &facts, const SourceManager &sm,
                                     DiagnosticEngine &diags, const std::set<std::string> &off) {
  PassContext ctx{m, sm, diags};
  std::set<std::string> rejected;
  for (const Kernel *k : m.compiledKernels())
    for (const Gate &g : kPipeline) {
      if (diags.fatalOccurred()) return rejected;
      if (!*g.name || !off.count(g.name)) {
        g.pass(ctx, *k, facts.of(*k));
        continue;
      }
      std::vector<Diagnostic> captured;
      diags.setCapture(&captured);
      g.pass(ctx, *k, facts.of(*k));
      diags.setCapture(nullptr);
      for (Diagnostic &d : captured)
        if (diags.demote(std::move(d))) rejected.insert(g.name);
    }
  for (size_t i = 0; i < m.families.size(); ++i) {
    if (diags.fatalOccurred()) return rejected;
    checkFamily(ctx, *m.families[i], facts.families[i]);
  }
  return rejected;
}

}  // namespace cake::passes
