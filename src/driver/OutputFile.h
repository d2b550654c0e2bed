// OutputFile: writes an output file safely.
//
// A regular file (or a name that does not exist yet) is written atomically:
// the text goes to a temporary file `.cakec.XXXXXX` in the destination's
// directory (a short name, so any legal destination name works), which is
// renamed over the destination only when complete, so a failed run never
// leaves a half-written file and an existing file survives a failure. A
// symbolic link to a regular file stays a link: the file it names is
// replaced. SIGINT, SIGTERM, SIGHUP and SIGQUIT remove the temporary file
// before the process dies of them.
//
// A destination that exists and is not a regular file (a character device
// such as /dev/null, a FIFO, a terminal) or that is reached through /proc
// (/dev/stdout, /dev/fd/N) is written in place, as gcc does: opened for
// writing (appending), never replaced by a file.
#pragma once

#include <string>

namespace cake {

// Writes `text` to `path` ("-" for standard output). On failure returns
// false and sets `error` to the reason.
bool writeOutputAtomically(const std::string &path, const std::string &text, std::string &error);

// Removes the temporary file being written, if any. Async-signal-safe: the
// crash handler calls it.
void removePendingOutput();

// For the test suite (--debug-crash=sigterm-in-output): raise SIGTERM once
// the next temporary file is written, before it is renamed.
void setDebugInterruptOutput(bool on);

}  // namespace cake
