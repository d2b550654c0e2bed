// Analyzer: the semantic analyser's state and its parts, shared by the
// files of src/sema/ that implement it (private to sema; Sema.h is the
// interface):
//   Sema.cpp              the module: imports, kernels, schedule options
//   SemaStatements.cpp    statements: assignments, roles, loops, branches
//   SemaExpressions.cpp   expressions: names, attributes, arithmetic, the IR of integers
//   SemaCalls.cpp         calls: binding arguments to the table, checking operands
//   SemaDeclarations.cpp  declarations: resources and the shared-memory layout
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sema/ConstEval.h"
#include "sema/Sema.h"

namespace cake::sema::detail {

using namespace ast;

struct Binding {
  Value value;
  SourceRange range;
};

class Analyzer {
public:
  Analyzer(Target target, const SourceManager &sm, DiagnosticEngine &diags, ModuleLoader *loader)
      : sm_(sm), diags_(diags), loader_(loader) {
    module_ = std::make_unique<Module>();
    module_->target = target;
  }

  std::unique_ptr<Module> run(const ast::Module &m);
  void setDefines(const std::map<std::string, std::string> &d) {
    for (const auto &[name, text] : d)
      if (std::optional<Value> v = parseDefineValue(text)) defines_[name] = *v;
  }

  void setImported() { imported_ = true; }

private:
  // ---- statements ----
  void moduleStmt(const Stmt *s);
  void importStmt(const ImportStmt *i);
  void fromImportStmt(const FromImportStmt *f);
  const Module *loadModule(const std::string &dotted, SourceRange range);
  Value instantiate(const CallExpr *c);
  void kernel(const FunctionDef *f);
  void scheduleOptions(const Expr *decorator);
  void tensorShape(Resource &tensor, const SubscriptExpr *shape);
  void stmts(const std::vector<Stmt *> &list);
  void stmt(const Stmt *s);
  void assign(const AssignStmt *a);
  void bindTarget(const Expr *target, const Value &v);
  void bind(const std::string &name, const Value &v, SourceRange range);
  void exprStmt(const ExprStmt *e);
  void withStmt(const WithStmt *w);
  void familyBody(const WithStmt *w, const Value &family);
  void forStmt(const ForStmt *f);
  void ifStmt(const IfStmt *i);
  void finalizeKernel();
  void familyOp(const OpInfo &op, const CallExpr *c, const std::vector<Operand> &operands);
  void checkFamilyNames();

  // ---- expressions ----
  Value eval(const Expr *e);
  Value evalExpr(const Expr *e);
  void remember(const Expr *e, const Value &v);
  Value evalName(const NameExpr *n);
  Value evalAttribute(const AttributeExpr *a);
  Value evalSubscript(const SubscriptExpr *s);
  Value evalUnary(const UnaryExpr *u);
  Value evalBinaryChain(const BinaryExpr *b);
  Value evalBinary(const BinaryExpr *b, Value l);
  Value evalCall(const CallExpr *c, bool allowRange = false, bool asStatement = false);
  // The expression node of an integer value (constants get one on demand).
  IntExprId intId(const Value &v);
  IntExprId intBinary(BinaryOp op, IntExprId a, IntExprId b);
  Value constError(ConstError err, SourceRange r);

  // ---- calls ----
  bool bindArguments(const CallExpr *c, const OpInfo &op, std::vector<Operand> &out);
  bool checkOperand(const OpInfo &op, const ParamInfo &p, Operand &o);
  Value declare(const OpInfo &op, const CallExpr *c, std::vector<Operand> &operands, ResourceId receiver);
  Value declareRoleFamily(const CallExpr *c, std::vector<Operand> &operands);
  Value declareWorkspace(const CallExpr *c, std::vector<Operand> &operands);
  Value declareMembers(const Value &declared, const Value &family);
  bool isRoleFamily(const Value &v) const;
  Value ownCopy(const Value &v) const;
  Value recordOp(const OpInfo &op, const Expr *at, SourceRange range, ResourceId receiver,
                 std::vector<Operand> operands);
  std::optional<ResourceId> fragmentResult(const OpInfo &op, const Expr *at, SourceRange range,
                                           const std::vector<Operand> &operands, ResourceId receiver = kNoResource);
  Value fragmentOperator(OpKind kind, const Expr *at, SourceRange opRange, const Expr *lhs, Value l, const Expr *rhs,
                         Value r);
  void assignFragment(const AssignStmt *a, ResourceId dest, const Value &v);
  bool checkStageArgument(const OpInfo &op, const CallExpr *c, ResourceId view, const Operand &stage);

  // ---- helpers ----
  std::string describe(const Value &v) const;
  bool isFragment(const Value &v) const;
  std::string opDisplayName(const OpInfo &op) const;
  std::vector<std::string> visibleNames() const;
  const Binding *lookup(const std::string &name) const;
  Resource &newResource(ResourceKind kind, SourceRange range);
  Resource &res(ResourceId id) { return kernel_->resources[id]; }
  const Resource &res(ResourceId id) const { return kernel_->resources[id]; }
  std::string nameOf(ResourceId id) const { return kernel_->resources[id].name; }

  const SourceManager &sm_;
  DiagnosticEngine &diags_;
  ModuleLoader *loader_;
  bool imported_ = false;  // analysing a module for an importer
  std::unique_ptr<Module> module_;
  Kernel *kernel_ = nullptr;
  // Reads of memory the kernel does not write (OpEffects::valueRange) at
  // coordinates and with a range the same in every role of a block, by
  // (tensor, coordinates, lo, hi): the value's leaf, and the roles that
  // read it (valueRead, SemaCalls.cpp).
  struct SharedRead {
    int64_t leaf;
    std::set<ResourceId> roles;
  };
  std::map<std::pair<ResourceId, std::vector<AffineForm>>, SharedRead> sharedReads_;
  std::optional<std::vector<AffineForm>> blockUniformForms(const std::vector<const Value *> &values) const;
  bool blockUniform(const AffineForm &f, int depth = 0) const;
  Family *family_ = nullptr;                            // the family whose body we are in (kernel_ is its signature)
  std::vector<std::map<std::string, Binding>> scopes_;  // [0] is the module scope
  ResourceId role_ = kNoResource;                       // the role whose block we are in
  SourceRange roleRange_;
  std::vector<IrStmt> *body_ = nullptr;
  std::string nameHint_;            // the name a declaration is being bound to
  const Expr *hintExpr_ = nullptr;  // the expression bound to it
  uint32_t nextLoop_ = 0;
  std::set<const Expr *> loopTargets_;    // loop variables' declarations
  std::map<std::string, Value> defines_;  // -D NAME=VALUE
  std::set<std::string> definesUsed_;
};

}  // namespace cake::sema::detail
