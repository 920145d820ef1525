// remove-no-op: statements without effect disappear (TIR text in -> text out).
#include "tir/IRParser.h"
#include "tir/IRPrinter.h"
#include "tir/passes/RemoveNoOp.h"

#include "TirBuilders.h"

#include <QtTest>

using namespace tessel;
using namespace tessel::tir;

using namespace tessel::tir::test;

class TestPassRemoveNoOp : public QObject {
    Q_OBJECT
private slots:
    void emptyLoopsAndIfs() {
        Buffer A = Buffer::make("A", DataType::float32(), {16});
        Stmt s = parseStmt(R"(for i in range(16):
    for j in range(4):
        T.evaluate(T.float32(1.5))
for k in range(4):
    if k < 2:
        T.evaluate(0)
    else:
        T.evaluate(0)
A[0] = T.float32(1.0)
)",
                           {A});
        QCOMPARE(text(removeNoOp(s)), QString(R"(A[0] = T.float32(1.0)
)"));
    }

    void storeOfTheSameLocation() {
        Buffer A = Buffer::make("A", DataType::float32(), {16});
        Buffer B = Buffer::make("B", DataType::float32(), {16});
        Stmt s = parseStmt(R"(for i in range(16):
    A[i] = A[i]
    B[i] = A[i]
)",
                           {A, B});
        QCOMPARE(text(removeNoOp(s)), QString(R"(for i in range(16):
    B[i] = A[i]
)"));
    }

    void emptyThenBranchNegatesCondition() {
        Buffer A = Buffer::make("A", DataType::float32(), {16});
        Stmt s = parseStmt(R"(for i in range(16):
    if i < 4:
        T.evaluate(0)
    else:
        A[i] = T.float32(0.0)
)",
                           {A});
        QCOMPARE(text(removeNoOp(s)), QString(R"(for i in range(16):
    if not i < 4:
        A[i] = T.float32(0.0)
)"));
    }

    void zeroExtentLoopAndConstantCondition() {
        Buffer A = Buffer::make("A", DataType::float32(), {16});
        Stmt s = parseStmt(R"(for i in range(0):
    A[i] = T.float32(1.0)
if False:
    A[0] = T.float32(2.0)
else:
    A[0] = T.float32(3.0)
)",
                           {A});
        QCOMPARE(text(removeNoOp(s)), QString(R"(A[0] = T.float32(3.0)
)"));
    }

    void unchangedProgram() {
        Buffer A = Buffer::make("A", DataType::float32(), {16});
        Stmt s = parseStmt(R"(for i in range(16):
    A[i] = T.float32(1.0)
)",
                           {A});
        QVERIFY(removeNoOp(s).sameAs(s));
    }
};

QTEST_APPLESS_MAIN(TestPassRemoveNoOp)
#include "tst_pass_remove_no_op.moc"
