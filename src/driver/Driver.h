// Driver: runs the compiler pipeline over the inputs named on the command
// line and turns the outcome into an exit status (0, 1, or 4).
#pragma once

namespace cake {

// The whole of cakec's main(), minus crash handling.
int runCompiler(int argc, const char *const *argv);

}  // namespace cake
