// Check: internal assertions. A CAKE_CHECK that fails means the compiler's
// own tables or phases disagree (a renamed parameter, an operand sema did
// not resolve, a phase run out of order), never that the user's program is
// wrong. It throws InternalError, which the driver reports as
// `internal.compiler-error` (exit status 4) instead of reading out of bounds
// or passing silently. Checks stay on in release builds.
#pragma once

#include <stdexcept>
#include <string>

namespace cake {

struct InternalError : std::logic_error {
  using std::logic_error::logic_error;
};

[[noreturn]] inline void failCheck(const char *file, int line, const char *cond, const std::string &what) {
  std::string f(file);
  size_t src = f.rfind("src/");
  if (src != std::string::npos) f = f.substr(src);  // no build-machine paths in messages
  throw InternalError(f + ":" + std::to_string(line) + ": check '" + cond + "' failed: " + what);
}

}  // namespace cake

#define CAKE_CHECK(cond, what)                                       \
  do {                                                               \
    if (!(cond)) ::cake::failCheck(__FILE__, __LINE__, #cond, what); \
  } while (0)
