// SourceManager: owns the text of every file the compiler reads and maps
// (file, line, column) locations back to source lines for diagnostics.
//
// Locations are 1-based; columns count Unicode code points, the unit the
// lexer uses, so a caret lines up under the character it names.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cake {

using FileId = uint32_t;
inline constexpr FileId kNoFile = UINT32_MAX;

struct SourceLoc {
  FileId file = kNoFile;
  uint32_t line = 0;  // 1-based; 0 means "no location"
  uint32_t col = 0;   // 1-based, in code points

  bool valid() const { return file != kNoFile && line != 0; }
  friend bool operator==(const SourceLoc &, const SourceLoc &) = default;
};

// A half-open range [begin, end): `end` is one past the last character.
struct SourceRange {
  SourceLoc begin;
  SourceLoc end;

  SourceRange() = default;
  SourceRange(SourceLoc b, SourceLoc e) : begin(b), end(e) {}
  explicit SourceRange(SourceLoc b) : begin(b), end(b) {}
  bool valid() const { return begin.valid(); }
  // The smallest range covering both.
  static SourceRange cover(const SourceRange &a, const SourceRange &b);
};

class SourceManager {
public:
  // Registers a buffer under a display name and returns its id. A part of
  // another buffer (--split-input-file) has that buffer's name and lines.
  FileId addBuffer(std::string name, std::string text, FileId partOf = kNoFile);
  // The buffer a part was split from (kNoFile: not a part), and whether a
  // buffer was split into parts (its directives and dependencies are its
  // parts').
  FileId partOf(FileId id) const { return files_[id].partOf; }
  bool hasParts(FileId id) const { return files_[id].hasParts; }

  const std::string &name(FileId id) const { return files_[id].name; }
  const std::string &text(FileId id) const { return files_[id].text; }
  size_t fileCount() const { return files_.size(); }

  // The text of a 1-based line without its line terminator ("" if absent).
  std::string_view lineText(FileId id, uint32_t line) const;
  uint32_t lineCount(FileId id) const;

private:
  struct File {
    std::string name;
    std::string text;
    std::vector<size_t> lineStarts;  // byte offset of each line's start
    FileId partOf = kNoFile;
    bool hasParts = false;
  };
  std::vector<File> files_;
};

// Number of UTF-8 code points in `s` (invalid bytes count as one each).
size_t codePointCount(std::string_view s);

}  // namespace cake
