// WrapperTable.h - the entries of the device wrappers' table, shared by the
// files that hold its parts: PtxWrappers.cpp (the schedules' instructions),
// Fp8Wrappers.cpp (fp8 fragments) and DebugWrappers.cpp (what the debugging
// lowerings add).
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

// `table` with the fp8 fragments' wrappers (Fp8Wrappers.cpp) after cake_tanh.
std::vector<Wrapper> withFp8Wrappers(std::vector<Wrapper> table);

// `table` followed by the wrappers of -fcheck-waits and -fjitter.
std::vector<Wrapper> withDebugWrappers(std::vector<Wrapper> table);

}  // namespace cake::codegen
