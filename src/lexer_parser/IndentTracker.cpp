// IndentTracker: see IndentTracker.h.
#include "lexer_parser/IndentTracker.h"

namespace cake {

IndentTracker::Change IndentTracker::newLine(uint32_t width) {
  Change c;
  if (width > stack_.back()) {
    stack_.push_back(width);
    c.indents = 1;
    return c;
  }
  while (width < stack_.back()) {
    stack_.pop_back();
    ++c.dedents;
  }
  if (width != stack_.back()) {
    // Python rejects this; we report it and carry on as if the line were at
    // the enclosing level we dedented to.
    c.inconsistent = true;
  }
  return c;
}

unsigned IndentTracker::closeAll() {
  unsigned n = depth();
  stack_.resize(1);
  return n;
}

uint32_t IndentTracker::measure(std::string_view indent, bool &sawTab) {
  uint32_t w = 0;
  sawTab = false;
  for (char c : indent) {
    if (c == '\t') {
      sawTab = true;
      w = (w / 8 + 1) * 8;
    } else {
      ++w;
    }
  }
  return w;
}

}  // namespace cake
