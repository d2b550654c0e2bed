// OutputFile: see OutputFile.h.
#include "driver/OutputFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cake {

bool writeOutputAtomically(const std::string &path, const std::string &text, std::string &error) {
  if (path == "-") {
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
      error = std::strerror(errno);
      return false;
    }
    return true;
  }
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    error = "is a directory";
    return false;
  }
  std::string tmpl = path + ".tmp.XXXXXX";
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) {
    error = std::strerror(errno);
    return false;
  }
  const char *p = text.data();
  size_t left = text.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      error = std::strerror(errno);
      ::close(fd);
      ::unlink(tmpl.c_str());
      return false;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  // mkstemp creates 0600; give the file the usual permissions under umask.
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  if (::close(fd) != 0 || ::rename(tmpl.c_str(), path.c_str()) != 0) {
    error = std::strerror(errno);
    ::unlink(tmpl.c_str());
    return false;
  }
  return true;
}

}  // namespace cake
