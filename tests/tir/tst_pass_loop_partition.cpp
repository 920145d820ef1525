// loop-partition: loops split where the guards of non-dividing splits switch
// (TIR text in -> text out).
#include "tir/IRParser.h"
#include "tir/IRPrinter.h"
#include "tir/passes/LoopPartition.h"

#include "TirBuilders.h"

#include <QtTest>

using namespace tessel;
using namespace tessel::tir;

using namespace tessel::tir::test;

class TestPassLoopPartition : public QObject {
    Q_OBJECT
private slots:
    void nonDividingSplit() {
        // 10 elements split by 4: two full outer iterations, then a tail of 2.
        Buffer A = Buffer::make("A", DataType::float32(), {10});
        Buffer B = Buffer::make("B", DataType::float32(), {10});
        Stmt s = parseStmt(R"(for xo in range(3):
    for xi in range(4):
        if T.likely(xo * 4 + xi < 10):
            B[xo * 4 + xi] = A[xo * 4 + xi]
)",
                           {A, B});
        QCOMPARE(text(loopPartition(s)), QString(R"(for xo in range(2):
    for xi in range(4):
        B[xo * 4 + xi] = A[xo * 4 + xi]
for xi in range(2):
    B[8 + xi] = A[8 + xi]
)"));
    }

    void vectorizedInnerLoopKeepsItsKind() {
        Buffer A = Buffer::make("A", DataType::float32(), {20});
        Stmt s = parseStmt(R"(for xo in range(3):
    for xi in T.vectorized(8):
        if T.likely(xo * 8 + xi < 20):
            A[xo * 8 + xi] = T.float32(0.0)
)",
                           {A});
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
        Stmt s = parseStmt(R"(for x in range(10):
    if x >= 2:
        B[x] = A[x - 2]
    else:
        B[x] = T.float32(0.0)
)",
                           {A, B});
        QCOMPARE(text(loopPartition(s)), QString(R"(for x in range(2):
    B[x] = T.float32(0.0)
for x in range(2, 10):
    B[x] = A[x - 2]
)"));
    }

    void unrelatedOuterLoopStays() {
        Buffer A = Buffer::make("A", DataType::float32(), {4, 10});
        Stmt s = parseStmt(R"(for i in range(4):
    for xo in range(3):
        for xi in range(4):
            if T.likely(xo * 4 + xi < 10):
                A[i * 10 + (xo * 4 + xi)] = T.float32(1.0)
)",
                           {A});
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
        Stmt s = parseStmt(R"(for yo in range(2):
    for xo in range(2):
        for yi in range(4):
            for xi in range(4):
                if T.likely(yo * 4 + yi < 6):
                    if T.likely(xo * 4 + xi < 6):
                        B[(yo * 4 + yi) * 6 + (xo * 4 + xi)] = T.float32(1.0)
)",
                           {B});
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
        Stmt s = parseStmt(R"(for x in range(10):
    if x >= 2:
        B[x] = T.float32(1.0)
)",
                           {B});
        LoopPartitionOptions o;
        o.onlyLikely = true;
        QVERIFY(loopPartition(s, o).sameAs(s));
        QCOMPARE(text(loopPartition(s)), QString(R"(for x in range(2, 10):
    B[x] = T.float32(1.0)
)"));
    }

    void symbolicExtentIsLeftAlone() {
        Buffer B = Buffer::make("B", DataType::float32(), {64});
        Stmt s = parseStmt(R"(for xo in range((n + 3) // 4):
    for xi in range(4):
        if T.likely(xo * 4 + xi < n):
            B[xo * 4 + xi] = T.float32(1.0)
)",
                           {B});
        QVERIFY(loopPartition(s).sameAs(s));
    }

    void provableGuardIsRemovedWithoutSplit() {
        Buffer B = Buffer::make("B", DataType::float32(), {16});
        Stmt s = parseStmt(R"(for xo in range(4):
    for xi in range(4):
        if T.likely(xo * 4 + xi < 16):
            B[xo * 4 + xi] = T.float32(1.0)
)",
                           {B});
        QCOMPARE(text(loopPartition(s)), QString(R"(for xo in range(4):
    for xi in range(4):
        B[xo * 4 + xi] = T.float32(1.0)
)"));
    }
};

QTEST_APPLESS_MAIN(TestPassLoopPartition)
#include "tst_pass_loop_partition.moc"
