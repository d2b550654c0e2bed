// CakeLexer.g4 - tokens of the CAKE IR surface syntax.
//
// The surface is Python-flavoured: '#' comments, significant indentation,
// implicit line joining inside brackets. INDENT and DEDENT are not produced
// here: src/lexer_parser/IndentingTokenSource turns each NEWLINE (which
// carries the next line's leading whitespace) into NEWLINE/INDENT/DEDENT and
// drops NEWLINEs inside brackets and on blank or comment-only lines.
lexer grammar CakeLexer;

tokens { INDENT, DEDENT }

// ---- keywords -------------------------------------------------------------
DEF    : 'def';
WITH   : 'with';
FOR    : 'for';
IN     : 'in';
IF     : 'if';
ELIF   : 'elif';
ELSE   : 'else';
PASS   : 'pass';
IMPORT : 'import';
FROM   : 'from';
AS     : 'as';
AND    : 'and';
OR     : 'or';
NOT    : 'not';
TRUE   : 'True';
FALSE  : 'False';
NONE   : 'None';

// ---- brackets (the token source tracks their nesting) ----------------------
LPAREN : '(';
RPAREN : ')';
LBRACK : '[';
RBRACK : ']';
LBRACE : '{';
RBRACE : '}';

// ---- operators and punctuation (longest first where prefixes overlap) -----
POWER       : '**';
FLOORDIV    : '//';
EQ          : '==';
NE          : '!=';
LE          : '<=';
GE          : '>=';
ARROW       : '->';
LT          : '<';
GT          : '>';
ASSIGN      : '=';
PLUS        : '+';
MINUS       : '-';
STAR        : '*';
SLASH       : '/';
PERCENT     : '%';
DOT         : '.';
COMMA       : ',';
COLON       : ':';
SEMI        : ';';
AT          : '@';

// ---- literals ---------------------------------------------------------------
// Floats before integers so that '1.5' and '1e3' are one token.
FLOAT
    : DIGITS '.' DIGITS? EXPONENT?
    | '.' DIGITS EXPONENT?
    | DIGITS EXPONENT
    ;
INT
    : DIGITS
    | '0' [xX] ('_'? HEXDIGIT)+
    | '0' [bB] ('_'? [01])+
    ;
STRING
    : '"' (~["\\\r\n] | '\\' ~[\r\n])* '"'
    | '\'' (~['\\\r\n] | '\\' ~[\r\n])* '\''
    ;
// A quote that is not closed on its line: reported, never silently joined.
UNTERMINATED_STRING
    : '"' (~["\\\r\n] | '\\' ~[\r\n])*
    | '\'' (~['\\\r\n] | '\\' ~[\r\n])*
    ;

NAME : [a-zA-Z_] [a-zA-Z_0-9]*;

// ---- layout -----------------------------------------------------------------
// A line break together with the indentation of the following line.
NEWLINE : ('\r'? '\n' | '\r') [ \t\f]*;
// A backslash at the end of a line joins it with the next one.
LINE_JOIN : '\\' [ \t]* ('\r'? '\n' | '\r') -> skip;
SPACES : [ \t\f]+ -> skip;
COMMENT : '#' ~[\r\n]* -> skip;

// Anything else is reported as an invalid character by the token source.
ERROR_CHAR : .;

fragment DIGITS   : [0-9] ('_'? [0-9])*;
fragment HEXDIGIT : [0-9a-fA-F];
fragment EXPONENT : [eE] [+-]? DIGITS;
