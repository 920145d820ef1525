// simplify: the arithmetic simplifier run as a pass over a whole PrimFunc (TIR text in -> text out).
#include "tir/IRParser.h"
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
        PrimFunc f = parsePrimFunc(R"(@T.prim_func
def zero(A: T.Buffer((32,), "float32")):
    for xo in range(4):
        for xi in range(8):
            if T.likely(xo * 8 + xi < 32):
                A[xo * 8 + xi] = T.float32(0.0)
)");
        QCOMPARE(text(simplifyPass(f)), QString(R"(@T.prim_func
def zero(A: T.Buffer((32,), "float32")):
    for xo in range(4):
        for xi in range(8):
            A[xo * 8 + xi] = T.float32(0.0)
)"));
    }

    void indexArithmeticFolds() {
        // (xo * 8 + xi) // 8 is xo and (xo * 8 + xi) % 8 is xi when xi is in [0, 8).
        PrimFunc f = parsePrimFunc(R"(@T.prim_func
def copy(A: T.Buffer((4, 8), "float32"), B: T.Buffer((32,), "float32")):
    for xo in range(4):
        for xi in range(8):
            B[xo * 8 + xi] = A[(xo * 8 + xi) // 8 * 8 + (xo * 8 + xi) % 8]
)");
        QCOMPARE(text(simplifyPass(f)), QString(R"(@T.prim_func
def copy(A: T.Buffer((4, 8), "float32"), B: T.Buffer((32,), "float32")):
    for xo in range(4):
        for xi in range(8):
            B[xo * 8 + xi] = A[xo * 8 + xi]
)"));
    }

    void loopOfExtentOneBecomesItsBody() {
        PrimFunc f = parsePrimFunc(R"(@T.prim_func
def one(A: T.Buffer((8,), "float32")):
    for i in range(1):
        for j in range(8):
            A[i * 8 + j] = T.float32(1.0)
)");
        QCOMPARE(text(simplifyPass(f)), QString(R"(@T.prim_func
def one(A: T.Buffer((8,), "float32")):
    for j in range(8):
        A[j] = T.float32(1.0)
)"));
    }

    void simpleFunctionIsUnchanged() {
        PrimFunc f = parsePrimFunc(R"(@T.prim_func
def one(A: T.Buffer((8,), "float32")):
    for j in range(8):
        A[j] = T.float32(1.0)
)");
        QVERIFY(simplifyPass(f).sameAs(f));
    }
};

QTEST_APPLESS_MAIN(TestPassSimplify)
#include "tst_pass_simplify.moc"
