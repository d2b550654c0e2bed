// CakeParser.g4 - the syntax of a .cake file.
//
// One rule per construct. Operator precedence is spelled as a ladder of
// rules (loosest first), as in Python's own grammar, so that the parse tree
// stays flat for long operator chains. src/lexer_parser/AstBuilder.cpp turns
// this tree into our AST; nothing else sees ANTLR types.
parser grammar CakeParser;

options { tokenVocab = CakeLexer; }

// A file is a sequence of statements.
file_input : (NEWLINE | stmt)* EOF;

stmt : simple_stmt | compound_stmt;

// ---- simple statements (one logical line) ----------------------------------
simple_stmt : small_stmt NEWLINE;

small_stmt
    : import_stmt
    | from_import_stmt
    | pass_stmt
    | expr_stmt
    ;

// import a.b.c [as d], e
import_stmt : IMPORT dotted_as_name (COMMA dotted_as_name)*;
dotted_as_name : dotted_name (AS NAME)?;

// from a.b import c [as d], e
from_import_stmt : FROM dotted_name IMPORT import_as_name (COMMA import_as_name)*;
import_as_name : NAME (AS NAME)?;

dotted_name : NAME (DOT NAME)*;

pass_stmt : PASS;

// An expression statement, or an assignment `t1 = t2 = value`; the AST
// builder checks that the left-hand side is something one can assign to.
expr_stmt : testlist (ASSIGN testlist)*;

// ---- compound statements ----------------------------------------------------
compound_stmt
    : decorated
    | funcdef
    | with_stmt
    | for_stmt
    | if_stmt
    ;

// @cake.schedule(grid=(4, 4))
decorator : AT atom_expr NEWLINE;
decorated : decorator+ funcdef;

// def name(lm, Q: LM.tma3d, n: LM.i32 = 4):
funcdef : DEF NAME LPAREN parameters? RPAREN (ARROW test)? COLON block;
parameters : param (COMMA param)* COMMA?;
param : NAME (COLON test)? (ASSIGN test)?;

// with role:
with_stmt : WITH with_item (COMMA with_item)* COLON block;
with_item : test (AS NAME)?;

// for s in lm.range(0, n):
for_stmt : FOR exprlist IN testlist COLON block;

// if c: ... elif c: ... else: ...
if_stmt : IF test COLON block (ELIF test COLON block)* (ELSE COLON block)?;

// A block is either a simple statement on the same line or an indented suite.
block
    : simple_stmt
    | NEWLINE INDENT stmt+ DEDENT
    ;

// ---- expressions ------------------------------------------------------------
// One rule with ANTLR's precedence climbing: earlier alternatives bind
// tighter. Python's order: ** (right-associative), unary + -, * / // %,
// binary + -, comparisons, not, and, or. A tree node exists only where an
// operator does, which keeps parsing and tree building cheap.
test
    : atom_expr                                              # primaryExpr
    | <assoc=right> test POWER test                          # powerExpr
    | op=(PLUS | MINUS) test                                 # unaryExpr
    | test op=(STAR | SLASH | FLOORDIV | PERCENT) test       # mulExpr
    | test op=(PLUS | MINUS) test                            # addExpr
    | test comp_op test                                      # compareExpr
    | NOT test                                               # notExpr
    | test AND test                                          # andExpr
    | test OR test                                           # orExpr
    ;
comp_op : LT | GT | EQ | NE | LE | GE;

// A primary followed by calls, subscripts and attribute accesses.
atom_expr : atom trailer*;

atom
    : LPAREN testlist_comp? RPAREN     // parenthesised expression or tuple
    | LBRACK testlist_comp? RBRACK     // list
    | NAME
    | INT
    | FLOAT
    | STRING+
    | TRUE
    | FALSE
    | NONE
    ;

testlist_comp : test (COMMA test)* COMMA?;

trailer
    : LPAREN arglist? RPAREN           // call
    | LBRACK subscriptlist RBRACK      // subscript
    | DOT NAME                         // attribute
    ;

subscriptlist : subscript (COMMA subscript)* COMMA?;
subscript
    : test
    | test? COLON test? (COLON test?)? // slice lo:hi:step
    ;

arglist : argument (COMMA argument)* COMMA?;
argument
    : NAME ASSIGN test                 // keyword argument
    | test                             // positional argument
    ;

// Comma-separated lists; a trailing comma or more than one item makes a tuple.
testlist : test (COMMA test)* COMMA?;
exprlist : test (COMMA test)* COMMA?;
