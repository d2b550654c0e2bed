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
  cake_ranges_values.host = &ranges_fault;  // as cake_value_fault_device leaves it, and the kernel the record
  for (int i = 0; i < 2; ++i) {
    int rc = ranges_launch(&X, &IDX, &Y, 100, 64, 0, 100, nullptr);
    fprintf(stderr, "after the record, launch %d: %d %s\n", i, rc, ranges_last_error());
  }
  // A record half written (state 1) is not yet a record.
  static cake_value_fault half = recorded(7, 3, 4, 1);
  half.state = 1;
  cake_looped_values.host = &half;
  int rc = looped_launch(&X, &IDX, &Y, 4, 64, 0, nullptr);
  fprintf(stderr, "half-written record: %s\n", rc == CAKE_ERROR_VALUE_RANGE ? "refused" : "not refused");
  // Reported at exit only: the watch listed as its first launch lists it.
  half.state = 2;
  cake_looped_values.next = cake_value_watches;
  cake_value_watches = &cake_looped_values;
  atexit(cake_value_faults_at_exit);
  fprintf(stderr, "exiting\n");
  return 0;
}
