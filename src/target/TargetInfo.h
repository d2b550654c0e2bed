// TargetInfo: what cakec knows about each GPU target (Targets.def).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cake {

enum class Target : uint8_t {
#define TARGET(Enum, Name, Sm, Smem, Mma, Tma, Clusters, Tmem, Gpus) Enum,
#include "target/Targets.def"
#undef TARGET
};

struct TargetInfo {
  Target target;
  std::string_view name;
  unsigned sm;
  unsigned smemPerBlock;
  std::string_view tensorCorePath;
  bool tma;
  bool clusters;
  bool tmem;
  std::string_view gpus;
};

const std::vector<TargetInfo> &allTargets();
const TargetInfo &targetInfo(Target t);
std::optional<Target> parseTarget(std::string_view name);
// "sm_80, sm_89, ..." for diagnostics and --help.
std::string targetList();

inline constexpr Target kDefaultTarget = Target::Sm90a;

}  // namespace cake
