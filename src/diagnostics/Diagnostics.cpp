// Diagnostics: table lookup, severity mapping, text and JSON printers.
#include "diagnostics/Diagnostics.h"

#include <fmt/args.h>

#include <algorithm>

#include <cstdio>

#include "diagnostics/Check.h"

namespace cake {

const std::vector<DiagInfo> &allDiagnostics() {
  static const std::vector<DiagInfo> table = {
#define DIAG(Name, Id, Sev, Flag, Fmt) {DiagId::Name, Id, Severity::Sev, Flag, Fmt},
#include "diagnostics/DiagnosticKinds.def"
#undef DIAG
  };
  return table;
}

const DiagInfo &diagInfo(DiagId id) { return allDiagnostics()[static_cast<size_t>(id)]; }

// Only named in the consteval constructor of DiagIdWithArgs, where calling it
// is the compile error; never called at run time.
void diagnostic_argument_count_differs_from_its_format() {}

void DiagnosticEngine::reportWithArgs(RuntimeDiagId id, SourceRange range, std::vector<std::string> args) {
  checkDiagArgumentCount(id.id, args.size());
  DiagnosticBuilder(*this, make(id.id, range, std::move(args))).emit();
}

void checkDiagArgumentCount(DiagId id, size_t n) {
  CAKE_CHECK(diagArgumentCount(id) == n, fmt::format("diagnostic '{}' takes {} argument(s) but is reported with {}",
                                                     diagInfo(id).id, diagArgumentCount(id), n));
}

std::string_view severityName(Severity s) {
  switch (s) {
  case Severity::Note: return "note";
  case Severity::Remark: return "remark";
  case Severity::Warning: return "warning";
  case Severity::Error: return "error";
  case Severity::Fatal: return "fatal error";
  }
  return "error";
}

bool isKnownWarningFlag(std::string_view flag) {
  for (const DiagInfo &d : allDiagnostics())
    if (d.severity == Severity::Warning && d.flag == flag) return true;
  return false;
}

bool isKnownRemarkFlag(std::string_view flag) {
  for (const DiagInfo &d : allDiagnostics())
    if (d.severity == Severity::Remark && d.flag == flag) return true;
  return false;
}

std::string DiagnosticEngine::formatMessage(DiagId id, const std::vector<std::string> &args) {
  fmt::dynamic_format_arg_store<fmt::format_context> store;
  for (const std::string &a : args) store.push_back(a);
  try {
    return fmt::vformat(diagInfo(id).format, store);
  } catch (const fmt::format_error &) {
    // A table entry and its call site disagree on arguments: a cakec bug, but
    // the user should still see the diagnostic rather than a crash.
    std::string s(diagInfo(id).format);
    for (const std::string &a : args) s += " '" + a + "'";
    return s;
  }
}

std::string escapeControlChars(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    // C1 controls U+0080..U+009F, as UTF-8: C2 80..C2 9F.
    if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(s[i + 1]) <= 0x9F) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(s[i + 1]));
      ++i;
      continue;
    }
    if (c >= 0x20 && c != 0x7F) {
      out += static_cast<char>(c);
      continue;
    }
    switch (c) {
    case '\n': out += "\\n"; break;
    case '\r': out += "\\r"; break;
    case '\t': out += "\\t"; break;
    case '\0': out += "\\0"; break;
    default: out += fmt::format("\\x{:02x}", c);
    }
  }
  return out;
}

Diagnostic DiagnosticEngine::make(DiagId id, SourceRange range, std::vector<std::string> args) {
  Diagnostic d;
  d.kind = id;
  d.severity = diagInfo(id).severity;
  d.range = range;
  // Arguments are names and text from the input and the command line: one
  // place keeps every one of them on its diagnostic's line.
  for (std::string &a : args)
    if (std::any_of(a.begin(), a.end(), [](char c) {
          unsigned char u = static_cast<unsigned char>(c);
          return u < 0x20 || u == 0x7F || u == 0xC2;
        }))
      a = escapeControlChars(a);
  d.message = formatMessage(id, args);
  return d;
}

bool DiagnosticEngine::willShow(DiagId id) const {
  if (stoppedForMaxErrors_) return false;
  const DiagInfo &info = diagInfo(id);
  if (info.severity == Severity::Remark) return opts_.remarks.count(std::string(info.flag)) > 0;
  if (info.severity != Severity::Warning) return true;
  std::string flag(info.flag);
  if (opts_.suppressWarnings) return false;
  return !(opts_.disabled.count(flag) && !opts_.enabled.count(flag));
}

bool DiagnosticEngine::demote(Diagnostic d) {
  bool error = d.severity == Severity::Error;  // a fatal one stays fatal
  if (d.severity == Severity::Warning) {
    Diagnostic probe = d;
    error = mapSeverity(probe) && probe.severity >= Severity::Error;
  }
  if (error) {
    d.severity = Severity::Warning;
    d.demoted = true;
  }
  emit(std::move(d));
  return error;
}

bool DiagnosticEngine::mapSeverity(Diagnostic &d) const {
  if (d.demoted) return !opts_.suppressWarnings;
  if (d.severity == Severity::Remark) return opts_.remarks.count(std::string(diagInfo(d.kind).flag)) > 0;
  if (d.severity != Severity::Warning) return true;
  std::string flag(diagInfo(d.kind).flag);
  if (opts_.suppressWarnings) return false;
  if (opts_.disabled.count(flag) && !opts_.enabled.count(flag)) return false;
  bool asError = opts_.asErrors.count(flag) || (opts_.warningsAsErrors && !opts_.notAsErrors.count(flag));
  if (asError) d.severity = Severity::Error;
  return true;
}

DiagnosticBuilder &DiagnosticBuilder::fixit(SourceRange range, std::string text) {
  Diagnostic &owner = diag_.notes.empty() ? diag_ : diag_.notes.back();
  owner.fixits.push_back({range, std::move(text)});
  return *this;
}

void DiagnosticBuilder::emit() {
  if (!engine_) return;
  DiagnosticEngine *e = engine_;
  engine_ = nullptr;
  e->emit(std::move(diag_));
}

void DiagnosticEngine::emit(Diagnostic d) {
  if (capture_) {
    capture_->push_back(std::move(d));
    return;
  }
  if (stoppedForMaxErrors_) return;
  if (!mapSeverity(d)) return;
  auto where = [](const Diagnostic &x) {
    return fmt::format("{}:{}:{}:{}:{}:{}", static_cast<int>(x.kind), x.range.begin.file, x.range.begin.line,
                       x.range.begin.col, x.range.end.col, x.message);
  };
  std::string key = where(d);
  for (const Diagnostic &n : d.notes) key += "\n" + where(n);
  if (d.range.begin.valid() && !shown_.insert(key).second) return;
  emitted_.push_back(d.kind);
  for (const Diagnostic &n : d.notes) emitted_.push_back(n.kind);
  if (d.severity >= Severity::Error) ++errors_;
  if (d.severity == Severity::Warning) ++warnings_;
  if (d.severity == Severity::Fatal) fatal_ = true;
  if (consumer_) consumer_->handle(d);
  if (opts_.maxErrors != 0 && errors_ - partErrorBase_ >= opts_.maxErrors && d.severity == Severity::Error) {
    Diagnostic stop = make(DiagId::DriverTooManyErrors, SourceRange(), {std::to_string(opts_.maxErrors)});
    emitted_.push_back(stop.kind);
    if (consumer_) consumer_->handle(stop);
    fatal_ = true;
    stoppedForMaxErrors_ = true;
  }
}

// ---- text ------------------------------------------------------------------

namespace {
const char *kBold = "\033[1m";
const char *kReset = "\033[0m";
const char *severityColor(Severity s) {
  switch (s) {
  case Severity::Note: return "\033[1;36m";
  case Severity::Remark: return "\033[1;32m";
  case Severity::Warning: return "\033[1;35m";
  default: return "\033[1;31m";
  }
}
const char *kCaretColor = "\033[1;32m";
}  // namespace

void TextDiagnosticPrinter::renderOne(std::string &out, const Diagnostic &d) const {
  const SourceLoc &b = d.range.begin;
  if (color_) out += kBold;
  if (b.valid())
    out += fmt::format("{}:{}:{}: ", escapeControlChars(sm_.name(b.file)), b.line, b.col);
  else if (b.file != kNoFile)
    out += fmt::format("{}: ", escapeControlChars(sm_.name(b.file)));
  else
    out += "cakec: ";
  if (color_) out += severityColor(d.severity);
  out += severityName(d.severity);
  out += ":";
  if (color_) out += kReset;
  if (color_) out += kBold;
  out += " ";
  out += d.message;
  if (d.severity != Severity::Note) out += fmt::format(" [{}{}]", diagInfo(d.kind).id, d.demoted ? "; -fno-gates" : "");
  if (color_) out += kReset;
  out += "\n";
  if (!b.valid()) return;

  // The source line, then a caret under the start and '~' under the rest of
  // the range (on the first line only).
  std::string_view line = sm_.lineText(b.file, b.line);
  if (line.empty() && b.col <= 1) return;
  out += line;
  out += "\n";
  std::string marker;
  uint32_t col = 1;
  size_t i = 0;
  // Walk code points so the caret aligns with the lexer's columns; keep tabs
  // so the caret lines up in a terminal too.
  while (col < b.col && i < line.size()) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    marker += (c == '\t') ? '\t' : ' ';
    ++i;
    while (i < line.size() && (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) ++i;
    ++col;
  }
  while (col < b.col) {
    marker += ' ';
    ++col;
  }
  marker += '^';
  uint32_t endCol = (d.range.end.valid() && d.range.end.line == b.line) ? d.range.end.col
                    : (d.range.end.valid() && d.range.end.line > b.line)
                        ? static_cast<uint32_t>(codePointCount(line)) + 1
                        : b.col + 1;
  for (uint32_t c = b.col + 1; c < endCol; ++c) marker += '~';
  if (color_) out += kCaretColor;
  out += marker;
  if (color_) out += kReset;
  out += "\n";
  // Each fix-it on this line: its text under the columns it replaces.
  for (const FixIt &f : d.fixits) {
    if (!f.range.valid() || f.range.begin.file != b.file || f.range.begin.line != b.line) continue;
    std::string pad;
    size_t j = 0;
    for (uint32_t c = 1; c < f.range.begin.col; ++c) {
      bool tab = j < line.size() && line[j] == '\t';
      pad += tab ? '\t' : ' ';
      if (j < line.size()) ++j;
      while (j < line.size() && (static_cast<unsigned char>(line[j]) & 0xC0) == 0x80) ++j;
    }
    out += pad;
    if (color_) out += kCaretColor;
    out += f.text;
    if (color_) out += kReset;
    out += "\n";
  }
}

namespace {
// clang's -fdiagnostics-parseable-fixits line.
std::string parseableFixit(const SourceManager &sm, const FixIt &f) {
  SourceLoc e = f.range.end.valid() ? f.range.end : f.range.begin;
  return fmt::format("fix-it:\"{}\":{{{}:{}-{}:{}}}:\"{}\"\n", jsonEscape(sm.name(f.range.begin.file)),
                     f.range.begin.line, f.range.begin.col, e.line, e.col, jsonEscape(f.text));
}
}  // namespace

std::string TextDiagnosticPrinter::render(const Diagnostic &d) const {
  std::string out;
  renderOne(out, d);
  for (const Diagnostic &n : d.notes) renderOne(out, n);
  if (parseableFixits_) {
    for (const FixIt &f : d.fixits)
      if (f.range.valid()) out += parseableFixit(sm_, f);
    for (const Diagnostic &n : d.notes)
      for (const FixIt &f : n.fixits)
        if (f.range.valid()) out += parseableFixit(sm_, f);
  }
  return out;
}

void TextDiagnosticPrinter::handle(const Diagnostic &d) {
  std::string s = render(d);
  std::fwrite(s.data(), 1, s.size(), out_);
  std::fflush(out_);
}

void TextDiagnosticPrinter::finish() { std::fflush(out_); }

// ---- JSON ------------------------------------------------------------------

std::string jsonEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\r': out += "\\r"; break;
    case '\t': out += "\\t"; break;
    default:
      if (c < 0x20)
        out += fmt::format("\\u{:04x}", c);
      else
        out += static_cast<char>(c);
    }
  }
  return out;
}

namespace {
std::string jsonLocation(const SourceManager &sm, const SourceRange &r) {
  if (!r.valid()) {
    if (r.begin.file != kNoFile)
      return fmt::format("\"file\": \"{}\", \"line\": null, \"column\": null, \"end\": null",
                         jsonEscape(sm.name(r.begin.file)));
    return "\"file\": null, \"line\": null, \"column\": null, \"end\": null";
  }
  SourceLoc e = r.end.valid() ? r.end : r.begin;
  return fmt::format("\"file\": \"{}\", \"line\": {}, \"column\": {}, "
                     "\"end\": {{\"line\": {}, \"column\": {}}}",
                     jsonEscape(sm.name(r.begin.file)), r.begin.line, r.begin.col, e.line, e.col);
}
}  // namespace

namespace {
// `"fixits": [{"start": {...}, "end": {...}, "text": "..."}]`
std::string jsonFixits(const std::vector<FixIt> &fixits) {
  std::string out;
  for (const FixIt &f : fixits) {
    if (!f.range.valid()) continue;
    SourceLoc e = f.range.end.valid() ? f.range.end : f.range.begin;
    out +=
        fmt::format("{}{{\"start\": {{\"line\": {}, \"column\": {}}}, \"end\": {{\"line\": {}, \"column\": {}}}, "
                    "\"text\": \"{}\"}}",
                    out.empty() ? "" : ", ", f.range.begin.line, f.range.begin.col, e.line, e.col, jsonEscape(f.text));
  }
  return "\"fixits\": [" + out + "]";
}
}  // namespace

void JsonDiagnosticPrinter::handle(const Diagnostic &d) {
  std::string notes;
  for (const Diagnostic &n : d.notes) {
    if (!notes.empty()) notes += ", ";
    notes += fmt::format("{{\"id\": \"{}\", \"message\": \"{}\", {}, {}}}", diagInfo(n.kind).id, jsonEscape(n.message),
                         jsonLocation(sm_, n.range), jsonFixits(n.fixits));
  }
  objects_.push_back(
      fmt::format("{{\"id\": \"{}\", \"severity\": \"{}\",{} \"message\": \"{}\", {}, {}, \"notes\": [{}]}}",
                  diagInfo(d.kind).id, severityName(d.severity), d.demoted ? " \"demoted\": true," : "",
                  jsonEscape(d.message), jsonLocation(sm_, d.range), jsonFixits(d.fixits), notes));
}

void JsonDiagnosticPrinter::finish() {
  std::string out = "[";
  for (size_t i = 0; i < objects_.size(); ++i) {
    out += (i ? ",\n  " : "\n  ");
    out += objects_[i];
  }
  out += objects_.empty() ? "]\n" : "\n]\n";
  std::fwrite(out.data(), 1, out.size(), out_);
  std::fflush(out_);
}

// ---- SARIF -------------------------------------------------------------------

namespace {
std::string sarifLevel(Severity s) {
  switch (s) {
  case Severity::Note:
  case Severity::Remark: return "note";
  case Severity::Warning: return "warning";
  default: return "error";
  }
}

// A file name as a SARIF artifactLocation.uri (a URI reference, RFC 3986):
// every byte other than the unreserved characters and '/' percent-encoded,
// so a name with spaces, '%', '#', '?' or control characters stays one
// path that a viewer decodes back to the name.
std::string sarifUri(std::string_view name) {
  std::string out;
  for (unsigned char c : name) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
        c == '_' || c == '~' || c == '/')
      out += static_cast<char>(c);
    else
      out += fmt::format("%{:02X}", c);
  }
  return out;
}

// A physicalLocation object, or "" when the diagnostic has no file.
std::string sarifPhysicalLocation(const SourceManager &sm, const SourceRange &r) {
  if (r.begin.file == kNoFile) return "";
  std::string loc = fmt::format("\"artifactLocation\": {{\"uri\": \"{}\"}}", sarifUri(sm.name(r.begin.file)));
  if (r.valid()) {
    SourceLoc e = r.end.valid() ? r.end : r.begin;
    loc += fmt::format(", \"region\": {{\"startLine\": {}, \"startColumn\": {}, \"endLine\": {}, \"endColumn\": {}}}",
                       r.begin.line, r.begin.col, e.line, std::max(e.col, r.begin.col));
  }
  return "{" + loc + "}";
}
}  // namespace

void SarifDiagnosticPrinter::handle(const Diagnostic &d) {
  std::string result =
      fmt::format("{{\"ruleId\": \"{}\", \"ruleIndex\": {}, \"level\": \"{}\", "
                  "\"message\": {{\"text\": \"{}\"}}",
                  diagInfo(d.kind).id, static_cast<unsigned>(d.kind), sarifLevel(d.severity), jsonEscape(d.message));
  std::string phys = sarifPhysicalLocation(sm_, d.range);
  if (!phys.empty()) result += ", \"locations\": [{\"physicalLocation\": " + phys + "}]";
  std::string related;
  int id = 0;
  for (const Diagnostic &n : d.notes) {
    std::string p = sarifPhysicalLocation(sm_, n.range);
    if (p.empty()) continue;
    related += fmt::format("{}{{\"id\": {}, \"message\": {{\"text\": \"{}\"}}, \"physicalLocation\": {}}}",
                           related.empty() ? "" : ", ", id++, jsonEscape(n.message), p);
  }
  if (!related.empty()) result += ", \"relatedLocations\": [" + related + "]";
  // Each fix-it is one fix, described by the message it belongs to.
  std::string fixes;
  auto addFixes = [&](const Diagnostic &owner) {
    for (const FixIt &f : owner.fixits) {
      if (!f.range.valid()) continue;
      SourceLoc e = f.range.end.valid() ? f.range.end : f.range.begin;
      fixes += fmt::format(
          "{}{{\"description\": {{\"text\": \"{}\"}}, \"artifactChanges\": [{{\"artifactLocation\": {{\"uri\": "
          "\"{}\"}}, "
          "\"replacements\": [{{\"deletedRegion\": {{\"startLine\": {}, \"startColumn\": {}, \"endLine\": {}, "
          "\"endColumn\": {}}}, \"insertedContent\": {{\"text\": \"{}\"}}}}]}}]}}",
          fixes.empty() ? "" : ", ", jsonEscape(owner.message), sarifUri(sm_.name(f.range.begin.file)),
          f.range.begin.line, f.range.begin.col, e.line, std::max(e.col, f.range.begin.col), jsonEscape(f.text));
    }
  };
  addFixes(d);
  for (const Diagnostic &n : d.notes) addFixes(n);
  if (!fixes.empty()) result += ", \"fixes\": [" + fixes + "]";
  // An error of a gate that -fno-gates turned off, reported as a warning.
  if (d.demoted) result += ", \"properties\": {\"demoted\": true}";
  results_.push_back(result + "}");
}

void SarifDiagnosticPrinter::finish() {
  std::string rules;
  for (const DiagInfo &d : allDiagnostics()) {
    if (!rules.empty()) rules += ",\n        ";
    rules += fmt::format("{{\"id\": \"{}\", \"shortDescription\": {{\"text\": \"{}\"}}, "
                         "\"defaultConfiguration\": {{\"level\": \"{}\"}}}}",
                         d.id, jsonEscape(d.format), sarifLevel(d.severity));
  }
  std::string results;
  for (size_t i = 0; i < results_.size(); ++i) results += (i ? ",\n    " : "\n    ") + results_[i];
  std::string out = fmt::format(
      "{{\n  \"version\": \"2.1.0\",\n  \"runs\": [{{\n    \"tool\": {{\"driver\": {{\"name\": \"cakec\", "
      "\"version\": \"0.1.0\",\n      \"rules\": [\n        {}]}}}},\n    \"columnKind\": \"unicodeCodePoints\",\n"
      "    \"results\": [{}]\n  }}]\n}}\n",
      rules, results.empty() ? "" : results + "\n  ");
  std::fwrite(out.data(), 1, out.size(), out_);
  std::fflush(out_);
}

}  // namespace cake
