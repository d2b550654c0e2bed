// Unit tests for the diagnostics engine: the table, severity mapping,
// -fmax-errors, and the text and JSON renderings.
#include <doctest/doctest.h>

#include <set>

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
    if (d.severity == Severity::Warning)
      CHECK_FALSE(d.flag.empty());
    else
      CHECK(d.flag.empty());
  }
}

TEST_CASE("messages are formatted from the table with positional arguments") {
  CHECK(DiagnosticEngine::formatMessage(DiagId::SyntaxUnexpectedToken, {"')'", "an expression"}) ==
        "unexpected ')'; expected an expression");
  CHECK(DiagnosticEngine::formatMessage(DiagId::VerifyNotSeen, {"error on line 3", "oops"}) ==
        "expected error on line 3 not seen: {{oops}}");
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
