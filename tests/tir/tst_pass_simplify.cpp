// simplify: the arithmetic simplifier run as a pass over a whole PrimFunc.
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"
#include "tir/passes/Simplify.h"

#include "TirBuilders.h"

#include <QtTest>

using namespace tessel;
using namespace tessel::tir;

using namespace tessel::tir::test;

class TestPassSimplify : public QObject {
    Q_OBJECT
private slots:
    void dividingSplitGuardGoesAway() {
        Buffer A = Buffer::make("A", DataType::float32(), {32});
        Var xo("xo"), xi("xi");
        Expr x = xo * 8 + xi;
        Stmt body = loop(
            xo, 4,
            loop(xi, 8,
                 IfThenElseNode::make(call(Intrinsic::Likely, {x < 32}), store(A, Expr(0.0), x))));
        PrimFunc f = PrimFunc::make("zero", {A}, body);
        QCOMPARE(text(simplifyPass(f)), QString(R"(@T.prim_func
def zero(A: T.Buffer((32,), "float32")):
    for xo in range(4):
        for xi in range(8):
            A[xo * 8 + xi] = T.float32(0.0)
)"));
    }

    void indexArithmeticFolds() {
        // (xo * 8 + xi) // 8 is xo and (xo * 8 + xi) % 8 is xi when xi is in [0, 8).
        Buffer A = Buffer::make("A", DataType::float32(), {4, 8});
        Buffer B = Buffer::make("B", DataType::float32(), {32});
        Var xo("xo"), xi("xi");
        Expr x = xo * 8 + xi;
        Expr src = load(A, floordiv(x, 8) * 8 + floormod(x, 8));
        PrimFunc f = PrimFunc::make("copy", {A, B}, loop(xo, 4, loop(xi, 8, store(B, src, x))));
        QCOMPARE(text(simplifyPass(f)), QString(R"(@T.prim_func
def copy(A: T.Buffer((4, 8), "float32"), B: T.Buffer((32,), "float32")):
    for xo in range(4):
        for xi in range(8):
            B[xo * 8 + xi] = A[xo * 8 + xi]
)"));
    }

    void loopOfExtentOneBecomesItsBody() {
        Buffer A = Buffer::make("A", DataType::float32(), {8});
        Var i("i"), j("j");
        PrimFunc f =
            PrimFunc::make("one", {A}, loop(i, 1, loop(j, 8, store(A, Expr(1.0), i * 8 + j))));
        QCOMPARE(text(simplifyPass(f)), QString(R"(@T.prim_func
def one(A: T.Buffer((8,), "float32")):
    for j in range(8):
        A[j] = T.float32(1.0)
)"));
    }

    void simpleFunctionIsUnchanged() {
        Buffer A = Buffer::make("A", DataType::float32(), {8});
        Var j("j");
        PrimFunc f = PrimFunc::make("one", {A}, loop(j, 8, store(A, Expr(1.0), j)));
        QVERIFY(simplifyPass(f).sameAs(f));
    }
};

QTEST_APPLESS_MAIN(TestPassSimplify)
#include "tst_pass_simplify.moc"
