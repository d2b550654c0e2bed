// PtxWrappers: the small, documented set of inline-PTX device functions the
// generated CUDA calls. Every PTX instruction of the output lives in one of
// them; the kernel body only calls them. A wrapper is emitted only when the
// kernel uses it, in a fixed order, so output stays deterministic.
#pragma once

#include <set>
#include <string>
#include <tuple>

#include "sema/Types.h"

namespace cake::codegen {

// The form of one wgmma instruction the kernel issues.
struct WgmmaForm {
  int64_t n = 0;
  sema::DType a = sema::DType::BF16;
  sema::DType b = sema::DType::BF16;  // A's type but for fp8, where e4m3 and e5m2 mix
  bool aInRegs = false;               // A from registers, not a descriptor
  bool bMnMajor = false;              // B MN-major (imm-trans-b = 1; 16-bit types only)
  auto key() const { return std::tuple(n, static_cast<int>(a), static_cast<int>(b), aInRegs, bMnMajor); }
  bool operator<(const WgmmaForm &o) const { return key() < o.key(); }
};

class WrapperSet {
public:
  // Marks a fixed wrapper (and what it calls) as used; returns its name.
  std::string use(const std::string &name);
  // cake_tma_load_<rank>d / cake_tma_store_<rank>d.
  std::string useTmaLoad(unsigned rank);
  std::string useTmaStore(unsigned rank);
  std::string useTmaReduceAdd(unsigned rank);
  // cake_tma_load_multicast_<rank>d: to every block of the cluster in a mask.
  std::string useTmaLoadMulticast(unsigned rank);
  // cake_wgmma_m64n<N>k16_f32_<ab>[_rs][_bmn]: one warpgroup MMA, A through
  // a descriptor or from registers (_rs), B through a K-major or MN-major
  // (_bmn) descriptor, f32 accumulators in registers.
  std::string useWgmma(const WgmmaForm &f);
  // cake_atom_<op>_<order>_<scope>: an atomic read-modify-write of one
  // 32-bit global integer (op: add, max, min, exch, cas), returning its old
  // value.
  std::string useAtomic(const std::string &op, const std::string &order, const std::string &scope);
  // Whether a fixed wrapper is used.
  bool used(const std::string &name) const { return fixed_.count(name) != 0; }

  // The definitions of every used wrapper, in table order, then the
  // generated ones by name.
  std::string text() const;

private:
  std::set<std::string> fixed_;
  std::set<std::pair<int, unsigned>> tma_;  // (0 load / 1 store / 2 multicast load, rank)
  std::set<WgmmaForm> wgmma_;
  std::set<std::tuple<std::string, std::string, std::string>> atomics_;
};

}  // namespace cake::codegen
