// TargetInfo: see TargetInfo.h.
#include "target/TargetInfo.h"

namespace cake {

std::string_view mmaPathName(MmaPath p) {
  switch (p) {
  case MmaPath::MmaSync: return "mma.sync";
  case MmaPath::Wgmma: return "wgmma";
  case MmaPath::Tcgen05: return "tcgen05";
  }
  return "?";
}

const std::vector<TargetInfo> &allTargets() {
  static const std::vector<TargetInfo> table = {
#define TARGET(Enum, Name, Sm, Arch, Smem, Mma, Copy, Clusters, Tmem, Setmaxnreg, RegMin, RegMax, Threads, RegsSm, \
               RegsThread, NamedBarriers, TmaBox, Cuda, Gpus, ThreadsSm, BlocksSm)                                 \
  {Target::Enum, Name,          Sm,         Arch,   Smem,   MmaPath::Mma, CopyEngine::Copy,                        \
   Clusters,     Tmem,          Setmaxnreg, RegMin, RegMax, Threads,      RegsSm,                                  \
   RegsThread,   NamedBarriers, TmaBox,     Cuda,   Gpus,   ThreadsSm,    BlocksSm},
#include "target/Targets.def"
#undef TARGET
  };
  return table;
}

std::optional<uint32_t> tmemAllocColumns(int64_t end) {
  if (end > 512) return std::nullopt;
  uint32_t cols = 32;
  while (cols < end) cols *= 2;
  return cols;
}

const TargetInfo &targetInfo(Target t) { return allTargets()[static_cast<size_t>(t)]; }

std::optional<Target> parseTarget(std::string_view name) {
  for (const TargetInfo &t : allTargets())
    if (t.name == name) return t.target;
  return std::nullopt;
}

std::string targetNames(uint32_t mask) {
  std::string s;
  for (const TargetInfo &t : allTargets()) {
    if (!(mask & targetBit(t.target))) continue;
    if (!s.empty()) s += ", ";
    s += t.name;
  }
  return s;
}

std::string targetList() { return targetNames(targets::kAll); }

std::string_view featureName(uint32_t mask) {
  if (mask == targets::kTma) return "TMA";
  if (mask == targets::kWgmma) return "wgmma";
  if (mask == targets::kTcgen05) return "tcgen05";
  if (mask == targets::kClusters) return "clusters";
  if (mask == targets::kSetmaxnreg) return "setmaxnreg";
  if (mask == targets::kSm90Plus) return "sm_90+";
  return "";
}

}  // namespace cake
