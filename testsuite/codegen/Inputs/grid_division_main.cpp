// Calls the launcher and the dispatcher of grid_division.cake with n and d
// from the command line and prints what they return (grid_division.test).
// Runs without a GPU: the checks come before any CUDA call.
#include <cstdio>
#include <cstdlib>

#include "grid_division.h"

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  int32_t n = std::atoi(argv[1]), d = std::atoi(argv[2]);
  int e = walk_launch(n, d, nullptr);
  std::printf("walk: %s: %s\n", e == CAKE_ERROR_SHAPE ? "shape error" : e == CAKE_SUCCESS ? "launched" : "other error",
              walk_last_error());
  const char *route = fam_route(n, d);
  std::printf("route: %s\n", route ? route : "(none)");
  e = fam_launch(n, d, nullptr);
  std::printf("fam: %s: %s\n", e == CAKE_ERROR_SHAPE ? "shape error" : e == CAKE_SUCCESS ? "launched" : "other error",
              fam_last_error());
  return 0;
}
