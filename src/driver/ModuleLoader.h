// ModuleLoader: resolves `import a.b` to a file a/b.cake on the module
// search path, parses and analyses it once, and reports missing modules and
// import cycles.
//
// Search path, in order: -I directories, CAKE_PATH (colon-separated), the
// directory of the file being compiled, and the standard library's root
// (the directory holding stdlib/: <prefix>/share/cakec when installed, the
// source tree in a build tree). An empty directory (-I '') adds nothing.
//
// Module names are dotted identifiers, as `import` spells them, whatever
// their source (a cake.instantiate string too); imports nest at most
// kMaxImportDepth deep, and one compilation analyses at most kMaxModules
// modules and instances.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "diagnostics/Diagnostics.h"
#include "lexer_parser/Ast.h"
#include "sema/Sema.h"

namespace cake {

class FileModuleLoader : public sema::ModuleLoader {
public:
  static constexpr size_t kMaxImportDepth = 200;
  static constexpr size_t kMaxModules = 4096;

  FileModuleLoader(std::vector<std::string> searchPath, Target target, SourceManager &sm, DiagnosticEngine &diags)
      : searchPath_(std::move(searchPath)), target_(target), sm_(sm), diags_(diags) {}

  const sema::Module *load(const std::string &dotted, SourceRange importRange) override;
  const sema::Module *instantiate(const std::string &dotted, const std::map<std::string, std::string> &constants,
                                  SourceRange at) override;

  // -I dirs, CAKE_PATH, `fileDir`, and the standard library root.
  static std::vector<std::string> defaultSearchPath(const std::vector<std::string> &includeDirs,
                                                    const std::string &fileDir);

private:
  struct Entry {
    std::unique_ptr<ast::Module> ast;
    std::unique_ptr<sema::Module> ir;
  };
  std::vector<std::string> searchPath_;
  Target target_;
  SourceManager &sm_;
  DiagnosticEngine &diags_;
  const sema::Module *loadWith(const std::string &dotted, const std::map<std::string, std::string> *constants,
                               SourceRange at);
  std::map<std::string, Entry> loaded_;  // by dotted name and constants; null ir: failed
  std::vector<std::string> loading_;     // the import chain being loaded
  bool reportedTooMany_ = false;
};

}  // namespace cake
