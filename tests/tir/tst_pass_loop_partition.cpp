// loop-partition: loops split where the guards of non-dividing splits switch.
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"
#include "tir/passes/LoopPartition.h"

#include "TirBuilders.h"

#include <QtTest>

using namespace tessel;
using namespace tessel::tir;

using namespace tessel::tir::test;

namespace {

Expr likely(Expr c) {
    return call(Intrinsic::Likely, {std::move(c)});
}

} // namespace

class TestPassLoopPartition : public QObject {
    Q_OBJECT
private slots:
    void nonDividingSplit() {
        // 10 elements split by 4: two full outer iterations, then a tail of 2.
        Buffer A = Buffer::make("A", DataType::float32(), {10});
        Buffer B = Buffer::make("B", DataType::float32(), {10});
        Var xo("xo"), xi("xi");
        Expr x = xo * 4 + xi;
        Stmt s =
            loop(xo, 3, loop(xi, 4, IfThenElseNode::make(likely(x < 10), store(B, load(A, x), x))));
        QCOMPARE(text(loopPartition(s)), QString(R"(for xo in range(2):
    for xi in range(4):
        B[xo * 4 + xi] = A[xo * 4 + xi]
for xi in range(2):
    B[8 + xi] = A[8 + xi]
)"));
    }

    void vectorizedInnerLoopKeepsItsKind() {
        Buffer A = Buffer::make("A", DataType::float32(), {20});
        Var xo("xo"), xi("xi");
        Expr x = xo * 8 + xi;
        Stmt s = loop(xo, 3,
                      loop(xi, 8, IfThenElseNode::make(likely(x < 20), store(A, Expr(0.0), x)),
                           ForKind::Vectorized));
        QCOMPARE(text(loopPartition(s)), QString(R"(for xo in range(2):
    for xi in T.vectorized(8):
        A[xo * 8 + xi] = T.float32(0.0)
for xi in T.vectorized(4):
    A[16 + xi] = T.float32(0.0)
)"));
    }

    void lowerBoundWithElse() {
        // Padding: the first two iterations take the else branch.
        Buffer A = Buffer::make("A", DataType::float32(), {8});
        Buffer B = Buffer::make("B", DataType::float32(), {10});
        Var x("x");
        Stmt s =
            loop(x, 10,
                 IfThenElseNode::make(x >= 2, store(B, load(A, x - 2), x), store(B, Expr(0.0), x)));
        QCOMPARE(text(loopPartition(s)), QString(R"(for x in range(2):
    B[x] = T.float32(0.0)
for x in range(2, 10):
    B[x] = A[x - 2]
)"));
    }

    void unrelatedOuterLoopStays() {
        Buffer A = Buffer::make("A", DataType::float32(), {4, 10});
        Var i("i"), xo("xo"), xi("xi");
        Expr x = xo * 4 + xi;
        Expr flat = i * 10 + x;
        Stmt s = loop(
            i, 4,
            loop(xo, 3,
                 loop(xi, 4, IfThenElseNode::make(likely(x < 10), store(A, Expr(1.0), flat)))));
        QCOMPARE(text(loopPartition(s)), QString(R"(for i in range(4):
    for xo in range(2):
        for xi in range(4):
            A[i * 10 + (xo * 4 + xi)] = T.float32(1.0)
    for xi in range(2):
        A[i * 10 + (8 + xi)] = T.float32(1.0)
)"));
    }

    void twoDimensionalTile() {
        // A 6 x 6 output in 4 x 4 tiles: guards on both axes.
        Buffer B = Buffer::make("B", DataType::float32(), {36});
        Var yo("yo"), xo("xo"), yi("yi"), xi("xi");
        Expr y = yo * 4 + yi, x = xo * 4 + xi;
        Stmt st = IfThenElseNode::make(
            likely(y < 6), IfThenElseNode::make(likely(x < 6), store(B, Expr(1.0), y * 6 + x)));
        Stmt s = loop(yo, 2, loop(xo, 2, loop(yi, 4, loop(xi, 4, st))));
        // Four tiles: full, right edge (xi < 2), bottom edge (yi < 2), corner.
        QCOMPARE(text(loopPartition(s)), QString(R"(for yi in range(4):
    for xi in range(4):
        B[yi * 6 + xi] = T.float32(1.0)
for yi in range(4):
    for xi in range(2):
        B[yi * 6 + (4 + xi)] = T.float32(1.0)
for yi in range(2):
    for xi in range(4):
        B[(4 + yi) * 6 + xi] = T.float32(1.0)
for yi in range(2):
    for xi in range(2):
        B[(4 + yi) * 6 + (4 + xi)] = T.float32(1.0)
)"));
    }

    void onlyLikelyOption() {
        Buffer B = Buffer::make("B", DataType::float32(), {10});
        Var x("x");
        Stmt s = loop(x, 10, IfThenElseNode::make(x >= 2, store(B, Expr(1.0), x)));
        LoopPartitionOptions o;
        o.onlyLikely = true;
        QVERIFY(loopPartition(s, o).sameAs(s));
        QCOMPARE(text(loopPartition(s)), QString(R"(for x in range(2, 10):
    B[x] = T.float32(1.0)
)"));
    }

    void symbolicExtentIsLeftAlone() {
        Buffer B = Buffer::make("B", DataType::float32(), {64});
        Var n("n"), xo("xo"), xi("xi");
        Expr x = xo * 4 + xi;
        Stmt s = loop(xo, floordiv(n + 3, 4),
                      loop(xi, 4, IfThenElseNode::make(likely(x < n), store(B, Expr(1.0), x))));
        QVERIFY(loopPartition(s).sameAs(s));
    }

    void provableGuardIsRemovedWithoutSplit() {
        Buffer B = Buffer::make("B", DataType::float32(), {16});
        Var xo("xo"), xi("xi");
        Expr x = xo * 4 + xi;
        Stmt s =
            loop(xo, 4, loop(xi, 4, IfThenElseNode::make(likely(x < 16), store(B, Expr(1.0), x))));
        QCOMPARE(text(loopPartition(s)), QString(R"(for xo in range(4):
    for xi in range(4):
        B[xo * 4 + xi] = T.float32(1.0)
)"));
    }
};

QTEST_APPLESS_MAIN(TestPassLoopPartition)
#include "tst_pass_loop_partition.moc"
