// ValueReads.cpp - the launchers' side of lm.load_scalar's range check
// (docs/language.md 9.8): the table of a kernel's reads, and the record a
// read outside its range leaves in mapped host memory, printed as a
// diagnostic ([run.value-range]) once: at the kernel's next launch on the
// device (which it refuses), after a -fcheck-waits launch, or when the
// process exits. The kernel writes the record with
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
  o += fmt::format("static cake_value_watch cake_{}_values = {{\"{}\", {}, {}u}};  // the rest zero\n\n", symbol(),
                   cStringText(k_.name), sites, valueSites_.size());
  return o;
}

const char *const kValueRangeCode =
    "#ifndef CAKE_ERROR_VALUE_RANGE\n"
    "#define CAKE_ERROR_VALUE_RANGE 7  // a launch read a value outside its declared range (the message names it)\n"
    "#endif\n";

const char *const kValueReadSupport = R"CAKE(
// ---- lm.load_scalar's range check (host) ----
#include <stdlib.h>
#include <mutex>
#ifndef CAKE_ERROR_VALUE_RANGE
#define CAKE_ERROR_VALUE_RANGE 7  // a launch read a value outside its declared range (the message names it)
#endif
#define CAKE_VALUE_DEVICES 64  // devices with a record of their own (a launch on a device past them has none)
// A read of a kernel, as its record names it (the launcher's table).
typedef struct cake_value_site {
  const char *file;
  int line, col;
  const char *what;
} cake_value_site;
// One kernel's records, one per device: a page of host memory each (never
// freed, so reading it stays safe after the CUDA context is gone), mapped
// for the device at each launch (registered again after cudaDeviceReset).
typedef struct cake_value_watch {
  const char *kernel;
  const cake_value_site *sites;
  uint32_t count;
  cake_value_fault *host[CAKE_VALUE_DEVICES];
  int shown[CAKE_VALUE_DEVICES];  // its message is out
  int listed;                     // in cake_value_watches
  struct cake_value_watch *next;
} cake_value_watch;
static std::mutex cake_value_mutex;  // guards the watches
static cake_value_watch *cake_value_watches = NULL;

// The message for the record a launch of w's kernel left on device `dev`;
// 0 when none. A record being written (the kernel stops when it is done, or
// stopped while it was) is reported without its values.
static int cake_value_fault_text(const cake_value_watch *w, int dev, char *msg) {
  const cake_value_fault *f = w->host[dev];
  if (!f) return 0;
  const uint32_t state = *(const volatile uint32_t *)&f->state;
  if (state == 0u) return 0;
  if (state != 2u) {
    snprintf(msg, 512, "error: kernel '%s' stopped on device %d: a value read outside its range, its record "
             "incomplete [run.value-range]", w->kernel, dev);
    return 1;
  }
  const uint32_t site = *(const volatile uint32_t *)&f->site;
  const cake_value_site *s = site < w->count ? &w->sites[site] : NULL;
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
    for (int dev = 0; dev < CAKE_VALUE_DEVICES; ++dev)
      if (!w->shown[dev] && cake_value_fault_text(w, dev, msg)) {
        fprintf(stderr, "%s\n", msg);
        w->shown[dev] = 1;
      }
}

// The current device's record index (-1: none), the first device where the
// runtime names none (it cannot launch there either).
static int cake_value_current_device(void) {
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    (void)cudaGetLastError();
    dev = 0;
  }
  return dev >= 0 && dev < CAKE_VALUE_DEVICES ? dev : -1;
}

// At the start of a launch: an earlier launch on this device that stopped
// on a value is this one's error (the device's CUDA context is unusable
// after it), printed once.
static int cake_value_fault_earlier(cake_value_watch *w, char *msg) {
  const int dev = cake_value_current_device();
  if (dev < 0) return 0;
  std::lock_guard<std::mutex> lock(cake_value_mutex);
  if (!cake_value_fault_text(w, dev, msg)) return 0;
  if (!w->shown[dev]) fprintf(stderr, "%s\n", msg);
  w->shown[dev] = 1;
  return CAKE_ERROR_VALUE_RANGE;
}

// Before a launch: the device's address of the record the kernel writes
// (NULL when there is none: the kernel then only stops). The page is
// allocated at the device's first launch and registered (mapped) when the
// device does not have it, in relaxed capture mode so that a launch
// captured into a graph may be the one that registers it.
static cake_value_fault *cake_value_fault_device(cake_value_watch *w) {
  const int dev = cake_value_current_device();
  if (dev < 0) return NULL;
  std::lock_guard<std::mutex> lock(cake_value_mutex);
  cake_value_fault *h = w->host[dev];
  if (!h) {
    h = (cake_value_fault *)aligned_alloc(4096, 4096);  // a page of its own: registrations do not overlap
    if (!h) return NULL;
    memset(h, 0, 4096);
    w->host[dev] = h;
    if (!w->listed) {
      if (!cake_value_watches) atexit(cake_value_faults_at_exit);
      w->next = cake_value_watches;
      cake_value_watches = w;
      w->listed = 1;
    }
  }
  // Registered (and not dropped by cudaDeviceReset since): its device
  // address. Asked without a failing call (compute-sanitizer reports those).
  cudaPointerAttributes attr;
  if (cudaPointerGetAttributes(&attr, h) == cudaSuccess && attr.type == cudaMemoryTypeHost && attr.devicePointer)
    return (cake_value_fault *)attr.devicePointer;
  (void)cudaGetLastError();
  cake_value_fault *d = NULL;
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  const int exchanged = cudaThreadExchangeStreamCaptureMode(&mode) == cudaSuccess;
  if (cudaHostRegister(h, 4096, cudaHostRegisterMapped | cudaHostRegisterPortable) != cudaSuccess ||
      cudaHostGetDevicePointer((void **)&d, h, 0) != cudaSuccess) {
    (void)cudaGetLastError();
    d = NULL;
  }
  if (exchanged) (void)cudaThreadExchangeStreamCaptureMode(&mode);
  return d;
}
)CAKE";

}  // namespace cake::codegen::detail
