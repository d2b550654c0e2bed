// TargetInfo: what cakec knows about each GPU target (Targets.def), and the
// target masks derived from it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cake {

enum class Target : uint8_t {
#define TARGET(Enum, ...) Enum,
#include "target/Targets.def"
#undef TARGET
};

// The tensor-core instruction family of a target.
enum class MmaPath : uint8_t { MmaSync, Wgmma, Tcgen05 };
// The bulk global-to-shared copy engine of a target.
enum class CopyEngine : uint8_t { CpAsync, Tma };
std::string_view mmaPathName(MmaPath p);      // "mma.sync", "wgmma", "tcgen05"
std::string_view copyEngineName(CopyEngine c);  // "cp.async", "TMA"

struct TargetInfo {
  Target target;
  std::string_view name;
  unsigned sm;
  std::string_view arch;  // nvcc: compute_<arch>, sm_<arch>
  unsigned smemPerBlock;
  MmaPath mma;
  CopyEngine copy;
  bool clusters;
  unsigned tmemColumns;
  bool setmaxnreg;
  unsigned regMin, regMax;
  unsigned maxThreads;
  unsigned regsPerSm;
  unsigned regsPerThread;
  unsigned namedBarriers;
  unsigned tmaBoxMax;
  std::string_view gpus;

  bool tma() const { return copy == CopyEngine::Tma; }
  bool tmem() const { return tmemColumns > 0; }
};

const std::vector<TargetInfo> &allTargets();
const TargetInfo &targetInfo(Target t);
std::optional<Target> parseTarget(std::string_view name);
// "sm_80, sm_89, ..." for diagnostics and --help.
std::string targetList();
// The names of the targets in a mask, "sm_90a, sm_100a".
std::string targetNames(uint32_t mask);

inline constexpr Target kDefaultTarget = Target::Sm90a;

constexpr unsigned allTargetCount() {
  return 0u
#define TARGET(...) +1u
#include "target/Targets.def"
#undef TARGET
      ;
}

// Target masks: bit i is Target i of Targets.def, derived from its columns.
constexpr uint32_t targetBit(Target t) { return 1u << static_cast<unsigned>(t); }
namespace targets {
#define TARGET_COLUMNS(Enum, Name, Sm, Arch, Smem, Mma, Copy, Clusters, Tmem, Setmaxnreg, ...) \
  | (COND(Sm, Mma, Copy, Clusters, Setmaxnreg) ? targetBit(Target::Enum) : 0u)
#define TARGET(...) TARGET_COLUMNS(__VA_ARGS__)
#define COND(Sm, Mma, Copy, Clusters, Setmaxnreg) true
inline constexpr uint32_t kAll = 0u
#include "target/Targets.def"
    ;
#undef COND
#define COND(Sm, Mma, Copy, Clusters, Setmaxnreg) (MmaPath::Mma == MmaPath::MmaSync)
inline constexpr uint32_t kMmaSync = 0u
#include "target/Targets.def"
    ;
#undef COND
#define COND(Sm, Mma, Copy, Clusters, Setmaxnreg) (MmaPath::Mma == MmaPath::Wgmma)
inline constexpr uint32_t kWgmma = 0u
#include "target/Targets.def"
    ;
#undef COND
#define COND(Sm, Mma, Copy, Clusters, Setmaxnreg) (MmaPath::Mma == MmaPath::Tcgen05)
inline constexpr uint32_t kTcgen05 = 0u
#include "target/Targets.def"
    ;
#undef COND
#define COND(Sm, Mma, Copy, Clusters, Setmaxnreg) (CopyEngine::Copy == CopyEngine::Tma)
inline constexpr uint32_t kTma = 0u
#include "target/Targets.def"
    ;
#undef COND
#define COND(Sm, Mma, Copy, Clusters, Setmaxnreg) (Clusters)
inline constexpr uint32_t kClusters = 0u
#include "target/Targets.def"
    ;
#undef COND
#define COND(Sm, Mma, Copy, Clusters, Setmaxnreg) (Setmaxnreg)
inline constexpr uint32_t kSetmaxnreg = 0u
#include "target/Targets.def"
    ;
#undef COND
// sm_90 and later: mbarrier.try_wait, expect_tx, fence.proxy.async, stmatrix.
#define COND(Sm, Mma, Copy, Clusters, Setmaxnreg) (Sm >= 90)
inline constexpr uint32_t kSm90Plus = 0u
#include "target/Targets.def"
    ;
#undef COND
#undef TARGET
#undef TARGET_COLUMNS
}  // namespace targets

}  // namespace cake
