// Parse: drives the generated lexer and parser over one file.
#include "lexer_parser/Parse.h"

#include <antlr4-runtime.h>
#include <fmt/format.h>

#include "CakeLexer.h"
#include "CakeParser.h"
#include "lexer_parser/AstBuilder.h"
#include "lexer_parser/IndentingTokenSource.h"
#include "lexer_parser/SyntaxErrorStrategy.h"

namespace cake {

namespace {

// Everything needed to run the lexer over one file, with ANTLR's own
// console error listener removed (we report through the engine).
struct LexerSetup {
  antlr4::ANTLRInputStream input;
  CakeLexer lexer;
  IndentingTokenSource source;

  LexerSetup(const SourceManager &sm, FileId file, DiagnosticEngine &diags)
      : input(sm.text(file)), lexer(&input), source(lexer, diags, file) {
    input.name = sm.name(file);
    lexer.removeErrorListeners();
  }
};

}  // namespace

std::unique_ptr<ast::Module> parseFile(const SourceManager &sm, FileId file, DiagnosticEngine &diags) {
  LexerSetup lex(sm, file, diags);
  unsigned errorsBefore = diags.errorCount();
  antlr4::CommonTokenStream tokens(&lex.source);
  tokens.fill();
  if (diags.fatalOccurred()) return nullptr;

  CakeParser parser(&tokens);
  parser.removeErrorListeners();
  auto bail = std::make_shared<antlr4::BailErrorStrategy>();
  auto strategy = std::make_shared<SyntaxErrorStrategy>(diags, file, lex.source);
  auto *sim = parser.getInterpreter<antlr4::atn::ParserATNSimulator>();

  auto module = std::make_unique<ast::Module>();
  module->file = file;
  AstBuilder builder(*module, diags);

  // file_input : (NEWLINE | stmt)* EOF, driven here one top-level statement
  // at a time so that each statement's parse tree is freed once its AST is
  // built: memory stays bounded by the largest statement, not the file.
  while (!diags.fatalOccurred()) {
    size_t la = tokens.LA(1);
    if (la == antlr4::Token::EOF) break;
    if (la == CakeLexer::NEWLINE) {
      tokens.consume();
      continue;
    }
    size_t start = tokens.index();
    // Two-stage parse: fast SLL prediction with bail-out first; only if
    // that fails, full LL with error recovery and reporting.
    CakeParser::StmtContext *stmt = nullptr;
    sim->setPredictionMode(antlr4::atn::PredictionMode::SLL);
    parser.setErrorHandler(bail);
    try {
      stmt = parser.stmt();
    } catch (const antlr4::ParseCancellationException &) {
      stmt = nullptr;
    }
    if (!stmt) {
      // A syntax error somewhere from here on. Parse the rest of the file as
      // file_input with full LL and recovery: inside the whole rule, ANTLR
      // resynchronises at the next statement and reports every independent
      // error. No AST is built for a file with syntax errors.
      parser.reset();
      tokens.seek(start);
      sim->setPredictionMode(antlr4::atn::PredictionMode::LL);
      parser.setErrorHandler(strategy);
      parser.file_input();
      break;
    }
    builder.stmt(stmt, module->body);
    parser.getTreeTracker().reset();
  }
  if (diags.errorCount() != errorsBefore || diags.fatalOccurred()) return nullptr;
  return module;
}

void clearParserCaches() {
  antlr4::ANTLRInputStream input(std::string{});
  CakeLexer lexer(&input);
  lexer.getInterpreter<antlr4::atn::LexerATNSimulator>()->clearDFA();
  antlr4::CommonTokenStream tokens(&lexer);
  CakeParser parser(&tokens);
  parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->clearDFA();
}

std::string dumpTokens(const SourceManager &sm, FileId file, DiagnosticEngine &diags) {
  LexerSetup lex(sm, file, diags);
  const antlr4::dfa::Vocabulary &vocab = lex.lexer.getVocabulary();
  std::string out;
  while (true) {
    std::unique_ptr<antlr4::Token> t = lex.source.nextToken();
    size_t type = t->getType();
    std::string name = type == antlr4::Token::EOF ? "EOF" : vocab.getSymbolicName(type);
    std::string text;
    if (type == CakeLexer::NAME || type == CakeLexer::INT || type == CakeLexer::FLOAT || type == CakeLexer::STRING)
      text = " '" + t->getText() + "'";
    else if (type != CakeLexer::NEWLINE && type != CakeLexer::INDENT && type != CakeLexer::DEDENT &&
             type != antlr4::Token::EOF)
      text = " " + vocab.getLiteralName(type);
    out += fmt::format("{}:{} {}{}\n", t->getLine(), t->getCharPositionInLine() + 1, name, text);
    if (type == antlr4::Token::EOF) break;
  }
  return out;
}

}  // namespace cake
