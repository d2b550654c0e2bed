// OpTable: the vocabulary of CAKE IR (Ops.def) as data.
//
// Semantic analysis resolves calls against it, the check passes read each
// operation's effects from it, codegen picks the PTX form per target from it,
// and `cakec --list-ops` and the man page print it. Nothing else in the
// compiler matches operation names.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "sema/IntExpr.h"
#include "target/TargetInfo.h"

namespace cake::sema {

enum class OpKind : uint16_t {
#define OP(Enum, ...) Enum,
#include "sema/Ops.def"
#undef OP
};
// How many operations the table has.
inline constexpr size_t kOpKindCount = 0
#define OP(Enum, ...) +1
#include "sema/Ops.def"
#undef OP
    ;

// Each operation's parameters as an enum of their indices, generated from
// the table: `param::Wait::stage`. Code that reads an operand names it this
// way (Operation::operand), so renaming or removing a parameter breaks the
// build where it is read, never indexes out of bounds.
namespace param {
#define REQ(Name, Kind) Name
#define OPT(Name, Kind) Name
#define DEF_INT(Name, Kind, V) Name
#define DEF_BOOL(Name, Kind, V) Name
#define DEF_STR(Name, Kind, V) Name
#define OP(Enum, Name, Recv, Res, Scope, Targets, Effects, Ptx, Desc, ...) enum class Enum : uint8_t { __VA_ARGS__ };
#include "sema/Ops.def"
#undef OP
#undef REQ
#undef OPT
#undef DEF_INT
#undef DEF_BOOL
#undef DEF_STR
}  // namespace param

// The operation a parameter enum belongs to: ParamOf<param::Wait>::kind.
template <class P>
struct ParamOf;
#define OP(Enum, ...)                            \
  template <>                                    \
  struct ParamOf<param::Enum> {                  \
    static constexpr OpKind kind = OpKind::Enum; \
  };
#include "sema/Ops.def"
#undef OP

// Target masks for the table, derived from the columns of Targets.def.
inline constexpr uint32_t TGT_ALL = targets::kAll;
inline constexpr uint32_t TGT_HOPPER = targets::kWgmma;       // wgmma
inline constexpr uint32_t TGT_BLACKWELL = targets::kTcgen05;  // tcgen05 and TMEM
inline constexpr uint32_t TGT_MMA_SYNC = targets::kMmaSync;   // mma.sync is the tensor-core path
inline constexpr uint32_t TGT_TMA = targets::kTma;
inline constexpr uint32_t TGT_CLUSTERS = targets::kClusters;
inline constexpr uint32_t TGT_SETMAXNREG = targets::kSetmaxnreg;
inline constexpr uint32_t TGT_SM90 = targets::kSm90Plus;  // mbarrier.try_wait, expect_tx, fence.proxy.async, stmatrix
inline constexpr uint32_t TGT_PRE_SM90 = TGT_ALL & ~TGT_SM90;
static_assert(TGT_ALL == (1u << targets::count()) - 1, "every target has its bit");
static_assert((TGT_HOPPER | TGT_BLACKWELL | TGT_MMA_SYNC) == TGT_ALL && !(TGT_HOPPER & TGT_BLACKWELL) &&
                  !(TGT_MMA_SYNC & (TGT_HOPPER | TGT_BLACKWELL)),
              "each target has exactly one tensor-core path");

enum class Receiver : uint8_t { Builder, Pool, View };
enum class OpResult : uint8_t {
  None,
  Pool,
  View,
  Tmem,
  Regs,
  Role,
  RoleFamily,  // several roles from one body (lm.roles)
  Pipeline,
  Barrier,
  NamedBarrier,  // a hardware named barrier some roles meet at (lm.named_barrier)
  Range,
  RuntimeInt,
  RoleInt,    // a run-time integer an operation of a role computes (an atomic's old value, a scalar read from
              // memory): the same in every thread
  Workspace,  // a global tensor in the launch's workspace (lm.workspace)
  Fragment,
  FragmentPair  // a tuple of two fragments (a value and an index)
};
enum class OpScope : uint8_t { Kernel, Role, Anywhere, Loop, Family };

// What an argument must be.
enum class ParamKind : uint8_t {
  ConstInt,       // a compile-time integer
  ConstIntTuple,  // a compile-time tuple of integers (a shape)
  WarpList,       // a compile-time list of warp indices
  WarpLists,      // a compile-time list of lists of warp indices (a role family's members)
  Swizzle,        // "none", "32B", "64B" or "128B"
  ArrivalScope,   // "role", "warpgroup", "warp" or "thread"
  LayoutP,        // a register fragment's layout: "accumulator" or "rows"
  AtomicOpP,      // an atomic's operation: "add", "max", "min", "exch" or "cas"
  MemOrderP,      // a memory order: "relaxed", "acquire", "release" or "acq_rel"
  MemScopeP,      // a memory scope: "gpu" or "cluster"
  DTypeP,         // lm.bf16, ...
  RoleP,          // a role, or a role family (one of something per member)
  RoleFamilyP,    // a role family
  RoleList,       // [r1, r2]; a role family in it stands for all its members
  PipelineP,
  BarrierP,
  NamedBarrierP,     // a named barrier (lm.named_barrier)
  TensorP,           // a LM.tmaNd kernel parameter (a TMA descriptor)
  GlobalTensorP,     // a LM.tensorNd kernel parameter (a pointer with strides)
  IntExpr,           // an integer, constant or runtime
  IntTuple,          // a tuple of integers, constant or runtime (coordinates)
  BoolExpr,          // a boolean, constant or runtime
  ConstBool,         // a compile-time boolean
  FloatExpr,         // a number, constant or runtime
  OperandP,          // an MMA operand: a view stage, a view, or a register fragment
  AccumulatorP,      // a TMEM region or a register fragment
  RegsP,             // a register fragment
  FragmentOrNumber,  // a register fragment or a number (elementwise math)
  MaskP,             // an i32 register fragment used as a condition (nonzero: true)
  TmemP,             // a TMEM region
  ScheduleP,         // a schedule, of this file or imported (a family's route)
};
std::string_view paramKindDescription(ParamKind k);

struct ParamInfo {
  std::string_view name;
  ParamKind kind;
  bool required;
  enum class Default : uint8_t { Absent, Int, Bool, String } defaultKind = Default::Absent;
  int64_t defaultInt = 0;
  std::string_view defaultString;
};

inline constexpr int8_t kNone = -1;
inline constexpr int8_t kReceiver = -2;
inline constexpr int8_t kResult = -3;  // the fragment an operation yields
enum class Proxy : uint8_t { None, Generic, Async };
// The family of asynchronous operations a group belongs to: tensor-core
// operations (wgmma groups on sm_90a; on sm_100a tcgen05 work, which only a
// commit to a barrier retires) and bulk copies out of shared memory (TMA
// stores). Each family has its own close and wait operations.
enum class AsyncGroup : uint8_t { None, Mma, Bulk };
enum class Signal : uint8_t {
  None,
  CompleteTx,    // an async copy completes its bytes on the barrier (plus one arrive.expect_tx)
  Arrive,        // threads arrive (see the `per` parameter)
  CommitArrive,  // the tensor core arrives once when prior work completes
  CopyArrive,    // each executing thread arrives once when its part of the copy has landed
};

// Up to three parameter indices; unused slots hold kNone (a plain array
// would zero-fill them, naming parameter 0).
struct ParamRefs {
  int8_t idx[3] = {kNone, kNone, kNone};
  constexpr ParamRefs() = default;
  constexpr ParamRefs(std::initializer_list<int8_t> list) {
    size_t i = 0;
    for (int8_t x : list)
      if (i < 3) idx[i++] = x;
  }
  const int8_t *begin() const { return idx; }
  const int8_t *end() const { return idx + 3; }
  int8_t operator[](size_t i) const { return idx[i]; }
};

// Effects, by parameter index (kReceiver: the receiver; kNone: none).
struct OpEffects {
  int8_t writes = kNone;
  ParamRefs reads;
  Proxy proxy = Proxy::None;
  int8_t signals = kNone;
  Signal signal = Signal::None;
  int8_t waits = kNone;
  bool fence = false;
  bool single = false;       // issued by one elected thread of the role
  bool closesGroup = false;  // closes the group of async operations issued so far
  bool waitsGroup = false;   // waits for earlier groups of this thread's async operations
  bool syncsRole = false;    // every thread of the role meets here (a named barrier)
  // NamedBarrierP parameter: every warp of that named barrier's roles meets
  // here (barrier.sync), this role's among them.
  int8_t meets = kNone;
  int8_t multicast = kNone;      // ConstInt parameter: the copy's tile is shared by that many blocks of the cluster
  int8_t clusterSignal = kNone;  // ConstBool parameter: when true, the signal lands in every block of the cluster
  // IntExpr parameter: the stage index that selects the barrier's mbarrier
  // and phase (signals, waits) and the receiver view's slot.
  int8_t stage = kNone;
  bool rowReduction = false;  // the result keeps one column per row (M x 1)
  bool predicate = false;     // the result is an i32 fragment of 0/1 (a comparison)
  // Every thread of the role moves 16-byte chunks of the whole view, not the
  // elements it holds: it reads what other threads of the role wrote.
  bool chunked = false;
  // The async family this operation belongs to: its reads run on after it is
  // issued (with closesGroup/waitsGroup: the family it closes or waits for).
  AsyncGroup group = AsyncGroup::None;
  // ConstInt parameter of a waiting operation: how many groups may stay in
  // flight (kNone: none may).
  int8_t pendingGroups = kNone;
  // ConstInt parameter of a copy: the first of the source tile's columns it
  // takes, as many as the destination is wide (kNone, or the parameter not
  // given: the whole tile).
  int8_t firstColumn = kNone;
  // BoolExpr parameter of an operation that writes into what it already
  // holds (acc += a . b): when it is false, the operation also reads its
  // written resource; when true, it overwrites it (init=True).
  int8_t overwrites = kNone;
  // A run-time integer value operation: the expression node it yields (a
  // leaf keyed by its first, constant parameter, or a binary operation on
  // its two parameters). Const: not a value operation.
  IntOp value = IntOp::Const;
  // Parameter whose rows the lowering splits evenly over the role's
  // warpgroups, as it splits the accumulator (wgmma: each warpgroup reads
  // its own rows of the A operand; a fragment's store writes each
  // warpgroup's rows of the view from that warpgroup's threads).
  int8_t warpgroupRows = kNone;
  // A generic access by every thread of the role to the elements of a view
  // that a register fragment holds (the parameter, or kResult: the fragment
  // the operation yields): the fragment's layout says which thread touches
  // which element, so two such accesses of one view order themselves only
  // when their layouts give each element to the same thread.
  int8_t threadElements = kNone;
  // GlobalTensorP parameter of a generic access to a global tensor by the
  // role's threads (load_tile, store_tile, atomic): whether it writes it
  // (globalWrite), and for an atomic read-modify-write of one element by one
  // thread of the role, the MemOrderP parameter naming its memory order.
  int8_t global = kNone;
  bool globalWrite = false;
  int8_t memoryOrder = kNone;
  // The global access touches one element, at its coordinates (an atomic, a
  // scalar read), not a tile.
  bool oneElement = false;
  // IntExpr parameter of a one-element access that waits, by one thread of
  // the role, until the element equals it (a flag wait: an acquiring spin),
  // the role meeting after it.
  int8_t awaitsValue = kNone;
  // IntExpr parameter of an operation yielding a run-time integer read from
  // memory: the least value it may take; the next parameter is the bound
  // above it (exclusive). The lowering stops the kernel on a value outside,
  // so the value's range is known where the launcher bounds extents.
  int8_t valueRange = kNone;
  // A copy that adds into the tensor it writes (a TMA reduction): it reads
  // what it writes, and blocks that add into one tile at once all count.
  bool reducesInto = false;
  // ConstBool parameter of a group wait: when true, it waits until the
  // groups' writes are complete and fenced for the role's later generic
  // accesses, not only until they have read shared memory.
  int8_t waitsWrites = kNone;
  // ConstInt parameter of a copy between a global tensor and registers: only
  // the tile's first that many rows move (a load gives the others zero); not
  // given: every row. Its footprint in the tensor is that many rows.
  int8_t rowBound = kNone;
};

struct PtxForm {
  uint32_t targets;
  std::string_view ptx;
};

struct OpInfo {
  OpKind kind;
  std::string_view name;
  Receiver receiver;
  OpResult result;
  OpScope scope;
  uint32_t targets;
  OpEffects effects;
  std::vector<PtxForm> ptx;
  std::string_view description;
  std::vector<ParamInfo> params;

  bool legalOn(Target t) const { return (targets & targetBit(t)) != 0; }
  // The PTX form for a target ("" if the op is not legal there).
  std::string_view ptxFor(Target t) const;
  // "sm_90a, sm_100a" for the targets where the op exists.
  std::string targetNames() const;
  int paramIndex(std::string_view name) const;
};

const std::vector<OpInfo> &allOps();
const OpInfo &opInfo(OpKind k);
std::string_view receiverName(Receiver r);
// `--list-ops`: the table as text; with a target, only the ops legal there.
// `loweredOn(k)`: the targets (targetBit) where codegen lowers op k, printed
// as each op's lowering status (sema does not know codegen's tables);
// `loweredTypes(k, t)`: the operand types k lowers for on t ("" for any).
std::string formatOpTable(const Target *only, const std::function<uint32_t(OpKind)> &loweredOn,
                          const std::function<std::string(OpKind, Target)> &loweredTypes);
// `--list-ops --list-format=markdown`: the Operations section of
// docs/language.md (a summary table of legality and lowering per target, then
// one entry per operation, grouped by scope).
std::string formatOpReferenceMarkdown(const std::function<uint32_t(OpKind)> &loweredOn);

}  // namespace cake::sema
