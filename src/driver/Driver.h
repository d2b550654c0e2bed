// Driver: runs the compiler pipeline over the inputs named on the command
// line and turns the outcome into an exit status (0, 1, or 4).
#pragma once

namespace cake {

// The whole of cakec's main(), minus crash handling. An exception escaping
// the pipeline is reported as an internal compiler error (status 4) in the
// diagnostics format the command line chose.
int runCompiler(int argc, const char *const *argv);

// Installs the crash handler (SIGSEGV, SIGBUS, SIGFPE, SIGABRT), run on an
// alternate signal stack so that a stack overflow is reported too: an
// internal compiler error, exit status 4, in the chosen diagnostics format.
// Nothing under AddressSanitizer, whose own report is the more useful one.
void installCrashHandler();

// Reports an internal compiler error outside the diagnostics engine (an
// exception main() caught), in the chosen diagnostics format.
void reportInternalError(const char *what);

}  // namespace cake
