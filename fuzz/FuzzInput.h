// FuzzInput: what both fuzz targets do with the raw bytes first: bound the
// size and ANTLR's process-wide caches, register the buffer, and check it is
// text cakec would read (UTF-8, no NUL).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "diagnostics/Diagnostics.h"
#include "driver/InputFile.h"
#include "lexer_parser/Parse.h"

namespace cake::fuzz {

inline std::optional<FileId> admitInput(const uint8_t *data, size_t size, SourceManager &sm, DiagnosticEngine &diags) {
  if (size > kMaxInputBytes) return std::nullopt;
  static unsigned runs = 0;
  if (++runs % 4096 == 0) clearParserCaches();  // see clearParserCaches()
  FileId file = sm.addBuffer("fuzz.cake", std::string(reinterpret_cast<const char *>(data), size));
  if (!validateSourceText(file, sm.text(file), diags)) return std::nullopt;
  return file;
}

}  // namespace cake::fuzz
