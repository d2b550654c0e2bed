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

// ---- expressions, loosest binding first --------------------------------------
test       : or_test;
or_test    : and_test (OR and_test)*;
and_test   : not_test (AND not_test)*;
not_test   : NOT not_test | comparison;
comparison : arith (comp_op arith)*;
comp_op    : LT | GT | EQ | NE | LE | GE;
arith      : term ((PLUS | MINUS) term)*;
term       : factor ((STAR | SLASH | FLOORDIV | PERCENT) factor)*;
factor     : (PLUS | MINUS) factor | power;
power      : atom_expr (POWER factor)?;

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
exprlist : arith (COMMA arith)* COMMA?;
