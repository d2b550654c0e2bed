// The launchers' side of a value read outside its range, on the host (no
// GPU here): a record as the kernel leaves it (cake_value_out_of_range, in
// the mapped host memory the launcher allocates at the first launch) is
// put where the launcher looks. Its next launch is refused with the
// record's message, printed to stderr once; a record no launch reported is
// printed when the process exits. Everything goes to stderr, in order.
#include "ranges.cu"

static cake_value_fault recorded(int64_t value, int64_t lo, int64_t hi, uint32_t block) {
  cake_value_fault f = {};
  f.state = 2;  // written
  f.site = 0;
  f.value = value;
  f.lo = lo;
  f.hi = hi;
  f.block[0] = block;
  return f;
}

int main() {
  cake_tensor X = {}, IDX = {}, Y = {};  // not read: the record refuses the launch first
  for (int i = 0; i < 2; ++i) {
    int rc = ranges_launch(&X, &IDX, &Y, 100, 64, 0, 100, nullptr);
    fprintf(stderr, "no record, launch %d: %s (%d)\n", i, rc == CAKE_ERROR_VALUE_RANGE ? "refused" : "not refused",
            rc);
  }
  static cake_value_fault ranges_fault = recorded(100, 0, 100, 4);
  cake_ranges_values.host[0] = &ranges_fault;  // device 0's, as the launcher and a kernel leave it
  for (int i = 0; i < 2; ++i) {
    int rc = ranges_launch(&X, &IDX, &Y, 100, 64, 0, 100, nullptr);
    fprintf(stderr, "after the record, launch %d: %d %s\n", i, rc, ranges_last_error());
  }
  // A record being written (state 1): the kernel stops, so the launch is
  // refused, the record named incomplete.
  static cake_value_fault half = recorded(7, 3, 4, 1);
  half.state = 1;
  cake_looped_values.host[0] = &half;
  int rc = looped_launch(&X, &IDX, &Y, 4, 64, 0, nullptr);
  fprintf(stderr, "half-written record: %d %s\n", rc, looped_last_error());
  // Device 1's record, reported at exit only (no launch on device 1): the
  // watch listed as the device's first launch lists it.
  static cake_value_fault other = recorded(7, 3, 4, 1);
  cake_looped_values.host[1] = &other;
  cake_looped_values.next = cake_value_watches;
  cake_value_watches = &cake_looped_values;
  atexit(cake_value_faults_at_exit);
  fprintf(stderr, "exiting\n");
  return 0;
}
