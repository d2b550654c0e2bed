// ValueReads.cpp - the launchers' side of lm.load_scalar's range check
// (docs/language.md 9.8): the table of a kernel's reads, and the record a
// read outside its range leaves in mapped host memory, printed as a
// diagnostic ([run.value-range]) once: at the kernel's next launch (which
// it refuses) or when the process exits. The kernel writes the record with
// no call (cake_value_out_of_range), so its wgmmas are not serialized.
#include <fmt/format.h>

#include "codegen/Emitter.h"

namespace cake::codegen::detail {

// The kernel's reads by the number the kernel records, then the watch over
// its record.
std::string KernelEmitter::valueSitesTable() const {
  if (!readsValues()) return "";
  std::string o, sites = "NULL";
  if (!valueSites_.empty()) {
    o = fmt::format("// lm.load_scalar: the reads of '{}', by the number a record names.\n"
                    "static const cake_value_site cake_{}_value_sites[{}] = {{\n",
                    k_.name, symbol(), valueSites_.size());
    for (const auto &[r, what] : valueSites_)
      o += fmt::format("    {{\"{}\", {}, {}, \"{}\"}},\n", cStringText(escapeControlChars(sm_.name(r.begin.file))),
                       r.begin.line, r.begin.col, cStringText(what));
    o += "};\n";
    sites = fmt::format("cake_{}_value_sites", symbol());
  }
  o += fmt::format("static cake_value_watch cake_{}_values = {{\"{}\", {}, {}u, NULL, NULL, 0, 0, NULL}};\n\n",
                   symbol(), cStringText(k_.name), sites, valueSites_.size());
  return o;
}

const char *const kValueReadSupport = R"CAKE(
// ---- lm.load_scalar's range check (host) ----
#include <stdlib.h>
#include <mutex>
#ifndef CAKE_ERROR_VALUE_RANGE
#define CAKE_ERROR_VALUE_RANGE 7  // an earlier launch read a value outside its declared range (the message names it)
#endif
// A read of a kernel, as its record names it (the launcher's table).
typedef struct cake_value_site {
  const char *file;
  int line, col;
  const char *what;
} cake_value_site;
// One kernel's record: allocated at its first launch, mapped, kept (after
// the kernel stops the CUDA context cannot free it).
typedef struct cake_value_watch {
  const char *kernel;
  const cake_value_site *sites;
  uint32_t count;
  cake_value_fault *host, *device;
  int failed;  // the record could not be allocated: the kernel only stops
  int shown;   // its message is out
  struct cake_value_watch *next;
} cake_value_watch;
static std::mutex cake_value_mutex;  // guards the watches
static cake_value_watch *cake_value_watches = NULL;

// The message for the record a launch of w's kernel left; 0 when none.
static int cake_value_fault_text(const cake_value_watch *w, char *msg) {
  const cake_value_fault *f = w->host;
  if (!f || *(const volatile uint32_t *)&f->state != 2u) return 0;
  const cake_value_site *s = f->site < w->count ? &w->sites[f->site] : NULL;
  snprintf(msg, 512,
           "%s:%d:%d: error: %s read %lld in block (%u, %u, %u), outside its range [%lld, %lld): kernel '%s' stopped "
           "[run.value-range]",
           s ? s->file : "?", s ? s->line : 0, s ? s->col : 0, s ? s->what : "a read", (long long)f->value,
           f->block[0], f->block[1], f->block[2], (long long)f->lo, (long long)f->hi, w->kernel);
  return 1;
}

// At exit: the records no launch has reported.
static void cake_value_faults_at_exit(void) {
  std::lock_guard<std::mutex> lock(cake_value_mutex);
  char msg[512];
  for (cake_value_watch *w = cake_value_watches; w; w = w->next)
    if (!w->shown && cake_value_fault_text(w, msg)) {
      fprintf(stderr, "%s\n", msg);
      w->shown = 1;
    }
}

// At the start of a launch: an earlier launch that stopped on a value is
// this one's error (the CUDA context is unusable after it), and printed
// once.
static int cake_value_fault_earlier(cake_value_watch *w, char *msg) {
  std::lock_guard<std::mutex> lock(cake_value_mutex);
  if (!cake_value_fault_text(w, msg)) return 0;
  if (!w->shown) fprintf(stderr, "%s\n", msg);
  w->shown = 1;
  return CAKE_ERROR_VALUE_RANGE;
}

// Before a launch: the record the kernel writes through (NULL when none
// could be allocated). Allocated at the first launch, in relaxed capture
// mode so that a launch captured into a graph may be the first.
static cake_value_fault *cake_value_fault_device(cake_value_watch *w) {
  std::lock_guard<std::mutex> lock(cake_value_mutex);
  if (!w->host && !w->failed) {
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    const int exchanged = cudaThreadExchangeStreamCaptureMode(&mode) == cudaSuccess;
    cake_value_fault *h = NULL, *d = NULL;
    if (cudaHostAlloc((void **)&h, sizeof *h, cudaHostAllocMapped | cudaHostAllocPortable) != cudaSuccess) {
      h = NULL;
    } else {
      memset(h, 0, sizeof *h);
      if (cudaHostGetDevicePointer((void **)&d, h, 0) != cudaSuccess) {
        (void)cudaFreeHost(h);
        h = NULL;
      }
    }
    if (exchanged) (void)cudaThreadExchangeStreamCaptureMode(&mode);
    if (!h) {
      (void)cudaGetLastError();
      w->failed = 1;
    } else {
      w->host = h;
      w->device = d;
      if (!cake_value_watches) atexit(cake_value_faults_at_exit);  // after the runtime's own: runs before it
      w->next = cake_value_watches;
      cake_value_watches = w;
    }
  }
  return w->device;
}
)CAKE";

}  // namespace cake::codegen::detail
