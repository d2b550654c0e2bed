// SyntaxErrorStrategy: see SyntaxErrorStrategy.h.
#include "lexer_parser/SyntaxErrorStrategy.h"

#include <algorithm>

#include "CakeLexer.h"
#include "CakeParser.h"
#include "lexer_parser/IndentingTokenSource.h"

namespace cake {

using antlr4::Token;

namespace {

bool isKeyword(size_t type) { return type >= CakeLexer::DEF && type <= CakeLexer::NONE; }

// The literal spelling of a fixed token, e.g. "'def'" or "'('".
std::string literal(size_t type) {
  static antlr4::ANTLRInputStream empty(std::string{});
  static CakeLexer lexer(&empty);
  return lexer.getVocabulary().getLiteralName(type);
}

const std::vector<size_t> &expressionStarts() {
  static const std::vector<size_t> v = {CakeLexer::NAME,   CakeLexer::INT,    CakeLexer::FLOAT, CakeLexer::STRING,
                                        CakeLexer::LPAREN, CakeLexer::LBRACK, CakeLexer::TRUE,  CakeLexer::FALSE,
                                        CakeLexer::NONE,   CakeLexer::PLUS,   CakeLexer::MINUS, CakeLexer::NOT};
  return v;
}
const std::vector<size_t> &statementStarts() {
  static const std::vector<size_t> v = {CakeLexer::DEF,    CakeLexer::WITH, CakeLexer::FOR,  CakeLexer::IF,
                                        CakeLexer::IMPORT, CakeLexer::FROM, CakeLexer::PASS, CakeLexer::AT};
  return v;
}

}  // namespace

std::string SyntaxErrorStrategy::describeFound(const Token *t) {
  size_t type = t->getType();
  switch (type) {
  case Token::EOF: return "end of file";
  case CakeLexer::NEWLINE: return "end of line";
  case CakeLexer::INDENT: return "indentation";
  case CakeLexer::DEDENT: return "end of indented block";
  case CakeLexer::NAME: return "name '" + t->getText() + "'";
  case CakeLexer::INT:
  case CakeLexer::FLOAT: return "number '" + t->getText() + "'";
  case CakeLexer::STRING: return "string literal";
  default: break;
  }
  if (isKeyword(type)) return "keyword " + literal(type);
  std::string lit = literal(type);
  return lit.empty() ? "'" + t->getText() + "'" : lit;
}

std::string SyntaxErrorStrategy::describeExpected(size_t type) {
  switch (type) {
  case Token::EOF: return "end of file";
  case CakeLexer::NEWLINE: return "end of line";
  case CakeLexer::INDENT: return "an indented block";
  case CakeLexer::DEDENT: return "end of indented block";
  case CakeLexer::NAME: return "a name";
  case CakeLexer::INT:
  case CakeLexer::FLOAT: return "a number";
  case CakeLexer::STRING: return "a string";
  default: return literal(type);
  }
}

std::string SyntaxErrorStrategy::describeExpectedSet(const antlr4::misc::IntervalSet &set) {
  std::vector<size_t> types;
  for (ssize_t t : set.toList()) types.push_back(t == -1 ? Token::EOF : static_cast<size_t>(t));
  auto countIn = [&](const std::vector<size_t> &group) {
    return std::count_if(group.begin(), group.end(),
                         [&](size_t g) { return std::find(types.begin(), types.end(), g) != types.end(); });
  };
  auto removeAll = [&](const std::vector<size_t> &group) {
    types.erase(std::remove_if(types.begin(), types.end(),
                               [&](size_t t) { return std::find(group.begin(), group.end(), t) != group.end(); }),
                types.end());
  };
  std::vector<std::string> words;
  bool stmt = countIn(statementStarts()) >= 4;
  bool expr = countIn(expressionStarts()) >= 4;
  if (stmt) {
    removeAll(statementStarts());
    removeAll(expressionStarts());
    words.push_back("a statement");
  } else if (expr) {
    removeAll(expressionStarts());
    words.push_back("an expression");
  }
  // Operators that could continue an expression are noise in "expected ...".
  static const std::vector<size_t> continuations = {
      CakeLexer::PLUS,  CakeLexer::MINUS, CakeLexer::STAR, CakeLexer::SLASH, CakeLexer::FLOORDIV, CakeLexer::PERCENT,
      CakeLexer::POWER, CakeLexer::LT,    CakeLexer::GT,   CakeLexer::LE,    CakeLexer::GE,       CakeLexer::EQ,
      CakeLexer::NE,    CakeLexer::AND,   CakeLexer::OR,   CakeLexer::DOT,   CakeLexer::LBRACK,   CakeLexer::LPAREN};
  if (types.size() > 4) removeAll(continuations);
  // Where a statement or an expression would do, "end of file" and "end of
  // indented block" are implied and only clutter the message.
  if (!words.empty()) removeAll({static_cast<size_t>(Token::EOF), static_cast<size_t>(CakeLexer::DEDENT)});
  for (size_t t : types) words.push_back(describeExpected(t));
  if (words.empty()) return "something else";
  if (words.size() > 5) words.resize(5);
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i) out += (i + 1 == words.size()) ? " or " : ", ";
    out += words[i];
  }
  return out;
}

bool SyntaxErrorStrategy::suppressed(const Token *t, const antlr4::misc::IntervalSet &expected) {
  size_t type = t->getType();
  size_t line = t->getLine();
  // After a fatal lexical limit nothing the parser says is useful.
  if (diags_.fatalOccurred()) return true;
  // The lexer already reported an unclosed bracket here.
  if (type == CakeLexer::NEWLINE && source_.isRecoveryNewline(t)) return true;
  if (source_.reportedUnclosedBracket() &&
      (type == Token::EOF || type == CakeLexer::NEWLINE || type == CakeLexer::DEDENT))
    return true;
  // A block reported missing is also missing its end.
  if (missingBlocks_ > 0 && (type == Token::EOF || expected.contains(static_cast<size_t>(CakeLexer::DEDENT)))) {
    --missingBlocks_;
    return true;
  }
  // The DEDENT matching an INDENT already reported as unexpected.
  if (type == CakeLexer::DEDENT && strayIndents_ > 0) {
    --strayIndents_;
    return true;
  }
  // An indented line right after a header that lost its ':'.
  if (type == CakeLexer::INDENT && lastErrorAtEol_ != 0 && line == lastErrorAtEol_ + 1) {
    ++strayIndents_;
    lastErrorAtEol_ = 0;
    return true;
  }
  // One error a line: later ones on it are almost always consequences.
  if (source_.hadLexicalError(line) || errorLines_.count(line)) return true;
  errorLines_.insert(line);
  lastErrorAtEol_ = type == CakeLexer::NEWLINE ? line : 0;
  return false;
}

void SyntaxErrorStrategy::unexpected(const Token *t, const antlr4::misc::IntervalSet &expected) {
  if (suppressed(t, expected)) return;
  SourceRange r = IndentingTokenSource::tokenRange(file_, t);
  if (t->getType() == CakeLexer::INDENT) {
    ++strayIndents_;
    diags_.report(DiagId::SyntaxUnexpectedIndent, r);
    return;
  }
  if (expected.contains(static_cast<size_t>(CakeLexer::INDENT)) && expected.size() == 1) {
    ++missingBlocks_;
    diags_.report(DiagId::SyntaxExpectedIndentedBlock, r);
    return;
  }
  diags_.report(DiagId::SyntaxUnexpectedToken, r, describeFound(t), describeExpectedSet(expected));
}

void SyntaxErrorStrategy::reportNoViableAlternative(antlr4::Parser *p, const antlr4::NoViableAltException &e) {
  unexpected(e.getOffendingToken(), e.getExpectedTokens().size() ? e.getExpectedTokens() : p->getExpectedTokens());
}

void SyntaxErrorStrategy::reportInputMismatch(antlr4::Parser *p, const antlr4::InputMismatchException &e) {
  (void)p;
  unexpected(e.getOffendingToken(), e.getExpectedTokens());
}

void SyntaxErrorStrategy::reportFailedPredicate(antlr4::Parser *p, const antlr4::FailedPredicateException &e) {
  // The grammar has no semantic predicates; treat it like a mismatch.
  unexpected(e.getOffendingToken(), p->getExpectedTokens());
}

void SyntaxErrorStrategy::reportUnwantedToken(antlr4::Parser *p) {
  if (inErrorRecoveryMode(p)) return;
  beginErrorCondition(p);
  unexpected(p->getCurrentToken(), getExpectedTokens(p));
}

void SyntaxErrorStrategy::reportMissingToken(antlr4::Parser *p) {
  if (inErrorRecoveryMode(p)) return;
  beginErrorCondition(p);
  Token *t = p->getCurrentToken();
  antlr4::misc::IntervalSet expecting = getExpectedTokens(p);
  if (suppressed(t, expecting)) return;
  SourceRange r = IndentingTokenSource::tokenRange(file_, t);
  if (expecting.contains(static_cast<size_t>(CakeLexer::INDENT)) && expecting.size() == 1) {
    ++missingBlocks_;
    diags_.report(DiagId::SyntaxExpectedIndentedBlock, r);
    return;
  }
  diags_.report(DiagId::SyntaxMissingToken, r, describeExpectedSet(expecting), describeFound(t));
}

}  // namespace cake
