// Options: the command line of cakec, parsed with CLI11.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "diagnostics/Diagnostics.h"
#include "target/TargetInfo.h"

namespace cake {

inline constexpr const char *kCompilerVersion = "0.1.0";

enum class EmitKind { Tokens, Ast, Ir, Cuda, Header, Interface, Report };
enum class ColorMode { Auto, Always, Never };
enum class DiagFormat { Text, Json, Sarif };

struct Options {
  std::vector<std::string> inputs;
  std::string output;  // empty: the default for the emit kind; "-" stdout
  std::string targetName = "sm_90a";
  Target target = kDefaultTarget;
  bool syntaxOnly = false;
  std::string kernelName;    // --kernel-name: the generated kernel's C name
  bool targetGiven = false;  // --target or -arch on the command line
  std::optional<EmitKind> emit;
  std::vector<std::string> includeDirs;
  std::map<std::string, std::string> defines;  // -D NAME=VALUE
  bool verify = false;
  bool splitInputFile = false;  // --split-input-file: each part between `# -----` lines on its own
  bool noLineDirectives = false;
  ColorMode color = ColorMode::Auto;
  DiagFormat diagFormat = DiagFormat::Text;
  bool parseableFixits = false;  // -fdiagnostics-parseable-fixits
  DiagnosticOptions diag;
  std::vector<std::string> unknownWarnings;  // reported once the engine exists
  std::vector<std::string> unknownRemarks;
  bool listDiagnostics = false;
  bool listTargets = false;
  bool listOps = false;
  std::string listFormat = "text";  // --list-ops: text or markdown
  // Dependency files, as gcc's -MD -MMD -MF -MT -MP.
  bool depfile = false;
  std::string depfilePath;  // -MF; default: the output with .d
  std::string depTarget;    // -MT; default: the output path
  bool depPhony = false;    // -MP
  std::string debugCrash;   // hidden: exercise the internal-error path
  // -fno-gates=GATE,...: the gates whose errors are reported as warnings
  // and do not stop the lowering (experiments: the GPU verdict runs).
  std::set<std::string> noGates;
  // -fcheck-waits[=SECONDS]: every mbarrier wait and named-barrier meeting gives up after this long,
  // names itself and stops the kernel (0: off, the default).
  double checkWaitsSeconds = 0;
  // -fjitter[=SEED]: a seeded random delay before each role operation, to
  // bring out races that depend on timing (0: off, the default).
  uint32_t jitterSeed = 0;
  // --report: each kernel's (and family's route's) predicted time at each
  // --shape, as text or JSON (--report-format).
  std::vector<std::map<std::string, int64_t>> shapes;
  bool reportJson = false;
  bool reportRoutes = false;    // --report-routes: every route of a family, ranked by the model
  std::string calibrationFile;  // --calibration: rates replacing the target's own
};

struct ParseResult {
  enum Status { Run, ExitSuccess, ExitFailure } status = Run;
  // For ExitFailure: the diagnostic to report and its arguments.
  DiagId error = DiagId::DriverUsage;
  std::vector<std::string> args;
};

// Parses argv into `opts`. Help and --version are printed here.
ParseResult parseCommandLine(int argc, const char *const *argv, Options &opts);

}  // namespace cake
