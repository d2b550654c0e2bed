# Every construct of the grammar in one file, with its AST checked.
# RUN: %cakec --emit=ast %s | FileCheck %s
import stdlib.tiles as tiles, stdlib.epilogue
# CHECK: ImportStmt @[[@LINE-1]]:1-[[@LINE-1]]:46
# CHECK-NEXT: 'stdlib.tiles' as 'tiles'
# CHECK-NEXT: 'stdlib.epilogue'
from stdlib.tiles import persistent as pt, raster
# CHECK: FromImportStmt 'stdlib.tiles'
# CHECK-NEXT: 'persistent' as 'pt'
# CHECK-NEXT: 'raster'
a, b = 0x1_F, 0b101
# CHECK: AssignStmt
# CHECK-NEXT: target:
# CHECK-NEXT: TupleExpr
# CHECK: IntLit 31
# CHECK: IntLit 5
x = y = 1_000
# CHECK: AssignStmt
# CHECK-NEXT: target:
# CHECK-NEXT: NameExpr 'x'
# CHECK-NEXT: target:
# CHECK-NEXT: NameExpr 'y'
f = 1.5e-3 + .5 - 2. * 3 // 4 % 5 ** -2 ** 2
# CHECK: BinaryExpr '-'
# CHECK-NEXT: BinaryExpr '+'
# CHECK-NEXT: FloatLit 1.5e-3
# CHECK-NEXT: FloatLit .5
# CHECK-NEXT: BinaryExpr '%'
# CHECK-NEXT: BinaryExpr '//'
# CHECK-NEXT: BinaryExpr '*'
# CHECK-NEXT: FloatLit 2.
# CHECK-NEXT: IntLit 3
# CHECK-NEXT: IntLit 4
# CHECK-NEXT: BinaryExpr '**'
# CHECK-NEXT: IntLit 5
# CHECK-NEXT: UnaryExpr '-'
# CHECK-NEXT: BinaryExpr '**'
c = not a < b and b >= 2 or a != 1 and a == (b)
# CHECK: BinaryExpr 'or'
# CHECK-NEXT: BinaryExpr 'and'
# CHECK-NEXT: UnaryExpr 'not'
# CHECK-NEXT: BinaryExpr '<'
s = "ab" 'c\n' "\"q\""
# CHECK: StringLit "abc\n"q""
t = (1,)
# CHECK: TupleExpr
# CHECK-NEXT: IntLit 1
e = ()
# CHECK: TupleExpr @[[@LINE-1]]:5-[[@LINE-1]]:7
l = [True, False, None, [], (a)]
# CHECK: ListExpr
# CHECK-NEXT: BoolLit True
# CHECK-NEXT: BoolLit False
# CHECK-NEXT: NoneLit
# CHECK-NEXT: ListExpr
# CHECK-NEXT: NameExpr 'a'
v = m[1:2, ::3, k].T
# CHECK: AttributeExpr '.T'
# CHECK-NEXT: SubscriptExpr
# CHECK-NEXT: NameExpr 'm'
# CHECK-NEXT: index:
# CHECK-NEXT: SliceExpr
# CHECK-NEXT: lower:
# CHECK-NEXT: IntLit 1
# CHECK-NEXT: upper:
# CHECK-NEXT: IntLit 2
# CHECK-NEXT: index:
# CHECK-NEXT: SliceExpr
# CHECK-NEXT: step:
# CHECK-NEXT: IntLit 3
# CHECK-NEXT: index:
# CHECK-NEXT: NameExpr 'k'
call(1, (2,
         3), key=[4,
  5],)
# CHECK: ExprStmt @[[@LINE-3]]:1-[[@LINE-1]]:7
# CHECK: keyword 'key'
total = 1 + \
    2
# CHECK: AssignStmt @[[@LINE-2]]:1-[[@LINE-1]]:6

@cake.schedule(grid=(4, 4))
@other
def kern(lm, A: LM.tma2d, n: LM.i32 = 8) -> None:
    # comment lines and blank lines do not matter

    with r1, r2 as q:
        pass
    for i, j in lm.range(0, n):
        if i == 0:
            pass
        elif i == 1:
            pass
        else:
            x = 1
    if a: pass
# CHECK: FunctionDef 'kern' @[[@LINE-15]]:1-[[@LINE-1]]:15
# CHECK-NEXT: decorator:
# CHECK-NEXT: CallExpr
# CHECK: decorator:
# CHECK-NEXT: NameExpr 'other'
# CHECK-NEXT: Param 'lm'
# CHECK-NEXT: Param 'A'
# CHECK-NEXT: type:
# CHECK-NEXT: AttributeExpr '.tma2d'
# CHECK: Param 'n'
# CHECK: default:
# CHECK-NEXT: IntLit 8
# CHECK-NEXT: returns:
# CHECK-NEXT: NoneLit
# CHECK-NEXT: body:
# CHECK-NEXT: WithStmt
# CHECK: as 'q'
# CHECK: PassStmt
# CHECK-NEXT: ForStmt
# CHECK-NEXT: target:
# CHECK-NEXT: TupleExpr
# CHECK: IfStmt
# CHECK: else:
# CHECK-NEXT: IfStmt (elif)
# CHECK: else:
# CHECK-NEXT: AssignStmt
# CHECK: IfStmt @[[@LINE-27]]:5-[[@LINE-27]]:15
