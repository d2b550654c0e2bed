// Sema: semantic analysis. Resolves names, evaluates compile-time
// constants, type-checks every call against the vocabulary (OpTable), and
// turns declarations into Resource records with derived facts.
//
// Runs after: parsing (lexer_parser/Parse.h).
// Produces:   sema::Module (SemaIR.h), read by the check passes and codegen.
// Reports:    the sema.* and const.* diagnostics; keeps going after errors
//             (an erroneous value is ValueKind::Error and silences follow-ons).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "diagnostics/Diagnostics.h"
#include "lexer_parser/Ast.h"
#include "sema/SemaIR.h"

namespace cake::sema {

// Finds, parses and analyses imported modules (the driver implements it:
// search path, caching, cycle detection).
class ModuleLoader {
public:
  virtual ~ModuleLoader() = default;
  // The analysed module `dotted` ("stdlib.hopper"), or null after reporting
  // why at `importRange`.
  virtual const Module *load(const std::string &dotted, SourceRange importRange) = 0;
  // The module analysed with some of its module-level constants replaced
  // (cake.instantiate), as -D replaces them; one analysis per distinct set.
  virtual const Module *instantiate(const std::string &dotted, const std::map<std::string, std::string> &constants,
                                    SourceRange at) = 0;
};

// Analyses one parsed file for `target`. Returns the module even when there
// were errors (the caller checks the engine); null only on a fatal error.
// Without a loader, imports are reported as not found. `imported` marks a
// module analysed for an importer (no "no schedule" warning).
// `defines` (-D NAME=VALUE) replace the values of the file's module-level
// constants of those names.
std::unique_ptr<Module> analyze(const ast::Module &ast, Target target, const SourceManager &sm, DiagnosticEngine &diags,
                                ModuleLoader *loader = nullptr, bool imported = false,
                                const std::map<std::string, std::string> *defines = nullptr);

// The value a -D option gives a constant: an integer, True, False or a
// number; nullopt if it is none of them.
std::optional<Value> parseDefineValue(const std::string &text);

}  // namespace cake::sema
