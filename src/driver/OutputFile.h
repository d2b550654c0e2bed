// OutputFile: writes an output file atomically. The text goes to a
// temporary file in the destination's directory, which is renamed over the
// destination only when complete, so a failed or interrupted run never
// leaves a half-written file and an existing file survives a failure.
#pragma once

#include <string>

namespace cake {

// Writes `text` to `path` ("-" for standard output). On failure returns
// false and sets `error` to the reason.
bool writeOutputAtomically(const std::string &path, const std::string &text, std::string &error);

}  // namespace cake
