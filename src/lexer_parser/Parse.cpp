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

  // Two-stage parse: the fast SLL mode with bail-out first, and only if that
  // fails, full LL with error recovery and reporting.
  parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(antlr4::atn::PredictionMode::SLL);
  parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
  CakeParser::File_inputContext *tree = nullptr;
  try {
    tree = parser.file_input();
  } catch (const antlr4::ParseCancellationException &) {
    tree = nullptr;
  }
  if (!tree) {
    tokens.seek(0);
    parser.reset();
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(antlr4::atn::PredictionMode::LL);
    auto strategy = std::make_shared<SyntaxErrorStrategy>(diags, file, lex.source);
    parser.setErrorHandler(strategy);
    tree = parser.file_input();
  }
  if (diags.errorCount() != errorsBefore || diags.fatalOccurred()) return nullptr;

  auto module = std::make_unique<ast::Module>();
  module->file = file;
  AstBuilder builder(*module, diags);
  builder.buildFile(tree);
  if (diags.errorCount() != errorsBefore) return nullptr;
  return module;
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
    if (type == CakeLexer::NAME || type == CakeLexer::INT || type == CakeLexer::FLOAT ||
        type == CakeLexer::STRING)
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
