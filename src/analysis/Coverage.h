// Coverage.h - what the stores of a tensor parameter leave unwritten
// (docs/language.md 17.3, data.output-gap).
//
// Every write of a tensor (a tile copy from shared memory or registers, an
// atomic's element) covers, along each dimension, its coordinate plus
// [0, extent). A coordinate is an affine form of integer atoms (block
// indices, loop variables, parameters, their quotients): a constant plus a
// variable part, coefficients times integers. A role's writes with one
// variable part write one tile (or element) with each value of their atoms;
// they and the other roles' writes (which may write the rest of those
// tiles) must cover it. Along a dimension each write lands at its constant
// plus a multiple of P, the gcd of those writes' coefficients there, so an
// element x is written by them only if, along every dimension with a
// period, (x - c_w) mod P falls in [0, extent_w) for one write w. A part of
// the period cell (P_0 x P_1 x ... elements, outermost first) that none of
// them covers is never written in any tile the group writes, at any shape,
// whatever the guards (which only write less). The role's writes with
// another variable part are taken to write other tiles, at another time
// (a persistent loop's epilogue for the tile before, and after the loop for
// the last one). Along a dimension where every coordinate is constant (no
// period), the cell is the writes' hull there from coordinate 0 on: a hole
// between two writes lies inside the tensor (below a later write, which the
// launcher keeps in bounds), what lies past the last one is not judged. A
// tensor one of whose writes has a coordinate without a normal form is not
// judged, nor one whose cell has so many pieces that checking them would
// take more than a million steps (hundreds of writes of one tensor).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analysis/ScheduleModel.h"
#include "sema/SemaIR.h"

namespace cake::analysis {

struct OutputCoverage {
  sema::ResourceId tensor = sema::kNoResource;
  std::vector<const sema::Operation *> writes;  // in role, then program order
  // The first group of writes (a role's with one variable part, and the
  // other roles') that leaves part of its tiles unwritten, its period
  // (outermost first; 0: none, not judged) and that part.
  std::vector<const sema::Operation *> group;
  std::vector<int64_t> period;
  // A box of the period cell, outermost first ([lo, hi) per dimension: within
  // the period, or where there is none the coordinates themselves), that no
  // write of the group covers; empty when every group covers its tiles.
  std::vector<std::pair<int64_t, int64_t>> gap;
};

// The tensor parameter an operation writes, or kNoResource: a copy, store or
// atomic into it (an operation that loads from it does not write it).
sema::ResourceId writtenTensor(const sema::Operation &op);

// Every tensor parameter a role writes, in resource order.
std::vector<OutputCoverage> collectOutputCoverage(const sema::Kernel &k, const std::vector<RoleEvents> &roles);

// How a kernel's operations use a tensor parameter: whether one reads it (a
// copy or load from it, an atomic's read of the old value) and whether one
// writes it (a copy or store into it, an atomic; an atomic and a TMA
// addition also read it). The launcher's interface
// (--emit=interface) calls a tensor written and never read an output; the
// data gate refuses a value read from a tensor the kernel writes.
struct ParamAccess {
  bool reads = false;
  bool writes = false;
  const sema::Operation *write = nullptr;  // the first write, in role then program order
};
std::map<sema::ResourceId, ParamAccess> collectParamAccess(const sema::Kernel &k, const std::vector<RoleEvents> &roles);

}  // namespace cake::analysis
