// AstBuilder: see AstBuilder.h. One function per grammar rule, in the order
// of CakeParser.g4; each names the rule it builds from.
#include "lexer_parser/AstBuilder.h"

#include <limits>

#include "CakeLexer.h"
#include "lexer_parser/IndentingTokenSource.h"

namespace cake {

using namespace ast;
using antlr4::Token;
using antlr4::tree::TerminalNode;

SourceRange AstBuilder::range(Ctx *ctx) const {
  Token *b = ctx->getStart();
  Token *e = ctx->getStop();
  if (!b) return SourceRange();
  if (!e || e->getTokenIndex() < b->getTokenIndex()) e = b;
  // A rule ending in NEWLINE or DEDENT ends where the last real token does;
  // report the range up to the end of the start token's statement instead.
  if (e->getType() == CakeLexer::NEWLINE || e->getType() == CakeLexer::DEDENT ||
      e->getType() == Token::EOF) {
    return SourceRange(IndentingTokenSource::tokenBegin(m_.file, b),
                       IndentingTokenSource::tokenBegin(m_.file, e));
  }
  return SourceRange(IndentingTokenSource::tokenBegin(m_.file, b),
                     IndentingTokenSource::tokenEnd(m_.file, e));
}

SourceRange AstBuilder::range(TerminalNode *n) const { return n ? range(n->getSymbol()) : SourceRange(); }
SourceRange AstBuilder::range(Token *t) const { return IndentingTokenSource::tokenRange(m_.file, t); }

Expr *AstBuilder::missing(SourceRange r) { return m_.context.make<NoneLit>(r); }

// A compound statement's range ends with its last nested statement rather
// than at the (synthetic) DEDENT that closes it.
void AstBuilder::endAtBody(Stmt *s, const std::vector<Stmt *> &body) {
  if (!body.empty() && body.back()->range.valid()) s->range.end = body.back()->range.end;
}

// file_input : (NEWLINE | stmt)* EOF
void AstBuilder::buildFile(CakeParser::File_inputContext *ctx) {
  for (auto *s : ctx->stmt()) stmt(s, m_.body);
}

// stmt : simple_stmt | compound_stmt
void AstBuilder::stmt(CakeParser::StmtContext *ctx, std::vector<Stmt *> &out) {
  if (auto *s = ctx->simple_stmt()) {
    simpleStmt(s, out);
  } else if (auto *c = ctx->compound_stmt()) {
    if (Stmt *st = compoundStmt(c)) out.push_back(st);
  }
}

// simple_stmt : small_stmt NEWLINE
void AstBuilder::simpleStmt(CakeParser::Simple_stmtContext *ctx, std::vector<Stmt *> &out) {
  auto *small = ctx->small_stmt();
  if (!small) return;
  Stmt *s = nullptr;
  if (auto *i = small->import_stmt()) s = importStmt(i);
  else if (auto *f = small->from_import_stmt()) s = fromImportStmt(f);
  else if (auto *p = small->pass_stmt()) s = m_.context.make<PassStmt>(range(p));
  else if (auto *e = small->expr_stmt()) s = exprStmt(e);
  if (s) out.push_back(s);
}

// import_stmt : IMPORT dotted_as_name (COMMA dotted_as_name)*
Stmt *AstBuilder::importStmt(CakeParser::Import_stmtContext *ctx) {
  auto *s = m_.context.make<ImportStmt>(range(ctx));
  for (auto *d : ctx->dotted_as_name()) {
    ImportName n;
    n.name = d->dotted_name() ? d->dotted_name()->getText() : "";
    n.alias = d->NAME() ? d->NAME()->getText() : "";
    n.range = range(d);
    s->names.push_back(std::move(n));
  }
  return s;
}

// from_import_stmt : FROM dotted_name IMPORT import_as_name (COMMA import_as_name)*
Stmt *AstBuilder::fromImportStmt(CakeParser::From_import_stmtContext *ctx) {
  auto *s = m_.context.make<FromImportStmt>(range(ctx));
  if (auto *d = ctx->dotted_name()) {
    s->module = d->getText();
    s->moduleRange = range(d);
  }
  for (auto *i : ctx->import_as_name()) {
    auto names = i->NAME();
    ImportName n;
    if (!names.empty()) n.name = names[0]->getText();
    if (names.size() > 1) n.alias = names[1]->getText();
    n.range = range(i);
    s->names.push_back(std::move(n));
  }
  return s;
}

// expr_stmt : testlist (ASSIGN testlist)*
Stmt *AstBuilder::exprStmt(CakeParser::Expr_stmtContext *ctx) {
  auto lists = ctx->testlist();
  if (lists.empty()) return nullptr;
  if (lists.size() == 1) {
    auto *s = m_.context.make<ExprStmt>(range(ctx));
    s->expr = testlist(lists[0]);
    return s;
  }
  auto *s = m_.context.make<AssignStmt>(range(ctx));
  for (size_t i = 0; i + 1 < lists.size(); ++i) {
    s->targets.push_back(testlist(lists[i]));
    checkTarget(s->targets.back());
  }
  s->value = testlist(lists.back());
  return s;
}

void AstBuilder::checkTarget(Expr *e) {
  if (isa<NameExpr>(e) || isa<AttributeExpr>(e) || isa<SubscriptExpr>(e)) return;
  if (auto *t = dyn_cast<TupleExpr>(e)) {
    for (Expr *x : t->elts) checkTarget(x);
    return;
  }
  if (auto *l = dyn_cast<ListExpr>(e)) {
    for (Expr *x : l->elts) checkTarget(x);
    return;
  }
  const char *what = isa<CallExpr>(e) ? "a function call"
                     : (isa<IntLit>(e) || isa<FloatLit>(e) || isa<StringLit>(e) || isa<BoolLit>(e) ||
                        isa<NoneLit>(e))
                         ? "a literal"
                         : "an expression";
  diags_.report(DiagId::SyntaxInvalidAssignTarget, e->range, what);
}

// compound_stmt : decorated | funcdef | with_stmt | for_stmt | if_stmt
Stmt *AstBuilder::compoundStmt(CakeParser::Compound_stmtContext *ctx) {
  if (auto *d = ctx->decorated()) {
    if (!d->funcdef()) return nullptr;
    FunctionDef *f = funcdef(d->funcdef());
    // decorated : decorator+ funcdef ; decorator : AT atom_expr NEWLINE
    for (auto *dec : d->decorator())
      f->decorators.push_back(dec->atom_expr() ? atomExpr(dec->atom_expr()) : missing(range(dec)));
    f->range = SourceRange::cover(range(d->decorator().front()), f->range);
    return f;
  }
  if (auto *f = ctx->funcdef()) return funcdef(f);
  if (auto *w = ctx->with_stmt()) return withStmt(w);
  if (auto *f = ctx->for_stmt()) return forStmt(f);
  if (auto *i = ctx->if_stmt()) return ifStmt(i);
  return nullptr;
}

// block : simple_stmt | NEWLINE INDENT stmt+ DEDENT
void AstBuilder::block(CakeParser::BlockContext *ctx, std::vector<Stmt *> &out) {
  if (!ctx) return;
  if (auto *s = ctx->simple_stmt()) {
    simpleStmt(s, out);
    return;
  }
  for (auto *s : ctx->stmt()) stmt(s, out);
}

// funcdef : DEF NAME LPAREN parameters? RPAREN (ARROW test)? COLON block
FunctionDef *AstBuilder::funcdef(CakeParser::FuncdefContext *ctx) {
  auto *f = m_.context.make<FunctionDef>(range(ctx));
  if (ctx->NAME()) {
    f->name = ctx->NAME()->getText();
    f->nameRange = range(ctx->NAME());
  }
  // parameters : param (COMMA param)* COMMA? ; param : NAME (COLON test)? (ASSIGN test)?
  if (auto *ps = ctx->parameters()) {
    for (auto *p : ps->param()) {
      Param param;
      param.name = p->NAME() ? p->NAME()->getText() : "";
      param.range = range(p);
      auto tests = p->test();
      size_t i = 0;
      if (p->COLON() && i < tests.size()) param.annotation = test(tests[i++]);
      if (p->ASSIGN() && i < tests.size()) param.defaultValue = test(tests[i++]);
      f->params.push_back(std::move(param));
    }
  }
  if (ctx->ARROW() && ctx->test()) f->returns = test(ctx->test());
  block(ctx->block(), f->body);
  endAtBody(f, f->body);
  return f;
}

// with_stmt : WITH with_item (COMMA with_item)* COLON block
Stmt *AstBuilder::withStmt(CakeParser::With_stmtContext *ctx) {
  auto *s = m_.context.make<WithStmt>(range(ctx));
  for (auto *item : ctx->with_item()) {
    WithItem w;
    w.context = item->test() ? test(item->test()) : missing(range(item));
    if (item->NAME()) {
      w.alias = item->NAME()->getText();
      w.aliasRange = range(item->NAME());
    }
    s->items.push_back(w);
  }
  block(ctx->block(), s->body);
  endAtBody(s, s->body);
  return s;
}

// for_stmt : FOR exprlist IN testlist COLON block
Stmt *AstBuilder::forStmt(CakeParser::For_stmtContext *ctx) {
  auto *s = m_.context.make<ForStmt>(range(ctx));
  s->target = ctx->exprlist() ? exprlist(ctx->exprlist()) : missing(range(ctx));
  checkTarget(s->target);
  s->iter = ctx->testlist() ? testlist(ctx->testlist()) : missing(range(ctx));
  block(ctx->block(), s->body);
  endAtBody(s, s->body);
  return s;
}

// if_stmt : IF test COLON block (ELIF test COLON block)* (ELSE COLON block)?
Stmt *AstBuilder::ifStmt(CakeParser::If_stmtContext *ctx) {
  auto tests = ctx->test();
  auto blocks = ctx->block();
  auto elifs = ctx->ELIF();
  auto *top = m_.context.make<IfStmt>(range(ctx));
  IfStmt *cur = top;
  for (size_t i = 0; i < tests.size(); ++i) {
    if (i > 0) {
      SourceRange r = i - 1 < elifs.size() ? SourceRange::cover(range(elifs[i - 1]), range(tests[i])) : range(tests[i]);
      auto *next = m_.context.make<IfStmt>(r);
      next->isElif = true;
      cur->orelse.push_back(next);
      cur = next;
    }
    cur->cond = test(tests[i]);
    if (i < blocks.size()) block(blocks[i], cur->body);
  }
  if (ctx->ELSE() && blocks.size() > tests.size()) block(blocks.back(), cur->orelse);
  // Each if/elif ends where its last branch does.
  std::vector<IfStmt *> chain;
  for (IfStmt *i = top; i; i = (i->orelse.size() == 1 && isa<IfStmt>(i->orelse[0]) &&
                                static_cast<IfStmt *>(i->orelse[0])->isElif)
                                   ? static_cast<IfStmt *>(i->orelse[0]) : nullptr)
    chain.push_back(i);
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    endAtBody(*it, (*it)->body);
    endAtBody(*it, (*it)->orelse);
  }
  return top;
}

// ---- expressions ---------------------------------------------------------------

static BinaryOp binaryOpFor(size_t tokenType) {
  switch (tokenType) {
  case CakeLexer::PLUS: return BinaryOp::Add;
  case CakeLexer::MINUS: return BinaryOp::Sub;
  case CakeLexer::STAR: return BinaryOp::Mul;
  case CakeLexer::SLASH: return BinaryOp::Div;
  case CakeLexer::FLOORDIV: return BinaryOp::FloorDiv;
  case CakeLexer::PERCENT: return BinaryOp::Mod;
  case CakeLexer::POWER: return BinaryOp::Pow;
  case CakeLexer::LT: return BinaryOp::Lt;
  case CakeLexer::GT: return BinaryOp::Gt;
  case CakeLexer::LE: return BinaryOp::Le;
  case CakeLexer::GE: return BinaryOp::Ge;
  case CakeLexer::EQ: return BinaryOp::Eq;
  case CakeLexer::NE: return BinaryOp::Ne;
  case CakeLexer::AND: return BinaryOp::And;
  default: return BinaryOp::Or;
  }
}

template <typename OperandCtx, typename BuildFn>
Expr *AstBuilder::chain(Ctx *ctx, BuildFn build) {
  Expr *result = nullptr;
  Token *pendingOp = nullptr;
  for (antlr4::tree::ParseTree *child : ctx->children) {
    if (auto *operand = dynamic_cast<OperandCtx *>(child)) {
      Expr *rhs = build(operand);
      if (!result) {
        result = rhs;
      } else {
        auto *b = m_.context.make<BinaryExpr>(SourceRange::cover(result->range, rhs->range));
        b->op = binaryOpFor(pendingOp ? pendingOp->getType() : 0);
        b->opRange = pendingOp ? range(pendingOp) : SourceRange();
        b->lhs = result;
        b->rhs = rhs;
        result = b;
      }
    } else if (auto *t = dynamic_cast<TerminalNode *>(child)) {
      pendingOp = t->getSymbol();
    } else if (auto *op = dynamic_cast<CakeParser::Comp_opContext *>(child)) {
      pendingOp = op->getStart();
    }
  }
  return result ? result : missing(range(ctx));
}

// test : or_test
Expr *AstBuilder::test(CakeParser::TestContext *ctx) {
  if (!ctx || !ctx->or_test()) return missing(ctx ? range(ctx) : SourceRange());
  return orTest(ctx->or_test());
}

// or_test : and_test (OR and_test)*
Expr *AstBuilder::orTest(CakeParser::Or_testContext *ctx) {
  return chain<CakeParser::And_testContext>(ctx, [&](auto *c) { return andTest(c); });
}

// and_test : not_test (AND not_test)*
Expr *AstBuilder::andTest(CakeParser::And_testContext *ctx) {
  return chain<CakeParser::Not_testContext>(ctx, [&](auto *c) { return notTest(c); });
}

// not_test : NOT not_test | comparison
Expr *AstBuilder::notTest(CakeParser::Not_testContext *ctx) {
  if (ctx->NOT()) {
    auto *u = m_.context.make<UnaryExpr>(range(ctx));
    u->op = UnaryOp::Not;
    u->operand = ctx->not_test() ? notTest(ctx->not_test()) : missing(range(ctx));
    return u;
  }
  return ctx->comparison() ? comparison(ctx->comparison()) : missing(range(ctx));
}

// comparison : arith (comp_op arith)*
Expr *AstBuilder::comparison(CakeParser::ComparisonContext *ctx) {
  return chain<CakeParser::ArithContext>(ctx, [&](auto *c) { return arith(c); });
}

// arith : term ((PLUS | MINUS) term)*
Expr *AstBuilder::arith(CakeParser::ArithContext *ctx) {
  return chain<CakeParser::TermContext>(ctx, [&](auto *c) { return term(c); });
}

// term : factor ((STAR | SLASH | FLOORDIV | PERCENT) factor)*
Expr *AstBuilder::term(CakeParser::TermContext *ctx) {
  return chain<CakeParser::FactorContext>(ctx, [&](auto *c) { return factor(c); });
}

// factor : (PLUS | MINUS) factor | power
Expr *AstBuilder::factor(CakeParser::FactorContext *ctx) {
  if (ctx->factor()) {
    auto *u = m_.context.make<UnaryExpr>(range(ctx));
    u->op = ctx->MINUS() ? UnaryOp::Neg : UnaryOp::Pos;
    u->operand = factor(ctx->factor());
    return u;
  }
  return ctx->power() ? power(ctx->power()) : missing(range(ctx));
}

// power : atom_expr (POWER factor)?
Expr *AstBuilder::power(CakeParser::PowerContext *ctx) {
  Expr *base = ctx->atom_expr() ? atomExpr(ctx->atom_expr()) : missing(range(ctx));
  if (!ctx->POWER() || !ctx->factor()) return base;
  auto *b = m_.context.make<BinaryExpr>(range(ctx));
  b->op = BinaryOp::Pow;
  b->opRange = range(ctx->POWER());
  b->lhs = base;
  b->rhs = factor(ctx->factor());
  return b;
}

// atom_expr : atom trailer*
Expr *AstBuilder::atomExpr(CakeParser::Atom_exprContext *ctx) {
  Expr *e = ctx->atom() ? atom(ctx->atom()) : missing(range(ctx));
  for (auto *t : ctx->trailer()) e = trailer(e, t);
  return e;
}

// trailer : LPAREN arglist? RPAREN | LBRACK subscriptlist RBRACK | DOT NAME
Expr *AstBuilder::trailer(Expr *base, CakeParser::TrailerContext *ctx) {
  SourceRange r = SourceRange::cover(base->range, range(ctx));
  if (ctx->DOT()) {
    auto *a = m_.context.make<AttributeExpr>(r);
    a->object = base;
    if (ctx->NAME()) {
      a->attr = ctx->NAME()->getText();
      a->attrRange = range(ctx->NAME());
    }
    return a;
  }
  if (ctx->LBRACK()) {
    auto *s = m_.context.make<SubscriptExpr>(r);
    s->object = base;
    if (auto *list = ctx->subscriptlist())
      for (auto *sub : list->subscript()) s->indices.push_back(subscript(sub));
    return s;
  }
  auto *c = m_.context.make<CallExpr>(r);
  c->callee = base;
  // arglist : argument (COMMA argument)* COMMA? ; argument : NAME ASSIGN test | test
  if (auto *args = ctx->arglist()) {
    for (auto *a : args->argument()) {
      if (a->ASSIGN() && a->NAME()) {
        Keyword k;
        k.name = a->NAME()->getText();
        k.nameRange = range(a->NAME());
        k.value = test(a->test());
        c->keywords.push_back(k);
      } else {
        c->args.push_back(test(a->test()));
      }
    }
  }
  return c;
}

// subscript : test | test? COLON test? (COLON test?)?
Expr *AstBuilder::subscript(CakeParser::SubscriptContext *ctx) {
  auto colons = ctx->COLON();
  auto tests = ctx->test();
  if (colons.empty()) return tests.empty() ? missing(range(ctx)) : test(tests[0]);
  auto *s = m_.context.make<SliceExpr>(range(ctx));
  // Assign each test to the slot its position among the colons says.
  for (auto *t : tests) {
    size_t idx = t->getStart()->getTokenIndex();
    size_t slot = 0;
    for (auto *c : colons)
      if (c->getSymbol()->getTokenIndex() < idx) ++slot;
    Expr *e = test(t);
    if (slot == 0) s->lower = e;
    else if (slot == 1) s->upper = e;
    else s->step = e;
  }
  return s;
}

// atom : LPAREN testlist_comp? RPAREN | LBRACK testlist_comp? RBRACK | NAME
//      | INT | FLOAT | STRING+ | TRUE | FALSE | NONE
Expr *AstBuilder::atom(CakeParser::AtomContext *ctx) {
  SourceRange r = range(ctx);
  if (ctx->LPAREN() || ctx->LBRACK()) {
    std::vector<Expr *> elts;
    bool trailingComma = false;
    if (auto *list = ctx->testlist_comp()) {
      for (auto *t : list->test()) elts.push_back(test(t));
      trailingComma = !list->COMMA().empty();
    }
    if (ctx->LBRACK()) {
      auto *l = m_.context.make<ListExpr>(r);
      l->elts = std::move(elts);
      return l;
    }
    if (elts.size() == 1 && !trailingComma) return elts[0];  // parenthesised
    auto *t = m_.context.make<TupleExpr>(r);
    t->elts = std::move(elts);
    return t;
  }
  if (ctx->NAME()) {
    auto *n = m_.context.make<NameExpr>(r);
    n->name = ctx->NAME()->getText();
    return n;
  }
  if (ctx->INT()) return intLiteral(ctx->INT()->getSymbol());
  if (ctx->FLOAT()) {
    auto *f = m_.context.make<FloatLit>(r);
    f->spelling = ctx->FLOAT()->getText();
    std::string digits;
    for (char ch : f->spelling)
      if (ch != '_') digits += ch;
    f->value = std::strtod(digits.c_str(), nullptr);
    return f;
  }
  if (!ctx->STRING().empty()) return stringLiteral(ctx->STRING(), r);
  if (ctx->TRUE() || ctx->FALSE()) {
    auto *b = m_.context.make<BoolLit>(r);
    b->value = ctx->TRUE() != nullptr;
    return b;
  }
  return m_.context.make<NoneLit>(r);
}

Expr *AstBuilder::intLiteral(Token *t) {
  auto *lit = m_.context.make<IntLit>(range(t));
  lit->spelling = t->getText();
  std::string s;
  for (char ch : lit->spelling)
    if (ch != '_') s += ch;
  unsigned base = 10;
  size_t i = 0;
  if (s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) { base = 16; i = 2; }
  else if (s.size() > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) { base = 2; i = 2; }
  uint64_t v = 0;
  const uint64_t limit = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  bool overflow = false;
  for (; i < s.size(); ++i) {
    char ch = s[i];
    unsigned d = (ch >= '0' && ch <= '9') ? ch - '0' : (ch >= 'a' && ch <= 'f') ? ch - 'a' + 10 : ch - 'A' + 10;
    if (v > (limit - d) / base) { overflow = true; break; }
    v = v * base + d;
  }
  if (overflow) diags_.report(DiagId::SyntaxIntegerTooLarge, lit->range, lit->spelling);
  lit->value = overflow ? 0 : static_cast<int64_t>(v);
  return lit;
}

Expr *AstBuilder::stringLiteral(const std::vector<TerminalNode *> &parts, SourceRange r) {
  auto *s = m_.context.make<StringLit>(r);
  for (TerminalNode *part : parts) {
    std::string text = part->getText();
    if (text.size() < 2) continue;
    std::string_view body(text.data() + 1, text.size() - 2);
    for (size_t i = 0; i < body.size(); ++i) {
      if (body[i] != '\\' || i + 1 >= body.size()) { s->value += body[i]; continue; }
      char e = body[++i];
      switch (e) {
      case 'n': s->value += '\n'; break;
      case 't': s->value += '\t'; break;
      case '\\': s->value += '\\'; break;
      case '\'': s->value += '\''; break;
      case '"': s->value += '"'; break;
      case '0': s->value += '\0'; break;
      default: {
        SourceRange er = range(part->getSymbol());
        er.begin.col += 1 + static_cast<uint32_t>(codePointCount(body.substr(0, i - 1)));  // the backslash
        er.end = SourceLoc{er.begin.file, er.begin.line, er.begin.col + 2};
        diags_.report(DiagId::SyntaxInvalidEscape, er, std::string(1, e));
        s->value += e;
      }
      }
    }
  }
  return s;
}

// testlist : test (COMMA test)* COMMA?
Expr *AstBuilder::testlist(CakeParser::TestlistContext *ctx) {
  auto tests = ctx->test();
  if (tests.size() == 1 && ctx->COMMA().empty()) return test(tests[0]);
  auto *t = m_.context.make<TupleExpr>(range(ctx));
  for (auto *x : tests) t->elts.push_back(test(x));
  return t;
}

// exprlist : arith (COMMA arith)* COMMA?
Expr *AstBuilder::exprlist(CakeParser::ExprlistContext *ctx) {
  auto items = ctx->arith();
  if (items.size() == 1 && ctx->COMMA().empty()) return arith(items[0]);
  auto *t = m_.context.make<TupleExpr>(range(ctx));
  for (auto *x : items) t->elts.push_back(arith(x));
  return t;
}

}  // namespace cake
