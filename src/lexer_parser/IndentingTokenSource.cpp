// IndentingTokenSource: see IndentingTokenSource.h.
#include "lexer_parser/IndentingTokenSource.h"

#include <fmt/format.h>

#include "CakeLexer.h"
#include "diagnostics/SourceManager.h"

namespace cake {

using antlr4::Token;

SourceLoc IndentingTokenSource::tokenBegin(FileId file, const Token *t) {
  return SourceLoc{file, static_cast<uint32_t>(t->getLine()), static_cast<uint32_t>(t->getCharPositionInLine() + 1)};
}

SourceLoc IndentingTokenSource::tokenEnd(FileId file, const Token *t) {
  SourceLoc b = tokenBegin(file, t);
  if (t->getType() == Token::EOF || t->getType() == CakeLexer::NEWLINE || t->getType() == CakeLexer::INDENT ||
      t->getType() == CakeLexer::DEDENT)
    return SourceLoc{file, b.line, b.col + 1};
  return SourceLoc{file, b.line, b.col + static_cast<uint32_t>(codePointCount(t->getText()))};
}

SourceRange IndentingTokenSource::tokenRange(FileId file, const Token *t) {
  return SourceRange(tokenBegin(file, t), tokenEnd(file, t));
}

IndentingTokenSource::IndentingTokenSource(antlr4::Lexer &lexer, DiagnosticEngine &diags, FileId file)
    : lexer_(lexer), diags_(diags), file_(file) {}

std::unique_ptr<Token> IndentingTokenSource::rawNext() {
  if (lookahead_) return std::move(lookahead_);
  return lexer_.nextToken();
}

std::unique_ptr<Token> IndentingTokenSource::synthetic(size_t type, size_t line, size_t col, const std::string &text) {
  // ANTLR's recovery builds conjured tokens from a token's source pair, so a
  // synthetic token must carry one too.
  auto t = std::make_unique<antlr4::CommonToken>(
      std::pair<antlr4::TokenSource *, antlr4::CharStream *>(this, lexer_.getInputStream()), type,
      antlr4::Token::DEFAULT_CHANNEL, INVALID_INDEX, INVALID_INDEX);
  t->setText(text);
  t->setLine(line);
  t->setCharPositionInLine(col);
  return t;
}

void IndentingTokenSource::emit(std::unique_ptr<Token> tok) {
  size_t type = tok->getType();
  if (type == CakeLexer::NEWLINE) {
    lineHasContent_ = false;
    statementTokens_ = 0;
    powerCount_ = 0;
    unaryRun_ = 0;
  } else if (type != CakeLexer::INDENT && type != CakeLexer::DEDENT && type != Token::EOF) {
    lineHasContent_ = true;
  }
  pending_.push_back(std::move(tok));
}

void IndentingTokenSource::fatal(DiagIdWithArgs<1> id, const Token *at, unsigned limit) {
  diags_.report(id, tokenRange(file_, at), limit);
  stopped_ = true;
}

void IndentingTokenSource::applyIndent(uint32_t width, bool sawTab, size_t line, size_t col) {
  if (sawTab)
    diags_.report(DiagId::SyntaxTabInIndentation,
                  SourceRange(SourceLoc{file_, static_cast<uint32_t>(line), 1},
                              SourceLoc{file_, static_cast<uint32_t>(line), static_cast<uint32_t>(col + 1)}));
  IndentTracker::Change c = indents_.newLine(width);
  if (c.indents) {
    if (indents_.depth() > kMaxNesting) {
      diags_.report(DiagId::SyntaxNestingTooDeep, SourceRange(SourceLoc{file_, static_cast<uint32_t>(line), 1}),
                    kMaxNesting);
      stopped_ = true;
      return;
    }
    emit(synthetic(CakeLexer::INDENT, line, col, "<INDENT>"));
  }
  for (unsigned i = 0; i < c.dedents; ++i) emit(synthetic(CakeLexer::DEDENT, line, col, "<DEDENT>"));
  if (c.inconsistent)
    diags_.report(DiagId::SyntaxInconsistentDedent,
                  SourceRange(SourceLoc{file_, static_cast<uint32_t>(line), static_cast<uint32_t>(col + 1)}), col + 1);
}

void IndentingTokenSource::handleNewline(std::unique_ptr<Token> nl) {
  // Skip blank and comment-only lines: the NEWLINE emitted is the one that
  // ends the statement, but the indentation that counts is the one carried
  // by the last line break before the next real token.
  std::unique_ptr<Token> last;
  std::unique_ptr<Token> next = rawNext();
  while (next->getType() == CakeLexer::NEWLINE) {
    last = std::move(next);
    next = rawNext();
  }
  if (next->getType() == Token::EOF) {
    lookahead_ = std::move(next);
    if (lineHasContent_) emit(std::move(nl));
    return;
  }
  const std::string text = last ? last->getText() : nl->getText();
  size_t cut = text.find_last_of("\r\n");
  std::string indent = cut == std::string::npos ? text : text.substr(cut + 1);
  if (lineHasContent_) emit(std::move(nl));
  bool sawTab = false;
  uint32_t width = IndentTracker::measure(indent, sawTab);
  applyIndent(width, sawTab, next->getLine(), next->getCharPositionInLine());
  lookahead_ = std::move(next);
}

void IndentingTokenSource::handleEof(std::unique_ptr<Token> eof) {
  if (!brackets_.empty() && !stopped_) {
    const Bracket &open = brackets_.front();
    // An unterminated string on the opener's line swallowed the closer; that
    // error was reported already.
    if (!lexErrorLines_.count(open.range.begin.line))
      diags_.report(DiagId::SyntaxUnclosedBracket, open.range, open.text);
    unclosedAtEof_ = true;
  }
  if (lineHasContent_) emit(synthetic(CakeLexer::NEWLINE, eof->getLine(), eof->getCharPositionInLine(), "<NEWLINE>"));
  if (!stopped_) {
    unsigned n = indents_.closeAll();
    for (unsigned i = 0; i < n; ++i)
      emit(synthetic(CakeLexer::DEDENT, eof->getLine(), eof->getCharPositionInLine(), "<DEDENT>"));
  }
  emit(std::move(eof));
  eofSent_ = true;
}

bool IndentingTokenSource::checkToken(std::unique_ptr<Token> &tok) {
  size_t type = tok->getType();
  if (++statementTokens_ > kMaxStatementTokens) {
    fatal(DiagId::SyntaxStatementTooLong, tok.get(), kMaxStatementTokens);
    return false;
  }
  switch (type) {
  case CakeLexer::LPAREN:
  case CakeLexer::LBRACK:
  case CakeLexer::LBRACE:
    brackets_.push_back({type, tokenRange(file_, tok.get()), tok->getText()});
    if (brackets_.size() > kMaxNesting) {
      fatal(DiagId::SyntaxNestingTooDeep, tok.get(), kMaxNesting);
      return false;
    }
    break;
  case CakeLexer::RPAREN:
  case CakeLexer::RBRACK:
  case CakeLexer::RBRACE: {
    if (brackets_.empty()) {
      diags_.report(DiagId::SyntaxUnmatchedBracket, tokenRange(file_, tok.get()), tok->getText());
      return false;
    }
    Bracket open = brackets_.back();
    brackets_.pop_back();
    size_t want = open.type == CakeLexer::LPAREN   ? CakeLexer::RPAREN
                  : open.type == CakeLexer::LBRACK ? CakeLexer::RBRACK
                                                   : CakeLexer::RBRACE;
    if (type != want) {
      diags_.build(DiagId::SyntaxMismatchedBracket, tokenRange(file_, tok.get()), tok->getText(), open.text)
          .note(DiagId::NoteBracketOpenedHere, open.range, open.text)
          .emit();
      // Hand the parser the closer it needs so the error does not cascade.
      auto fixed = std::make_unique<antlr4::CommonToken>(tok.get());
      fixed->setType(want);
      tok = std::move(fixed);
    }
    break;
  }
  case CakeLexer::PLUS:
  case CakeLexer::MINUS:
  case CakeLexer::NOT:
    if (++unaryRun_ > kMaxNesting) {
      fatal(DiagId::SyntaxNestingTooDeep, tok.get(), kMaxNesting);
      return false;
    }
    return true;
  case CakeLexer::POWER:
    if (++powerCount_ > kMaxNesting) {
      fatal(DiagId::SyntaxNestingTooDeep, tok.get(), kMaxNesting);
      return false;
    }
    break;
  case CakeLexer::ERROR_CHAR: {
    std::string text = tok->getText();
    char32_t cp = 0;
    std::u32string u = antlrcpp::utf8_to_utf32(text.data(), text.data() + text.size());
    if (!u.empty()) cp = u[0];
    std::string shown = (cp >= 0x21 && cp < 0x7f) ? fmt::format("'{}' (U+{:04X})", text, static_cast<uint32_t>(cp))
                        : (cp > 0x7f)             ? fmt::format("'{}' (U+{:04X})", text, static_cast<uint32_t>(cp))
                                                  : fmt::format("U+{:04X}", static_cast<uint32_t>(cp));
    diags_.report(DiagId::SyntaxInvalidCharacter, tokenRange(file_, tok.get()), shown);
    lexErrorLines_.insert(tok->getLine());
    return false;
  }
  case CakeLexer::UNTERMINATED_STRING: {
    diags_.report(DiagId::SyntaxUnterminatedString, tokenRange(file_, tok.get()));
    lexErrorLines_.insert(tok->getLine());
    auto fixed = std::make_unique<antlr4::CommonToken>(tok.get());
    fixed->setType(CakeLexer::STRING);
    fixed->setText(tok->getText() + tok->getText().substr(0, 1));
    tok = std::move(fixed);
    break;
  }
  default: break;
  }
  unaryRun_ = 0;
  return true;
}

std::unique_ptr<Token> IndentingTokenSource::nextToken() {
  while (pending_.empty()) {
    if (eofSent_) {
      // The parser may ask again after EOF; keep answering EOF.
      return synthetic(Token::EOF, lexer_.getLine(), lexer_.getCharPositionInLine(), "<EOF>");
    }
    std::unique_ptr<Token> tok = rawNext();
    if (stopped_) {
      while (tok->getType() != Token::EOF) tok = rawNext();
      handleEof(std::move(tok));
      break;
    }
    size_t type = tok->getType();
    if (type == Token::EOF) {
      handleEof(std::move(tok));
      break;
    }
    if (type == CakeLexer::NEWLINE && !brackets_.empty()) {
      // Implicit line joining, unless the next line starts with a keyword
      // that can only begin a statement: then a bracket was left open.
      std::unique_ptr<Token> next = rawNext();
      size_t nt = next->getType();
      bool statementStart = nt == CakeLexer::DEF || nt == CakeLexer::WITH || nt == CakeLexer::FOR ||
                            nt == CakeLexer::IF || nt == CakeLexer::ELIF || nt == CakeLexer::ELSE ||
                            nt == CakeLexer::IMPORT || nt == CakeLexer::FROM || nt == CakeLexer::PASS ||
                            nt == CakeLexer::AT;
      lookahead_ = std::move(next);
      if (!statementStart) continue;
      diags_.report(DiagId::SyntaxUnclosedBracket, brackets_.front().range, brackets_.front().text);
      brackets_.clear();
      recoveryNewlines_.insert({tok->getLine(), tok->getCharPositionInLine()});
    }
    if (type == CakeLexer::NEWLINE) {
      if (!started_) {
        // Leading blank lines: the first real line's indentation is checked
        // like any other.
        started_ = true;
        handleNewline(std::move(tok));
        continue;
      }
      handleNewline(std::move(tok));
      continue;
    }
    if (!started_) {
      started_ = true;
      if (tok->getCharPositionInLine() > 0) {
        // The first line of the file is indented.
        applyIndent(static_cast<uint32_t>(tok->getCharPositionInLine()), false, tok->getLine(),
                    tok->getCharPositionInLine());
      }
    }
    if (!checkToken(tok)) continue;
    emit(std::move(tok));
  }
  std::unique_ptr<Token> t = std::move(pending_.front());
  pending_.pop_front();
  return t;
}

}  // namespace cake
