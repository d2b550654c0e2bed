// Passes: the pre-compile gates, run in a fixed order over the resolved
// module. Each pass is read-only: it reports through the diagnostics table
// and never changes the module. Each reads what operations do from their
// effects in the vocabulary table (sema/Ops.def), never from their names.
//
// Order (runCheckPasses):
//   1. checkScheduleSemantics  roles, barrier producers/consumers, stage counts, unused declarations
//   2. checkHardwareCompliance the exact target: operations, limits, instruction shapes, TMA, alignment
//   3. checkDataConsistency    views and TMEM vs their pools, TMA boxes, swizzle aliases, MMA shapes
//   4. checkProgramSafety      waits vs reads, arrivals, trip counts, ring reuse, proxy fences, deadlock
//
// Runs after: sema::analyze with no errors, then analysis::analyzeModule.
// Runs before: codegen.
#pragma once

#include <set>
#include <string>

#include "analysis/KernelFacts.h"
#include "diagnostics/Diagnostics.h"
#include "sema/SemaIR.h"

namespace cake::passes {

struct PassContext {
  const sema::Module &module;
  const SourceManager &sm;
  DiagnosticEngine &diags;
};

// Each gate judges one kernel from the facts the analysis layer computed.
using analysis::KernelFacts;
void checkScheduleSemantics(const PassContext &ctx, const sema::Kernel &k, const KernelFacts &f);
void checkHardwareCompliance(const PassContext &ctx, const sema::Kernel &k, const KernelFacts &f);
void checkDataConsistency(const PassContext &ctx, const sema::Kernel &k, const KernelFacts &f);
void checkProgramSafety(const PassContext &ctx, const sema::Kernel &k, const KernelFacts &f);
// The family gate: routes, guards and signatures of one family.
void checkFamily(const PassContext &ctx, const sema::Family &family, const analysis::FamilyFacts &f);

// The gates -fno-gates may turn off, by name: hardware, data, safety. The
// first (schedule semantics) and the family gate stay on: lowering builds on
// the structure they check.
const std::set<std::string> &gatesThatMayBeOff();

// Runs every gate over every kernel, in the order above, then the family
// gate over every family. The errors of the gates named in `off`
// (-fno-gates) are reported as warnings (DiagnosticEngine::demote); returns
// the names of those gates that would have rejected the module.
std::set<std::string> runCheckPasses(const sema::Module &m, const analysis::ModuleFacts &facts, const SourceManager &sm,
                                     DiagnosticEngine &diags, const std::set<std::string> &off = {});

}  // namespace cake::passes
