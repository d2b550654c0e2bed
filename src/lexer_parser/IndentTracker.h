// IndentTracker: the indentation-stack logic behind INDENT/DEDENT tokens,
// kept free of ANTLR so it can be unit-tested on its own.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace cake {

class IndentTracker {
public:
  struct Change {
    unsigned indents = 0;  // 0 or 1
    unsigned dedents = 0;
    bool inconsistent = false;  // dedent to a width no outer level has
  };

  // A logical line starts at `width` columns of indentation.
  Change newLine(uint32_t width);
  // The DEDENTs owed at end of file.
  unsigned closeAll();
  // Current nesting depth (0 at top level).
  unsigned depth() const { return static_cast<unsigned>(stack_.size() - 1); }

  // The width of an indentation string; tabs advance to the next multiple
  // of 8. Sets `sawTab` when a tab was present.
  static uint32_t measure(std::string_view indent, bool &sawTab);

private:
  std::vector<uint32_t> stack_{0};
};

}  // namespace cake
