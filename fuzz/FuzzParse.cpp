// libFuzzer target: raw bytes into the input checks, the lexer and the
// parser (and the token dump). Anything is fair input; nothing may crash,
// hang or leak. Built by CMake with -DCAKEC_FUZZ=ON (clang only).
#include <cstddef>
#include <cstdint>
#include <string>

#include "diagnostics/Diagnostics.h"
#include "driver/InputFile.h"
#include "lexer_parser/Parse.h"

namespace {
// Renders every diagnostic (exercising the caret printer) into a sink.
struct RenderingConsumer : cake::DiagnosticConsumer {
  explicit RenderingConsumer(const cake::SourceManager &sm) : printer(sm, nullptr, false) {}
  void handle(const cake::Diagnostic &d) override { bytes += printer.render(d).size(); }
  cake::TextDiagnosticPrinter printer;
  size_t bytes = 0;
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > cake::kMaxInputBytes) return 0;
  // Bound ANTLR's process-wide prediction caches (see clearParserCaches).
  static unsigned runs = 0;
  if (++runs % 4096 == 0) cake::clearParserCaches();
  cake::SourceManager sm;
  cake::DiagnosticEngine diags;
  RenderingConsumer consumer(sm);
  diags.setConsumer(&consumer);
  std::string text(reinterpret_cast<const char *>(data), size);
  cake::FileId file = sm.addBuffer("fuzz.cake", text);
  if (!cake::validateSourceText(file, sm.text(file), diags)) return 0;
  cake::DiagnosticEngine tokenDiags;
  (void)cake::dumpTokens(sm, file, tokenDiags);
  std::unique_ptr<cake::ast::Module> module = cake::parseFile(sm, file, diags);
  if (module) (void)cake::printAst(*module, sm);
  return 0;
}
