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
  if (e->getType() == CakeLexer::NEWLINE || e->getType() == CakeLexer::DEDENT || e->getType() == Token::EOF) {
    return SourceRange(IndentingTokenSource::tokenBegin(m_.file, b), IndentingTokenSource::tokenBegin(m_.file, e));
  }
  return SourceRange(IndentingTokenSource::tokenBegin(m_.file, b), IndentingTokenSource::tokenEnd(m_.file, e));
}

SourceRange AstBuilder::range(TerminalNode *n) const { return n ? range(n->getSymbol()) : SourceRange(); }
SourceRange AstBuilder::range(Token *t) const { return IndentingTokenSource::tokenRange(m_.file, t); }

Expr *AstBuilder::missing(SourceRange r) { return m_.context.make<NoneLit>(r); }

// A compound statement's range ends with its last nested statement rather
// than at the (synthetic) DEDENT that closes it.
void AstBuilder::endAtBody(Stmt *s, const std::vector<Stmt *> &body) {
  if (!body.empty() && body.back()->range.valid()) s->range.end = body.back()->range.end;
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
  if (auto *i = small->import_stmt())
    s = importStmt(i);
  else if (auto *f = small->from_import_stmt())
    s = fromImportStmt(f);
  else if (auto *p = small->pass_stmt())
    s = m_.context.make<PassStmt>(range(p));
  else if (auto *e = small->expr_stmt())
    s = exprStmt(e);
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
                     : (isa<IntLit>(e) || isa<FloatLit>(e) || isa<StringLit>(e) || isa<BoolLit>(e) || isa<NoneLit>(e))
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
  for (IfStmt *i = top; i;
       i = (i->orelse.size() == 1 && isa<IfStmt>(i->orelse[0]) && static_cast<IfStmt *>(i->orelse[0])->isElif)
               ? static_cast<IfStmt *>(i->orelse[0])
               : nullptr)
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

// test : atom_expr | test POWER test | (PLUS | MINUS) test | test op test
//      | test comp_op test | NOT test | test AND test | test OR test
// Alternatives are tried most common first.
Expr *AstBuilder::test(CakeParser::TestContext *ctx) {
  if (!ctx) return missing(SourceRange());
  if (auto *p = dynamic_cast<CakeParser::PrimaryExprContext *>(ctx))
    return p->atom_expr() ? atomExpr(p->atom_expr()) : missing(range(ctx));
  if (auto *m = dynamic_cast<CakeParser::MulExprContext *>(ctx)) return binary(ctx, m->test(0), m->op, m->test(1));
  if (auto *a = dynamic_cast<CakeParser::AddExprContext *>(ctx)) return binary(ctx, a->test(0), a->op, a->test(1));
  if (auto *c = dynamic_cast<CakeParser::CompareExprContext *>(ctx))
    return binary(ctx, c->test(0), c->comp_op() ? c->comp_op()->getStart() : nullptr, c->test(1));
  if (auto *p = dynamic_cast<CakeParser::PowerExprContext *>(ctx))
    return binary(ctx, p->test(0), p->POWER() ? p->POWER()->getSymbol() : nullptr, p->test(1));
  if (auto *a = dynamic_cast<CakeParser::AndExprContext *>(ctx))
    return binary(ctx, a->test(0), a->AND() ? a->AND()->getSymbol() : nullptr, a->test(1));
  if (auto *o = dynamic_cast<CakeParser::OrExprContext *>(ctx))
    return binary(ctx, o->test(0), o->OR() ? o->OR()->getSymbol() : nullptr, o->test(1));
  if (auto *u = dynamic_cast<CakeParser::UnaryExprContext *>(ctx)) {
    auto *e = m_.context.make<UnaryExpr>(range(ctx));
    e->op = (u->op && u->op->getType() == CakeLexer::MINUS) ? UnaryOp::Neg : UnaryOp::Pos;
    e->operand = test(u->test());
    return e;
  }
  if (auto *n = dynamic_cast<CakeParser::NotExprContext *>(ctx)) {
    auto *e = m_.context.make<UnaryExpr>(range(ctx));
    e->op = UnaryOp::Not;
    e->operand = test(n->test());
    return e;
  }
  return missing(range(ctx));
}

Expr *AstBuilder::binary(CakeParser::TestContext *ctx, CakeParser::TestContext *lhs, Token *op,
                         CakeParser::TestContext *rhs) {
  auto *b = m_.context.make<BinaryExpr>(range(ctx));
  b->op = binaryOpFor(op ? op->getType() : 0);
  b->opRange = op ? range(op) : SourceRange();
  b->lhs = test(lhs);
  b->rhs = test(rhs);
  return b;
}

// atom_expr : atom trailer*
Expr *AstBuilder::atomExpr(CakeParser::Atom_exprContext *ctx) {
  // atom trailer*: walk the children once.
  Expr *e = nullptr;
  for (antlr4::tree::ParseTree *child : ctx->children) {
    if (!e) {
      auto *a = dynamic_cast<CakeParser::AtomContext *>(child);
      e = a ? atom(a) : missing(range(ctx));
      continue;
    }
    if (auto *t = dynamic_cast<CakeParser::TrailerContext *>(child)) e = trailer(e, t);
  }
  return e ? e : missing(range(ctx));
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
    if (slot == 0)
      s->lower = e;
    else if (slot == 1)
      s->upper = e;
    else
      s->step = e;
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
  if (s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    i = 2;
  } else if (s.size() > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    base = 2;
    i = 2;
  }
  uint64_t v = 0;
  const uint64_t limit = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  bool overflow = false;
  for (; i < s.size(); ++i) {
    char ch = s[i];
    unsigned d = (ch >= '0' && ch <= '9') ? ch - '0' : (ch >= 'a' && ch <= 'f') ? ch - 'a' + 10 : ch - 'A' + 10;
    if (v > (limit - d) / base) {
      overflow = true;
      break;
    }
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
      if (body[i] != '\\' || i + 1 >= body.size()) {
        s->value += body[i];
        continue;
      }
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

// exprlist : test (COMMA test)* COMMA?
Expr *AstBuilder::exprlist(CakeParser::ExprlistContext *ctx) {
  auto items = ctx->test();
  if (items.size() == 1 && ctx->COMMA().empty()) return test(items[0]);
  auto *t = m_.context.make<TupleExpr>(range(ctx));
  for (auto *x : items) t->elts.push_back(test(x));
  return t;
}

}  // namespace cake
