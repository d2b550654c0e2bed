// Ast.h - the abstract syntax tree of a .cake file.
//
// Nodes are plain structs owned by an AstContext (an arena); children are raw
// pointers into it, so trees are cheap to build and never freed recursively.
// Every node carries its source range. Semantic analysis stores its results
// beside the AST (see src/sema/) and never rewrites it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "diagnostics/SourceManager.h"

namespace cake::ast {

enum class NodeKind : uint8_t {
#define AST_EXPR(Name) Name,
#define AST_STMT(Name) Name,
#include "lexer_parser/AstKinds.def"
};

const char *nodeKindName(NodeKind k);

struct Node {
  NodeKind kind;
  SourceRange range;
  explicit Node(NodeKind k) : kind(k) {}
  virtual ~Node() = default;
};

struct Expr : Node {
  using Node::Node;
};
struct Stmt : Node {
  using Node::Node;
};

// isa/dyn_cast in the LLVM style, keyed on the node's kind.
template <typename T>
bool isa(const Node *n) {
  return n && n->kind == T::kKind;
}
template <typename T>
T *dyn_cast(Node *n) {
  return isa<T>(n) ? static_cast<T *>(n) : nullptr;
}
template <typename T>
const T *dyn_cast(const Node *n) {
  return isa<T>(n) ? static_cast<const T *>(n) : nullptr;
}

#define CAKE_NODE(Name, Base)                       \
  static constexpr NodeKind kKind = NodeKind::Name; \
  Name() : Base(kKind) {}

// ---- expressions -------------------------------------------------------------

struct NameExpr : Expr {
  CAKE_NODE(NameExpr, Expr) std::string name;
};
struct IntLit : Expr {
  CAKE_NODE(IntLit, Expr) int64_t value = 0;
  std::string spelling;
};
struct FloatLit : Expr {
  CAKE_NODE(FloatLit, Expr) double value = 0;
  std::string spelling;
};
struct StringLit : Expr {
  CAKE_NODE(StringLit, Expr) std::string value;
};
struct BoolLit : Expr {
  CAKE_NODE(BoolLit, Expr) bool value = false;
};
struct NoneLit : Expr {
  CAKE_NODE(NoneLit, Expr)
};
struct TupleExpr : Expr {
  CAKE_NODE(TupleExpr, Expr) std::vector<Expr *> elts;
};
struct ListExpr : Expr {
  CAKE_NODE(ListExpr, Expr) std::vector<Expr *> elts;
};

enum class UnaryOp : uint8_t { Neg, Pos, Not };
enum class BinaryOp : uint8_t {
  Add,
  Sub,
  Mul,
  Div,
  FloorDiv,
  Mod,
  Pow,  // arithmetic
  Lt,
  Gt,
  Le,
  Ge,
  Eq,
  Ne,  // comparison
  And,
  Or,  // boolean
};
const char *unaryOpSpelling(UnaryOp op);
const char *binaryOpSpelling(BinaryOp op);

struct UnaryExpr : Expr {
  CAKE_NODE(UnaryExpr, Expr) UnaryOp op{};
  Expr *operand = nullptr;
};
struct BinaryExpr : Expr {
  CAKE_NODE(BinaryExpr, Expr)
  BinaryOp op{};
  SourceRange opRange;
  Expr *lhs = nullptr;
  Expr *rhs = nullptr;
};

// A keyword argument `name=value` of a call.
struct Keyword {
  std::string name;
  SourceRange nameRange;
  Expr *value = nullptr;
};

struct CallExpr : Expr {
  CAKE_NODE(CallExpr, Expr)
  Expr *callee = nullptr;
  std::vector<Expr *> args;
  std::vector<Keyword> keywords;
};
struct AttributeExpr : Expr {
  CAKE_NODE(AttributeExpr, Expr)
  Expr *object = nullptr;
  std::string attr;
  SourceRange attrRange;
};
// a[i] has one index; a[i, j] has several.
struct SubscriptExpr : Expr {
  CAKE_NODE(SubscriptExpr, Expr)
  Expr *object = nullptr;
  std::vector<Expr *> indices;
};
struct SliceExpr : Expr {
  CAKE_NODE(SliceExpr, Expr)
  Expr *lower = nullptr;  // each may be null
  Expr *upper = nullptr;
  Expr *step = nullptr;
};

// ---- statements --------------------------------------------------------------

// `a.b.c as d`; alias is empty when absent.
struct ImportName {
  std::string name;
  std::string alias;
  SourceRange range;
};
struct ImportStmt : Stmt {
  CAKE_NODE(ImportStmt, Stmt) std::vector<ImportName> names;
};
struct FromImportStmt : Stmt {
  CAKE_NODE(FromImportStmt, Stmt)
  std::string module;
  SourceRange moduleRange;
  std::vector<ImportName> names;
};
struct PassStmt : Stmt {
  CAKE_NODE(PassStmt, Stmt)
};
// `t1 = t2 = value` keeps every target; a tuple target is a TupleExpr.
struct AssignStmt : Stmt {
  CAKE_NODE(AssignStmt, Stmt)
  std::vector<Expr *> targets;
  Expr *value = nullptr;
};
struct ExprStmt : Stmt {
  CAKE_NODE(ExprStmt, Stmt) Expr *expr = nullptr;
};

struct Param {
  std::string name;
  SourceRange range;
  Expr *annotation = nullptr;  // may be null
  Expr *defaultValue = nullptr;
};
struct FunctionDef : Stmt {
  CAKE_NODE(FunctionDef, Stmt)
  std::vector<Expr *> decorators;
  std::string name;
  SourceRange nameRange;
  std::vector<Param> params;
  Expr *returns = nullptr;
  std::vector<Stmt *> body;
};
struct WithItem {
  Expr *context = nullptr;
  std::string alias;  // `as name`, empty when absent
  SourceRange aliasRange;
};
struct WithStmt : Stmt {
  CAKE_NODE(WithStmt, Stmt)
  std::vector<WithItem> items;
  std::vector<Stmt *> body;
};
struct ForStmt : Stmt {
  CAKE_NODE(ForStmt, Stmt)
  Expr *target = nullptr;  // a NameExpr or a TupleExpr of them
  Expr *iter = nullptr;
  std::vector<Stmt *> body;
};
// `elif` is an IfStmt alone in the `orelse` of its parent, as in Python.
struct IfStmt : Stmt {
  CAKE_NODE(IfStmt, Stmt)
  Expr *cond = nullptr;
  std::vector<Stmt *> body;
  std::vector<Stmt *> orelse;
  bool isElif = false;
};

#undef CAKE_NODE

// Owns every node of one module.
class AstContext {
public:
  template <typename T>
  T *make(SourceRange range) {
    auto node = std::make_unique<T>();
    node->range = range;
    T *raw = node.get();
    nodes_.push_back(std::move(node));
    return raw;
  }
  size_t size() const { return nodes_.size(); }

private:
  std::vector<std::unique_ptr<Node>> nodes_;
};

// One parsed .cake file.
struct Module {
  FileId file = kNoFile;
  std::vector<Stmt *> body;
  AstContext context;
};

}  // namespace cake::ast
