// Suggest: "did you mean ...?" for misspelt names, by edit distance.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cake::sema {

// The candidate closest to `word` if it is close enough to be a likely typo
// (edit distance at most a third of the length, at least 1), else "".
std::string closestMatch(std::string_view word, const std::vector<std::string> &candidates);
size_t editDistance(std::string_view a, std::string_view b);
// "; did you mean 'x'?" or "".
std::string didYouMean(std::string_view word, const std::vector<std::string> &candidates);

}  // namespace cake::sema
