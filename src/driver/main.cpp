// cakec's entry point: runs the driver and turns anything unexpected (an
// exception, a crash signal) into an "internal compiler error" report with
// exit status 4, never a raw abort.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <unistd.h>

#include "diagnostics/Diagnostics.h"
#include "driver/Driver.h"

namespace {

void reportInternalError(const char *what) {
  std::string msg = cake::DiagnosticEngine::formatMessage(cake::DiagId::InternalCompilerError, {what});
  std::string id(cake::diagInfo(cake::DiagId::InternalCompilerError).id);
  std::fprintf(stderr, "cakec: fatal error: %s [%s]\n", msg.c_str(), id.c_str());
  // Keep the test suite's diagnostic-coverage log complete (see Driver.cpp).
  if (const char *log = std::getenv("CAKEC_DIAGNOSTIC_LOG"); log && *log) {
    if (std::FILE *f = std::fopen(log, "a")) {
      std::fprintf(f, "%s\n", id.c_str());
      std::fclose(f);
    }
  }
}

// Under AddressSanitizer its own crash report is the more useful one.
#if defined(__SANITIZE_ADDRESS__)
#define CAKEC_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CAKEC_UNDER_ASAN 1
#endif
#endif
#ifndef CAKEC_UNDER_ASAN
#define CAKEC_CRASH_HANDLER 1
#endif

#ifdef CAKEC_CRASH_HANDLER
extern "C" void onCrashSignal(int sig) {
  // Only async-signal-safe calls here.
  const char *name = sig == SIGSEGV  ? "segmentation fault"
                     : sig == SIGBUS ? "bus error"
                     : sig == SIGFPE ? "arithmetic exception"
                                     : "abort";
  const char *head = "cakec: fatal error: internal compiler error: ";
  const char *tail = "; please report this as a cakec bug [internal.compiler-error]\n";
  ssize_t r = ::write(STDERR_FILENO, head, std::strlen(head));
  r = ::write(STDERR_FILENO, name, std::strlen(name));
  r = ::write(STDERR_FILENO, tail, std::strlen(tail));
  (void)r;
  ::_exit(4);
}
#endif

}  // namespace

int main(int argc, char **argv) {
#ifdef CAKEC_CRASH_HANDLER
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGABRT}) std::signal(sig, onCrashSignal);
#endif
  try {
    return cake::runCompiler(argc, argv);
  } catch (const std::exception &e) {
    reportInternalError(e.what());
  } catch (...) {
    reportInternalError("unknown exception");
  }
  return 4;
}
