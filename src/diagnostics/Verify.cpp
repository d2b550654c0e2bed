// Verify: see Verify.h.
#include "diagnostics/Verify.h"

#include <cctype>

namespace cake {

void VerifyDiagnosticConsumer::handle(const Diagnostic &d) {
  // Severities are compared after -Werror promotion, as clang does; a fatal
  // error is expected with expected-error.
  seen_.push_back({d.severity == Severity::Fatal ? Severity::Error : d.severity, d.range, d.message});
  for (const Diagnostic &n : d.notes) seen_.push_back({Severity::Note, n.range, n.message});
}

void VerifyDiagnosticConsumer::parseDirectives(FileId file, std::vector<Expected> &out, bool &noDiagnostics,
                                               bool &any) {
  static const std::string_view kPrefix = "expected-";
  uint32_t lines = sm_.lineCount(file);
  for (uint32_t ln = 1; ln <= lines; ++ln) {
    std::string_view text = sm_.lineText(file, ln);
    size_t pos = 0;
    while ((pos = text.find(kPrefix, pos)) != std::string_view::npos) {
      size_t start = pos;
      pos += kPrefix.size();
      SourceRange at(SourceLoc{file, ln, static_cast<uint32_t>(codePointCount(text.substr(0, start)) + 1)});
      std::string_view rest = text.substr(pos);
      if (rest.substr(0, 14) == "no-diagnostics") {
        noDiagnostics = true;
        any = true;
        pos += 14;
        continue;
      }
      Severity sev;
      std::string kind;
      if (rest.substr(0, 5) == "error") {
        sev = Severity::Error;
        kind = "expected-error";
        pos += 5;
      } else if (rest.substr(0, 7) == "warning") {
        sev = Severity::Warning;
        kind = "expected-warning";
        pos += 7;
      } else if (rest.substr(0, 4) == "note") {
        sev = Severity::Note;
        kind = "expected-note";
        pos += 4;
      } else if (rest.substr(0, 6) == "remark") {
        sev = Severity::Remark;
        kind = "expected-remark";
        pos += 6;
      } else
        continue;
      any = true;
      // Optional @LINE, @+N or @-N.
      int64_t target = ln;
      if (pos < text.size() && text[pos] == '@') {
        ++pos;
        char sign = (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) ? text[pos++] : 0;
        size_t digits = pos;
        int64_t n = 0;
        while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])) && n < 1000000)
          n = n * 10 + (text[pos++] - '0');
        if (digits == pos) {
          report_.report(DiagId::VerifyMalformedDirective, at, kind, "expected a line number after '@'");
          continue;
        }
        target = sign == '+' ? ln + n : sign == '-' ? static_cast<int64_t>(ln) - n : n;
        if (target < 1 || target > static_cast<int64_t>(lines)) {
          report_.report(DiagId::VerifyMalformedDirective, at, kind,
                         "line " + std::to_string(target) + " is outside the file");
          continue;
        }
      }
      while (pos < text.size() && text[pos] == ' ') ++pos;
      // Optional count: `expected-note 2 {{...}}` expects two such notes.
      int64_t count = 1;
      if (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
        count = 0;
        while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])) && count < 1000)
          count = count * 10 + (text[pos++] - '0');
        while (pos < text.size() && text[pos] == ' ') ++pos;
        if (count == 0) {
          report_.report(DiagId::VerifyMalformedDirective, at, kind, "a count must be at least 1");
          continue;
        }
      }
      if (text.substr(pos, 2) != "{{") {
        report_.report(DiagId::VerifyMalformedDirective, at, kind, "expected '{{' after the directive");
        continue;
      }
      size_t close = text.find("}}", pos + 2);
      if (close == std::string_view::npos) {
        report_.report(DiagId::VerifyMalformedDirective, at, kind, "missing '}}' at the end of the text");
        continue;
      }
      for (int64_t i = 0; i < count; ++i)
        out.push_back({sev, file, static_cast<uint32_t>(target), ln, at.begin.col,
                       std::string(text.substr(pos + 2, close - pos - 2))});
      pos = close + 2;
    }
  }
}

void VerifyDiagnosticConsumer::finish() {
  std::vector<Expected> expected;
  bool anyDirective = false;
  for (FileId f = 0; f < sm_.fileCount(); ++f) {
    if (sm_.hasParts(f)) continue;  // its parts hold its directives
    bool noDiags = false;
    bool any = false;
    parseDirectives(f, expected, noDiags, any);
    anyDirective |= any;
  }
  if (!anyDirective) {
    report_.report(DiagId::VerifyNoDirectives, SourceRange());
    return;
  }
  std::vector<bool> matched(seen_.size(), false);
  for (Expected &e : expected) {
    for (size_t i = 0; i < seen_.size(); ++i) {
      const Seen &s = seen_[i];
      if (matched[i] || s.severity != e.severity) continue;
      if (s.range.begin.file != e.file || s.range.begin.line != e.line) continue;
      if (s.message.find(e.text) == std::string::npos) continue;
      matched[i] = true;
      e.seen = true;
      break;
    }
  }
  for (const Expected &e : expected) {
    if (e.seen) continue;
    report_.report(DiagId::VerifyNotSeen, SourceRange(SourceLoc{e.file, e.directiveLine, e.directiveCol}),
                   std::string(severityName(e.severity)) + " on line " + std::to_string(e.line), e.text);
  }
  for (size_t i = 0; i < seen_.size(); ++i) {
    if (matched[i]) continue;
    report_.report(DiagId::VerifyNotExpected, seen_[i].range, severityName(seen_[i].severity), seen_[i].message);
  }
}

}  // namespace cake
