// Unit tests for the diagnostics engine: the table, severity mapping,
// -fmax-errors, and the text and JSON renderings.
#include <doctest/doctest.h>

#include <cctype>
#include <set>

#include "diagnostics/Check.h"
#include "diagnostics/Diagnostics.h"

using namespace cake;

namespace {
struct Collector : DiagnosticConsumer {
  std::vector<Diagnostic> seen;
  void handle(const Diagnostic &d) override { seen.push_back(d); }
};
}  // namespace

TEST_CASE("every diagnostic id is unique, categorised and well formed") {
  std::set<std::string_view> ids;
  for (const DiagInfo &d : allDiagnostics()) {
    CHECK(ids.insert(d.id).second);
    CHECK(d.id.find('.') != std::string_view::npos);
    CHECK_FALSE(d.format.empty());
    // Wording guide: lowercase start, no trailing period.
    CHECK_FALSE(std::isupper(static_cast<unsigned char>(d.format.front())));
    CHECK(d.format.back() != '.');
    // Warnings and remarks have the flag that turns them off (-Wno-) or on (-R).
    if (d.severity == Severity::Warning || d.severity == Severity::Remark)
      CHECK_FALSE(d.flag.empty());
    else
      CHECK(d.flag.empty());
  }
}

TEST_CASE("remarks are shown only when their -R flag asks for them") {
  DiagnosticOptions opts;
  DiagnosticEngine off(opts);
  CHECK_FALSE(off.willShow(DiagId::HintWaves));
  opts.remarks.insert("hint");
  DiagnosticEngine on(opts);
  CHECK(on.willShow(DiagId::HintWaves));
  CHECK(isKnownRemarkFlag("hint"));
  CHECK_FALSE(isKnownRemarkFlag("unproven"));  // a warning's flag, not a remark's
  CHECK_FALSE(isKnownWarningFlag("hint"));
  CHECK(severityName(Severity::Remark) == "remark");
}

TEST_CASE("messages are formatted from the table with positional arguments") {
  CHECK(DiagnosticEngine::formatMessage(DiagId::SyntaxUnexpectedToken, {"')'", "an expression"}) ==
        "unexpected ')'; expected an expression");
  CHECK(DiagnosticEngine::formatMessage(DiagId::VerifyNotSeen, {"error on line 3", "oops"}) ==
        "expected error on line 3 not seen: {{oops}}");
}

// The placeholders of a format, in order of appearance: {N} and {N:spec}
// give N, {} and {:spec} give -1; {{ and }} are literal braces.
static std::vector<int> placeholders(std::string_view fmt) {
  std::vector<int> out;
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '{') continue;
    if (i + 1 < fmt.size() && fmt[i + 1] == '{') {
      ++i;
      continue;
    }
    size_t j = i + 1;
    int n = 0;
    while (j < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[j]))) n = n * 10 + (fmt[j++] - '0');
    out.push_back(j == i + 1 ? -1 : n);
    i = j;
  }
  return out;
}

TEST_CASE("every format numbers its placeholders 0..n-1 and the engine counts n arguments") {
  for (const DiagInfo &d : allDiagnostics()) {
    INFO("diagnostic '" << d.id << "': " << d.format);
    std::vector<int> used = placeholders(d.format);
    std::set<int> distinct(used.begin(), used.end());
    CHECK(distinct.count(-1) == 0);  // positional only: {0}, not {}
    size_t n = distinct.size();
    // 0..n-1 without gaps: the largest is n-1.
    if (n) CHECK(*distinct.rbegin() == static_cast<int>(n) - 1);
    // What report's compile-time check compares a call site's arguments with.
    CHECK(diagArgumentCount(d.kind) == n);
    // The format takes exactly n arguments: fmt formats it without throwing
    // (formatMessage would otherwise fall back to appending the arguments).
    std::vector<std::string> args;
    for (size_t i = 0; i < n; ++i) args.push_back("<arg" + std::to_string(i) + ">");
    std::string message = DiagnosticEngine::formatMessage(d.kind, args);
    for (const std::string &a : args) CHECK(message.find(a) != std::string::npos);
  }
}

TEST_CASE("an id chosen at run time is checked for its argument count when reported") {
  // A DiagId named at the call site is checked when the call compiles
  // (`e.report(DiagId::DriverNoInput, r, "x")` does not compile); runtimeId
  // defers the check to the report.
  DiagnosticEngine e;
  Collector c;
  e.setConsumer(&c);
  DiagId twoArgs = DiagId::SyntaxUnexpectedToken;
  e.report(runtimeId(twoArgs), SourceRange(), "')'", "an expression");
  REQUIRE(c.seen.size() == 1);
  CHECK(c.seen[0].message == "unexpected ')'; expected an expression");
  CHECK_THROWS_AS(e.report(runtimeId(twoArgs), SourceRange(), "')'"), InternalError);
  CHECK_THROWS_AS((void)e.build(runtimeId(DiagId::DriverNoInput), SourceRange(), "extra"), InternalError);
  CHECK(c.seen.size() == 1);
  static_assert(diagArgumentCount(DiagId::DriverNoInput) == 0);
  static_assert(diagArgumentCount(DiagId::SyntaxUnexpectedToken) == 2);
  static_assert(formatArgumentCount("a {1} b {0:x} {{c}} {2}") == 3);
}

TEST_CASE("warning options: -Wno, -Werror, -Werror=, -Wno-error=, -w") {
  SourceRange none;
  {
    DiagnosticOptions o;
    o.disabled.insert("empty-file");
    DiagnosticEngine e(o);
    Collector c;
    e.setConsumer(&c);
    e.report(DiagId::InputEmpty, none);
    CHECK(c.seen.empty());
    CHECK(e.warningCount() == 0);
  }
  {
    DiagnosticOptions o;
    o.warningsAsErrors = true;
    DiagnosticEngine e(o);
    Collector c;
    e.setConsumer(&c);
    e.report(DiagId::InputEmpty, none);
    REQUIRE(c.seen.size() == 1);
    CHECK(c.seen[0].severity == Severity::Error);
    CHECK(e.hasErrors());
  }
  {
    DiagnosticOptions o;
    o.warningsAsErrors = true;
    o.notAsErrors.insert("empty-file");
    DiagnosticEngine e(o);
    Collector c;
    e.setConsumer(&c);
    e.report(DiagId::InputEmpty, none);
    REQUIRE(c.seen.size() == 1);
    CHECK(c.seen[0].severity == Severity::Warning);
  }
  {
    DiagnosticOptions o;
    o.asErrors.insert("empty-file");
    DiagnosticEngine e(o);
    Collector c;
    e.setConsumer(&c);
    e.report(DiagId::InputEmpty, none);
    CHECK(c.seen.at(0).severity == Severity::Error);
  }
  {
    DiagnosticOptions o;
    o.suppressWarnings = true;
    DiagnosticEngine e(o);
    Collector c;
    e.setConsumer(&c);
    e.report(DiagId::InputEmpty, none);
    e.report(DiagId::DriverNoInput, none);
    REQUIRE(c.seen.size() == 1);
    CHECK(c.seen[0].kind == DiagId::DriverNoInput);
  }
}

TEST_CASE("the same diagnostic at the same place is shown once per part") {
  DiagnosticEngine e;
  Collector c;
  e.setConsumer(&c);
  SourceRange at(SourceLoc{0, 3, 5}, SourceLoc{0, 3, 9});
  SourceRange other(SourceLoc{0, 4, 5}, SourceLoc{0, 4, 9});
  e.report(DiagId::DriverNoInput, at);
  e.report(DiagId::DriverNoInput, at);
  e.report(DiagId::DriverNoInput, other);
  CHECK(c.seen.size() == 2);
  CHECK(e.errorCount() == 2);
  e.startPart();
  e.report(DiagId::DriverNoInput, at);
  CHECK(c.seen.size() == 3);
}

TEST_CASE("-fmax-errors stops after N errors with one fatal notice") {
  DiagnosticOptions o;
  o.maxErrors = 2;
  DiagnosticEngine e(o);
  Collector c;
  e.setConsumer(&c);
  for (int i = 0; i < 5; ++i) e.report(DiagId::DriverNoInput, SourceRange());
  REQUIRE(c.seen.size() == 3);
  CHECK(c.seen[2].kind == DiagId::DriverTooManyErrors);
  CHECK(e.fatalOccurred());
  // A part of a split input (--split-input-file) counts its own errors.
  e.startPart();
  CHECK_FALSE(e.fatalOccurred());
  for (int i = 0; i < 3; ++i) e.report(DiagId::DriverNoInput, SourceRange());
  REQUIRE(c.seen.size() == 6);
  CHECK(c.seen[3].kind == DiagId::DriverNoInput);
  CHECK(c.seen[5].kind == DiagId::DriverTooManyErrors);
  CHECK(e.errorCount() == 4);
}

TEST_CASE("text rendering: location, severity, id, source line and range underline") {
  SourceManager sm;
  FileId f = sm.addBuffer("k.cake", "x = 1\ny = foo(1, 2)\n");
  DiagnosticEngine e;
  TextDiagnosticPrinter p(sm, stderr, false);
  Diagnostic d;
  d.kind = DiagId::SyntaxUnexpectedToken;
  d.severity = Severity::Error;
  d.range = SourceRange(SourceLoc{f, 2, 5}, SourceLoc{f, 2, 8});
  d.message = "unexpected thing; expected other";
  Diagnostic n;
  n.kind = DiagId::NoteBracketOpenedHere;
  n.severity = Severity::Note;
  n.range = SourceRange(SourceLoc{f, 1, 1}, SourceLoc{f, 1, 2});
  n.message = "'x' opened here";
  d.notes.push_back(n);
  CHECK(p.render(d) == "k.cake:2:5: error: unexpected thing; expected other [syntax.unexpected-token]\n"
                       "y = foo(1, 2)\n"
                       "    ^~~\n"
                       "k.cake:1:1: note: 'x' opened here\n"
                       "x = 1\n"
                       "^\n");
}

TEST_CASE("the caret counts code points, not bytes") {
  SourceManager sm;
  FileId f = sm.addBuffer("u.cake", "s = \"\xC3\xA9\xC3\xA9\" $\n");
  TextDiagnosticPrinter p(sm, stderr, false);
  Diagnostic d;
  d.kind = DiagId::SyntaxInvalidCharacter;
  d.severity = Severity::Error;
  d.range = SourceRange(SourceLoc{f, 1, 9}, SourceLoc{f, 1, 10});
  d.message = "m";
  std::string out = p.render(d);
  CHECK(out.find("\n        ^\n") != std::string::npos);
}

TEST_CASE("JSON escaping covers quotes, backslashes and control characters") {
  CHECK(jsonEscape("a\"b\\c\n\x01") == "a\\\"b\\\\c\\n\\u0001");
}
