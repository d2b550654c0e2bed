// InputFile: see InputFile.h.
#include "driver/InputFile.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>

namespace cake {

bool readAll(std::FILE *f, std::string &out, size_t limit) {
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
    out.append(buf, n);
    if (out.size() > limit) return true;
  }
  return !std::ferror(f);
}

namespace {

// Length of the UTF-8 sequence starting at s[i], or 0 if it is invalid.
size_t utf8SequenceLength(const std::string &s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t len;
  uint32_t cp;
  if (c < 0x80) return 1;
  if ((c & 0xE0) == 0xC0) {
    len = 2;
    cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    len = 3;
    cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    len = 4;
    cp = c & 0x07;
  } else
    return 0;
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    unsigned char cc = static_cast<unsigned char>(s[i + k]);
    if ((cc & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (cc & 0x3F);
  }
  // Reject overlong forms, surrogates and values past U+10FFFF.
  if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000)) return 0;
  if (cp >= 0xD800 && cp <= 0xDFFF) return 0;
  if (cp > 0x10FFFF) return 0;
  return len;
}

}  // namespace

bool validateSourceText(FileId file, const std::string &text, DiagnosticEngine &diags) {
  uint32_t line = 1, col = 1;
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '\0') {
      diags.report(DiagId::InputNulByte, SourceRange(SourceLoc{file, line, col}));
      return false;
    }
    size_t len = utf8SequenceLength(text, i);
    if (len == 0) {
      diags.report(DiagId::InputInvalidUtf8, SourceRange(SourceLoc{file, line, col}),
                   fmt::format("{:02X}", static_cast<unsigned char>(c)));
      return false;
    }
    if (c == '\n' || (c == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'))) {
      ++line;
      col = 1;
    } else if (c != '\r') {
      ++col;
    }
    i += len;
  }
  return true;
}

std::vector<FileId> splitInputFile(SourceManager &sm, FileId file) {
  uint32_t lines = sm.lineCount(file);
  auto isSeparator = [&](uint32_t l) {
    std::string_view t = sm.lineText(file, l);
    size_t b = t.find_first_not_of(" \t"), e = t.find_last_not_of(" \t");
    return b != std::string_view::npos && t.substr(b, e - b + 1) == "# -----";
  };
  std::vector<uint32_t> starts = {1};  // each part's first line
  for (uint32_t l = 1; l <= lines; ++l)
    if (isSeparator(l)) starts.push_back(l + 1);
  if (starts.size() == 1) return {file};
  std::vector<FileId> parts;
  for (size_t p = 0; p < starts.size(); ++p) {
    uint32_t first = starts[p], last = p + 1 < starts.size() ? starts[p + 1] - 2 : lines;
    std::string text;
    for (uint32_t l = 1; l <= lines; ++l) {
      if (l >= first && l <= last) text += sm.lineText(file, l);
      text += '\n';
    }
    parts.push_back(sm.addBuffer(sm.name(file), std::move(text), file));
  }
  return parts;
}

std::optional<FileId> loadInputFile(const std::string &path, SourceManager &sm, DiagnosticEngine &diags) {
  std::string text;
  std::string name = path;
  if (path == "-") {
    name = "<stdin>";
    if (!readAll(stdin, text, kMaxInputBytes)) {
      diags.report(DiagId::InputCannotOpen, SourceRange(), name, std::strerror(errno));
      return std::nullopt;
    }
  } else {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) {
      diags.report(DiagId::InputCannotOpen, SourceRange(), path, std::strerror(errno));
      return std::nullopt;
    }
    if (S_ISDIR(st.st_mode)) {
      diags.report(DiagId::InputIsDirectory, SourceRange(), path);
      return std::nullopt;
    }
    if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > kMaxInputBytes) {
      diags.report(DiagId::InputTooLarge, SourceRange(), path, st.st_size, kMaxInputBytes);
      return std::nullopt;
    }
    std::FILE *f = std::fopen(path.c_str(), "rb");
    if (!f) {
      diags.report(DiagId::InputCannotOpen, SourceRange(), path, std::strerror(errno));
      return std::nullopt;
    }
    bool ok = readAll(f, text, kMaxInputBytes);
    int err = errno;
    std::fclose(f);
    if (!ok) {
      diags.report(DiagId::InputCannotOpen, SourceRange(), path, std::strerror(err));
      return std::nullopt;
    }
  }
  if (text.size() > kMaxInputBytes) {
    diags.report(DiagId::InputTooLarge, SourceRange(), name, text.size(), kMaxInputBytes);
    return std::nullopt;
  }
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
  FileId id = sm.addBuffer(name, text);
  if (!validateSourceText(id, sm.text(id), diags)) return std::nullopt;
  if (text.find_first_not_of(" \t\r\n\f") == std::string::npos)
    diags.report(DiagId::InputEmpty, SourceRange(SourceLoc{id, 0, 0}, SourceLoc{id, 0, 0}));
  return id;
}

}  // namespace cake
