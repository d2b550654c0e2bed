// InputFile: reads a source file (or standard input) into the
// SourceManager, rejecting what is not .cake text with a clear diagnostic:
// a missing or unreadable file, a directory, an oversized file, NUL bytes
// (binary input) and invalid UTF-8. A UTF-8 byte-order mark is dropped.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "diagnostics/Diagnostics.h"

namespace cake {

inline constexpr size_t kMaxInputBytes = 8u << 20;  // 8 MiB

// Returns the file's id, or nullopt after reporting why it cannot be used.
// --split-input-file: the parts of `file` between lines `# -----` (as
// MLIR's -split-input-file), each a buffer of the file's name in which every
// line of the other parts, and the separators, is blank, so a diagnostic's
// line and column are the file's. One part where there is no separator.
std::vector<FileId> splitInputFile(SourceManager &sm, FileId file);

std::optional<FileId> loadInputFile(const std::string &path, SourceManager &sm, DiagnosticEngine &diags);

// Appends what `f` holds to `out`, stopping once more than `limit` bytes are
// read (then out.size() > limit); false on a read error (a directory opens
// but does not read).
bool readAll(std::FILE *f, std::string &out, size_t limit);

// Checks that `text` is UTF-8 without NUL bytes; reports the first bad byte
// at its line and column. Returns false if the file must not be parsed.
bool validateSourceText(FileId file, const std::string &text, DiagnosticEngine &diags);

}  // namespace cake
