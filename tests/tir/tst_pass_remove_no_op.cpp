// remove-no-op: statements without effect disappear.
#include "tir/IROperators.h"
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
        Var i("i"), j("j"), k("k");
        Stmt emptyLoop = loop(i, 16, loop(j, 4, EvaluateNode::make(Expr(1.5))));
        Stmt emptyIf = loop(k, 4, IfThenElseNode::make(k < 2, noOp(), noOp()));
        Stmt keep = store(A, Expr(1.0), 0);
        Stmt s = SeqStmtNode::make({emptyLoop, emptyIf, keep});
        QCOMPARE(text(removeNoOp(s)), QString(R"(A[0] = T.float32(1.0)
)"));
    }

    void storeOfTheSameLocation() {
        Buffer A = Buffer::make("A", DataType::float32(), {16});
        Buffer B = Buffer::make("B", DataType::float32(), {16});
        Var i("i");
        Stmt s = loop(
            i, 16,
            SeqStmtNode::make({store(A, load(A, i * 1 + 0), i * 1 + 0), store(B, load(A, i), i)}));
        QCOMPARE(text(removeNoOp(s)), QString(R"(for i in range(16):
    B[i] = A[i]
)"));
    }

    void emptyThenBranchNegatesCondition() {
        Buffer A = Buffer::make("A", DataType::float32(), {16});
        Var i("i");
        Stmt s = loop(i, 16, IfThenElseNode::make(i < 4, noOp(), store(A, Expr(0.0), i)));
        QCOMPARE(text(removeNoOp(s)), QString(R"(for i in range(16):
    if not i < 4:
        A[i] = T.float32(0.0)
)"));
    }

    void zeroExtentLoopAndConstantCondition() {
        Buffer A = Buffer::make("A", DataType::float32(), {16});
        Var i("i"), j("j");
        Stmt s = SeqStmtNode::make(
            {loop(i, 0, store(A, Expr(1.0), i)),
             IfThenElseNode::make(IntImmNode::make(DataType::boolean(), 0), store(A, Expr(2.0), 0),
                                  store(A, Expr(3.0), 0))});
        QCOMPARE(text(removeNoOp(s)), QString(R"(A[0] = T.float32(3.0)
)"));
    }

    void unchangedProgram() {
        Buffer A = Buffer::make("A", DataType::float32(), {16});
        Var i("i");
        Stmt s = loop(i, 16, store(A, Expr(1.0), i));
        QVERIFY(removeNoOp(s).sameAs(s));
    }
};

QTEST_APPLESS_MAIN(TestPassRemoveNoOp)
#include "tst_pass_remove_no_op.moc"
