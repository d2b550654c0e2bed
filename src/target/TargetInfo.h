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
std::string_view mmaPathName(MmaPath p);  // "mma.sync", "wgmma", "tcgen05"

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
  std::string_view cuda;  // the oldest toolkit that builds for it ("12.8")
  std::string_view gpus;
  unsigned threadsPerSm;
  unsigned blocksPerSm;

  // Shared memory of one multiprocessor: each resident block takes its own
  // plus the 1 KB the runtime reserves for it, in units of 128 bytes
  // (Targets.def; the CUDA occupancy calculator's allocation granularity).
  static constexpr unsigned kSmemReservedPerBlock = 1024;
  static constexpr unsigned kSmemGranularity = 128;
  unsigned smemPerSm() const { return smemPerBlock + kSmemReservedPerBlock; }
  // Registers are allocated per warp, and each of a multiprocessor's four
  // quarters holds a quarter of the file and of the resident warps.
  static constexpr unsigned kRegisterQuarters = 4;

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
// The hardware feature a set of targets stands for ("TMA", "wgmma",
// "tcgen05", "clusters", "setmaxnreg", "sm_90+"), or "" if none.
std::string_view featureName(uint32_t mask);

inline constexpr Target kDefaultTarget = Target::Sm90a;

// The columns tcgen05.alloc takes for regions ending at column `end`: a
// power of two of at least 32 (PTX ISA 9.7.16.7.1); nullopt past 512.
std::optional<uint32_t> tmemAllocColumns(int64_t end);

// Target masks: bit i is Target i of Targets.def, derived from its columns.
constexpr uint32_t targetBit(Target t) { return 1u << static_cast<unsigned>(t); }
namespace targets {
// The columns the masks are computed from, at compile time.
struct Row {
  unsigned sm;
  MmaPath mma;
  CopyEngine copy;
  bool clusters;
  bool setmaxnreg;
};
inline constexpr Row kRows[] = {
#define TARGET(Enum, Name, Sm, Arch, Smem, Mma, Copy, Clusters, Tmem, Setmaxnreg, ...) \
  {Sm, MmaPath::Mma, CopyEngine::Copy, Clusters, Setmaxnreg},
#include "target/Targets.def"
#undef TARGET
};
template <class Pred>
constexpr uint32_t maskOf(Pred pred) {
  uint32_t m = 0;
  for (unsigned i = 0; i < sizeof(kRows) / sizeof(kRows[0]); ++i)
    if (pred(kRows[i])) m |= 1u << i;
  return m;
}
inline constexpr uint32_t kAll = maskOf([](const Row &) { return true; });
inline constexpr uint32_t kMmaSync = maskOf([](const Row &r) { return r.mma == MmaPath::MmaSync; });
inline constexpr uint32_t kWgmma = maskOf([](const Row &r) { return r.mma == MmaPath::Wgmma; });
inline constexpr uint32_t kTcgen05 = maskOf([](const Row &r) { return r.mma == MmaPath::Tcgen05; });
inline constexpr uint32_t kTma = maskOf([](const Row &r) { return r.copy == CopyEngine::Tma; });
inline constexpr uint32_t kClusters = maskOf([](const Row &r) { return r.clusters; });
inline constexpr uint32_t kSetmaxnreg = maskOf([](const Row &r) { return r.setmaxnreg; });
// 8-bit float MMAs (e4m3/e5m2): mma.sync from sm_89, wgmma, tcgen05.
inline constexpr uint32_t kFp8Mma = maskOf([](const Row &r) { return r.sm >= 89; });
// sm_90 and later: mbarrier.try_wait, expect_tx, fence.proxy.async, stmatrix.
inline constexpr uint32_t kSm90Plus = maskOf([](const Row &r) { return r.sm >= 90; });
constexpr unsigned count() { return sizeof(kRows) / sizeof(kRows[0]); }
}  // namespace targets

}  // namespace cake
