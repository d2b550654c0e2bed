// Cost: what one launch of a kernel does at given shapes (the work each
// block issues, counted by running the schedule's loops and guards on the
// shape's values), and the time a calibrated model of the target predicts
// for it, with the bottleneck that sets it (`cakec --report`).
//
// The counting is exact for what the schedule states (loop trips, copies,
// tensor-core operations, generic accesses, each block's own trips); the
// model is a bound model: each block's time is the largest of its tensor-
// core time, its share of the multiprocessor's fill bandwidth and the
// latency its rings cannot hide, blocks are placed on the multiprocessors'
// slots in launch order, and the launch is at least as long as its unique
// bytes at HBM bandwidth and its loaded bytes at L2 bandwidth. The constants
// are the target's calibration (src/target/Calibration.def); a target
// without one gets the counts and no time.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "diagnostics/Diagnostics.h"
#include "sema/SemaIR.h"
#include "target/TargetInfo.h"

namespace cake::analysis {

// The work of one block.
struct BlockWork {
  double loadBytes = 0;     // global -> shared copies (TMA, cp.async) landing in the block
  double l2Bytes = 0;       // of them, what the block reads from L2 (a multicast tile's share)
  double storeBytes = 0;    // shared -> global copies (TMA stores and additions, copy_to)
  double genericLoad = 0;   // register tiles loaded from global memory by the block's threads
  double genericStore = 0;  // register tiles stored to global memory
  double flops16 = 0;       // tensor-core flops with bf16/f16 operands
  double flops8 = 0;        // with fp8 or i8 operands
  double flopsOther = 0;    // with other operands (tf32)
  double elementOps = 0;    // register-fragment elements computed on the CUDA cores
  double reduceBytes = 0;   // of storeBytes, additions into global memory (done by L2's atomic units)
  // Per role with work on the tensor core or the CUDA cores: its flops
  // (bf16/f16, fp8, other), element operations and the bytes its threads
  // load from global memory, which its own warps do one after the other
  // (a load feeds what follows it).
  struct RoleWork {
    double flops16 = 0, flops8 = 0, flopsOther = 0, elementOps = 0, genericLoad = 0;
  };
  std::vector<RoleWork> roles;
  double laps = 0;           // the longest ring's laps: copies into its view over its stages (1 at least: a round trip)
  int64_t ringStages = 0;    // that ring's stages in use: its stages, or its copies where fewer (0: no ring)
  int64_t ringCopies = 0;    // the copies that ring receives
  int64_t ringDepth = 0;     // its declared stages
  double inflightBytes = 0;  // what the block's rings hold in flight at most: each one's stages x its stage's bytes
  int64_t copies = 0;        // copies issued into shared memory
  bool loads = false, stores = false;
  // The block's waits on flags (lm.wait_flag): the element (the tensor and
  // its coordinates), the value awaited, and the bytes the block's threads
  // move between the wait and its exchange on that element (passing the
  // turn on or resetting it) or the role's end. The blocks waiting on one
  // element take their turns one after the other.
  struct Turn {
    std::vector<int64_t> flag;
    int64_t value = 0;
    double bytes = 0;
  };
  std::vector<Turn> turns;
};

struct KernelWork {
  int64_t grid[3] = {1, 1, 1};
  int64_t blocks = 1;
  int64_t threads = 0;
  int64_t smemBytes = 0;
  int64_t regsPerBlock = 0;  // the roles' register budgets (regs=), or their fragments per thread and some more
  std::vector<BlockWork> perBlock;
  std::set<sema::ResourceId> ringViews;  // the views that receive copies from global memory
  double uniqueRead = 0;                 // distinct bytes read from global tensors (tiles by their coordinates)
  double uniqueWrite = 0;                // distinct bytes written
  double uniqueRuns = 0;                 // the contiguous runs of memory they lie in
  // Why a count is not exact (a loop bound or guard the shape does not
  // decide, a value read from memory): the report says so.
  std::vector<std::string> unknowns;
};

// The shape: values of the kernel's integer scalar parameters, by name.
using ShapeValues = std::map<std::string, int64_t>;

// Counts one launch's work; nullopt (with `why`) when the grid or a
// parameter the counting needs is missing.
std::optional<KernelWork> countWork(const sema::Kernel &k, Target target, const ShapeValues &shape, int64_t smCount,
                                    std::string &why);

// The route a family's dispatcher takes at a shape (its schedule), or null
// outside the domain (`why` says which bound).
const sema::Kernel *familyRoute(const sema::Family &f, const ShapeValues &shape, std::string &routeName,
                                std::string &why);

// A target's calibration (Calibration.def): the measured rates the model
// reads, and where they were measured.
struct Calibration {
  Target target;
  std::string_view gpu;
  int64_t sms;
  double tflops16PerSm, tflops8PerSm, tflopsOtherPerSm;  // one multiprocessor's tensor-core rates
  double tflops16Device, tflops8Device;                  // the device's, every multiprocessor busy
  double elementGopsPerSm;                               // CUDA-core element operations
  double hbmGBs, hbmRunOverheadBytes;                    // HBM bandwidth, and what a contiguous run costs more
  double l2GBs, smFillGBs, smGenericGBs;                 // bandwidths (GB/s)
  double l2ReduceGBs;                                    // additions into global memory (L2 atomics)
  double launchUs, copyLatencyUs, blockUs;               // fixed costs (microseconds)
  double hbmLatencyUs, hbmQueueUs;                       // HBM's round trip unloaded, and its growth with load
  double flagHandoffUs;                                  // a turn's hand-off: a release, then the next block's acquire
  int64_t smemPerSm, threadsPerSm, regsPerSm, blocksPerSm;
  std::string_view source;  // the script and the results it was measured with
};
const Calibration *calibrationFor(Target t);
// A calibration read from `name = value` lines (# comments), each name a
// field of Calibration.def (gpu and source are text); fields not given keep
// `base`'s, and without a base every numeric field must be given. nullopt
// with `error` on a bad line.
std::optional<Calibration> parseCalibration(const std::string &text, const Calibration *base, Target target,
                                            std::string &error);

// The model's estimate for one launch.
struct Estimate {
  double timeUs = 0;
  std::string bottleneck;  // one of the classes below
  std::string detail;      // the numbers behind it, one line
  int64_t blocksPerSm = 0, slots = 0;
  std::string residencyLimit;  // what limits blocksPerSm
  double waves = 0;
  double makespanUs = 0, hbmUs = 0, l2Us = 0, tensorDeviceUs = 0;
  double hbmGBs = 0;         // the rate HBM delivers at what the rings keep in flight (Little's law; at most hbmGBs)
  double inflightBytes = 0;  // what the resident blocks' rings hold in flight at most
  double tensorUs = 0, fillUs = 0, latencyUs = 0, genericUs = 0, roleUs = 0;  // the critical block's terms
  double reduceUs = 0;
  double slotEfficiency = 0;  // busy slot time / (every slot x makespan)
  double divisibleUs = 0;     // the blocks' times less their fixed costs, summed
  double fixedUs = 0;         // the largest fixed cost of a block (first copies, its start)
  bool splittable = false;    // the longest block's work could be shared by more blocks (its ring laps twice or more)
  // Flags' turns: what the longest chain of blocks taking turns adds to
  // the launch beyond its blocks' own times, and its length.
  double turnUs = 0;
  int64_t turnChain = 0;
};
// Bottleneck classes: "tensor-pipe", "hbm-bandwidth", "l2-bandwidth",
// "l2-reductions", "pipeline-latency", "wave-quantization",
// "role-serialization", "launch-overhead", "cuda-cores", "generic-memory",
// "block-turns".
Estimate estimate(const KernelWork &w, const Calibration &c);

// Performance hints (-Rhint): what the model predicts a change of the
// schedule gains at this shape, at the place to change (remarks).
struct Hint {
  DiagId id;
  SourceRange range;
  std::vector<std::string> args;
};
std::vector<Hint> hints(const sema::Kernel &k, const KernelWork &w, const Estimate &e, const Calibration &c,
                        const ShapeValues &shape);

// "K=4096,M=4096,N=4096": a shape as the report and the hints name it.
std::string shapeText(const ShapeValues &shape);

// One route of a family at a shape (--report-routes): its schedule's
// predicted time, or why it has none.
struct RouteEstimate {
  std::string route, kernel;
  std::optional<double> timeUs;
  std::string bottleneck, why;
};

// The report of one kernel (or family route) at one shape, as text or as
// a JSON object.
struct ReportEntry {
  Target target = kDefaultTarget;
  std::string kernel;  // the schedule's name
  std::string route;   // a family's route name, "" for a kernel
  std::string family;
  ShapeValues shape;
  std::optional<KernelWork> work;
  std::optional<Estimate> est;
  std::optional<Calibration> cal;  // what the estimate used
  std::string why;                 // no work: why
  // --report-routes: the family's routes in their order (each schedule
  // once), and the index of the fastest (-1: none has a time).
  std::vector<RouteEstimate> routes;
  int fastestRoute = -1;
};
std::string renderReportText(const std::vector<ReportEntry> &entries);
std::string renderReportJson(const std::vector<ReportEntry> &entries);

}  // namespace cake::analysis
