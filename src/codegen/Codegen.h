// Codegen: lowering a checked module to one self-contained CUDA C++ file,
// through the lowering table of its target (Lowering.h, Emitter.h).
//
// Runs after: the gates with no errors; the lowering
// trusts what they proved (stage counts, arrival counts, transaction bytes,
// alignment, one tensor map per tensor) and derives the bookkeeping from the
// same facts (src/analysis/), computed once.
//
// The output holds, in order: a header comment (kernel, launch shape, roles,
// the launcher's C ABI), the toolkit includes, the PTX wrappers the kernel
// uses (PtxWrappers.h; only those), each kernel, and each kernel's host
// launcher. The same module gives byte-identical text.
#pragma once

#include <string>

#include "analysis/KernelFacts.h"
#include "codegen/Lowering.h"
#include "diagnostics/Diagnostics.h"
#include "sema/SemaIR.h"

namespace cake::codegen {

struct CodegenOptions {
  // `#line` directives map kernel statements back to their .cake lines.
  bool lineDirectives = true;
  // The name the output will have, for the `#line` that returns to it.
  std::string outputName = "<stdout>";
  std::string compilerVersion;
  // The kernel's C name (and its launcher's prefix) instead of the
  // schedule's: two generated files with one schedule name can be linked.
  std::string kernelName;
  // -fno-gates: the gates that rejected the module ("safety gate"), said in
  // the file's first line; empty: none did.
  std::string gatesOff;
  // -fcheck-waits: the seconds after which a wait gives up (0: off; the
  // output is then what it is without the option, byte for byte).
  double checkWaitsSeconds = 0;
  // -fjitter: the seed of the delays before each role operation (0: off;
  // the output is then what it is without the option, byte for byte).
  uint32_t jitterSeed = 0;
};

// Lowers every kernel of `m`; appends the file's text to `out`. Reports
// constructs without a lowering through `diags` (codegen.* ids) and returns
// false if it reported an error, leaving `out` untouched.
// Whether `name` reaches generated C unchanged: not a keyword, not a name the
// generated file's headers declare, not a name of the implementation or
// ours (the rules of codegen's ident()). --kernel-name must be one.
bool isPlainCName(const std::string &name);

bool emitCuda(const sema::Module &m, const analysis::ModuleFacts &facts, const SourceManager &sm,
              DiagnosticEngine &diags, const CodegenOptions &opts, std::string &out);

// The C header of the module's launchers (--emit=header): cake_tensor, the
// error codes and one prototype per kernel, for C and C++, with no CUDA
// header needed (cudaStream_t is declared as CUDA declares it).
bool emitHeader(const sema::Module &m, const analysis::ModuleFacts &facts, const SourceManager &sm,
                DiagnosticEngine &diags, const CodegenOptions &opts, std::string &out);

// The launchers as JSON (--emit=interface): per launcher its C name, its
// schedule, whether it is a family's dispatcher, and its parameters in order
// (tensors with rank, declared shape, element type and access; scalars with
// their C type), for bindings from other languages.
bool emitInterface(const sema::Module &m, const analysis::ModuleFacts &facts, const SourceManager &sm,
                   DiagnosticEngine &diags, const CodegenOptions &opts, std::string &out);

}  // namespace cake::codegen
