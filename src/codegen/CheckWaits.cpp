// CheckWaits.cpp - what -fcheck-waits and -fjitter add to the lowering
// (docs/language.md 19.1), and what a target cannot run at all.
//
// In the kernel: each mbarrier wait a numbered site, checked against a time
// limit, and each lm.sync on a named barrier a meeting at an mbarrier, checked alike (the wrappers
// cake_mbar_wait_checked and cake_wait_expired in DebugWrappers.cpp); the record buffer's pointer, the limit and one
// arrival counter per barrier slot in shared memory after the schedule's; each arrival counted where it is issued. In
// the launcher: the table of sites, and the support that waits for the kernel and prints its records. For -fjitter: the
// delay before each role operation, and the launcher's seed.
#include <fmt/format.h>

#include <algorithm>

#include "codegen/Emitter.h"

namespace cake::codegen::detail {

bool KernelEmitter::targetCanRun() {
  bool ok = true;
  for (const Resource &r : k_.resources) {
    if (r.kind == ResourceKind::Role && r.regBudget > 0 &&
        (!ti_.setmaxnreg || r.regBudget % 8 != 0 || r.regBudget < ti_.regMin || r.regBudget > ti_.regMax)) {
      refuse(DiagId::LowerOpTarget, r.range, "setmaxnreg (a role's regs=)",
             ti_.setmaxnreg ? fmt::format("setmaxnreg takes a multiple of 8 from {} to {} (the hardware gate, turned "
                                          "off by -fno-gates, rejects this budget)",
                                          ti_.regMin, ti_.regMax)
                            : "the target does not have it (the hardware gate, turned off by -fno-gates, rejects it)");
      ok = false;
    }
    if (r.kind == ResourceKind::Tmem && k_.tmemSlot >= 0 && ti_.tmem() && tmemColumns() == 0) {
      refuse(DiagId::LowerOpTarget, r.range, "tensor memory",
             "the regions need more columns than the target has (the hardware gate, turned off by -fno-gates, "
             "rejects it)");
      ok = false;
    }
  }
  if (analysis::clusterSize(k_) > 1 && !ti_.clusters) {
    refuse(DiagId::LowerOpTarget, k_.range, "a cluster of blocks",
           "the target has no clusters (the hardware gate, turned off by -fno-gates, rejects it)");
    ok = false;
  }
  for (const auto &[t, info] : maps_)
    if (info.box.size() > k_.resource(t).rank) {
      refuse(DiagId::LowerCopyView, info.firstUse->range, fmt::format("a copy of '{}'", k_.resource(t).name),
             fmt::format("its view has {} dimensions and the tensor {} (the data gate, turned off by -fno-gates, "
                         "rejects it)",
                         info.box.size(), k_.resource(t).rank));
      ok = false;
    }
  if (k_.smemBytes > static_cast<int64_t>(ti_.smemPerBlock)) {
    refuse(DiagId::LowerSharedMemory, k_.range, fmt::format("kernel '{}'", k_.name),
           fmt::format("it needs {} bytes of shared memory and the target allows {} (the hardware gate, turned off "
                       "by -fno-gates, rejects it)",
                       k_.smemBytes, ti_.smemPerBlock));
    ok = false;
  } else if (launchSmemBytes() > static_cast<int64_t>(ti_.smemPerBlock)) {
    refuse(DiagId::LowerSharedMemory, k_.range, fmt::format("kernel '{}' with -fcheck-waits", k_.name),
           fmt::format("it needs {} bytes of shared memory ({} of the schedule's, {} for the waits' record "
                       "pointer, time limit, arrival counters and meetings) and the target allows {}",
                       launchSmemBytes(), k_.smemBytes, launchSmemBytes() - k_.smemBytes, ti_.smemPerBlock));
    ok = false;
  }
  return ok;
}

std::string KernelEmitter::waitCall(const std::string &addr, const std::string &parity, const std::string &stage,
                                    WaitSite site, const std::string &counter) {
  if (!checkWaits())
    return fmt::format("{}({}, {});", w_.use(sm90Plus() ? "cake_mbar_wait" : "cake_mbar_wait_polled"), addr, parity);
  waitSites_.push_back(std::move(site));
  return fmt::format("{}({}, {}, cake_smem + {}u, {}u, {}, {});",
                     w_.use(sm90Plus() ? "cake_mbar_wait_checked" : "cake_mbar_wait_checked_polled"), addr, parity,
                     waitInfoOffset(), waitSites_.size() - 1, stage, counter.empty() ? "0u" : counter);
}

std::string KernelEmitter::jitterCall() {
  return fmt::format("{}(cake_jitter_seed, {}u, cake_jitter_n++);", w_.use("cake_jitter"), jitterSites_++);
}

const char *const kJitterSupport = R"CAKE(
// -fjitter: the seed of the kernels' delays: CAKE_JITTER_SEED (1 to 4294967295)
// when it is set, else the one given to the compiler.
static uint32_t cake_jitter_seed_of(uint32_t seed) {
  if (const char *e = getenv("CAKE_JITTER_SEED")) {
    char *end = NULL;
    unsigned long long s = strtoull(e, &end, 10);
    if (end != e && *end == '\0' && s >= 1 && s <= 4294967295ull) seed = (uint32_t)s;
  }
  return seed;
}
)CAKE";

int64_t KernelEmitter::waitInfoOffset() const { return (k_.smemBytes + 15) / 16 * 16; }  // read as one 16-byte load

int64_t KernelEmitter::namedBarrierCount() const {
  return std::count_if(k_.resources.begin(), k_.resources.end(),
                       [](const Resource &r) { return r.kind == ResourceKind::NamedBarrier; });
}

int64_t KernelEmitter::arrivalSlots() const {
  int64_t n = namedBarrierCount();
  for (const Resource &r : k_.resources)
    if (r.kind == ResourceKind::Barrier) n += r.count;
  return n;
}

int64_t KernelEmitter::meetingsOffset() const { return (waitInfoOffset() + 16 + 4 * arrivalSlots() + 7) / 8 * 8; }

int64_t KernelEmitter::launchSmemBytes() const {
  if (!checkWaits()) return k_.smemBytes;
  return namedBarrierCount() ? meetingsOffset() + 8 * namedBarrierCount() : waitInfoOffset() + 16 + 4 * arrivalSlots();
}

void KernelEmitter::checkWaitsPrologue() {
  line(fmt::format("*reinterpret_cast<cake_wait_log **>(cake_smem_raw + {0}u) = cake_wlog;  // -fcheck-waits: the "
                   "record buffer,",
                   waitInfoOffset()));
  line(fmt::format("*reinterpret_cast<uint64_t *>(cake_smem_raw + {}u) = cake_wait_budget;  // the budget,",
                   waitInfoOffset() + 8));
  if (arrivalSlots() > 0)  // (none: no loop, which nvcc would warn about)
    line(fmt::format("for (uint32_t s = 0; s < {}u; ++s) reinterpret_cast<uint32_t *>(cake_smem_raw + {}u)[s] = 0;  "
                     "// the arrival counters",
                     arrivalSlots(), waitInfoOffset() + 16));
  int64_t i = 0;
  for (const Resource &r : k_.resources)
    if (r.kind == ResourceKind::NamedBarrier)
      line(fmt::format("{}(cake_smem + {}u, {}u);  // named barrier '{}' meets here: one arrival per warp of its roles",
                       w_.use("cake_mbar_init"), meetingsOffset() + 8 * i++, namedBarrierThreads(r.id) / 32, r.name));
}

// -fcheck-waits: lm.sync at an mbarrier, so that it can give up. The warp's
// lanes meet first (__syncwarp orders their memory accesses before lane 0's
// arrival, which releases them; the wait acquires the others'), then every
// lane waits for the meeting's phase: this thread's meeting count's parity.
void KernelEmitter::checkedMeeting(const Operation &o, RoleCtx &rc) {
  CAKE_CHECK(!rc.singleThread, "a role that meets at a named barrier runs on all its threads (singleThreadRole)");
  ResourceId nb = o.operand(param::Sync::barrier).value.resource;
  const Resource &b = k_.resource(nb);
  int64_t ordinal = 0, base = 0;
  for (const Resource &r : k_.resources) {
    if (r.kind == ResourceKind::Barrier) base += r.count;
    if (r.kind == ResourceKind::NamedBarrier && r.id < nb) ++ordinal;
  }
  int64_t warps = namedBarrierThreads(nb) / 32;
  std::string addr = fmt::format("cake_smem + {}u", meetingsOffset() + 8 * ordinal);
  std::string counter = fmt::format("cake_smem + {}u", waitInfoOffset() + 16 + 4 * (base + ordinal));
  std::string count = fmt::format("cake_meetings[{}]", ordinal);
  WaitSite site{o.range, rc.role->name, b.name, 1, warps, warps, 0, false, true, {}, true};
  for (const analysis::RoleEvents &r : f_.roles)
    for (const analysis::Event &e : r.events)
      if (e.op != &o && analysis::effectResource(*e.op, e.op->info().effects.meets) == nb)
        site.signals.push_back(
            {e.op->range, fmt::format("role '{}' meets on '{}' here", k_.resource(r.role).name, b.name)});
  site.signals.push_back(
      {b.range, fmt::format("'{}' is declared here: every warp of its roles meets there ({})", b.name, [&] {
         std::string names;
         for (ResourceId m : b.consumers) names += (names.empty() ? "'" : ", '") + k_.resource(m).name + "'";
         return names;
       }())});
  line(fmt::format("__syncwarp(); if (cake_lane == 0) {{ {}({}); {}({}); }}  // -fcheck-waits: named barrier '{}' "
                   "at an mbarrier",
                   w_.use("cake_mbar_arrive"), addr, w_.use("cake_count_arrival"), counter, b.name));
  line(waitCall(addr, count + " & 1u", fmt::format("static_cast<int32_t>({})", count), std::move(site), counter));
  line(fmt::format("++{};", count));
}

std::string KernelEmitter::arrivalCounter(ResourceId bar, const std::string &stage) {
  if (!checkWaits()) return "";
  for (const analysis::Event *ev : f_.barrier(bar).signals)
    if (analysis::signalsCluster(*ev->op)) return "";  // other blocks' arrivals land here uncounted
  int64_t base = 0;
  for (const Resource &r : k_.resources) {
    if (r.id == bar) break;
    if (r.kind == ResourceKind::Barrier) base += r.count;
  }
  const Resource &b = k_.resource(bar);
  return fmt::format("cake_smem + {}u{}", waitInfoOffset() + 16 + 4 * base,
                     b.count == 1 ? std::string() : " + 4u * " + ringSlot(stage, b.count));
}

std::string KernelEmitter::countArrival(ResourceId bar, const std::string &stage) {
  std::string c = arrivalCounter(bar, stage);
  return c.empty() ? "" : fmt::format("{}({});", w_.use("cake_count_arrival"), c);
}

std::string KernelEmitter::countedSignal(const std::string &signal, ResourceId bar, const std::string &stage) {
  std::string count = countArrival(bar, stage);
  return count.empty() ? signal : fmt::format("{{ {} {} }}", signal, count);
}

// -fcheck-waits: the kernel's waits by site number, as the records name
// them: where each is, its role and barrier, what completes a phase, and
// the lines of the notes that say where it is signalled.
std::string KernelEmitter::waitSitesTable() {
  if (waitSites_.empty()) return "";
  // File names as the compiler's own diagnostics print them (control
  // characters escaped), then as C string text.
  auto at = [&](const SourceRange &r) {
    return fmt::format("{}:{}:{}", escapeControlChars(sm_.name(r.begin.file)), r.begin.line, r.begin.col);
  };
  std::string o = fmt::format("// -fcheck-waits: the waits of '{}', by the site number the kernel records.\n"
                              "static const cake_wait_site cake_{}_waits[{}] = {{\n",
                              k_.name, symbol(), waitSites_.size());
  for (const WaitSite &w : waitSites_) {
    std::string notes;
    for (const auto &[r, what] : w.signals) notes += at(r) + ": note: " + what + "\n";
    o += fmt::format("    {{\"{}\", {}, {}, \"{}\", \"{}\", {}, {}, {}, {}, {}, {}, {},\n     \"{}\"}},\n",
                     cStringText(escapeControlChars(sm_.name(w.range.begin.file))), w.range.begin.line,
                     w.range.begin.col, cStringText(w.role), cStringText(w.barrier), w.slots, w.initCount, w.arrivals,
                     w.txBytes, w.release ? 1 : 0, w.counted ? 1 : 0,
                     w.meeting ? 1
                     : w.flag  ? 2
                               : 0,
                     cStringText(notes));
  }
  return o + "};\n\n";
}

// -fcheck-waits: the launchers' side (after kLauncherSupport): the record
// buffer, the time limit, and the records as gcc-style diagnostics.
const char *const kWaitSupport = R"CAKE(
// ---- -fcheck-waits (host) ----
#include <stdlib.h>
#include <time.h>
#ifndef CAKE_ERROR_HANG
#define CAKE_ERROR_HANG 6  // -fcheck-waits: a wait ran out of time (the message names it)
#endif
// A wait of a kernel, as its records name it (the launcher's table).
typedef struct cake_wait_site {
  const char *file;
  int line, col;
  const char *role, *barrier;
  long long slots;     // ring slots
  long long init;      // the arrivals that complete a phase (init_count)
  long long arrivals;  // the arrivals a phase gets from the schedule's signals
  long long tx_bytes;  // the transaction bytes a phase gets
  int release;         // a release barrier: its first lap passes
  int counted;         // the block counts the arrivals issued on it
  int meeting;         // 1: a named barrier's meeting (lm.sync), its stage the thread's meeting count;
                       // 2: a flag wait (lm.wait_flag), its stage the value it waits for
  const char *notes;   // lines: where it is signalled
} cake_wait_site;

// The record buffer: mapped host memory, one per host thread (a launch waits
// for its kernel, so a thread's buffer holds one launch's records),
// allocated once and kept (after a hang the CUDA context cannot free it),
// emptied before each launch.
static cake_wait_log *cake_wait_log_host(void) {
  static thread_local cake_wait_log *log = NULL;
  if (!log && cudaHostAlloc((void **)&log, sizeof *log, cudaHostAllocMapped | cudaHostAllocPortable) != cudaSuccess) {
    (void)cudaGetLastError();
    log = NULL;
  }
  if (log) *(volatile uint32_t *)&log->count = 0;
  return log;
}

// The time limit: the compiled one, or CAKE_CHECK_WAITS_SECONDS (0.001 to 3600).
static uint64_t cake_wait_budget_ns(double seconds) {
  if (const char *e = getenv("CAKE_CHECK_WAITS_SECONDS")) {
    char *end = NULL;
    double s = strtod(e, &end);
    if (end != e && *end == '\0' && s >= 0.001 && s <= 3600) seconds = s;
  }
  return (uint64_t)(seconds * 1e9);
}

// A launch that waits for its kernel cannot be captured into a CUDA graph.
static int cake_wait_capturing(cudaStream_t stream, char *msg) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &status) != cudaSuccess) {
    (void)cudaGetLastError();  // its own error: the launch says what is wrong with the stream
    return CAKE_SUCCESS;
  }
  if (status != cudaStreamCaptureStatusNone)
    return cake_fail(msg, CAKE_ERROR_LAUNCH,
                     "a -fcheck-waits launcher waits for its kernel, which a stream being captured cannot do: "
                     "capture a build without -fcheck-waits");
  return CAKE_SUCCESS;
}

// How long the launcher waits for its kernel (from when the stream reaches
// it) before it reports it stuck where no wait ran out: 20 times a wait's
// limit and at least 10 s, or CAKE_CHECK_WAITS_KERNEL_SECONDS (0: no
// deadline; up to 86400).
static uint64_t cake_kernel_deadline_ns(uint64_t budget) {
  if (const char *e = getenv("CAKE_CHECK_WAITS_KERNEL_SECONDS")) {
    char *end = NULL;
    double s = strtod(e, &end);
    if (end != e && *end == '\0' && s == 0) return UINT64_MAX;
    if (end != e && *end == '\0' && s >= 0.001 && s <= 86400) return (uint64_t)(s * 1e9);
  }
  return budget > 500000000ull ? 20 * budget : 10000000000ull;
}

// An event recorded on the stream just before the launch: the deadline
// counts from when the stream has finished the work queued before it.
static cudaEvent_t cake_wait_start_event(cudaStream_t stream) {
  static thread_local cudaEvent_t ev = NULL;
  if (!ev && cudaEventCreateWithFlags(&ev, cudaEventDisableTiming) != cudaSuccess) {
    (void)cudaGetLastError();
    ev = NULL;
  }
  if (ev && cudaEventRecord(ev, stream) != cudaSuccess) {
    (void)cudaGetLastError();
    return NULL;
  }
  return ev;
}

// Waits for the kernel; a wait that ran out becomes an error line (the first
// of each wait and stage, with how many warps and blocks waited there) and
// notes on standard error, the first line also the launcher's message. A
// kernel still running at the deadline with no record is stuck where no
// limit applies: that is the error then, and the kernel is left running.
static int cake_wait_for_kernel(char *msg, cudaStream_t stream, cake_wait_log *log, const cake_wait_site *sites,
                                unsigned nsites, uint64_t budget, const char *kernel,
                                cudaEvent_t started = NULL) {
  struct timespec start, now;
  struct timespec pause = {0, 200000};
  if (started)
    while (cudaEventQuery(started) == cudaErrorNotReady) nanosleep(&pause, NULL);  // earlier work on the stream
  clock_gettime(CLOCK_MONOTONIC, &start);
  cudaError_t err;
  for (;;) {
    err = cudaStreamQuery(stream);
    if (err != cudaErrorNotReady) break;
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint64_t waited = (uint64_t)(now.tv_sec - start.tv_sec) * 1000000000ull + (uint64_t)now.tv_nsec - (uint64_t)start.tv_nsec;
    if (waited > cake_kernel_deadline_ns(budget) && (!log || *(volatile uint32_t *)&log->count == 0)) {
      snprintf(msg, 512, "error: kernel '%s' has not finished after %.3g s, and none of its waits ran out: it is stuck "
               "where -fcheck-waits sets no limit (a role's own barrier, a cluster barrier, a wait for bulk stores or "
               "wgmmas, or copies still in flight when its blocks end) [run.hang]", kernel, waited / 1e9);
      fprintf(stderr, "%s\nnote: the kernel is still running: this process cannot use the GPU again, and must end "
              "(_exit: an orderly exit may wait for the kernel)\n", msg);
      return CAKE_ERROR_HANG;
    }
    if (waited > 10000000ull) nanosleep(&pause, NULL);  // polled without a pause for the first 10 ms
  }
  unsigned n = log ? *(volatile uint32_t *)&log->count : 0;
  if (n == 0) {
    if (err != cudaSuccess)
      return cake_fail(msg, CAKE_ERROR_LAUNCH, "the kernel failed: %s%s", cudaGetErrorString(err),
                       log ? "" : " (no record buffer: cudaHostAlloc failed, so a wait that ran out left no record)");
    return CAKE_SUCCESS;
  }
  unsigned kept = n < CAKE_WAIT_LOG_CAPACITY ? n : CAKE_WAIT_LOG_CAPACITY;
  static thread_local cake_wait_record r[CAKE_WAIT_LOG_CAPACITY];
  memcpy(r, (const void *)log->records, kept * sizeof r[0]);
  static thread_local unsigned char done[CAKE_WAIT_LOG_CAPACITY];
  memset(done, 0, sizeof done);
  unsigned shown = 0;
  for (unsigned i = 0; i < kept; ++i) {
    if (done[i]) continue;
    unsigned warps = 0, blocks = 0;
    for (unsigned j = i; j < kept; ++j) {
      if (r[j].site != r[i].site || r[j].stage != r[i].stage) continue;
      done[j] = 1;
      ++warps;
      int seen = 0;
      for (unsigned q = i; q < j && !seen; ++q)
        seen = r[q].site == r[j].site && r[q].stage == r[j].stage && r[q].block[0] == r[j].block[0] &&
               r[q].block[1] == r[j].block[1] && r[q].block[2] == r[j].block[2];
      blocks += !seen;
    }
    if (++shown > 16) continue;
    char line[1024];
    if (r[i].site >= nsites) {
      snprintf(line, sizeof line, "error: a wait with no site in the launcher's table (%u) ran out [run.hang]",
               r[i].site);
    } else {
      const cake_wait_site *s = &sites[r[i].site];
      long long slot = ((long long)r[i].stage % s->slots + s->slots) % s->slots;
      long long lap = ((long long)r[i].stage - slot) / s->slots;
      long long phase = s->release ? lap - 1 : lap;  // the phase of the slot it waits for, from 0
      char what[320];
      int len = snprintf(what, sizeof what, s->meeting ? "a meeting completes when %lld warp(s) of its roles arrive"
                                                       : "a phase completes after %lld arrival(s)", s->init);
      if (s->tx_bytes) len += snprintf(what + len, sizeof what - len, " and %lld transaction bytes", s->tx_bytes);
      if (s->arrivals != s->init)
        len += snprintf(what + len, sizeof what - len, ", and the schedule signals it %lld time(s) a phase", s->arrivals);
      if (s->counted && r[i].arrivals != ~0u) {
        long long seen = (long long)r[i].arrivals - phase * s->init;
        if (phase < 0)
          snprintf(what + len, sizeof what - len, "; its first lap passes unless the slot's first phase completed "
                   "before it: this block issued %u arrival(s) on the slot", r[i].arrivals);
        else if (seen < 0)
          snprintf(what + len, sizeof what - len, "; this block issued %u arrival(s) on the slot in all, phase %lld "
                   "needs %lld", r[i].arrivals, phase, (phase + 1) * s->init);
        else if (seen < s->init)
          snprintf(what + len, sizeof what - len, "; %lld of its %lld arrival(s) were issued", seen, s->init);
        else
          snprintf(what + len, sizeof what - len, "; all %lld arrival(s) were issued%s", s->init,
                   s->tx_bytes ? ", so it waits for transaction bytes" : "");
      }
      if (s->meeting == 2)
        snprintf(line, sizeof line,
                 "%s:%d:%d: error: role '%s' (block (%u, %u, %u), warp %u) waited %.1f s for flag '%s' to hold "
                 "%d; it held %d: no block released that value [run.hang]",
                 s->file, s->line, s->col, s->role, r[i].block[0], r[i].block[1], r[i].block[2], r[i].warp,
                 r[i].waited_ns / 1e9, s->barrier, r[i].stage, (int)r[i].parity);
      else if (s->meeting)
        snprintf(line, sizeof line,
                 "%s:%d:%d: error: role '%s' (block (%u, %u, %u), warp %u) waited %.1f s at named barrier '%s', "
                 "its meeting %d there: %s [run.hang]",
                 s->file, s->line, s->col, s->role, r[i].block[0], r[i].block[1], r[i].block[2], r[i].warp,
                 r[i].waited_ns / 1e9, s->barrier, r[i].stage, what);
      else
        snprintf(line, sizeof line,
                 "%s:%d:%d: error: role '%s' (block (%u, %u, %u), warp %u) waited %.1f s on barrier '%s' stage %d "
                 "(slot %lld, parity %u)%s: %s [run.hang]",
                 s->file, s->line, s->col, s->role, r[i].block[0], r[i].block[1], r[i].block[2], r[i].warp,
                 r[i].waited_ns / 1e9, s->barrier, r[i].stage, slot, r[i].parity,
                 s->release ? ", a release barrier whose first lap passes" : "", what);
    }
    fprintf(stderr, "%s\n", line);
    if (shown == 1) snprintf(msg, 512, "%.511s", line);
    if (r[i].site < nsites) {
      const cake_wait_site *s = &sites[r[i].site];
      if (warps > 1)
        fprintf(stderr, "%s:%d:%d: note: %u warp(s) of %u block(s) ran out at this wait and stage\n", s->file,
                s->line, s->col, warps, blocks);
      fputs(s->notes, stderr);
    }
  }
  if (shown > 16) fprintf(stderr, "note: %u more wait(s) and stage(s) ran out, not shown\n", shown - 16);
  if (n > kept) fprintf(stderr, "note: %u more record(s) did not fit the buffer\n", n - kept);
  fprintf(stderr, "note: every wait gives up after %.3g s (-fcheck-waits; CAKE_CHECK_WAITS_SECONDS); the kernel "
                  "was stopped (a store to address 0), so this process cannot use the GPU again (%s)\n",
          budget / 1e9, cudaGetErrorString(err));
  return CAKE_ERROR_HANG;
}
)CAKE";

}  // namespace cake::codegen::detail
