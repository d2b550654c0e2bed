// TargetInfo: see TargetInfo.h.
#include "target/TargetInfo.h"

namespace cake {

const std::vector<TargetInfo> &allTargets() {
  static const std::vector<TargetInfo> table = {
#define TARGET(Enum, Name, Sm, Smem, Mma, Tma, Clusters, Tmem, Gpus) \
  {Target::Enum, Name, Sm, Smem, Mma, Tma, Clusters, Tmem, Gpus},
#include "target/Targets.def"
#undef TARGET
  };
  return table;
}

const TargetInfo &targetInfo(Target t) { return allTargets()[static_cast<size_t>(t)]; }

std::optional<Target> parseTarget(std::string_view name) {
  for (const TargetInfo &t : allTargets())
    if (t.name == name) return t.target;
  return std::nullopt;
}

std::string targetList() {
  std::string s;
  for (const TargetInfo &t : allTargets()) {
    if (!s.empty()) s += ", ";
    s += t.name;
  }
  return s;
}

}  // namespace cake
