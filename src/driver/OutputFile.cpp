// OutputFile: see OutputFile.h.
#include "driver/OutputFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cake {

namespace {

// The temporary file being written, for the signal handlers. The name is
// complete before the flag is set and the flag cleared before the buffer is
// reused, so a handler never reads a half-copied name.
char gPendingTemp[PATH_MAX + 1];
volatile sig_atomic_t gPending = 0;
bool gDebugInterrupt = false;

extern "C" void onTerminationSignal(int sig) {
  // Only async-signal-safe calls: unlink, then die of the signal as if
  // there were no handler (SA_RESETHAND restored the default action).
  if (gPending) ::unlink(gPendingTemp);
  ::raise(sig);
}

// Installed once, before the first temporary file exists; a signal the
// caller ignores (nohup, a background job) stays ignored.
void installTerminationHandlers() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) {
    struct sigaction old;
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = onTerminationSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND | SA_NODEFER;
    ::sigaction(sig, &sa, nullptr);
  }
}

bool writeAll(int fd, const std::string &text, std::string &error) {
  const char *p = text.data();
  size_t left = text.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      error = std::strerror(errno);
      return false;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  return true;
}

// Whether following `path`'s symbolic links passes through /proc (the
// magic links behind /dev/stdout, /dev/fd/N, /proc/self/fd/N): such a name
// stands for an open file, which is written, not replaced.
bool reachesProc(const std::string &path) {
  std::string p = path;
  for (int hop = 0; hop < 40; ++hop) {
    if (p.rfind("/proc/", 0) == 0) return true;
    // A link in a directory that is itself a link into /proc (/dev/fd/N:
    // /dev/fd is /proc/self/fd) names an open file too.
    if (size_t slash = p.find_last_of('/'); slash != std::string::npos && slash > 0) {
      char dir[PATH_MAX];
      if (::realpath(p.substr(0, slash).c_str(), dir) && std::string(dir).rfind("/proc/", 0) == 0) return true;
    }
    char buf[PATH_MAX];
    ssize_t n = ::readlink(p.c_str(), buf, sizeof buf - 1);
    if (n <= 0) return false;
    std::string next(buf, static_cast<size_t>(n));
    if (next[0] != '/') {
      size_t slash = p.find_last_of('/');
      next = (slash == std::string::npos ? "" : p.substr(0, slash + 1)) + next;
    }
    p = next;
  }
  return false;
}

// Writes to an existing file that is not replaced (a device, a FIFO, an open
// file reached through /proc).
bool writeInPlace(const std::string &path, const std::string &text, std::string &error) {
  int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    error = std::strerror(errno);
    return false;
  }
  bool ok = writeAll(fd, text, error);
  if (::close(fd) != 0 && ok) {
    error = std::strerror(errno);
    ok = false;
  }
  return ok;
}

}  // namespace

void removePendingOutput() {
  if (gPending) ::unlink(gPendingTemp);
}

void setDebugInterruptOutput(bool on) { gDebugInterrupt = on; }

bool writeOutputAtomically(const std::string &path, const std::string &text, std::string &error) {
  if (path == "-") {
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
      error = std::strerror(errno);
      return false;
    }
    return true;
  }
  if (path.empty()) {
    error = std::strerror(ENOENT);
    return false;
  }
  std::string dest = path;
  struct stat lst;
  if (::lstat(path.c_str(), &lst) == 0) {
    struct stat st;
    bool followed = ::stat(path.c_str(), &st) == 0;
    if (followed && S_ISDIR(st.st_mode)) {
      error = "is a directory";
      return false;
    }
    if (S_ISLNK(lst.st_mode) && reachesProc(path)) return writeInPlace(path, text, error);
    if (followed && !S_ISREG(st.st_mode)) return writeInPlace(path, text, error);
    if (followed && S_ISLNK(lst.st_mode)) {
      // Replace the file the link names; the link stays.
      char resolved[PATH_MAX];
      if (!::realpath(path.c_str(), resolved)) {
        error = std::strerror(errno);
        return false;
      }
      dest = resolved;
    }
  }
  size_t slash = dest.find_last_of('/');
  std::string dir = slash == std::string::npos ? "" : dest.substr(0, slash + 1);
  std::string tmpl = dir + ".cakec.XXXXXX";
  if (tmpl.size() > PATH_MAX) {
    error = std::strerror(ENAMETOOLONG);
    return false;
  }
  installTerminationHandlers();
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) {
    error = std::strerror(errno);
    return false;
  }
  std::memcpy(gPendingTemp, tmpl.c_str(), tmpl.size() + 1);
  gPending = 1;
  auto fail = [&](int err) {
    error = std::strerror(err);
    ::unlink(tmpl.c_str());
    gPending = 0;
    return false;
  };
  if (!writeAll(fd, text, error)) {
    ::close(fd);
    ::unlink(tmpl.c_str());
    gPending = 0;
    return false;
  }
  // mkstemp creates 0600; give the file the usual permissions under umask.
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  if (::close(fd) != 0) return fail(errno);
  if (gDebugInterrupt) {
    gDebugInterrupt = false;
    ::raise(SIGTERM);
  }
  if (::rename(tmpl.c_str(), dest.c_str()) != 0) return fail(errno);
  gPending = 0;
  return true;
}

}  // namespace cake
