// ModuleLoader: see ModuleLoader.h.
#include "driver/ModuleLoader.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>

#include "driver/InputFile.h"
#include "lexer_parser/Parse.h"

#ifndef CAKEC_SOURCE_ROOT
#define CAKEC_SOURCE_ROOT ""
#endif

namespace cake {

namespace {
bool isFile(const std::string &p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}
bool isDir(const std::string &p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
// The standard library root: <exe>/../share/cakec when installed, else the
// source tree the compiler was built from.
std::string stdlibRoot() {
  char buf[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n > 0) {
    std::string exe(buf, static_cast<size_t>(n));
    std::string prefix = exe.substr(0, exe.find_last_of('/'));
    std::string installed = prefix + "/../share/cakec";
    if (isDir(installed + "/stdlib")) return installed;
  }
  return CAKEC_SOURCE_ROOT;
}
}  // namespace

// A module name as `import` takes it: identifiers ([A-Za-z_][A-Za-z_0-9]*)
// joined by single dots. Anything else (a '/', "..", a NUL, a newline, an
// empty part) would name some other file than a module, so it is refused
// wherever the name came from (an import or a cake.instantiate string).
static bool isDottedName(const std::string &s) {
  bool atStart = true;
  for (char c : s) {
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    bool digit = c >= '0' && c <= '9';
    if (c == '.') {
      if (atStart) return false;
      atStart = true;
    } else if (letter || (digit && !atStart)) {
      atStart = false;
    } else {
      return false;
    }
  }
  return !atStart;
}

std::vector<std::string> FileModuleLoader::defaultSearchPath(const std::vector<std::string> &includeDirs,
                                                             const std::string &fileDir) {
  // An empty -I adds nothing, as in gcc (it would otherwise make module
  // paths absolute: '' + "/" + name).
  std::vector<std::string> path;
  for (const std::string &dir : includeDirs)
    if (!dir.empty()) path.push_back(dir);
  if (const char *env = std::getenv("CAKE_PATH")) {
    std::string s = env;
    size_t start = 0;
    while (start <= s.size()) {
      size_t colon = s.find(':', start);
      std::string dir = s.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
      if (!dir.empty()) path.push_back(dir);
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
  }
  path.push_back(fileDir.empty() ? "." : fileDir);
  std::string root = stdlibRoot();
  if (!root.empty()) path.push_back(root);
  return path;
}

const sema::Module *FileModuleLoader::load(const std::string &dotted, SourceRange at) {
  return loadWith(dotted, nullptr, at);
}

const sema::Module *FileModuleLoader::instantiate(const std::string &dotted,
                                                  const std::map<std::string, std::string> &constants, SourceRange at) {
  return loadWith(dotted, &constants, at);
}

const sema::Module *FileModuleLoader::loadWith(const std::string &dotted,
                                               const std::map<std::string, std::string> *constants, SourceRange at) {
  if (!isDottedName(dotted)) {
    diags_.report(DiagId::SemaBadModuleName, at, dotted);
    return nullptr;
  }
  // An instance is its own module: "gemm_bf16_sm90a(BN=128)".
  std::string key = dotted;
  if (constants && !constants->empty()) {
    std::string args;
    for (const auto &[name, value] : *constants) args += (args.empty() ? "" : ", ") + name + "=" + value;
    key += "(" + args + ")";
  }
  if (std::find(loading_.begin(), loading_.end(), dotted) != loading_.end()) {
    std::string chain;
    auto from = std::find(loading_.begin(), loading_.end(), dotted);
    for (auto it = from; it != loading_.end(); ++it) chain += "'" + *it + "' imports ";
    chain += "'" + dotted + "'";
    diags_.report(DiagId::SemaImportCycle, at, chain);
    return nullptr;
  }
  if (auto it = loaded_.find(key); it != loaded_.end()) return it->second.ir.get();
  // Limits, as gcc limits #include nesting: a chain of imports deeper than
  // kMaxImportDepth would exhaust the stack (each level is a nested
  // analysis), and instantiations can fan out exponentially (each instance
  // instantiating two more with distinct constants).
  if (loading_.size() >= kMaxImportDepth) {
    diags_.report(DiagId::SemaImportTooDeep, at, dotted, loading_.size() + 1, kMaxImportDepth);
    return nullptr;
  }
  if (loaded_.size() >= kMaxModules) {
    if (!reportedTooMany_) diags_.report(DiagId::SemaTooManyModules, at, key, kMaxModules);
    reportedTooMany_ = true;
    return nullptr;
  }

  std::string rel = dotted;
  std::replace(rel.begin(), rel.end(), '.', '/');
  rel += ".cake";
  std::string found;
  for (const std::string &dir : searchPath_)
    if (isFile(dir + "/" + rel)) {
      found = dir + "/" + rel;
      break;
    }
  Entry &entry = loaded_[key];
  if (found.empty()) {
    std::string dirs;
    for (const std::string &d : searchPath_) dirs += (dirs.empty() ? "" : ", ") + ("'" + d + "'");
    diags_.report(DiagId::SemaModuleNotFound, at, dotted, dirs.empty() ? "nothing" : dirs);
    return nullptr;
  }
  unsigned errorsBefore = diags_.errorCount();
  std::optional<FileId> file = loadInputFile(found, sm_, diags_);
  if (!file) return nullptr;
  entry.ast = parseFile(sm_, *file, diags_);
  if (!entry.ast) return nullptr;
  loading_.push_back(dotted);
  // An imported module's schedules are analysed but not compiled; a module
  // without schedules is normal there.
  entry.ir = sema::analyze(*entry.ast, target_, sm_, diags_, this, /*imported=*/true, constants);
  loading_.pop_back();
  if (entry.ir) entry.ir->name = key;
  if (diags_.errorCount() != errorsBefore) {
    entry.ir.reset();
    return nullptr;
  }
  return entry.ir.get();
}

}  // namespace cake
