// Unit tests for the parsing entry points (lexer_parser/Parse.h).
#include <doctest/doctest.h>

#include "lexer_parser/Parse.h"

using namespace cake;

namespace {
std::string parseAndPrint(const std::string &text, unsigned &errors) {
  SourceManager sm;
  DiagnosticEngine diags;
  FileId f = sm.addBuffer("t.cake", text);
  auto m = parseFile(sm, f, diags);
  errors = diags.errorCount();
  return m ? printAst(*m, sm) : "";
}
}  // namespace

TEST_CASE("parsing is unaffected by clearing ANTLR's prediction caches") {
  const std::string text =
      "x = (1 + 2) * 3\ndef f(lm):\n    with r:\n        for i in lm.range(0, 4):\n            g(i, k=2)\n";
  unsigned errors = 0;
  std::string before = parseAndPrint(text, errors);
  CHECK(errors == 0);
  CHECK(before.find("FunctionDef 'f'") != std::string::npos);
  clearParserCaches();
  std::string after = parseAndPrint(text, errors);
  CHECK(errors == 0);
  CHECK(before == after);
}

TEST_CASE("a file with a syntax error yields no module and at least one error") {
  unsigned errors = 0;
  CHECK(parseAndPrint("x = (1 +\ny = 2\n", errors).empty());
  CHECK(errors >= 1);
}
