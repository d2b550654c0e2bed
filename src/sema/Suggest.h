// Suggest: "did you mean ...?" for misspelt names, by edit distance.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "diagnostics/Diagnostics.h"

namespace cake::sema {

// The candidate closest to `word` if it is close enough to be a likely typo
// (edit distance at most a third of the length, at least 1), else "".
std::string closestMatch(std::string_view word, const std::vector<std::string> &candidates);
size_t editDistance(std::string_view a, std::string_view b);
// "; did you mean 'x'?" or "".
std::string didYouMean(std::string_view word, const std::vector<std::string> &candidates);

// Diagnostic `id` at `range` whose last argument is didYouMean(word,
// candidates); with a match, a fix-it replaces `fixRange` (the misspelt word;
// an invalid range for none) with it.
template <typename... Args>
DiagnosticBuilder buildSuggesting(DiagnosticEngine &diags, DiagIdFor<Args..., std::string> id, SourceRange range,
                                  SourceRange fixRange, std::string_view word,
                                  const std::vector<std::string> &candidates, const Args &...args) {
  std::string match = closestMatch(word, candidates);
  DiagnosticBuilder b =
      diags.build(id, range, args..., match.empty() ? std::string() : "; did you mean '" + match + "'?");
  if (!match.empty() && fixRange.valid()) b.fixit(fixRange, match);
  return b;
}

}  // namespace cake::sema
