// Suggest: see Suggest.h.
#include "sema/Suggest.h"

#include <algorithm>

namespace cake::sema {

// Optimal string alignment distance: insertions, deletions, substitutions
// and transpositions of neighbours ("veiw" is one edit from "view").
size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::string closestMatch(std::string_view word, const std::vector<std::string> &candidates) {
  if (word.size() < 2) return "";  // one letter is one edit from every other: no evidence of a typo
  size_t limit = std::max<size_t>(1, word.size() / 3);
  std::string best;
  size_t bestDist = limit + 1;
  for (const std::string &c : candidates) {
    if (c == word) continue;
    size_t lenGap = c.size() > word.size() ? c.size() - word.size() : word.size() - c.size();
    if (lenGap > limit) continue;  // cheap reject: the distance is at least the length gap
    size_t d = editDistance(word, c);
    if (d < bestDist || (d == bestDist && !best.empty() && c < best)) {
      bestDist = d;
      best = c;
    }
  }
  if (bestDist <= limit) return best;
  // A word that is one '_'-separated part of exactly one candidate ("init"
  // for "init_count"), at least three letters long.
  if (word.size() < 3) return "";
  std::string part;
  int parts = 0;
  for (const std::string &c : candidates) {
    size_t start = 0;
    bool hit = false;
    while (start <= c.size()) {
      size_t end = c.find('_', start);
      if (end == std::string::npos) end = c.size();
      hit |= c.size() > word.size() && c.compare(start, end - start, word) == 0 && end - start == word.size();
      start = end + 1;
    }
    if (hit) {
      part = c;
      ++parts;
    }
  }
  return parts == 1 ? part : "";
}

std::string didYouMean(std::string_view word, const std::vector<std::string> &candidates) {
  std::string m = closestMatch(word, candidates);
  return m.empty() ? "" : "; did you mean '" + m + "'?";
}

}  // namespace cake::sema
