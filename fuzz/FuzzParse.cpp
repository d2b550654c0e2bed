// libFuzzer target: raw bytes into the input checks, the lexer and the
// parser (and the token dump). Anything is fair input; nothing may crash,
// hang or leak. Built by CMake with -DCAKEC_FUZZ=ON (clang only).
#include <cstddef>
#include <cstdint>
#include <string>

#include "FuzzInput.h"

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
  cake::SourceManager sm;
  cake::DiagnosticEngine diags;
  RenderingConsumer consumer(sm);
  diags.setConsumer(&consumer);
  std::optional<cake::FileId> file = cake::fuzz::admitInput(data, size, sm, diags);
  if (!file) return 0;
  cake::DiagnosticEngine tokenDiags;
  (void)cake::dumpTokens(sm, *file, tokenDiags);
  std::unique_ptr<cake::ast::Module> module = cake::parseFile(sm, *file, diags);
  if (module) (void)cake::printAst(*module, sm);
  return 0;
}
