// CostModel.cpp - the calibrated model of a launch's time (estimate), the
// targets' calibrations and the files that replace them, and the hints the
// model gives (-Rhint). See Cost.h.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <queue>
#include <set>
#include <tuple>

#include "analysis/Cost.h"

namespace cake::analysis {

using namespace cake::sema;

const Calibration *calibrationFor(Target t) {
  static const std::vector<Calibration> table = {
#define CALIBRATION(T, gpu, sms, t16, t8, tO, d16, d8, eops, hbm, run, l2, fill, gen, red, launch, lat, blk, hlat, hq, \
                    hand, smem, thr, regs, bps, src)                                                                   \
  Calibration{Target::T, gpu, sms,    t16, t8,  tO,   d16, d8,   eops, hbm, run,  l2,  fill,                           \
              gen,       red, launch, lat, blk, hlat, hq,  hand, smem, thr, regs, bps, src},
#include "target/Calibration.def"
#undef CALIBRATION
  };
  for (const Calibration &c : table)
    if (c.target == t) return &c;
  return nullptr;
}

namespace {
// The numeric fields of a calibration, by their Calibration.def names.
struct Field {
  const char *name;
  double Calibration::*real;
  int64_t Calibration::*integer;
  double lo = 1e-6, hi = 1e9;  // what a value may be (no GPU is outside)
  bool optional = false;       // a calibration of its own may leave it out (0: the term is off)
};
const std::vector<Field> &calibrationFields() {
  static const std::vector<Field> f = {
      {"sms", nullptr, &Calibration::sms, 1, 4096},
      {"tflops16PerSm", &Calibration::tflops16PerSm, nullptr},
      {"tflops8PerSm", &Calibration::tflops8PerSm, nullptr},
      {"tflopsOtherPerSm", &Calibration::tflopsOtherPerSm, nullptr},
      {"tflops16Device", &Calibration::tflops16Device, nullptr},
      {"tflops8Device", &Calibration::tflops8Device, nullptr},
      {"elementGopsPerSm", &Calibration::elementGopsPerSm, nullptr},
      {"hbmGBs", &Calibration::hbmGBs, nullptr},
      {"hbmRunOverheadBytes", &Calibration::hbmRunOverheadBytes, nullptr},
      {"l2GBs", &Calibration::l2GBs, nullptr},
      {"smFillGBs", &Calibration::smFillGBs, nullptr},
      {"smGenericGBs", &Calibration::smGenericGBs, nullptr},
      {"l2ReduceGBs", &Calibration::l2ReduceGBs, nullptr},
      {"launchUs", &Calibration::launchUs, nullptr},
      {"copyLatencyUs", &Calibration::copyLatencyUs, nullptr},
      {"blockUs", &Calibration::blockUs, nullptr},
      {"hbmLatencyUs", &Calibration::hbmLatencyUs, nullptr, 0, 1e3, true},  // 0: the rings never limit HBM's rate
      {"hbmQueueUs", &Calibration::hbmQueueUs, nullptr, 0, 1e3, true},
      {"flagHandoffUs", &Calibration::flagHandoffUs, nullptr, 0, 1e3, true},  // 0: a turn costs only its bytes
      {"smemPerSm", nullptr, &Calibration::smemPerSm, 1024, 16777216},
      {"threadsPerSm", nullptr, &Calibration::threadsPerSm, 32, 65536},
      {"regsPerSm", nullptr, &Calibration::regsPerSm, 1024, 16777216},
      {"blocksPerSm", nullptr, &Calibration::blocksPerSm, 1, 1024},
  };
  return f;
}
}  // namespace

std::optional<Calibration> parseCalibration(const std::string &text, const Calibration *base, Target target,
                                            std::string &error) {
  static std::deque<std::string> strings;  // gpu and source outlive the parse (a deque keeps them in place)
  Calibration c = base ? *base : Calibration{};
  c.target = target;
  if (!base) c.gpu = "", c.source = "";
  std::set<std::string> given;
  size_t lineNo = 0, at = 0;
  while (at <= text.size()) {
    size_t nl = text.find('\n', at);
    std::string line = text.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    at = nl == std::string::npos ? text.size() + 1 : nl + 1;
    ++lineNo;
    if (size_t hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    auto trim = [](std::string x) {
      size_t b = x.find_first_not_of(" \t\r"), e = x.find_last_not_of(" \t\r");
      return b == std::string::npos ? std::string() : x.substr(b, e - b + 1);
    };
    line = trim(line);
    if (line.empty()) continue;
    size_t eq = line.find('=');
    if (eq == std::string::npos) {
      error = fmt::format("line {}: expected NAME = VALUE", lineNo);
      return std::nullopt;
    }
    std::string name = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
    if (!given.insert(name).second) {
      error = fmt::format("line {}: '{}' is given twice", lineNo, name);
      return std::nullopt;
    }
    if (name == "gpu" || name == "source") {
      strings.push_back(value);
      (name == "gpu" ? c.gpu : c.source) = strings.back();
      continue;
    }
    const Field *f = nullptr;
    for (const Field &x : calibrationFields())
      if (name == x.name) f = &x;
    if (!f) {
      std::string names;
      for (const Field &x : calibrationFields()) names += (names.empty() ? "" : ", ") + std::string(x.name);
      error = fmt::format("line {}: unknown field '{}' (the fields: gpu, source, {})", lineNo, name, names);
      return std::nullopt;
    }
    char *end = nullptr;
    bool decimal = !value.empty() && value.find_first_not_of("0123456789.eE+-") == std::string::npos;
    double v = decimal ? std::strtod(value.c_str(), &end) : 0;
    if (!decimal || *end != '\0' || !std::isfinite(v) || v < f->lo || v > f->hi || (f->integer && v != std::floor(v))) {
      error = fmt::format("line {}: '{}' for {} is not a{} from {:g} to {:g}", lineNo, value, name,
                          f->integer ? "n integer" : " decimal number", f->lo, f->hi);
      return std::nullopt;
    }
    if (f->real)
      c.*(f->real) = v;
    else
      c.*(f->integer) = static_cast<int64_t>(v);
  }
  if (!base)
    for (const Field &x : calibrationFields())
      if (!given.count(x.name) && !x.optional) {
        error =
            fmt::format("the target has no calibration of its own, so every field is needed: '{}' is missing", x.name);
        return std::nullopt;
      }
  return c;
}

Estimate estimate(const KernelWork &w, const Calibration &c) {
  Estimate e;
  // Residency: shared memory (1 KB of each block's is the system's), threads, registers.
  int64_t bySmem = w.smemBytes > 0 ? c.smemPerSm / (w.smemBytes + 1024) : INT64_MAX;
  int64_t byThreads = w.threads > 0 ? c.threadsPerSm / w.threads : INT64_MAX;
  int64_t byRegs = w.regsPerBlock > 0 ? c.regsPerSm / w.regsPerBlock : INT64_MAX;
  // A block that does not fit an SM at all is placed alone (the launch
  // would fail: the report says so with the limit).
  e.blocksPerSm = std::max<int64_t>(1, std::min({bySmem, byThreads, byRegs, c.blocksPerSm}));
  int64_t least = std::min({bySmem, byThreads, byRegs, c.blocksPerSm});
  e.residencyLimit = least == c.blocksPerSm ? "blocks per SM"
                     : least == bySmem      ? "shared memory"
                     : least == byRegs      ? "registers"
                                            : "threads";
  if (least == 0) e.residencyLimit += ", which one block exceeds";
  e.slots = c.sms * e.blocksPerSm;
  e.waves = static_cast<double>(w.blocks) / static_cast<double>(e.slots);
  double share = static_cast<double>(e.blocksPerSm);  // a slot's share of its multiprocessor
  auto us = [](double bytes, double gbs) { return gbs > 0 ? bytes / (gbs * 1e3) : 0.0; };
  double loaded = 0;
  for (const BlockWork &b : w.perBlock) loaded += b.l2Bytes + b.genericLoad;
  double lap = c.copyLatencyUs;
  struct Terms {
    double tensor, role, fill, generic, latency, elem, fixed, total;
  };
  auto tensorUs = [&](double f16, double f8, double other) {
    return (f16 / c.tflops16PerSm + f8 / c.tflops8PerSm + other / c.tflopsOtherPerSm) / 1e6 * share;
  };
  auto blockTerms = [&](const BlockWork &b) {
    Terms t{};
    t.tensor = tensorUs(b.flops16, b.flops8, b.flopsOther);
    // A role's warps issue their tensor-core and CUDA-core work and their
    // loads in turn.
    for (const BlockWork::RoleWork &r : b.roles)
      t.role = std::max(t.role, tensorUs(r.flops16, r.flops8, r.flopsOther) +
                                    r.elementOps / (c.elementGopsPerSm * 1e3) * share +
                                    us(r.genericLoad, c.smGenericGBs) * share);
    t.fill = us(b.loadBytes + b.storeBytes, c.smFillGBs) * share;
    t.generic = us(b.genericLoad + b.genericStore, c.smGenericGBs) * share;
    t.elem = b.elementOps / (c.elementGopsPerSm * 1e3) * share;
    // A ring's stage goes round: issued, landed (the copy's latency, then
    // its bytes at the block's fill rate), consumed, released, issued
    // again. Its stages go round together, so each lap takes the latency
    // plus one stage's transfer and consumption of each stage.
    t.latency = b.laps * lap;
    if (b.ringStages > 0)
      t.latency += (us(b.loadBytes, c.smFillGBs) * share + std::max({t.tensor, t.role, t.elem})) /
                   static_cast<double>(b.ringStages);
    double first = (b.loads ? lap : 0) + (b.genericLoad > 0 ? lap : 0) + (b.stores ? c.copyLatencyUs : 0);
    t.fixed = first + c.blockUs;  // what more blocks of less work each would pay again
    t.total = std::max({t.tensor, t.role, t.fill, t.generic, t.latency, t.elem}) + t.fixed;
    return t;
  };
  // Blocks go to the slot that frees first, in launch order.
  std::priority_queue<double, std::vector<double>, std::greater<double>> slots;
  for (int64_t i = 0; i < std::min<int64_t>(e.slots, w.blocks); ++i) slots.push(0);
  double busy = 0, worst = -1, makespan = 0, criticalLaps = 0;
  Terms critical{};
  std::vector<double> ends;
  for (const BlockWork &b : w.perBlock) {
    Terms t = blockTerms(b);
    double end = slots.top() + t.total;
    slots.pop();
    slots.push(end);
    ends.push_back(end);
    makespan = std::max(makespan, end);
    busy += t.total;
    e.divisibleUs += t.total - t.fixed;
    e.fixedUs = std::max(e.fixedUs, t.fixed);
    if (t.total > worst) worst = t.total, critical = t, criticalLaps = b.laps;
  }
  // Flags' turns: the blocks waiting on one element go in the order of the
  // values they wait for. A block's turns are the last of its work, in
  // program order, each its bytes at the block's generic rate: the first
  // starts when the block has done the rest, each one when the block's turn
  // before it has ended and the chain's turn before it has been handed on
  // (the chains taken in the order the blocks take their turns). The blocks
  // are all resident (a cooperative launch), so a wait delays its own block
  // only.
  struct Member {
    int64_t value;
    size_t block, turn;
    bool operator<(const Member &o) const { return std::tie(value, block, turn) < std::tie(o.value, o.block, o.turn); }
  };
  std::map<std::vector<int64_t>, std::vector<Member>> chains;
  std::vector<double> cursor = ends;  // where each block's next turn may start
  for (size_t i = 0; i < w.perBlock.size(); ++i)
    for (size_t j = 0; j < w.perBlock[i].turns.size(); ++j) {
      const BlockWork::Turn &t = w.perBlock[i].turns[j];
      chains[t.flag].push_back({t.value, i, j});
      cursor[i] -= us(t.bytes, c.smGenericGBs) * share;
    }
  std::vector<std::pair<size_t, const std::vector<int64_t> *>> order;  // by the earliest turn on each flag
  for (auto &[flag, members] : chains) {
    std::sort(members.begin(), members.end());
    size_t first = SIZE_MAX;
    for (const Member &m : members) first = std::min(first, m.turn);
    order.push_back({first, &flag});
  }
  std::sort(order.begin(), order.end(),
            [](const auto &a, const auto &b) { return std::tie(a.first, *a.second) < std::tie(b.first, *b.second); });
  double turnEnd = 0;
  for (const auto &[first, flag] : order) {
    const std::vector<Member> &members = chains[*flag];
    double handed = -1, latest = 0;  // when the turn before was handed on; the members' own latest end
    for (const Member &m : members) {
      size_t i = m.block;
      double own = us(w.perBlock[i].turns[m.turn].bytes, c.smGenericGBs) * share;
      double start = std::max(cursor[i], handed < 0 ? 0.0 : handed + c.flagHandoffUs);
      cursor[i] = start + own;
      handed = cursor[i];
      latest = std::max(latest, ends[i]);
    }
    if (handed - latest > e.turnUs) e.turnUs = handed - latest, e.turnChain = static_cast<int64_t>(members.size());
    turnEnd = std::max(turnEnd, handed);
  }
  for (size_t i = 0; i < w.perBlock.size(); ++i)
    if (!w.perBlock[i].turns.empty() && cursor[i] > ends[i]) busy += cursor[i] - ends[i], ends[i] = cursor[i];
  makespan = std::max(makespan, turnEnd);
  // Work that more blocks could share: the longest block's ring goes round
  // at least twice, and its work outweighs its fixed costs.
  e.splittable = criticalLaps >= 2 && critical.total - critical.fixed > critical.fixed;
  e.makespanUs = makespan;
  // Over every slot: a grid that does not fill them leaves the rest idle.
  e.slotEfficiency = makespan > 0 ? busy / (static_cast<double>(e.slots) * makespan) : 1;
  // Each contiguous run of distinct bytes costs HBM some bytes' worth more
  // (a short run wastes part of the bursts and rows it opens).
  double distinct = w.uniqueRead + w.uniqueWrite;
  double hbmBytes = distinct + w.uniqueRuns * c.hbmRunOverheadBytes;
  e.hbmGBs = c.hbmGBs;
  // What the rings read from HBM flows at the rate their bytes in flight
  // sustain (Little's law). The resident blocks' rings hold those bytes
  // (what they read from L2: a multicast copy's share); a part m of them
  // misses L2 and takes HBM's round trip, which grows with HBM's load, the
  // rest L2's (copyLatencyUs). So HBM's rate X solves
  //   X * ((1 - m) * copyLatencyUs + m * (hbmLatencyUs + hbmQueueUs * X / (hbmGBs - X))) = m * in flight.
  double ringBytes = 0, inflight = 0;
  for (size_t i = 0; i < w.perBlock.size(); ++i) {
    const BlockWork &b = w.perBlock[i];
    ringBytes += b.l2Bytes;
    if (static_cast<int64_t>(i) < e.slots && b.loadBytes > 0) inflight += b.inflightBytes * b.l2Bytes / b.loadBytes;
  }
  double readHbm = distinct > 0 ? hbmBytes * w.uniqueRead / distinct : 0;  // the reads, with their runs' cost
  double ringHbm = loaded > 0 ? readHbm * ringBytes / loaded : 0;          // of them, the rings'
  if ((c.hbmLatencyUs > 0 || c.hbmQueueUs > 0) && ringHbm > 0 && inflight > 0) {
    double m = std::min(1.0, readHbm / loaded), top = c.hbmGBs * 1e3;  // bytes/us
    double lo = 0, hi = top;
    for (int i = 0; i < 60; ++i) {
      double x = (lo + hi) / 2;
      double trip = (1 - m) * c.copyLatencyUs + m * (c.hbmLatencyUs + c.hbmQueueUs * x / (top - x));
      (x * trip < m * inflight ? lo : hi) = x;
    }
    e.hbmGBs = lo / 1e3;
  }
  e.inflightBytes = inflight;
  e.hbmUs = us(ringHbm, e.hbmGBs) + us(hbmBytes - ringHbm, c.hbmGBs);
  e.l2Us = us(loaded, c.l2GBs);
  double reduced = 0;
  for (const BlockWork &b : w.perBlock) reduced += b.reduceBytes;
  e.reduceUs = us(reduced, c.l2ReduceGBs);
  e.tensorUs = critical.tensor, e.fillUs = critical.fill, e.latencyUs = critical.latency,
  e.genericUs = critical.generic, e.roleUs = critical.role;
  double f16 = 0, f8 = 0;
  for (const BlockWork &b : w.perBlock) f16 += b.flops16, f8 += b.flops8;
  e.tensorDeviceUs = (f16 / c.tflops16Device + f8 / c.tflops8Device) / 1e6;
  double body = std::max({makespan, e.hbmUs, e.l2Us, e.tensorDeviceUs, e.reduceUs});
  e.timeUs = c.launchUs + body;
  // The bottleneck: what sets the largest term.
  if (c.launchUs >= body)
    e.bottleneck = "launch-overhead";
  else if (e.tensorDeviceUs >= std::max({makespan, e.hbmUs, e.l2Us, e.reduceUs}))
    e.bottleneck = "tensor-pipe";
  else if (e.reduceUs >= std::max({makespan, e.hbmUs, e.l2Us}))
    e.bottleneck = "l2-reductions";
  else if (e.hbmUs >= makespan && e.hbmUs >= e.l2Us)
    // HBM's term, at a rate the rings' bytes in flight hold well below its
    // bandwidth: the rings' depth, not the bandwidth, sets it.
    e.bottleneck = e.hbmGBs < 0.9 * c.hbmGBs ? "pipeline-latency" : "hbm-bandwidth";
  else if (e.l2Us >= makespan)
    e.bottleneck = "l2-bandwidth";
  else if (e.turnUs > 0 && e.turnUs >= std::max({critical.tensor, critical.role, critical.fill, critical.generic,
                                                 critical.latency, critical.elem}))
    e.bottleneck = "block-turns";  // blocks waiting for their turns on a flag, one after the other
  else if (e.splittable && e.slotEfficiency < 0.7)
    e.bottleneck = "wave-quantization";
  else {
    double m =
        std::max({critical.tensor, critical.role, critical.fill, critical.generic, critical.latency, critical.elem});
    if (m <= 0)
      e.bottleneck = "launch-overhead";
    else if (critical.fixed >= m)
      e.bottleneck = "pipeline-latency";  // the block's first copies and its start outweigh its work
    else if (m == critical.tensor || (m == critical.role && critical.role < 1.1 * critical.tensor))
      e.bottleneck = "tensor-pipe";  // a role's own CUDA-core work adds little to its tensor-core time
    else if (m == critical.role)
      e.bottleneck = "role-serialization";
    else if (m == critical.latency)
      e.bottleneck = "pipeline-latency";
    else if (m == critical.fill)
      e.bottleneck = "l2-bandwidth";
    else if (m == critical.generic)
      e.bottleneck = "generic-memory";
    else
      e.bottleneck = "cuda-cores";
  }
  return e;
}

namespace {
// A deeper ring (hint.stages): the views of the block's longest ring, and
// every other view of its stage count that receives copies, given more
// stages; the time the model predicts with the fewest more stages within
// 2% of the best that fits in shared memory (one block per SM at least).
struct DeeperRing {
  int64_t stages = 0, extraBytes = 0, blocksPerSm = 0;
  double timeUs = 0;
};
std::vector<ResourceId> ringOf(const Kernel &k, const KernelWork &w, int64_t depth) {
  std::vector<ResourceId> views;
  for (ResourceId v : w.ringViews)
    if (k.resources[v].stages == depth) views.push_back(v);
  return views;
}
std::optional<DeeperRing> deeperRing(const Kernel &k, const KernelWork &w, const ShapeValues &shape,
                                     const Calibration &c, int64_t depth, double timeUs) {
  std::vector<ResourceId> views = ringOf(k, w, depth);
  int64_t stageBytes = 0;
  std::set<ResourceId> pools;
  for (ResourceId v : views) stageBytes += k.resources[v].bytesPerStage, pools.insert(k.resources[v].pool);
  if (views.empty() || stageBytes <= 0) return std::nullopt;
  // What their pools hold past the end of every view (aliases too) is room
  // the ring may take.
  int64_t room = 0;
  for (ResourceId p : pools) {
    if (p == kNoResource) continue;
    int64_t end = 0;
    for (const Resource &r : k.resources)
      if (r.kind == ResourceKind::View && r.pool == p) end = std::max(end, r.offset + r.totalBytes);
    room += std::max<int64_t>(0, k.resources[p].bytes - end);
  }
  std::vector<DeeperRing> tried;
  double best = timeUs;
  int flat = 0;  // candidates in a row that gained less than 0.5% on the best
  for (int64_t s = depth + 1; s <= std::min<int64_t>(4 * depth + 8, 64) && flat < 3; ++s) {
    int64_t extra = std::max<int64_t>(0, (s - depth) * stageBytes - room);
    if (k.smemBytes + extra + 1024 > c.smemPerSm) break;
    Kernel deeper = k;
    for (ResourceId v : views) deeper.resources[v].stages = s;
    deeper.smemBytes += extra;
    std::string why;
    std::optional<KernelWork> dw = countWork(deeper, c.target, shape, c.sms, why);
    if (!dw) break;
    Estimate e = estimate(*dw, c);
    tried.push_back({s, extra, e.blocksPerSm, e.timeUs});
    flat = e.timeUs < best * 0.995 ? 0 : flat + 1;
    best = std::min(best, e.timeUs);
  }
  for (const DeeperRing &d : tried)
    if (d.timeUs <= best * 1.02) return d;
  return std::nullopt;
}
}  // namespace

std::vector<Hint> hints(const Kernel &k, const KernelWork &w, const Estimate &e, const Calibration &c,
                        const ShapeValues &shape) {
  std::vector<Hint> out;
  std::string shapeText = analysis::shapeText(shape);
  auto pct = [](double x) { return fmt::format("{:.0f}", 100 * x); };
  auto us = [](double x) { return fmt::format("{:.1f}", x); };
  // An idle last wave: the busy slot time spread evenly over every slot.
  if (e.splittable && e.slotEfficiency < 0.75 && e.bottleneck != "hbm-bandwidth" && e.bottleneck != "launch-overhead") {
    // Spread evenly, the work divides over the slots; each block's fixed
    // costs (first copies, its start) do not.
    double even = c.launchUs + std::max({e.divisibleUs / static_cast<double>(e.slots) + e.fixedUs, e.hbmUs, e.l2Us,
                                         e.tensorDeviceUs, e.reduceUs});
    double gain = 1 - even / e.timeUs;
    if (gain >= 0.10)
      out.push_back({DiagId::HintWaves,
                     k.gridRange.begin.valid() ? k.gridRange : k.nameRange,
                     {shapeText, std::to_string(w.blocks), std::to_string(e.slots), std::to_string(e.blocksPerSm),
                      std::to_string(c.sms), pct(e.slotEfficiency), pct(gain), us(even), us(e.timeUs)}});
  }
  // A ring too shallow to hide its round trip: the block waits on its
  // copies' latency, or HBM delivers less than its rate for want of bytes
  // in flight. Only a ring that receives more copies than it has stages
  // can gain from more.
  const BlockWork *longest = nullptr;
  for (const BlockWork &b : w.perBlock)
    if (b.ringStages > 0 && (!longest || b.laps > longest->laps)) longest = &b;
  // (Or a grid that leaves slots idle, whose longest block waits on its
  // ring: a deeper ring shortens the blocks the last wave waits for.)
  bool ringBound = e.latencyUs >= std::max({e.tensorUs, e.roleUs, e.fillUs, e.genericUs});
  if (longest && longest->ringCopies > longest->ringDepth &&
      (e.bottleneck == "pipeline-latency" || (e.bottleneck == "wave-quantization" && ringBound))) {
    if (std::optional<DeeperRing> d = deeperRing(k, w, shape, c, longest->ringDepth, e.timeUs)) {
      double gain = 1 - d->timeUs / e.timeUs;
      if (gain >= 0.10) {
        std::string names;
        double ringBytes = 0;
        SourceRange at;
        for (ResourceId v : ringOf(k, w, longest->ringDepth)) {
          const Resource &r = k.resources[v];
          names += (names.empty() ? "" : ", ") + r.name;
          ringBytes += static_cast<double>(r.bytesPerStage * r.stages);
          if (!at.begin.valid()) at = r.range;
        }
        // At the ring's pipeline, where only one has that many stages.
        const Resource *pipeline = nullptr;
        int pipelines = 0;
        for (const Resource &r : k.resources)
          if (r.kind == ResourceKind::Pipeline && r.stages == longest->ringDepth) pipeline = &r, ++pipelines;
        if (pipelines == 1) at = pipeline->range;
        auto kb = [](double bytes) { return fmt::format("{:.1f} KB", bytes / 1000); };
        out.push_back({DiagId::HintStages,
                       at.begin.valid() ? at : k.nameRange,
                       {shapeText, std::to_string(longest->ringDepth), names, fmt::format("{:.1f}", ringBytes / 1000),
                        std::to_string(d->stages),
                        d->extraBytes > 0 ? kb(static_cast<double>(d->extraBytes)) + " more shared memory per block"
                                          : std::string("in its pool's unused bytes"),
                        std::to_string(d->blocksPerSm), pct(gain), us(d->timeUs), us(e.timeUs)}});
      }
    }
  }
  return out;
}

}  // namespace cake::analysis
