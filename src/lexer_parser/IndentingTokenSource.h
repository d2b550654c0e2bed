// IndentingTokenSource: sits between the generated CakeLexer and the parser.
//
// It turns the lexer's NEWLINE tokens (each carrying the next line's leading
// whitespace) into the NEWLINE / INDENT / DEDENT structure the parser
// expects, drops line breaks inside brackets and on blank or comment-only
// lines, and reports lexical problems (invalid characters, unterminated
// strings, tabs in indentation, bracket mismatches) through the diagnostics
// engine. It also bounds nesting and statement length so that hostile input
// cannot exhaust the parser's stack.
//
// Internal to src/lexer_parser/: it exposes ANTLR types.
#pragma once

#include <antlr4-runtime.h>

#include <deque>
#include <memory>
#include <set>
#include <vector>

#include "diagnostics/Diagnostics.h"
#include "lexer_parser/IndentTracker.h"

namespace cake {

class IndentingTokenSource : public antlr4::TokenSource {
public:
  // Limits that keep the recursive-descent parser and the AST walkers well
  // inside the default stack, however hostile the input.
  static constexpr unsigned kMaxNesting = 100;
  static constexpr unsigned kMaxStatementTokens = 10000;

  IndentingTokenSource(antlr4::Lexer &lexer, DiagnosticEngine &diags, FileId file);

  std::unique_ptr<antlr4::Token> nextToken() override;
  size_t getLine() const override { return lexer_.getLine(); }
  size_t getCharPositionInLine() override { return lexer_.getCharPositionInLine(); }
  antlr4::CharStream *getInputStream() override { return lexer_.getInputStream(); }
  std::string getSourceName() override { return lexer_.getSourceName(); }
  antlr4::TokenFactory<antlr4::CommonToken> *getTokenFactory() override { return lexer_.getTokenFactory(); }

  // True once an unclosed bracket was reported at end of file; the parser's
  // own complaint about the truncated statement is then redundant.
  bool reportedUnclosedBracket() const { return unclosedAtEof_; }
  // True for a NEWLINE at which an unclosed bracket was reported and closed
  // (a statement keyword started the next line); the parser's complaint
  // there repeats what was said.
  bool isRecoveryNewline(const antlr4::Token *t) const {
    return recoveryNewlines_.count({t->getLine(), t->getCharPositionInLine()}) != 0;
  }

  // Lines on which a lexical error was reported: the parser's complaints
  // there are consequences, not news.
  bool hadLexicalError(size_t line) const { return lexErrorLines_.count(line) != 0; }

  // Location helpers shared with the parser's error strategy.
  static SourceLoc tokenBegin(FileId file, const antlr4::Token *t);
  static SourceLoc tokenEnd(FileId file, const antlr4::Token *t);
  static SourceRange tokenRange(FileId file, const antlr4::Token *t);

private:
  struct Bracket {
    size_t type;
    SourceRange range;
    std::string text;
  };

  std::unique_ptr<antlr4::Token> rawNext();
  std::unique_ptr<antlr4::Token> synthetic(size_t type, size_t line, size_t col, const std::string &text);
  void handleNewline(std::unique_ptr<antlr4::Token> nl);
  void handleEof(std::unique_ptr<antlr4::Token> eof);
  void applyIndent(uint32_t width, bool sawTab, size_t line, size_t col);
  // Returns false if the token must be dropped.
  bool checkToken(std::unique_ptr<antlr4::Token> &tok);
  void fatal(DiagIdWithArgs<1> id, const antlr4::Token *at, unsigned limit);
  void emit(std::unique_ptr<antlr4::Token> tok);

  antlr4::Lexer &lexer_;
  DiagnosticEngine &diags_;
  FileId file_;
  IndentTracker indents_;
  std::vector<Bracket> brackets_;
  std::deque<std::unique_ptr<antlr4::Token>> pending_;
  std::unique_ptr<antlr4::Token> lookahead_;
  bool started_ = false;         // a token of the file was seen
  bool lineHasContent_ = false;  // tokens since the last emitted NEWLINE
  bool stopped_ = false;         // a fatal limit was hit: only EOF from now on
  bool eofSent_ = false;
  bool unclosedAtEof_ = false;
  std::set<std::pair<size_t, size_t>> recoveryNewlines_;
  std::set<size_t> lexErrorLines_;
  unsigned statementTokens_ = 0;
  unsigned unaryRun_ = 0;
  unsigned powerCount_ = 0;
};

}  // namespace cake
