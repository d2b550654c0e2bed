// CostReport.cpp - the report of `cakec --report` as text and as JSON.
// See Cost.h.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/Cost.h"

namespace cake::analysis {

using namespace cake::sema;

namespace {

struct Totals {
  double load = 0, l2 = 0, store = 0, gload = 0, gstore = 0, f16 = 0, f8 = 0, fo = 0, laps = 0;
  int64_t copies = 0;
};
Totals totals(const KernelWork &w) {
  Totals t;
  for (const BlockWork &b : w.perBlock) {
    t.load += b.loadBytes, t.l2 += b.l2Bytes, t.store += b.storeBytes, t.gload += b.genericLoad;
    t.gstore += b.genericStore, t.f16 += b.flops16, t.f8 += b.flops8, t.fo += b.flopsOther;
    t.copies += b.copies, t.laps = std::max(t.laps, b.laps);
  }
  return t;
}

std::string jsonString(std::string_view s) { return "\"" + jsonEscape(s) + "\""; }

// A number for JSON: counts (whole numbers) exactly, others to 6 digits,
// null where it is not finite.
std::string num(double x) {
  if (!std::isfinite(x)) return "null";
  if (x == std::floor(x) && std::fabs(x) < 9e15) return fmt::format("{:.0f}", x);
  return fmt::format("{:.6g}", x);
}

std::string bytesText(double b) {
  if (b >= 1e9) return fmt::format("{:.2f} GB", b / 1e9);
  if (b >= 1e6) return fmt::format("{:.2f} MB", b / 1e6);
  if (b >= 1e3) return fmt::format("{:.1f} KB", b / 1e3);
  return fmt::format("{:.0f} B", b);
}

}  // namespace

std::string shapeText(const ShapeValues &s) {
  std::string t;
  for (const auto &[n, v] : s) t += (t.empty() ? "" : ",") + n + "=" + std::to_string(v);
  return t;
}

// --report-routes: a family's routes, each with its time or why it has none.
static std::string routesText(const ReportEntry &e) {
  std::string o;
  for (size_t i = 0; i < e.routes.size(); ++i) {
    const RouteEstimate &r = e.routes[i];
    std::string marks;
    if (r.route == e.route) marks += ", the guards' route";
    if (static_cast<int>(i) == e.fastestRoute) marks += ", the fastest";
    o += fmt::format("  {:<19}{} ({}): {}{}\n", i == 0 ? "routes" : "", r.route, r.kernel,
                     r.timeUs ? fmt::format("{:.2f} us, {}", *r.timeUs, r.bottleneck) : "not estimated: " + r.why,
                     marks);
  }
  return o;
}

static std::string routesJson(const ReportEntry &e) {
  std::string o;
  if (!e.routes.empty()) {
    o += ", \"routes\": [";
    for (size_t i = 0; i < e.routes.size(); ++i) {
      const RouteEstimate &r = e.routes[i];
      o += fmt::format("{}{{\"route\": {}, \"kernel\": {}, ", i ? ", " : "", jsonString(r.route), jsonString(r.kernel));
      o += r.timeUs ? fmt::format("\"estimated\": true, \"time_us\": {}, \"bottleneck\": {}}}", num(*r.timeUs),
                                  jsonString(r.bottleneck))
                    : fmt::format("\"estimated\": false, \"why\": {}}}", jsonString(r.why));
    }
    o += "], \"fastest_route\": " +
         (e.fastestRoute >= 0 ? jsonString(e.routes[static_cast<size_t>(e.fastestRoute)].route) : "null");
  }
  return o;
}

std::string renderReportText(const std::vector<ReportEntry> &entries) {
  std::string o;
  std::map<std::string, std::string> used;
  for (const ReportEntry &e : entries) {
    const TargetInfo &ti = targetInfo(e.target);
    const Calibration *cal = e.cal ? &*e.cal : nullptr;
    std::string name = e.family.empty() ? fmt::format("kernel '{}'", e.kernel)
                       : e.route.empty()
                           ? fmt::format("family '{}'", e.family)
                           : fmt::format("family '{}', route '{}' (schedule '{}')", e.family, e.route, e.kernel);
    o += fmt::format("{} on {} at {}\n", name, ti.name, shapeText(e.shape));
    if (!e.work) {
      o += fmt::format("  not estimated: {}\n", e.why);
      o += routesText(e);
      continue;
    }
    const KernelWork &w = *e.work;
    Totals t = totals(w);
    double flops = t.f16 + t.f8 + t.fo;
    if (e.est && cal) {
      const Estimate &x = *e.est;
      o += fmt::format("  estimated time     {:.2f} us\n", x.timeUs);
      o += fmt::format("  bottleneck         {}\n", x.bottleneck);
      o += fmt::format(
          "  terms (us)         blocks {:.2f}, tensor core {:.2f}, HBM {:.2f}, L2 {:.2f}, L2 additions {:.2f}, "
          "launch {:.2f}\n",
          x.makespanUs, x.tensorDeviceUs, x.hbmUs, x.l2Us, x.reduceUs, cal->launchUs);
      o += fmt::format(
          "  longest block (us) tensor core {:.2f}, one role's issue {:.2f}, fill {:.2f}, ring latency {:.2f}, "
          "generic {:.2f}\n",
          x.tensorUs, x.roleUs, x.fillUs, x.latencyUs, x.genericUs);
      if (x.turnChain > 0)
        o += fmt::format(
            "  turns              {:.2f} us more than the blocks' own times: {} blocks in turn on one flag\n", x.turnUs,
            x.turnChain);
      o += fmt::format("  HBM rate           {:.0f} GB/s of {:.0f} ({} in flight in the resident blocks' rings)\n",
                       x.hbmGBs, cal->hbmGBs, bytesText(x.inflightBytes));
      o += fmt::format("  placement          {} per SM (by {}; {} slots), {:.2f} waves, slots busy {:.0f}%\n",
                       x.blocksPerSm, x.residencyLimit, x.slots, x.waves, 100 * x.slotEfficiency);
      used[std::string(ti.name)] = fmt::format("{} ({})", cal->gpu, cal->source);
    } else {
      o += fmt::format("  estimated time     none: {} is uncalibrated (counts only)\n", ti.name);
    }
    o += fmt::format("  grid               {} x {} x {} = {} blocks, {} threads, {} of shared memory\n", w.grid[0],
                     w.grid[1], w.grid[2], w.blocks, w.threads, bytesText(static_cast<double>(w.smemBytes)));
    if (flops > 0)
      o += fmt::format("  tensor core        {:.4g} GFLOP (bf16/f16 {:.4g}, fp8/i8 {:.4g}, other {:.4g})\n",
                       flops / 1e9, t.f16 / 1e9, t.f8 / 1e9, t.fo / 1e9);
    o += fmt::format("  copies to smem     {} ({} into blocks, {} from L2), longest ring {:.0f} laps\n", t.copies,
                     bytesText(t.load), bytesText(t.l2), t.laps);
    if (t.store > 0) o += fmt::format("  copies to global   {}\n", bytesText(t.store));
    if (t.gload + t.gstore > 0)
      o += fmt::format("  thread accesses    loads {}, stores {}\n", bytesText(t.gload), bytesText(t.gstore));
    o += fmt::format("  distinct bytes     read {}, written {}\n", bytesText(w.uniqueRead), bytesText(w.uniqueWrite));
    for (const std::string &u : w.unknowns) o += fmt::format("  not exact          {}\n", u);
    o += routesText(e);
  }
  for (const auto &[target, text] : used) o += fmt::format("calibration of {}: {}\n", target, text);
  return o;
}

std::string renderReportJson(const std::vector<ReportEntry> &entries) {
  std::string o = "{\n  \"format\": 1,\n  \"reports\": [";
  bool firstEntry = true;
  for (const ReportEntry &e : entries) {
    const TargetInfo &ti = targetInfo(e.target);
    const Calibration *cal = e.cal ? &*e.cal : nullptr;
    o += firstEntry ? "\n" : ",\n";
    firstEntry = false;
    o += "    {\"target\": " + jsonString(ti.name) + ", \"calibration\": " +
         (cal ? fmt::format("{{\"gpu\": {}, \"source\": {}}}", jsonString(cal->gpu), jsonString(cal->source))
              : std::string("null"));
    o += ", \"kernel\": " + jsonString(e.kernel);
    if (!e.family.empty()) o += ", \"family\": " + jsonString(e.family) + ", \"route\": " + jsonString(e.route);
    o += ", \"shape\": {";
    bool f = true;
    for (const auto &[n, v] : e.shape) {
      o += fmt::format("{}{}: {}", f ? "" : ", ", jsonString(n), v);
      f = false;
    }
    o += "}";
    if (!e.work) {
      o += ", \"estimated\": false, \"why\": " + jsonString(e.why) + routesJson(e) + "}";
      continue;
    }
    const KernelWork &w = *e.work;
    Totals t = totals(w);
    if (e.est && cal) {
      const Estimate &x = *e.est;
      o += fmt::format(", \"estimated\": true, \"time_us\": {}, \"bottleneck\": {}", num(x.timeUs),
                       jsonString(x.bottleneck));
      o += fmt::format(", \"terms_us\": {{\"blocks\": {}, \"tensor_device\": {}, \"hbm\": {}, \"l2\": {}, "
                       "\"l2_reductions\": {}, \"launch\": {}}}",
                       num(x.makespanUs), num(x.tensorDeviceUs), num(x.hbmUs), num(x.l2Us), num(x.reduceUs),
                       num(cal->launchUs));
      o += fmt::format(", \"longest_block_us\": {{\"tensor\": {}, \"role\": {}, \"fill\": {}, \"latency\": {}, "
                       "\"generic\": {}}}",
                       num(x.tensorUs), num(x.roleUs), num(x.fillUs), num(x.latencyUs), num(x.genericUs));
      if (x.turnChain > 0) o += fmt::format(", \"turns\": {{\"us\": {}, \"chain\": {}}}", num(x.turnUs), x.turnChain);
      o += fmt::format(", \"hbm_rate_gbs\": {}, \"inflight_bytes\": {}", num(x.hbmGBs), num(x.inflightBytes));
      o += fmt::format(", \"blocks_per_sm\": {}, \"residency_limit\": {}", x.blocksPerSm, jsonString(x.residencyLimit));
      o += fmt::format(", \"waves\": {}, \"slot_efficiency\": {}", num(x.waves), num(x.slotEfficiency));
    } else {
      o += ", \"estimated\": false, \"why\": " + jsonString(std::string(ti.name) + " is uncalibrated");
    }
    o += fmt::format(", \"grid\": [{}, {}, {}], \"blocks\": {}, \"threads\": {}, \"smem_bytes\": {}", w.grid[0],
                     w.grid[1], w.grid[2], w.blocks, w.threads, w.smemBytes);
    o += fmt::format(", \"flops\": {{\"bf16_f16\": {}, \"fp8_i8\": {}, \"other\": {}}}", num(t.f16), num(t.f8),
                     num(t.fo));
    o += fmt::format(", \"bytes\": {{\"to_smem\": {}, \"from_l2\": {}, \"to_global\": {}, \"thread_loads\": {}, "
                     "\"thread_stores\": {}, \"distinct_read\": {}, \"distinct_written\": {}}}",
                     num(t.load), num(t.l2), num(t.store), num(t.gload), num(t.gstore), num(w.uniqueRead),
                     num(w.uniqueWrite));
    o += fmt::format(", \"copies\": {}, \"ring_laps\": {}", t.copies, num(t.laps));
    o += ", \"not_exact\": [";
    for (size_t i = 0; i < w.unknowns.size(); ++i) o += (i ? ", " : "") + jsonString(w.unknowns[i]);
    o += "]";
    o += routesJson(e);
    o += "}";
  }
  o += "\n  ]\n}\n";
  return o;
}

}  // namespace cake::analysis
