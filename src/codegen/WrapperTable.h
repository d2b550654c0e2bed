// WrapperTable.h - the entries of the device wrappers' table, shared by the
// files that hold its parts: PtxWrappers.cpp (the schedules' instructions)
// and DebugWrappers.cpp (what the debugging lowerings add).
#pragma once

#include <string>
#include <vector>

namespace cake::codegen {

// One wrapper: its name, the wrappers it calls (emitted before it), and its
// definition with a comment saying what the instruction does.
struct Wrapper {
  const char *name;
  std::vector<const char *> deps;
  std::string text;
};

// One poll of an mbarrier's phase (indented for a loop's body): `done`
// becomes 1 once the phase with `parity` has completed. `instruction`:
// mbarrier.try_wait or mbarrier.test_wait.
std::string mbarPollText(const char *instruction);

// `table` followed by the wrappers of -fcheck-waits and -fjitter.
std::vector<Wrapper> withDebugWrappers(std::vector<Wrapper> table);

}  // namespace cake::codegen
