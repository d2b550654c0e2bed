// CrossBlock: what a kernel's blocks hand each other through the launch's
// workspace (lm.workspace): which role stores, loads and atomically updates
// which workspace tensor, where, under which branches on an atomic's old
// value, and how many blocks update each counter element. The safety gate's
// cross-block rules (passes/safety/CrossBlock.cpp) read these facts.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis/ScheduleModel.h"

namespace cake::analysis {

enum class MemOrder : uint8_t { Relaxed, Acquire, Release, AcqRel };
bool acquires(MemOrder o);
bool releases(MemOrder o);

// A branch taken where an atomic's old value compares equal to something:
// the `if` statement and its condition (old - other == 0 as a normal form).
struct CounterGuard {
  const sema::IrStmt *branch = nullptr;
  int64_t roleValue = -1;  // the atomic's value (IntOp::RoleValue)
  bool equality = false;   // where the old value equals it: `==`'s then-branch, `!=`'s else; otherwise not proven
};

// Where an operation sits: the loops and non-constant branches around it,
// outermost first (a branch with the side it is on: 1 then, 2 else; a loop 0).
using Scope = std::vector<std::pair<const sema::IrStmt *, int>>;
// Whether `inner` lies within every construct `outer` lies in (so code at
// `outer` runs whenever code at `inner` does, given program order).
bool scopeEncloses(const Scope &outer, const Scope &inner);

// Whether the blocks of a launch store disjoint tiles (TileSpread.cpp).
enum class Spread : uint8_t { Disjoint, Overlap, Unknown };

struct WorkspaceAccess {
  enum class Kind : uint8_t { Store, Load, Atomic } kind = Kind::Store;
  const Event *event = nullptr;
  sema::ResourceId tensor = sema::kNoResource;
  std::vector<CounterGuard> guards;  // enclosing branches on atomics' values, outermost first
  Scope where;                       // the loops and branches around it
  // Stores: by TMA (the writes land after the operation, at a group wait
  // with visible=True), and whether it adds into the tile (tma_reduce_add).
  bool async = false;
  bool reduce = false;
  // Plain stores outside branches on atomics' values: whether blocks that
  // differ in a grid dimension of more than one block store disjoint tiles
  // (all of a block's stores of the tensor together); where not proven,
  // the dimension and why.
  Spread spread = Spread::Unknown;
  int64_t spreadDim = -1;
  std::string spreadWhy;
  // Tensor parameters' stores: no coordinate names a grid dimension of
  // run-time extent, so its blocks store one tile when it exceeds one.
  bool sameTile = false;
  // Loads: the thread writes zero where it read (load_tile(reset=True)).
  bool reset = false;
  // Atomics:
  MemOrder order = MemOrder::Relaxed;
  std::string op;                // "add", "max", "min", "exch", "cas"
  std::string scope;             // "gpu" or "cluster"
  std::optional<int64_t> value;  // the operand, when constant
  int64_t roleValue = -1;        // its old value's leaf (IntOp::RoleValue)
  bool once = false;  // runs once per block: in no loop, under no condition but ones its sharers decide alike
  // How many blocks update the same element: `sharersConst` times the grid
  // extent of dimension `sharersDim` (-1: none), when the coordinates are
  // distinct block indices; `sharersWhy` says why not otherwise.
  bool sharersKnown = false;
  int64_t sharersConst = 1;
  int sharersDim = -1;
  std::string sharersWhy;
  std::set<int64_t> blockDims;  // the grid dimensions its coordinates name (when sharersKnown)
};

// A wait for the role's TMA copies to be written (lm.tma_store_wait(visible=True)).
struct VisibleWait {
  const Event *event = nullptr;
  int64_t pending = 0;
  Scope where;  // the loops and branches around it
};

// A wait until an element of a workspace tensor holds a value
// (lm.wait_flag): one thread spins with acquire order, then the role meets.
struct FlagWait {
  const Event *event = nullptr;
  sema::ResourceId tensor = sema::kNoResource;
  Scope where;  // the loops and branches around it
  // In no loop, and under no branch that the blocks sharing its element
  // may decide differently: once per block, or in none of a chain.
  bool once = false;
  // The grid dimensions its coordinates name, when they are distinct block
  // indices (times constants, plus the launch's scalars); `sharersWhy` says
  // why not otherwise.
  bool sharersKnown = false;
  std::set<int64_t> blockDims;
  std::string sharersWhy;
};

struct CrossBlockFacts {
  std::vector<WorkspaceAccess> accesses;  // by role, in program order
  std::vector<VisibleWait> visibleWaits;  // by role, in program order
  std::vector<FlagWait> flagWaits;        // by role, in program order
  bool paramAdditions = false;            // a TMA addition into a floating-point tensor parameter
  // The atomic whose old value is `roleValue`, or null.
  const WorkspaceAccess *atomic(int64_t roleValue) const;
};

// Coordinates and grid extents as polynomials over atoms (products
// multiplied out) with lm.num_blocks(d) read as the grid's extent there, so a
// stride written either way compares; nullopt past 16 levels or on
// overflow. A grid dimension the launch does not have has extent 1.
std::optional<sema::PolyForm> gridPoly(const sema::Kernel &k, const sema::AffineForm &f, int depth = 0);
std::optional<sema::PolyForm> gridPoly(const sema::Kernel &k, const sema::Value &v, int depth = 0);
std::optional<sema::PolyForm> gridExtentPoly(const sema::Kernel &k, int64_t d, int depth = 0);
// The same in every block of a launch: parameters, the grid and cluster
// counts, the SM count, and operations on them.
bool launchConstant(const sema::Kernel &k, sema::AtomId atom, int depth = 0);

// Sets the spread of the plain stores among `accesses` that every block
// makes (outside branches on atomics' values), judged per tensor together.
void judgeTileSpread(const sema::Kernel &k, std::vector<WorkspaceAccess> &accesses);

// A tensor parameter whose unconditional stores (outside every branch)
// provably overlap between blocks: a block index steps a coordinate by less
// than the tile a block writes there and no other coordinate keeps
// neighbouring blocks apart (judgeTileSpread's Overlap), or no coordinate
// names some grid dimension of more than one block (not proven where its
// extent is a run-time value; a dimension along which flag turns order
// every store of the tensor counts as one block). Stores that are not
// judged (loop-dependent coordinates, a persistent grid's tiles) are not
// listed.
struct OutputOverlap {
  sema::ResourceId tensor = sema::kNoResource;
  const sema::Operation *store = nullptr;  // the first of its stores
  int64_t dim = -1;                        // the grid dimension
  std::string why;
  // Proven: blocks of the launch overlap; otherwise they do where the grid
  // has more than one block along `dim` (a run-time extent).
  bool proven = true;
};
std::vector<OutputOverlap> collectOutputOverlaps(const sema::Kernel &k, const std::vector<RoleEvents> &roles,
                                                 const CrossBlockFacts &cb);

// The blocks along grid dimension `d` in which code runs, as a set of
// classes (bits): the first (lm.block_id(d) == 0 of more than one), those
// between, the last (== lm.num_blocks(d) - 1 of more than one), and the only
// one (a dimension of one block). `loop`: a loop lies around it; `other`: a
// branch around it compares something else, so it may not run in every
// block of its classes.
enum : uint8_t { kFirstBlock = 1, kMiddleBlocks = 2, kLastBlock = 4, kOnlyBlock = 8, kEveryBlock = 15 };
struct ChainPlace {
  uint8_t blocks = kEveryBlock;
  bool loop = false;
  bool other = false;
};
// The place of code inside the constructs `where` lists from index `from` on.
ChainPlace chainPlace(const sema::Kernel &k, const Scope &where, size_t from, int64_t d);

// judgeTileSpread for the plain stores `group` of one tensor, with the
// blocks along grid dimension `chain` taken as one (they store one tile in
// turn): whether blocks that differ in another dimension store disjoint
// tiles; `why` says what is not proven.
Spread spreadAcrossChains(const sema::Kernel &k, const std::vector<WorkspaceAccess *> &group, int64_t chain,
                          std::string &why);

CrossBlockFacts collectCrossBlock(const sema::Kernel &k, const std::vector<RoleEvents> &roles);

// Whether the tile that `load` reads lies in a part that a block of the
// count of `counter` stores at `store`: the load's coordinates equal the
// store's with each grid dimension the counter's coordinates do not name
// (those that tell the count's blocks apart) set to 0 or to a loop variable
// of the load that stays in [0, that dimension's extent), up to constants
// that keep the load's tile inside the store's (copyExtent). Yes, no (every
// way of reading it gives constants that leave the store's tile), or not
// proven (`why` says what was not).
enum class Containment : uint8_t { Yes, No, Unknown };
Containment partContains(const sema::Kernel &k, const WorkspaceAccess &load, const WorkspaceAccess &store,
                         const WorkspaceAccess &counter, std::string &why);

// `--emit=ir` appendix and the launcher's documentation: who stores, loads
// and counts what in the workspace, and whether a reduction through it has
// a fixed order (no atomic adds data: the block that finishes adds what it
// reads in its program's order) or not. Empty for a kernel without one.
std::string describeCrossBlock(const sema::Kernel &k, const CrossBlockFacts &f);
// One line for the launcher's comment: how the result of a kernel that
// reduces through its workspace depends on the launch ("" without one).
std::string reductionOrder(const sema::Kernel &k, const CrossBlockFacts &f);

}  // namespace cake::analysis
