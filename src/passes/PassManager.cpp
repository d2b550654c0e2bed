// PassManager: the ordered list of gates.
#include "passes/Passes.h"

namespace cake::passes {

using namespace sema;

void runCheckPasses(const Module &m, const analysis::ModuleFacts &facts, const SourceManager &sm,
                    DiagnosticEngine &diags) {
  PassContext ctx{m, sm, diags};
  using Pass = void (*)(const PassContext &, const Kernel &, const KernelFacts &);
  static const Pass kPipeline[] = {
      checkScheduleSemantics,   // 1. structure: roles, barriers, stage counts, unused declarations
      checkHardwareCompliance,  // 2. the exact target
      checkDataConsistency,     // 3. producers and consumers agree on the data
      checkProgramSafety,       // 4. no stale reads, races or hangs
  };
  for (const Kernel *k : m.compiledKernels())
    for (Pass pass : kPipeline) {
      if (diags.fatalOccurred()) return;
      pass(ctx, *k, facts.of(*k));
    }
  for (size_t i = 0; i < m.families.size(); ++i) {
    if (diags.fatalOccurred()) return;
    checkFamily(ctx, *m.families[i], facts.families[i]);
  }
}

}  // namespace cake::passes
