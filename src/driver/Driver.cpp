// Driver: see Driver.h. The pipeline for one file is
//
//   load and validate  ->  lex (--emit=tokens)  ->  parse  ->  AST (--emit=ast)
//
// Later stages (semantic analysis, the check passes, lowering) hang off the
// same sequence. Output is produced only when the whole run succeeded, and
// written atomically.
#include "driver/Driver.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>
#include <optional>
#include <set>
#include <stdexcept>

#include "analysis/Cost.h"
#include "analysis/KernelFacts.h"
#include "codegen/Codegen.h"
#include "diagnostics/Verify.h"
#include "driver/InputFile.h"
#include "driver/ModuleLoader.h"
#include "driver/Options.h"
#include "driver/OutputFile.h"
#include "lexer_parser/Parse.h"
#include "passes/Passes.h"
#include "sema/OpTable.h"
#include "sema/Sema.h"

namespace cake {

namespace {

bool useColor(ColorMode mode) {
  if (mode == ColorMode::Always) return true;
  if (mode == ColorMode::Never) return false;
  const char *noColor = std::getenv("NO_COLOR");
  if (noColor && *noColor) return false;
  const char *term = std::getenv("TERM");
  if (term && std::string(term) == "dumb") return false;
  return ::isatty(STDERR_FILENO) != 0;
}

// CAKEC_DIAGNOSTIC_LOG names a file to which every emitted diagnostic id is
// appended; the test suite's coverage check reads it.
void appendDiagnosticLog(const std::vector<DiagId> &ids) {
  const char *path = std::getenv("CAKEC_DIAGNOSTIC_LOG");
  if (!path || !*path || ids.empty()) return;
  std::string text;
  for (DiagId id : ids) {
    text += diagInfo(id).id;
    text += '\n';
  }
  int fd = ::open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) return;
  ssize_t ignored = ::write(fd, text.data(), text.size());
  (void)ignored;
  ::close(fd);
}

void printDiagnosticTable() {
  for (const DiagInfo &d : allDiagnostics()) {
    std::string flag =
        d.flag.empty() ? "" : fmt::format(" (-{}{})", d.severity == Severity::Remark ? "R" : "W", d.flag);
    std::printf("%-40s %-8s %s%s\n", std::string(d.id).c_str(), std::string(severityName(d.severity)).c_str(),
                std::string(d.format).c_str(), flag.c_str());
  }
}

void printTargetTable() {
  for (const TargetInfo &t : allTargets())
    std::printf("%-8s tensor cores: %-9s TMA: %-3s clusters: %-3s TMEM: %-3s smem/block: %u  threads: %u  "
                "registers: %u/SM, %u/thread  setmaxnreg: %s  CUDA: %s+  lowered: %s  (%s)\n",
                std::string(t.name).c_str(), std::string(mmaPathName(t.mma)).c_str(), t.tma() ? "yes" : "no",
                t.clusters ? "yes" : "no", t.tmem() ? "yes" : "no", t.smemPerBlock, t.maxThreads, t.regsPerSm,
                t.regsPerThread, t.setmaxnreg ? fmt::format("{}-{}", t.regMin, t.regMax).c_str() : "no",
                std::string(t.cuda).c_str(), codegen::hasLowering(t.target) ? "yes" : "not yet",
                std::string(t.gpus).c_str());
}

// A file name as make reads it in a rule, or nullopt with `why` set when
// make cannot represent it. Make has no quoting: a newline or any other
// control character ends or splits the rule (a newline then a tab starts a
// recipe: a command), ';' starts a recipe, '=' turns the rule into a variable
// assignment, '|' starts order-only prerequisites, 'lib(member)' names an
// archive member, and a trailing backslash escapes what follows; none of
// these can be escaped, so such a name is refused rather than written. What
// can be escaped is, as make (and gcc's -MD) expect: a space, '#', ':' and
// the wildcard characters with a backslash (doubling the backslashes before
// them), '$' as '$$', and '%' with a backslash where the name is a target
// (there it would make a pattern rule; a prerequisite's '%' is literal).
std::optional<std::string> makeEscape(const std::string &p, bool asTarget, std::string &why) {
  for (unsigned char c : p)
    if (c < 0x20 || c == 0x7F) {
      why = c == '\n' ? "a newline" : c == '\t' ? "a tab" : fmt::format("the control character 0x{:02x}", c);
      return std::nullopt;
    }
  for (char c : {';', '=', '|'})
    if (p.find(c) != std::string::npos) {
      why = fmt::format("'{}'", c);
      return std::nullopt;
    }
  if (!p.empty() && p.back() == '\\') {
    why = "a trailing backslash";
    return std::nullopt;
  }
  size_t paren = p.find('(');
  if (paren != std::string::npos && paren > 0 && p.back() == ')') {
    why = "an archive member's form 'archive(member)'";
    return std::nullopt;
  }
  std::string e;
  size_t backslashes = 0;
  for (char c : p) {
    if (c == '\\') {
      ++backslashes;
      continue;
    }
    bool escaped =
        c == ' ' || c == '#' || c == ':' || c == '*' || c == '?' || c == '[' || c == ']' || (asTarget && c == '%');
    e.append(escaped ? 2 * backslashes : backslashes, '\\');
    backslashes = 0;
    if (escaped) e += '\\';
    e += c;
    if (c == '$') e += '$';
  }
  e.append(backslashes, '\\');
  return e;
}

// A make rule naming every file the compilation read (the inputs and the
// modules they imported), or nullopt after reporting why it cannot be
// written. `path` is set to the dependency file's name.
std::optional<std::string> dependencyRule(const Options &opts, const SourceManager &sm, DiagnosticEngine &diags,
                                          std::string &path) {
  std::string output = opts.output.empty() || opts.output == "-" ? "" : opts.output;
  path = opts.depfilePath;
  if (path.empty()) {
    if (output.empty()) {
      diags.report(DiagId::DriverDepfileNeedsName, SourceRange());
      return std::nullopt;
    }
    size_t dot = output.find_last_of('.');
    size_t slash = output.find_last_of('/');
    path = (dot != std::string::npos && (slash == std::string::npos || dot > slash) ? output.substr(0, dot) : output) +
           ".d";
  }
  bool ok = true;
  auto escape = [&](const std::string &p, bool asTarget) {
    std::string why;
    std::optional<std::string> e = makeEscape(p, asTarget, why);
    if (!e) {
      if (ok) diags.report(DiagId::DriverDepfileUnsafeName, SourceRange(), path, p, why);
      ok = false;
      return std::string();
    }
    return *e;
  };
  // Without an output (-fsyntax-only), the rule's target is the .cu the input
  // would lower to, as gcc names the object file.
  std::string lowered;
  if (output.empty() && !opts.inputs.empty() && opts.inputs.front() != "-") {
    lowered = opts.inputs.front().substr(opts.inputs.front().find_last_of('/') + 1);
    size_t dot = lowered.find_last_of('.');
    lowered = (dot == std::string::npos ? lowered : lowered.substr(0, dot)) + ".cu";
  }
  // -MT is written as given, as gcc does (the user's make syntax).
  std::string target = !opts.depTarget.empty() ? opts.depTarget
                       : !output.empty()       ? escape(output, true)
                       : !lowered.empty()      ? escape(lowered, true)
                                               : "-";
  std::string rule = target + ":";
  std::vector<std::string> deps;
  for (FileId f = 0; f < sm.fileCount(); ++f)
    if (sm.name(f) != "<stdin>" && sm.partOf(f) == kNoFile) deps.push_back(sm.name(f));
  for (const std::string &d : deps) rule += " \\\n  " + escape(d, false);
  rule += "\n";
  // -MP: a phony rule for each file read that is not an input (the modules
  // it imported), so deleting one does not break the build.
  if (opts.depPhony)
    for (const std::string &d : deps)
      if (std::find(opts.inputs.begin(), opts.inputs.end(), d) == opts.inputs.end())
        rule += "\n" + escape(d, true) + ":\n";
  if (!ok) return std::nullopt;
  return rule;
}

void writeDependencyFile(const std::string &path, const std::string &rule, DiagnosticEngine &diags) {
  std::string error;
  if (!writeOutputAtomically(path, rule, error))
    diags.report(DiagId::DriverCannotWriteOutput, SourceRange(), path, error);
}

// The target a file states in its leading comment block (`# target: sm_80`),
// the default when the command line names none. Reports an unknown name at
// the comment and returns nullopt.
std::optional<Target> statedTarget(const SourceManager &sm, FileId file, DiagnosticEngine &diags) {
  const std::string &text = sm.text(file);
  uint32_t lineNo = 0;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    ++lineNo;
    if (line.empty() || line[0] != '#') break;  // the leading comment block only
    static const std::string key = "# target:";
    if (line.rfind(key, 0) != 0) continue;
    size_t b = line.find_first_not_of(' ', key.size());
    size_t e = line.find_last_not_of(" \r");
    std::string name = b == std::string::npos ? "" : line.substr(b, e + 1 - b);
    if (auto t = parseTarget(name)) return t;
    SourceLoc at{file, lineNo, static_cast<uint32_t>(b == std::string::npos ? 1 : b + 1)};
    diags.report(DiagId::DriverUnknownTarget, SourceRange(at), name, targetList());
    return std::nullopt;
  }
  return std::nullopt;
}

class Compilation {
public:
  Compilation(Options &opts, SourceManager &sm, DiagnosticEngine &diags) : opts_(opts), sm_(sm), diags_(diags) {}

  // Runs the pipeline over one input (over each of its parts, split by
  // --split-input-file); appends its output text to `out`.
  void compileFile(const std::string &path, std::string &out) {
    std::optional<FileId> file = loadInputFile(path, sm_, diags_);
    if (!file) return;
    if (!opts_.splitInputFile) {
      compileBuffer(path, *file, out);
      return;
    }
    // Each part is checked on its own: -fmax-errors counts its errors only.
    for (FileId part : splitInputFile(sm_, *file)) {
      diags_.startPart();
      compileBuffer(path, part, out);
    }
  }

  void compileBuffer(const std::string &path, FileId bufferId, std::string &out) {
    std::optional<FileId> file = bufferId;
    if (opts_.emit == EmitKind::Tokens) {
      out += dumpTokens(sm_, *file, diags_);
      return;
    }
    std::unique_ptr<ast::Module> module = parseFile(sm_, *file, diags_);
    if (!module) return;
    if (opts_.emit == EmitKind::Ast) {
      out += printAst(*module, sm_);
      return;
    }
    unsigned errorsBefore = diags_.errorCount();
    Target target = opts_.target;
    if (!opts_.targetGiven)
      if (auto t = statedTarget(sm_, *file, diags_)) target = *t;
    if (diags_.errorCount() != errorsBefore) return;
    std::string dir = path.find('/') == std::string::npos ? "." : path.substr(0, path.find_last_of('/'));
    FileModuleLoader loader(FileModuleLoader::defaultSearchPath(opts_.includeDirs, path == "-" ? "." : dir), target,
                            sm_, diags_);
    std::unique_ptr<sema::Module> ir = sema::analyze(*module, target, sm_, diags_, &loader, false, &opts_.defines);
    if (!ir || diags_.errorCount() != errorsBefore) return;
    analysis::ModuleFacts facts = analysis::analyzeModule(*ir, sm_);
    std::set<std::string> gatesOff = passes::runCheckPasses(*ir, facts, sm_, diags_, opts_.noGates);
    if (diags_.errorCount() != errorsBefore) return;
    std::string gatesOffText;  // "safety gate", "data and safety gates"
    for (auto it = gatesOff.begin(); it != gatesOff.end(); ++it)
      gatesOffText += (it == gatesOff.begin() ? "" : std::next(it) == gatesOff.end() ? " and " : ", ") + *it;
    if (!gatesOff.empty()) {
      gatesOffText += gatesOff.size() == 1 ? " gate" : " gates";
      diags_.report(DiagId::DriverGatesOff, SourceRange(SourceLoc{*file, 0, 0}), gatesOffText);
    }
    if (opts_.syntaxOnly) {
      // What -fsyntax-only accepts lowers: the lowering runs, its text is
      // dropped, and what it refuses is reported as -o would report it.
      std::string dropped;
      codegen::CodegenOptions copts;
      copts.checkWaitsSeconds = opts_.checkWaitsSeconds;
      copts.jitterSeed = opts_.jitterSeed;
      if (codegen::hasLowering(target)) codegen::emitCuda(*ir, facts, sm_, diags_, copts, dropped);
      return;
    }
    if (opts_.emit == EmitKind::Cuda || opts_.emit == EmitKind::Header || opts_.emit == EmitKind::Interface) {
      codegen::CodegenOptions copts;
      copts.lineDirectives = !opts_.noLineDirectives;
      copts.outputName = opts_.output.empty() || opts_.output == "-" ? "<stdout>" : opts_.output;
      copts.compilerVersion = kCompilerVersion;
      copts.kernelName = opts_.kernelName;
      copts.gatesOff = gatesOffText;
      copts.checkWaitsSeconds = opts_.checkWaitsSeconds;
      copts.jitterSeed = opts_.jitterSeed;
      if (!opts_.kernelName.empty() && (ir->compiledKernels().size() != 1 || !ir->families.empty())) {
        diags_.report(DiagId::DriverKernelNameMany, SourceRange(), path,
                      ir->compiledKernels().size() + ir->families.size());
        return;
      }
      if (opts_.emit != EmitKind::Cuda) {
        // A header or an interface describes launchers that exist: the
        // lowering runs first, and what it refuses writes neither.
        std::string lowered;
        size_t errorsBefore = diags_.errorCount();
        codegen::emitCuda(*ir, facts, sm_, diags_, copts, lowered);
        if (diags_.errorCount() != errorsBefore) return;
      }
      if (opts_.emit == EmitKind::Header)
        codegen::emitHeader(*ir, facts, sm_, diags_, copts, out);
      else if (opts_.emit == EmitKind::Interface)
        codegen::emitInterface(*ir, facts, sm_, diags_, copts, out);
      else
        codegen::emitCuda(*ir, facts, sm_, diags_, copts, out);
      return;
    }
    if (opts_.emit == EmitKind::Report) {
      report(*ir, facts, target);
      return;
    }
    out += sema::printIR(*ir, sm_);
    out += analysis::describeBarrierProtocols(*ir, facts);
  }

  // The report of everything --report collected, in its format.
  std::string renderedReport() const {
    return opts_.reportJson ? analysis::renderReportJson(report_) : analysis::renderReportText(report_);
  }

private:
  // --report: each kernel and family of the module at each --shape. What it
  // describes lowers (the lowering runs first and its refusals stop it).
  void report(const sema::Module &ir, const analysis::ModuleFacts &facts, Target target) {
    if (codegen::hasLowering(target)) {
      std::string dropped;
      size_t errorsBefore = diags_.errorCount();
      codegen::emitCuda(ir, facts, sm_, diags_, codegen::CodegenOptions{}, dropped);
      if (diags_.errorCount() != errorsBefore) return;
    }
    // A name no kernel or family has is a typo the report would hide.
    std::set<std::string> known;
    auto integerParams = [&](const sema::Kernel &k) {
      for (const sema::KernelParam &p : k.params)
        if (p.resource != sema::kNoResource && k.resources[p.resource].kind == sema::ResourceKind::ScalarParam &&
            sema::dtypeInfo(k.resources[p.resource].dtype).scalar == sema::ScalarKind::Int)
          known.insert(k.resources[p.resource].name);
    };
    for (const auto &k : ir.kernels) integerParams(*k);
    for (const auto &f : ir.families) integerParams(*f->signature);
    for (const auto &shape : opts_.shapes)
      for (const auto &[name, value] : shape)
        if (!known.count(name)) {
          std::string names;
          for (const std::string &n : known) names += (names.empty() ? "'" : ", '") + n + "'";
          diags_.report(DiagId::ReportUnknownShapeName, SourceRange(SourceLoc{ir.file, 0, 0}), name,
                        names.empty() ? "none" : names);
          return;
        }
    std::optional<analysis::Calibration> cal;
    if (const analysis::Calibration *own = analysis::calibrationFor(target)) cal = *own;
    if (!opts_.calibrationFile.empty()) {
      std::string text, error;
      if (!readCalibrationFile(opts_.calibrationFile, text, error) ||
          !(cal = analysis::parseCalibration(text, cal ? &*cal : nullptr, target, error))) {
        diags_.report(DiagId::ReportBadCalibration, SourceRange(), opts_.calibrationFile, error);
        return;
      }
    }
    int64_t sms = cal ? cal->sms : 132;
    auto one = [&](analysis::ReportEntry e, const sema::Kernel &k) {
      e.target = target;
      e.kernel = k.name;
      std::string why;
      e.work = analysis::countWork(k, target, e.shape, sms, why);
      e.why = why;
      if (e.work && !cal && usesSmCount(k))
        e.work->unknowns.push_back("lm.sm_count() taken as 132: the target has no calibration that says");
      e.cal = cal;
      if (e.work && cal) {
        e.est = analysis::estimate(*e.work, *cal);
        if (opts_.diag.remarks.count("hint"))  // (a hint may count the launch again, several times)
          for (const analysis::Hint &h : analysis::hints(k, *e.work, *e.est, *cal, e.shape))
            diags_.reportWithArgs(runtimeId(h.id), h.range, h.args);
      }
      report_.push_back(std::move(e));
    };
    for (const auto &shape : opts_.shapes) {
      std::set<const sema::Kernel *> routed;
      for (const auto &f : ir.families) {
        analysis::ReportEntry e;
        e.family = f->signature->name;
        e.shape = shape;
        std::string why;
        const sema::Kernel *k = analysis::familyRoute(*f, shape, e.route, why);
        if (!k) {
          e.target = target;
          e.kernel = "";
          e.why = why;
          report_.push_back(std::move(e));
          continue;
        }
        if (opts_.reportRoutes) routeEstimates(*f, shape, sms, cal ? &*cal : nullptr, e);
        one(std::move(e), *k);
      }
      for (const auto &k : ir.kernels) {
        analysis::ReportEntry e;
        e.shape = shape;
        one(std::move(e), *k);
      }
    }
  }
  // --report-routes: every schedule the family routes to (each once, in
  // route order, the fallback last) at the shape, whatever the guards say;
  // the fastest by the model.
  static void routeEstimates(const sema::Family &f, const analysis::ShapeValues &shape, int64_t sms,
                             const analysis::Calibration *cal, analysis::ReportEntry &e) {
    std::vector<const sema::FamilyRoute *> all;
    for (const sema::FamilyRoute &r : f.routes) all.push_back(&r);
    if (f.fallback) all.push_back(&*f.fallback);
    std::set<const sema::Kernel *> seen;
    for (const sema::FamilyRoute *r : all) {
      if (!r->schedule || !seen.insert(r->schedule).second) continue;
      analysis::RouteEstimate x;
      x.route = r->name;
      x.kernel = r->schedule->name;
      std::optional<analysis::KernelWork> w = analysis::countWork(*r->schedule, e.target, shape, sms, x.why);
      if (w && cal) {
        analysis::Estimate est = analysis::estimate(*w, *cal);
        x.timeUs = est.timeUs;
        x.bottleneck = est.bottleneck;
      } else if (w) {
        x.why = "uncalibrated";
      }
      if (x.timeUs && (e.fastestRoute < 0 || *x.timeUs < *e.routes[static_cast<size_t>(e.fastestRoute)].timeUs))
        e.fastestRoute = static_cast<int>(e.routes.size());
      e.routes.push_back(std::move(x));
    }
  }
  // Whether the launcher's multiprocessor count enters the kernel's grid.
  static bool usesSmCount(const sema::Kernel &k) {
    for (const sema::Value &g : k.grid)
      if (g.ix != sema::kNoIntExpr && k.ints.findLeaf(g.ix, [](const sema::IntNode &n) {
            return n.op == sema::IntOp::SmCount;
          }) != sema::kNoIntExpr)
        return true;
    return false;
  }
  static bool readCalibrationFile(const std::string &path, std::string &text, std::string &error) {
    std::FILE *f = std::fopen(path.c_str(), "rb");
    if (!f) {
      error = std::strerror(errno);
      return false;
    }
    errno = 0;
    bool ok = readAll(f, text, 1u << 20);
    int readErrno = errno;
    std::fclose(f);
    if (!ok) {
      error = std::strerror(readErrno ? readErrno : EIO);
      return false;
    }
    if (text.size() > (1u << 20)) {
      error = "larger than 1 MiB";
      return false;
    }
    return true;
  }
  std::vector<analysis::ReportEntry> report_;

public:
private:
  Options &opts_;
  SourceManager &sm_;
  DiagnosticEngine &diags_;
};

// ---- internal errors and the crash handler ----------------------------------

// The internal-error report, rendered ahead of time in the chosen format by
// the real printers around a placeholder: the text before and after the
// reason. Set before anything can crash and never changed while the handler
// may read it.
std::string gCrashHead = "cakec: fatal error: internal compiler error: ";
std::string gCrashTail = "; please report this as a cakec bug [internal.compiler-error]\n";
DiagFormat gCrashFormat = DiagFormat::Text;

void setCrashReportFormat(DiagFormat format) {
  gCrashFormat = format;
  static const std::string kPlaceholder = "@@cakec-internal-error@@";
  SourceManager sm;
  char *buf = nullptr;
  size_t len = 0;
  std::FILE *mem = ::open_memstream(&buf, &len);
  if (!mem) return;
  {
    std::unique_ptr<DiagnosticConsumer> printer;
    if (format == DiagFormat::Json)
      printer = std::make_unique<JsonDiagnosticPrinter>(sm, mem);
    else if (format == DiagFormat::Sarif)
      printer = std::make_unique<SarifDiagnosticPrinter>(sm, mem);
    else
      printer = std::make_unique<TextDiagnosticPrinter>(sm, mem, false);
    Diagnostic d;
    d.kind = DiagId::InternalCompilerError;
    d.severity = Severity::Fatal;
    d.message = DiagnosticEngine::formatMessage(DiagId::InternalCompilerError, {kPlaceholder});
    printer->handle(d);
    printer->finish();
  }
  std::fclose(mem);
  std::string text(buf, len);
  std::free(buf);
  size_t at = text.find(kPlaceholder);
  if (at == std::string::npos) return;
  gCrashHead = text.substr(0, at);
  gCrashTail = text.substr(at + kPlaceholder.size());
}

// The format a command line asks for, read before (and whatever) the full
// parse, so that even a usage error or a crash while parsing is reported in
// it. The last valid --diagnostics-format wins, as in the parse.
DiagFormat scanDiagnosticsFormat(int argc, const char *const *argv) {
  DiagFormat f = DiagFormat::Text;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") break;
    std::string value;
    if (a.rfind("--diagnostics-format=", 0) == 0)
      value = a.substr(std::string("--diagnostics-format=").size());
    else if (a == "--diagnostics-format" && i + 1 < argc)
      value = argv[++i];
    else
      continue;
    if (value == "json") f = DiagFormat::Json;
    if (value == "sarif") f = DiagFormat::Sarif;
    if (value == "text") f = DiagFormat::Text;
  }
  return f;
}

// Under AddressSanitizer its own crash report is the more useful one.
#if defined(__SANITIZE_ADDRESS__)
#define CAKEC_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CAKEC_UNDER_ASAN 1
#endif
#endif

#ifndef CAKEC_UNDER_ASAN
// The handler's own stack: a stack overflow leaves none on the main one.
alignas(16) char gAltStack[1 << 16];

extern "C" void onCrashSignal(int sig) {
  // Only async-signal-safe calls here.
  const char *name = sig == SIGSEGV  ? "segmentation fault"
                     : sig == SIGBUS ? "bus error"
                     : sig == SIGFPE ? "arithmetic exception"
                                     : "abort";
  removePendingOutput();
  ssize_t r = ::write(STDERR_FILENO, gCrashHead.data(), gCrashHead.size());
  r = ::write(STDERR_FILENO, name, std::strlen(name));
  r = ::write(STDERR_FILENO, gCrashTail.data(), gCrashTail.size());
  (void)r;
  ::_exit(4);
}
#endif

// --debug-crash=stack-overflow: unbounded recursion (the bound is never
// reached; it keeps the compiler from proving the recursion infinite).
volatile int gRecursionLimit = 1 << 30;
[[gnu::noinline]] int recurseDeeply(int depth) {
  volatile char frame[1024];
  frame[0] = static_cast<char>(depth);
  if (depth >= gRecursionLimit) return frame[0];
  return recurseDeeply(depth + 1) + frame[0];
}

// runCompiler's work once diagnostics can be reported; `finish` turns the
// outcome into the exit status.
template <typename Finish>
int compile(Options &opts, int argc, const char *const *argv, SourceManager &sm, DiagnosticEngine &diags,
            Finish &finish) {
  for (const std::string &w : opts.unknownWarnings) diags.report(DiagId::DriverUnknownWarning, SourceRange(), w);
  for (const std::string &r : opts.unknownRemarks) diags.report(DiagId::DriverUnknownRemark, SourceRange(), r);

  if (opts.listDiagnostics || opts.listTargets || opts.listOps) {
    if (opts.listDiagnostics) printDiagnosticTable();
    if (opts.listTargets) printTargetTable();
    if (opts.listOps) {
      bool targetGiven = false;
      for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        targetGiven |= a.rfind("--target", 0) == 0 || a.rfind("-arch", 0) == 0;
      }
      auto loweredOn = [](sema::OpKind k) {
        uint32_t bits = 0;
        for (const TargetInfo &ti : allTargets())
          if (codegen::lowers(ti.target, k)) bits |= targetBit(ti.target);
        return bits;
      };
      std::string table =
          opts.listFormat == "markdown"
              ? sema::formatOpReferenceMarkdown(loweredOn)
              : sema::formatOpTable(targetGiven ? &opts.target : nullptr, loweredOn, [](sema::OpKind k, Target t) {
                  const codegen::LoweringTable *lt = codegen::loweringTable(t);
                  return lt ? lt->dtypeNames(k) : std::string();
                });
      std::fwrite(table.data(), 1, table.size(), stdout);
    }
    return finish(0);
  }
  if (opts.debugCrash == "sigterm-in-output") {
    setDebugInterruptOutput(true);
  } else if (!opts.debugCrash.empty()) {
    if (opts.debugCrash == "segv") {
      volatile int *p = nullptr;
      *p = 1;  // NOLINT: deliberate, to test the crash handler
    }
    if (opts.debugCrash == "stack-overflow") return recurseDeeply(0);
    throw std::runtime_error("deliberate crash requested with --debug-crash");
  }
  if (opts.inputs.empty()) {
    diags.report(DiagId::DriverNoInput, SourceRange());
    return finish(1);
  }
  bool writesOutput = !opts.syntaxOnly && !opts.verify;
  if (!opts.output.empty() && opts.output != "-" && opts.inputs.size() > 1 && writesOutput) {
    diags.report(DiagId::DriverOutputWithManyInputs, SourceRange(), opts.output, opts.inputs.size());
    return finish(1);
  }

  Compilation compilation(opts, sm, diags);
  std::string out;
  for (const std::string &input : opts.inputs) {
    compilation.compileFile(input, out);
    diags.resetFatal();
    if (!opts.splitInputFile && diags.options().maxErrors && diags.errorCount() >= diags.options().maxErrors) break;
  }
  if (opts.emit == EmitKind::Report) out += compilation.renderedReport();

  // The dependency rule is made first: a name make cannot represent fails
  // the run before any output is written.
  bool wantsDepfile = (writesOutput && (opts.depfile || !opts.depfilePath.empty())) ||
                      // Like gcc, -fsyntax-only -MD -MF FILE still writes the dependency file.
                      (opts.syntaxOnly && !opts.verify && !opts.depfilePath.empty());
  std::optional<std::string> rule;
  std::string depPath;
  if (wantsDepfile && !diags.hasErrors()) rule = dependencyRule(opts, sm, diags, depPath);
  if (writesOutput && !diags.hasErrors()) {
    std::string target = opts.output.empty() ? "-" : opts.output;
    std::string error;
    if (!writeOutputAtomically(target, out, error))
      diags.report(DiagId::DriverCannotWriteOutput, SourceRange(), target, error);
  }
  if (rule && !diags.hasErrors()) writeDependencyFile(depPath, *rule, diags);
  return finish(0);
}

}  // namespace

void installCrashHandler() {
#ifndef CAKEC_UNDER_ASAN
  stack_t ss;
  std::memset(&ss, 0, sizeof ss);
  ss.ss_sp = gAltStack;
  ss.ss_size = sizeof gAltStack;
  bool alt = ::sigaltstack(&ss, nullptr) == 0;
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGABRT}) {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = onCrashSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = alt ? SA_ONSTACK : 0;
    ::sigaction(sig, &sa, nullptr);
  }
#endif
}

void reportInternalError(const char *what) {
  std::string reason = gCrashFormat == DiagFormat::Text ? escapeControlChars(what) : jsonEscape(what);
  std::string text = gCrashHead + reason + gCrashTail;
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
  // Keep the test suite's diagnostic-coverage log complete.
  appendDiagnosticLog({DiagId::InternalCompilerError});
}

int runCompiler(int argc, const char *const *argv) {
  Options opts;
  opts.diagFormat = scanDiagnosticsFormat(argc, argv);
  setCrashReportFormat(opts.diagFormat);
  ParseResult parsed = parseCommandLine(argc, argv, opts);
  if (opts.diagFormat != gCrashFormat) setCrashReportFormat(opts.diagFormat);
  if (parsed.status == ParseResult::ExitSuccess) return 0;

  SourceManager sm;
  DiagnosticEngine diags(opts.diag);
  // -verify sends diagnostics to the verifier; its findings, and everything
  // else, go to stderr as text or JSON.
  DiagnosticEngine reportDiags(opts.diag);
  std::unique_ptr<DiagnosticConsumer> printer;
  if (opts.diagFormat == DiagFormat::Json)
    printer = std::make_unique<JsonDiagnosticPrinter>(sm, stderr);
  else if (opts.diagFormat == DiagFormat::Sarif)
    printer = std::make_unique<SarifDiagnosticPrinter>(sm, stderr);
  else
    printer = std::make_unique<TextDiagnosticPrinter>(sm, stderr, useColor(opts.color), opts.parseableFixits);
  reportDiags.setConsumer(printer.get());
  std::unique_ptr<VerifyDiagnosticConsumer> verifier;
  if (opts.verify) {
    verifier = std::make_unique<VerifyDiagnosticConsumer>(sm, reportDiags);
    diags.setConsumer(verifier.get());
  } else {
    diags.setConsumer(printer.get());
  }

  auto finish = [&](int status) {
    if (verifier) {
      verifier->finish();
      status = reportDiags.hasErrors() ? 1 : 0;
    } else if (diags.hasErrors() || reportDiags.hasErrors()) {
      status = 1;
    }
    printer->finish();
    std::vector<DiagId> ids = diags.emittedIds();
    ids.insert(ids.end(), reportDiags.emittedIds().begin(), reportDiags.emittedIds().end());
    appendDiagnosticLog(ids);
    return status;
  };

  if (parsed.status == ParseResult::ExitFailure) {
    reportDiags.reportWithArgs(runtimeId(parsed.error), SourceRange(), parsed.args);
    printer->finish();
    appendDiagnosticLog(reportDiags.emittedIds());
    return 1;
  }
  // An exception escaping the pipeline is an internal error, reported after
  // the diagnostics before it, in the same format.
  try {
    return compile(opts, argc, argv, sm, diags, finish);
  } catch (const std::exception &e) {
    reportDiags.report(DiagId::InternalCompilerError, SourceRange(), e.what());
    printer->finish();
    std::vector<DiagId> ids = diags.emittedIds();
    ids.insert(ids.end(), reportDiags.emittedIds().begin(), reportDiags.emittedIds().end());
    appendDiagnosticLog(ids);
    return 4;
  }
}

}  // namespace cake
