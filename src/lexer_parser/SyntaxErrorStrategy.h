// SyntaxErrorStrategy: ANTLR's default recovery, with every report reworded
// for people and routed through our diagnostics engine.
//
// Users never see token names, '\n', "no viable alternative" or "extraneous
// input": a token is described as they wrote it ("')'", "end of line",
// "keyword 'def'") and expected sets are summarised ("an expression").
#pragma once

#include <antlr4-runtime.h>

#include <set>

#include "diagnostics/Diagnostics.h"

namespace cake {

class IndentingTokenSource;

class SyntaxErrorStrategy : public antlr4::DefaultErrorStrategy {
public:
  SyntaxErrorStrategy(DiagnosticEngine &diags, FileId file, const IndentingTokenSource &source)
      : diags_(diags), file_(file), source_(source) {}

  // How a token reads in "unexpected ..." and in "expected ...".
  static std::string describeFound(const antlr4::Token *t);
  static std::string describeExpected(size_t type);
  // "an expression", "':' or ','", ...
  static std::string describeExpectedSet(const antlr4::misc::IntervalSet &set);

protected:
  void reportNoViableAlternative(antlr4::Parser *p, const antlr4::NoViableAltException &e) override;
  void reportInputMismatch(antlr4::Parser *p, const antlr4::InputMismatchException &e) override;
  void reportFailedPredicate(antlr4::Parser *p, const antlr4::FailedPredicateException &e) override;
  void reportUnwantedToken(antlr4::Parser *p) override;
  void reportMissingToken(antlr4::Parser *p) override;

private:
  void unexpected(const antlr4::Token *t, const antlr4::misc::IntervalSet &expected);
  // True if reporting at `t` would repeat an earlier error; records the
  // line of every error it lets through.
  bool suppressed(const antlr4::Token *t, const antlr4::misc::IntervalSet &expected);

  DiagnosticEngine &diags_;
  FileId file_;
  const IndentingTokenSource &source_;
  // INDENTs reported as unexpected; their matching DEDENTs are not news.
  unsigned strayIndents_ = 0;
  // Indented blocks reported missing; the parser then also misses their end.
  unsigned missingBlocks_ = 0;
  // Lines with a syntax error already: one error a line is enough.
  std::set<size_t> errorLines_;
  // The line of the last error, when it was at an end of line.
  size_t lastErrorAtEol_ = 0;
};

}  // namespace cake
