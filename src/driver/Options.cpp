// Options: see Options.h.
//
// CLI11 2.1 rejects multi-letter single-dash options (gcc's -fsyntax-only,
// -arch=sm_90a, -verify); those are rewritten to long options first, and the
// -W family is handled here entirely since its names come from the
// diagnostics table.
#include "driver/Options.h"

#include <cctype>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "codegen/Codegen.h"
#include "passes/Passes.h"
#include "sema/Sema.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>

namespace cake {

namespace {

const std::string kVersion = std::string("cakec ") + kCompilerVersion + " (CAKE IR compiler)";

const char *kFooter = R"(Warning options:
  -W<name>              enable warning <name>
  -Wno-<name>           disable warning <name>
  -Werror               treat every warning as an error
  -Werror=<name>        treat warning <name> as an error
  -Wno-error=<name>     keep warning <name> a warning (under -Werror, and for
                        'unproven', which is an error by default)
  -w                    suppress all warnings

Remarks (never errors; none are shown by default):
  -Rhint                with --report: what the model predicts a change of the
                        schedule would gain, at the place to change

Debugging options (the generated code, not the compiler):
  -fcheck-waits[=SECONDS]
                        lower every mbarrier wait and lm.sync meeting with a
                        time limit (default 2 seconds; the launcher's
                        CAKE_CHECK_WAITS_SECONDS overrides it at run time): a
                        wait that runs out records its role, barrier, stage
                        (or meeting) and block, the
                        kernel stops, and the launcher, which then waits for
                        the kernel, prints each record as file:line:col:
                        error: ... [run.hang] and returns CAKE_ERROR_HANG
  -fjitter[=SEED]       before each operation of each role, delay the warp
                        by 0.5 to 16.5 us one time in four, drawn from a
                        hash of SEED (default 1), the operation, the block
                        and the warp: brings out races that depend on
                        timing (a role that does not wait for another one's
                        writes); deterministic for a seed
  -fno-gates=GATES      lower even where the named gates (comma-separated:
                        hardware, data, safety, or all) reject the schedule:
                        their errors are shown as warnings and the generated
                        file says so in its first line; for experiments only

Single-dash spellings -fsyntax-only, -fmax-errors=N, -arch=sm_XX, -verify,
-fdiagnostics-parseable-fixits
and -MD, -MMD, -MF FILE, -MT TARGET, -MP are accepted as in gcc and nvcc.
Exit status: 0 on success (warnings allowed),
1 on errors or bad usage, 4 on an internal compiler error.)";

// Returns true if the argument was a warning option (consumed here).
bool takeWarningOption(const std::string &a, Options &opts) {
  if (a == "-w") {
    opts.diag.suppressWarnings = true;
    return true;
  }
  if (a.rfind("-R", 0) == 0 && a.size() > 2) {  // -RNAME: show the remarks of NAME (clang's remarks)
    std::string r = a.substr(2);
    if (r.rfind("no-", 0) == 0) {
      if (!isKnownRemarkFlag(r.substr(3))) opts.unknownRemarks.push_back(a);
      opts.diag.remarks.erase(r.substr(3));
    } else {
      if (!isKnownRemarkFlag(r)) opts.unknownRemarks.push_back(a);
      opts.diag.remarks.insert(r);
    }
    return true;
  }
  if (a.rfind("-W", 0) != 0 || a.size() < 3) return false;
  std::string w = a.substr(2);
  auto known = [&](const std::string &name) {
    if (!isKnownWarningFlag(name)) opts.unknownWarnings.push_back(a);
  };
  if (w == "error") {
    opts.diag.warningsAsErrors = true;
  } else if (w.rfind("error=", 0) == 0) {
    known(w.substr(6));
    opts.diag.asErrors.insert(w.substr(6));
    opts.diag.notAsErrors.erase(w.substr(6));
  } else if (w.rfind("no-error=", 0) == 0) {
    known(w.substr(9));
    opts.diag.notAsErrors.insert(w.substr(9));
    opts.diag.asErrors.erase(w.substr(9));
  } else if (w.rfind("no-", 0) == 0) {
    known(w.substr(3));
    opts.diag.disabled.insert(w.substr(3));
    opts.diag.enabled.erase(w.substr(3));
  } else if (w == "all" || w == "extra") {
    // Every warning is on by default; accepted for build-system habit.
  } else {
    known(w);
    opts.diag.enabled.insert(w);
    opts.diag.disabled.erase(w);
  }
  return true;
}

// -fno-gates=LIST, -fcheck-waits[=SECONDS] and -fjitter[=SEED]; returns true if `a` was one
// (consumed here), setting `error` when its value is bad.
bool takeDebugOption(const std::string &a, Options &opts, std::string &error) {
  static const std::string kNoGates = "-fno-gates=", kCheckWaits = "-fcheck-waits";
  std::string arg = a.rfind("--", 0) == 0 ? a.substr(1) : a;
  if (arg.rfind(kNoGates, 0) == 0) {
    const std::set<std::string> &known = passes::gatesThatMayBeOff();
    std::string list = arg.substr(kNoGates.size());
    size_t pos = 0;
    do {
      size_t comma = list.find(',', pos);
      std::string name = list.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      pos = comma == std::string::npos ? std::string::npos : comma + 1;
      if (name == "all") {
        opts.noGates.insert(known.begin(), known.end());
      } else if (known.count(name)) {
        opts.noGates.insert(name);
      } else {
        std::string names;
        for (const std::string &k : known) names += k + ", ";
        error =
            fmt::format("unknown gate '{}' in '{}': the gates that can be turned off are {}and all", name, a, names);
        return true;
      }
    } while (pos != std::string::npos);
    return true;
  }
  if (arg == kCheckWaits) {
    opts.checkWaitsSeconds = 2.0;
    return true;
  }
  if (arg.rfind(kCheckWaits + "=", 0) == 0) {
    std::string v = arg.substr(kCheckWaits.size() + 1);
    char *end = nullptr;
    double s = v.empty() ? 0 : std::strtod(v.c_str(), &end);
    // A limit under 1 ms would fire on waits that are merely slow; over an
    // hour, the device call would end first.
    if (v.empty() || !end || *end || !(s >= 0.001 && s <= 3600)) {
      error = fmt::format("invalid '{}': expected a number of seconds from 0.001 to 3600", a);
      return true;
    }
    opts.checkWaitsSeconds = s;
    return true;
  }
  if (arg == "-fjitter" || arg.rfind("-fjitter=", 0) == 0) {
    std::string v = arg == "-fjitter" ? "1" : arg.substr(9);
    char *end = nullptr;
    errno = 0;
    unsigned long long seed = v.empty() || v[0] == '-' ? 0 : std::strtoull(v.c_str(), &end, 10);
    if (!end || *end || errno || seed < 1 || seed > UINT32_MAX) {
      error = fmt::format("invalid '{}': expected a seed from 1 to {}", a, UINT32_MAX);
      return true;
    }
    opts.jitterSeed = static_cast<uint32_t>(seed);
    return true;
  }
  if (arg == "-fno-gates") {
    error = fmt::format("'{}' needs a value", a);
    return true;
  }
  return false;
}

}  // namespace

ParseResult parseCommandLine(int argc, const char *const *argv, Options &opts) {
  // 1. gcc-style spellings to CLI11 long options; -W handled here.
  std::vector<std::string> args;
  args.push_back(argc > 0 ? argv[0] : "cakec");
  bool positionalOnly = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (positionalOnly) {
      args.push_back(a);
      continue;
    }
    if (a == "--") {
      positionalOnly = true;
      args.push_back(a);
      continue;
    }
    if (takeWarningOption(a, opts)) continue;
    std::string debugError;
    if (takeDebugOption(a, opts, debugError)) {
      if (!debugError.empty()) return {ParseResult::ExitFailure, DiagId::DriverUsage, {debugError}};
      continue;
    }
    if (a == "-fsyntax-only")
      a = "--fsyntax-only";
    else if (a == "-fdiagnostics-parseable-fixits")
      a = "--fdiagnostics-parseable-fixits";
    else if (a.rfind("-fmax-errors=", 0) == 0)
      a = "-" + a;
    else if (a == "-arch")
      a = "--target";
    else if (a.rfind("-arch=", 0) == 0)
      a = "--target=" + a.substr(6);
    else if (a == "-verify")
      a = "--verify";
    else if (a == "-split-input-file")
      a = "--split-input-file";
    else if (a == "-MD" || a == "-MMD")
      a = "--MD";
    else if (a == "-MP")
      a = "--MP";
    else if (a == "-MF")
      a = "--MF";
    else if (a == "-MT")
      a = "--MT";
    else if (a.rfind("-MF", 0) == 0 && a.size() > 3)
      a = "--MF=" + a.substr(3);
    else if (a.rfind("-MT", 0) == 0 && a.size() > 3)
      a = "--MT=" + a.substr(3);
    args.push_back(a);
  }

  CLI::App app{"cakec: compile CAKE IR kernel schedules (.cake) to CUDA for NVIDIA GPUs", "cakec"};
  app.footer(kFooter);
  app.set_version_flag("--version", kVersion);
  app.add_option("files", opts.inputs, "input .cake files ('-' reads standard input)");
  app.add_option("-o,--output", opts.output, "write output to FILE ('-' for standard output)")->type_name("FILE");
  app.add_option("--target", opts.targetName, "GPU target: " + targetList() + " (default sm_90a; alias -arch)")
      ->type_name("sm_XX");
  app.add_flag("--fsyntax-only", opts.syntaxOnly, "check the input and stop; write no output (-fsyntax-only)");
  std::string emit;
  std::vector<std::string> defines;
  app.add_option("--emit", emit,
                 "what to write: tokens (the token stream), ast (the syntax tree), ir (the resolved schedule) or "
                 "cuda (the lowered kernel and its launcher), header (the launchers' C declarations, for C and "
                 "C++) or interface (the launchers' parameters as JSON, for bindings such as the Python package); "
                 "default cuda when -o names a .cu file, header for a .h file, else ir")
      ->type_name("STAGE")
      ->check(CLI::IsMember({"tokens", "ast", "ir", "cuda", "header", "interface"}));
  bool report = false;
  std::vector<std::string> shapes;
  std::string reportFormat = "text";
  app.add_flag("--report", report,
               "write a performance report instead of code: for each kernel (and the route a family takes) at "
               "each --shape, the work one launch does (copies, tensor-core flops, bytes), the time the target's "
               "calibrated model predicts and the bottleneck that sets it (standard output unless -o)");
  app.add_option("--shape", shapes,
                 "the shape a --report is for: values of the kernels' integer parameters, as M=4096,N=4096,K=4096 "
                 "(repeatable: one report per shape)")
      ->type_name("NAME=N,...")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--calibration", opts.calibrationFile,
                 "the measured rates --report uses instead of the target's own: lines NAME = VALUE, the fields of "
                 "src/target/Calibration.def (all of them for a target that has none)")
      ->type_name("FILE");
  app.add_flag("--report-routes", opts.reportRoutes,
               "with --report: for each family, every route's schedule at the shape, whatever its guards say, with its "
               "predicted time (or why it has none) and the fastest marked beside the route the guards take");
  app.add_option("--report-format", reportFormat, "--report as text (default) or json")
      ->type_name("FORMAT")
      ->check(CLI::IsMember({"text", "json"}));
  app.add_option("--kernel-name", opts.kernelName,
                 "give the kernel, its launcher (NAME_launch) and NAME_last_error this C name instead of the "
                 "schedule's, so that two generated files can be linked into one program (one schedule per file)")
      ->type_name("NAME");
  app.add_flag("--no-line-directives", opts.noLineDirectives,
               "leave out the #line directives that map generated CUDA back to .cake lines");
  app.add_option("-D,--define", defines,
                 "give the module-level constant NAME of the input the value VALUE (an integer, a number, True or "
                 "False) instead of its assignment, as in -DCAUSAL=True (repeatable)")
      ->type_name("NAME=VALUE")
      ->allow_extra_args(false);
  app.add_option("-I,--include-dir", opts.includeDirs, "add DIR to the module search path (repeatable)")
      ->type_name("DIR")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_flag("--verify", opts.verify,
               "check diagnostics against 'expected-error {{...}}' comments in the input (-verify)");
  app.add_flag("--split-input-file", opts.splitInputFile,
               "check each part of the input between '# -----' lines on its own (with -verify or -fsyntax-only)");
  std::string color = "auto";
  app.add_option("--color", color, "colour diagnostics: auto (on a terminal, unless NO_COLOR), always, never")
      ->type_name("WHEN")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  std::string format = "text";
  app.add_option("--diagnostics-format", format, "diagnostics as text (gcc style), json or sarif (SARIF 2.1.0)")
      ->type_name("FORMAT")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  app.add_flag("--fdiagnostics-parseable-fixits", opts.parseableFixits,
               "also print each suggested edit as fix-it:\"FILE\":{L1:C1-L2:C2}:\"TEXT\" "
               "(-fdiagnostics-parseable-fixits, as clang)");
  unsigned maxErrors = opts.diag.maxErrors;
  app.add_option("--fmax-errors", maxErrors, "stop after N errors (default 50; 0: no limit; -fmax-errors=N)")
      ->type_name("N");
  app.add_flag("--list-diagnostics", opts.listDiagnostics, "print the table of diagnostics and exit");
  app.add_flag("--list-targets", opts.listTargets, "print the supported targets and exit");
  app.add_flag("--list-ops", opts.listOps,
               "print the operation vocabulary (with --target, only what that target supports) and exit");
  app.add_option("--list-format", opts.listFormat,
                 "--list-ops as text (default) or markdown (the Operations section of docs/language.md)")
      ->type_name("FORMAT")
      ->check(CLI::IsMember({"text", "markdown"}));
  app.add_flag("--MD", opts.depfile, "also write a make dependency file (-MD, -MMD)");
  app.add_option("--MF", opts.depfilePath, "write the dependency file to FILE (-MF; default: the output with .d)")
      ->type_name("FILE");
  app.add_option("--MT", opts.depTarget, "the target named in the dependency file (-MT; default: the output)")
      ->type_name("TARGET");
  app.add_flag("--MP", opts.depPhony, "add a phony target for each dependency other than the input (-MP)");
  app.add_option("--debug-crash", opts.debugCrash, "")->group("");  // hidden

  std::vector<const char *> cargv;
  for (const std::string &s : args) cargv.push_back(s.c_str());
  try {
    app.parse(static_cast<int>(cargv.size()), cargv.data());
  } catch (const CLI::CallForHelp &) {
    std::fputs(app.help().c_str(), stdout);
    return {ParseResult::ExitSuccess, DiagId::DriverUsage, {}};
  } catch (const CLI::CallForVersion &) {
    std::printf("%s\n", kVersion.c_str());
    return {ParseResult::ExitSuccess, DiagId::DriverUsage, {}};
  } catch (const CLI::ParseError &e) {
    std::string msg = e.what();
    if (!msg.empty() && std::isupper(static_cast<unsigned char>(msg[0])))
      msg[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(msg[0])));
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == '.')) msg.pop_back();
    return {ParseResult::ExitFailure, DiagId::DriverUsage, {msg}};
  }

  for (const std::string &d : defines) {
    size_t eq = d.find('=');
    std::string name = d.substr(0, eq);
    bool ident = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
    for (char c : name) ident &= std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    if (eq == std::string::npos || !ident || !sema::parseDefineValue(d.substr(eq + 1)))
      return {ParseResult::ExitFailure, DiagId::DriverBadDefine, {d}};
    opts.defines[name] = d.substr(eq + 1);
  }
  for (const std::string &sh : shapes) {
    std::map<std::string, int64_t> values;
    size_t at = 0;
    bool ok = !sh.empty();
    while (ok && at <= sh.size()) {
      size_t comma = sh.find(',', at);
      std::string item = sh.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
      size_t eq = item.find('=');
      std::string name = item.substr(0, eq);
      ok = eq != std::string::npos && !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
      for (char c : name) ok &= std::isalnum(static_cast<unsigned char>(c)) || c == '_';
      if (ok) {
        std::string v = item.substr(eq + 1);
        char *end = nullptr;
        errno = 0;
        long long x = v.empty() ? 0 : std::strtoll(v.c_str(), &end, 10);
        ok = !v.empty() && end && *end == '\0' && errno == 0 && x >= 0 && x <= INT32_MAX && !values.count(name);
        if (ok) values[name] = x;
      }
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
    if (!ok) return {ParseResult::ExitFailure, DiagId::DriverBadShape, {sh}};
    opts.shapes.push_back(values);
  }
  opts.reportJson = reportFormat == "json";
  if (report && opts.shapes.empty())
    return {ParseResult::ExitFailure,
            DiagId::DriverUsage,
            {"'--report' predicts a launch at a shape: add --shape NAME=N,... (the kernels' integer parameters)"}};
  if (!report && !opts.shapes.empty())
    return {ParseResult::ExitFailure, DiagId::DriverUsage, {"'--shape' is the shape of a --report: add --report"}};
  if (!report && opts.reportRoutes)
    return {ParseResult::ExitFailure, DiagId::DriverUsage, {"'--report-routes' is for a --report: add --report"}};
  if (!report && !opts.calibrationFile.empty())
    return {ParseResult::ExitFailure, DiagId::DriverUsage, {"'--calibration' is for a --report: add --report"}};
  if (report && !emit.empty())
    return {ParseResult::ExitFailure, DiagId::DriverUsage, {"'--report' writes a report, not '--emit=" + emit + "'"}};
  opts.targetGiven = app.count("--target") > 0;
  // The parts of a split input are checked, never lowered into one output.
  if (opts.splitInputFile && !opts.verify && !opts.syntaxOnly)
    return {ParseResult::ExitFailure,
            DiagId::DriverUsage,
            {"'--split-input-file' checks parts: add -verify or -fsyntax-only"}};
  if (!opts.kernelName.empty()) {
    const std::string &n = opts.kernelName;
    bool ok = std::isalpha(static_cast<unsigned char>(n[0])) || n[0] == '_';
    for (char c : n) ok &= std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    ok = ok && codegen::isPlainCName(n);  // becomes extern "C" symbols: no name of C's, CUDA's or ours
    if (!ok) return {ParseResult::ExitFailure, DiagId::DriverBadKernelName, {n}};
  }
  if (auto t = parseTarget(opts.targetName)) {
    opts.target = *t;
  } else {
    return {ParseResult::ExitFailure, DiagId::DriverUnknownTarget, {opts.targetName, targetList()}};
  }
  if (report)
    opts.emit = EmitKind::Report;
  else if (emit == "tokens")
    opts.emit = EmitKind::Tokens;
  else if (emit == "ast")
    opts.emit = EmitKind::Ast;
  else if (emit == "ir")
    opts.emit = EmitKind::Ir;
  else if (emit == "cuda")
    opts.emit = EmitKind::Cuda;
  else if (emit == "header")
    opts.emit = EmitKind::Header;
  else if (emit == "interface")
    opts.emit = EmitKind::Interface;
  else if (opts.output.size() > 2 && opts.output.compare(opts.output.size() - 2, 2, ".h") == 0)
    opts.emit = EmitKind::Header;
  else if (opts.output.size() > 3 && opts.output.compare(opts.output.size() - 3, 3, ".cu") == 0)
    opts.emit = EmitKind::Cuda;
  opts.color = color == "always" ? ColorMode::Always : color == "never" ? ColorMode::Never : ColorMode::Auto;
  opts.diagFormat = format == "json" ? DiagFormat::Json : format == "sarif" ? DiagFormat::Sarif : DiagFormat::Text;
  opts.diag.maxErrors = maxErrors;
  return {};
}

}  // namespace cake
