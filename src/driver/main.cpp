// cakec's entry point: runs the driver and turns anything unexpected (an
// exception, a crash signal) into an "internal compiler error" report with
// exit status 4, never a raw abort. The crash handler lives in Driver.cpp,
// beside the diagnostics format it reports in.
#include <exception>

#include "driver/Driver.h"

int main(int argc, char **argv) {
  cake::installCrashHandler();
  try {
    return cake::runCompiler(argc, argv);
  } catch (const std::exception &e) {
    cake::reportInternalError(e.what());
  } catch (...) {
    cake::reportInternalError("unknown exception");
  }
  return 4;
}
