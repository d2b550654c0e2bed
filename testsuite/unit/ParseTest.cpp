// Unit tests for the parsing entry points (lexer_parser/Parse.h).
#include <doctest/doctest.h>

#include "lexer_parser/AstClone.h"
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

TEST_CASE("a cloned body prints as the original and shares no node with it") {
  // Every node kind: sema analyses a copy of a role family's body per member.
  const std::string text = "import a.b as c\nfrom d import e as f\n"
                           "@cake.schedule(grid=(1,))\n"
                           "def k(lm, A: LM.tma2d[M, K], n: LM.i32 = 3) -> int:\n"
                           "    pass\n"
                           "    x, y = (1, [2.5, None]), \"s\"\n"
                           "    with wg as i:\n"
                           "        for j in lm.range(i, n, 2):\n"
                           "            if not j < 2 and -j >= 0:\n"
                           "                v[j].T.f(j, k=a[1:2:3])\n"
                           "            elif True:\n"
                           "                pass\n"
                           "            else:\n"
                           "                z = v[1, 2] ** 2\n";
  SourceManager sm;
  DiagnosticEngine diags;
  FileId file = sm.addBuffer("t.cake", text);
  auto m = parseFile(sm, file, diags);
  REQUIRE(m);
  ast::Module copy;
  copy.file = m->file;
  copy.body = ast::cloneStmts(copy.context, m->body);
  CHECK(printAst(copy, sm) == printAst(*m, sm));
  CHECK(copy.context.size() == m->context.size());
  for (size_t i = 0; i < m->body.size(); ++i) {
    CHECK(copy.body[i] != m->body[i]);
    CHECK(copy.body[i]->range.begin.line == m->body[i]->range.begin.line);
  }
}
