// Diagnostics: the table-driven diagnostic engine.
//
// Every diagnostic has an entry in DiagnosticKinds.def. Code reports one with
//
//   diags.build(DiagId::X, range, arg0, arg1)
//        .note(DiagId::NoteY, otherRange, arg)
//        .fixit(replacedRange, "text")
//        .emit();
//
// or diags.report(...) when there are no notes. The number of arguments is
// checked against the format's placeholders ({0} .. {n-1}) when the call is
// compiled: a DiagId named at the call site converts to DiagIdWithArgs<n>
// only when n is its count (a consteval constructor), so a wrong count does
// not compile. An id known only at run time is passed as runtimeId(id) and
// checked when reported (CAKE_CHECK). The engine applies the
// warning options (-W, -Werror, -w), counts errors, enforces -fmax-errors and
// hands finished diagnostics to a consumer (text, JSON, or -verify).
#pragma once

#include <fmt/format.h>

#include <cstddef>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "diagnostics/SourceManager.h"

namespace cake {

enum class DiagId : uint16_t {
#define DIAG(Name, Id, Sev, Flag, Fmt) Name,
#include "diagnostics/DiagnosticKinds.def"
#undef DIAG
};

// Remark: shown only when asked for with -R<flag> (performance hints).
enum class Severity : uint8_t { Note, Remark, Warning, Error, Fatal };

// The number of arguments a format takes: one more than its highest
// positional placeholder ({0}, {1:x}, ...; {{ and }} are literal braces).
// Placeholders without a number ({}) are not counted; the unit test refuses
// them, and gaps, for every entry of the table.
constexpr size_t formatArgumentCount(std::string_view fmt) {
  size_t count = 0;
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '{') continue;
    if (i + 1 < fmt.size() && fmt[i + 1] == '{') {
      ++i;
      continue;
    }
    size_t n = 0;
    bool digits = false;
    while (i + 1 < fmt.size() && fmt[i + 1] >= '0' && fmt[i + 1] <= '9') {
      n = n * 10 + static_cast<size_t>(fmt[++i] - '0');
      digits = true;
    }
    if (digits && n + 1 > count) count = n + 1;
  }
  return count;
}

// Each diagnostic's argument count, in table order.
inline constexpr unsigned char kDiagArgumentCounts[] = {
#define DIAG(Name, Id, Sev, Flag, Fmt) static_cast<unsigned char>(formatArgumentCount(Fmt)),
#include "diagnostics/DiagnosticKinds.def"
#undef DIAG
};
constexpr size_t diagArgumentCount(DiagId id) { return kDiagArgumentCounts[static_cast<size_t>(id)]; }

// A diagnostic id known only at run time (the command-line parser's error):
// report(runtimeId(id), ...) checks its argument count when it is reported
// instead of when it is compiled. A choice between ids keeps the compile-time
// check: `c ? DiagIdWithArgs<1>(DiagId::A) : DiagIdWithArgs<1>(DiagId::B)`,
// and so does a parameter declared DiagIdWithArgs<n>.
struct RuntimeDiagId {
  DiagId id;
};
constexpr RuntimeDiagId runtimeId(DiagId id) { return {id}; }

// Not constexpr: a DiagIdWithArgs built at compile time calls it only when
// the count is wrong, which makes the call site fail to compile with this
// name in the error.
void diagnostic_argument_count_differs_from_its_format();
// Throws InternalError (CAKE_CHECK) when `id` takes other than `n` arguments.
void checkDiagArgumentCount(DiagId id, size_t n);

// A diagnostic id that takes N arguments: what report, build and note take
// first, N being the number of arguments after the range.
template <size_t N>
struct DiagIdWithArgs {
  DiagId id;
  consteval DiagIdWithArgs(DiagId i) : id(i) {  // NOLINT: implicit on purpose (DiagId::X at call sites)
    if (diagArgumentCount(i) != N) diagnostic_argument_count_differs_from_its_format();
  }
  DiagIdWithArgs(RuntimeDiagId r) : id(r.id) { checkDiagArgumentCount(r.id, N); }  // NOLINT
};
template <typename... Args>
using DiagIdFor = std::type_identity_t<DiagIdWithArgs<sizeof...(Args)>>;

struct DiagInfo {
  DiagId kind;
  std::string_view id;
  Severity severity;
  std::string_view flag;
  std::string_view format;
};

// The table, in declaration order.
const std::vector<DiagInfo> &allDiagnostics();
const DiagInfo &diagInfo(DiagId id);
std::string_view severityName(Severity s);
// True if some warning in the table is controlled by -W<flag>.
bool isKnownWarningFlag(std::string_view flag);
// Whether some remark of the table has this -R flag.
bool isKnownRemarkFlag(std::string_view flag);

// A suggested edit: replace `range` (half-open; begin == end inserts) with
// `text`. Editors apply it; the text printer shows it under the caret.
struct FixIt {
  SourceRange range;
  std::string text;
};

struct Diagnostic {
  DiagId kind;
  Severity severity;  // after -Werror promotion
  SourceRange range;
  std::string message;
  std::vector<Diagnostic> notes;
  std::vector<FixIt> fixits;
  // An error of a gate turned off by -fno-gates, reported as a warning that
  // no -Werror promotes (DiagnosticEngine::demote).
  bool demoted = false;
};

class DiagnosticConsumer {
public:
  virtual ~DiagnosticConsumer() = default;
  virtual void handle(const Diagnostic &d) = 0;
  // Called once when the compiler is done.
  virtual void finish() {}
};

struct DiagnosticOptions {
  bool suppressWarnings = false;   // -w
  bool warningsAsErrors = false;   // -Werror
  std::set<std::string> disabled;  // -Wno-NAME
  std::set<std::string> enabled;   // -WNAME (re-enables after -Wno-NAME)
  // -Werror=NAME. What the safety gate cannot prove fails closed: the
  // unproven warnings are errors unless -Wno-error=unproven.
  std::set<std::string> asErrors = {"unproven"};
  std::set<std::string> notAsErrors;  // -Wno-error=NAME
  std::set<std::string> remarks;      // -RNAME: the remarks of that flag are shown (none by default)
  unsigned maxErrors = 50;            // -fmax-errors=N; 0 = unlimited
};

class DiagnosticEngine;

class [[nodiscard]] DiagnosticBuilder {
public:
  DiagnosticBuilder(DiagnosticEngine &engine, Diagnostic d) : engine_(&engine), diag_(std::move(d)) {}
  DiagnosticBuilder(DiagnosticBuilder &&) = default;
  DiagnosticBuilder(const DiagnosticBuilder &) = delete;

  template <typename... Args>
  DiagnosticBuilder &note(DiagIdFor<Args...> id, SourceRange range, const Args &...args);
  // A fix-it for the note added last, or for the diagnostic when it has none
  // (a fix-it that is one possible meaning belongs on a note saying so).
  DiagnosticBuilder &fixit(SourceRange range, std::string text);
  void emit();

private:
  DiagnosticEngine *engine_;
  Diagnostic diag_;
};

class DiagnosticEngine {
public:
  explicit DiagnosticEngine(DiagnosticOptions opts = {}) : opts_(std::move(opts)) {}

  void setConsumer(DiagnosticConsumer *c) { consumer_ = c; }
  DiagnosticOptions &options() { return opts_; }

  template <typename... Args>
  DiagnosticBuilder build(DiagIdFor<Args...> id, SourceRange range, const Args &...args) {
    return DiagnosticBuilder(*this, make(id.id, range, {toString(args)...}));
  }
  template <typename... Args>
  void report(DiagIdFor<Args...> id, SourceRange range, const Args &...args) {
    build<Args...>(id, range, args...).emit();
  }
  // A diagnostic and arguments chosen at run time (the command-line parser's
  // error): their count is checked here (CAKE_CHECK).
  void reportWithArgs(RuntimeDiagId id, SourceRange range, std::vector<std::string> args);

  unsigned errorCount() const { return errors_; }
  unsigned warningCount() const { return warnings_; }
  bool hasErrors() const { return errors_ != 0; }
  // Set by a fatal diagnostic (or -fmax-errors); callers stop work.
  bool fatalOccurred() const { return fatal_; }
  // Clears the fatal flag between input files (counts stay).
  void resetFatal() { fatal_ = false; }
  // Starts a part of a split input (--split-input-file), checked on its own:
  // clears the fatal flag, and -fmax-errors counts the part's errors only.
  void startPart() {
    fatal_ = false;
    stoppedForMaxErrors_ = false;
    partErrorBase_ = errors_;
    shown_.clear();
  }
  // Whether a diagnostic `id` reported now would reach the consumer: false
  // once -fmax-errors has stopped output, and for a warning the options
  // suppress. A cheap query, for checks that would otherwise build many
  // diagnostics nobody sees.
  bool willShow(DiagId id) const;
  // While a capture is set, finished diagnostics go into it instead of
  // being counted and shown; emitCaptured() emits one later. Sema analyses
  // a role family's body once per member and reports each distinct
  // diagnostic once.
  void setCapture(std::vector<Diagnostic> *capture) { capture_ = capture; }
  void emitCaptured(Diagnostic d) { emit(std::move(d)); }
  // Emits a captured diagnostic of a gate that -fno-gates turned off: an
  // error becomes a warning marked as demoted (warnings stay what they are,
  // except the unproven ones, which fail closed as errors otherwise).
  // Returns whether it was an error (or would have been one).
  bool demote(Diagnostic d);
  // A diagnostic (a note to add to a captured one) made but not emitted.
  template <typename... Args>
  Diagnostic makeDiagnostic(DiagIdFor<Args...> id, SourceRange range, const Args &...args) {
    return make(id.id, range, {toString(args)...});
  }
  // Every diagnostic id emitted so far (for the coverage log).
  const std::vector<DiagId> &emittedIds() const { return emitted_; }

  // Formats a message from the table's format and string arguments.
  static std::string formatMessage(DiagId id, const std::vector<std::string> &args);

private:
  friend class DiagnosticBuilder;
  template <typename T>
  static std::string toString(const T &v) {
    return fmt::format("{}", v);
  }
  Diagnostic make(DiagId id, SourceRange range, std::vector<std::string> args);
  void emit(Diagnostic d);
  // Applies warning options; returns false if the diagnostic is suppressed.
  bool mapSeverity(Diagnostic &d) const;

  DiagnosticOptions opts_;
  DiagnosticConsumer *consumer_ = nullptr;
  unsigned errors_ = 0;
  unsigned warnings_ = 0;
  unsigned partErrorBase_ = 0;  // errors_ when the current part started
  bool fatal_ = false;
  bool stoppedForMaxErrors_ = false;
  std::vector<DiagId> emitted_;
  std::vector<Diagnostic> *capture_ = nullptr;
  // Diagnostics with a place already shown, as kind, place, message and
  // notes: the same one twice (one finding reached through two role-family
  // members whose bodies are one text) is shown once (per part).
  std::set<std::string> shown_;
};

template <typename... Args>
DiagnosticBuilder &DiagnosticBuilder::note(DiagIdFor<Args...> id, SourceRange range, const Args &...args) {
  diag_.notes.push_back(engine_->make(id.id, range, {DiagnosticEngine::toString(args)...}));
  return *this;
}

// gcc/clang-style text: `file:line:col: error: message [id]`, the source line
// and a caret with a range underline.
class TextDiagnosticPrinter : public DiagnosticConsumer {
public:
  // parseableFixits: also print each fix-it as a line
  // `fix-it:"FILE":{L1:C1-L2:C2}:"TEXT"` (clang's -fdiagnostics-parseable-fixits).
  TextDiagnosticPrinter(const SourceManager &sm, std::FILE *out, bool color, bool parseableFixits = false)
      : sm_(sm), out_(out), color_(color), parseableFixits_(parseableFixits) {}
  void handle(const Diagnostic &d) override;
  void finish() override;

  // The text for one diagnostic (and its notes), as printed.
  std::string render(const Diagnostic &d) const;

private:
  void renderOne(std::string &out, const Diagnostic &d) const;
  const SourceManager &sm_;
  std::FILE *out_;
  bool color_;
  bool parseableFixits_;
};

// `--diagnostics-format=json`: a JSON array of objects, one per diagnostic,
// printed when the compiler finishes.
class JsonDiagnosticPrinter : public DiagnosticConsumer {
public:
  JsonDiagnosticPrinter(const SourceManager &sm, std::FILE *out) : sm_(sm), out_(out) {}
  void handle(const Diagnostic &d) override;
  void finish() override;

private:
  const SourceManager &sm_;
  std::FILE *out_;
  std::vector<std::string> objects_;
};

// `--diagnostics-format=sarif`: one SARIF 2.1.0 log (a run of cakec whose
// rules are the diagnostic table), printed when the compiler finishes. Notes
// become related locations of their result.
class SarifDiagnosticPrinter : public DiagnosticConsumer {
public:
  SarifDiagnosticPrinter(const SourceManager &sm, std::FILE *out) : sm_(sm), out_(out) {}
  void handle(const Diagnostic &d) override;
  void finish() override;

private:
  const SourceManager &sm_;
  std::FILE *out_;
  std::vector<std::string> results_;
};

// A diagnostic argument or file name made safe to print on one line: C0 and
// C1 control characters and DEL become visible escapes (\n, \t, \x1b,
// \u0085); everything else, backslashes included, stays as it is. The engine
// applies it to every argument and the printers to file names, so no name the
// user controls can end a diagnostic line, forge another one, or send
// terminal control sequences.
std::string escapeControlChars(std::string_view s);

// Escapes a string for inclusion in JSON (without the surrounding quotes).
std::string jsonEscape(std::string_view s);

}  // namespace cake
