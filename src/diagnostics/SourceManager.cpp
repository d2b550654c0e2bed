// SourceManager: file buffers and line lookup for diagnostics.
#include "diagnostics/SourceManager.h"

#include <algorithm>

namespace cake {

SourceRange SourceRange::cover(const SourceRange &a, const SourceRange &b) {
  if (!a.valid()) return b;
  if (!b.valid()) return a;
  auto less = [](const SourceLoc &x, const SourceLoc &y) { return x.line != y.line ? x.line < y.line : x.col < y.col; };
  SourceRange r;
  r.begin = less(b.begin, a.begin) ? b.begin : a.begin;
  r.end = less(a.end, b.end) ? b.end : a.end;
  return r;
}

FileId SourceManager::addBuffer(std::string name, std::string text, FileId partOf) {
  File f;
  f.partOf = partOf;
  if (partOf != kNoFile) files_[partOf].hasParts = true;
  f.name = std::move(name);
  f.text = std::move(text);
  f.lineStarts.push_back(0);
  const std::string &t = f.text;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '\n') {
      f.lineStarts.push_back(i + 1);
    } else if (t[i] == '\r') {
      if (i + 1 < t.size() && t[i + 1] == '\n') ++i;
      f.lineStarts.push_back(i + 1);
    }
  }
  files_.push_back(std::move(f));
  return static_cast<FileId>(files_.size() - 1);
}

uint32_t SourceManager::lineCount(FileId id) const { return static_cast<uint32_t>(files_[id].lineStarts.size()); }

std::string_view SourceManager::lineText(FileId id, uint32_t line) const {
  if (id >= files_.size() || line == 0) return {};
  const File &f = files_[id];
  if (line > f.lineStarts.size()) return {};
  size_t begin = f.lineStarts[line - 1];
  size_t end = begin;
  while (end < f.text.size() && f.text[end] != '\n' && f.text[end] != '\r') ++end;
  return std::string_view(f.text).substr(begin, end - begin);
}

size_t codePointCount(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

}  // namespace cake
