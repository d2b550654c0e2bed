// Parse.h - the public face of src/lexer_parser/: text in, AST out.
//
// Nothing here exposes ANTLR; the generated parser stays inside this folder.
#pragma once

#include <memory>
#include <string>

#include "diagnostics/Diagnostics.h"
#include "lexer_parser/Ast.h"

namespace cake {

// Lexes and parses one file already registered with `sm`, reporting syntax
// errors through `diags`. Returns null if the file had syntax errors.
std::unique_ptr<ast::Module> parseFile(const SourceManager &sm, FileId file, DiagnosticEngine &diags);

// ANTLR keeps its prediction DFAs in process-wide caches that grow with
// every new shape of input. One compilation never notices; a process that
// parses millions of inputs (the fuzzers) clears them now and then.
void clearParserCaches();

// `--emit=tokens`: the token stream after indentation processing, one token
// a line as `line:col KIND 'text'`.
std::string dumpTokens(const SourceManager &sm, FileId file, DiagnosticEngine &diags);

// `--emit=ast`: a readable, deterministic tree with source ranges.
std::string printAst(const ast::Module &module, const SourceManager &sm);

}  // namespace cake
