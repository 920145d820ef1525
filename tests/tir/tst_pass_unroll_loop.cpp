// unroll-loop: unrolled loops become copies of their body.
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"
#include "tir/passes/UnrollLoop.h"

#include "TirBuilders.h"

#include <QtTest>

using namespace tessel;
using namespace tessel::tir;

using namespace tessel::tir::test;

class TestPassUnrollLoop : public QObject {
    Q_OBJECT
private slots:
    void unrollsConstantLoop() {
        Buffer A = Buffer::make("A", DataType::float32(), {64});
        Buffer B = Buffer::make("B", DataType::float32(), {64});
        Var i("i"), j("j");
        Expr x = i * 4 + j;
        Stmt s = loop(i, 16, loop(j, 4, store(B, load(A, x) * 2.0, x), ForKind::Unrolled));
        QCOMPARE(text(unrollLoops(s)), QString(R"(for i in range(16):
    B[i * 4] = A[i * 4] * T.float32(2.0)
    B[i * 4 + 1] = A[i * 4 + 1] * T.float32(2.0)
    B[i * 4 + 2] = A[i * 4 + 2] * T.float32(2.0)
    B[i * 4 + 3] = A[i * 4 + 3] * T.float32(2.0)
)"));
    }

    void nestedUnrolledLoopsWithMin() {
        Buffer C = Buffer::make("C", DataType::float32(), {16});
        Var i("i"), j("j");
        Stmt s = ForNode::make(i, 1, 2, ForKind::Unrolled,
                               loop(j, 2, store(C, Expr(0.0), i * 4 + j), ForKind::Unrolled));
        QCOMPARE(text(unrollLoops(s)), QString(R"(C[4] = T.float32(0.0)
C[5] = T.float32(0.0)
C[8] = T.float32(0.0)
C[9] = T.float32(0.0)
)"));
    }

    void tooManyStepsStaysUnrollLoop() {
        Buffer C = Buffer::make("C", DataType::float32(), {1024});
        Var i("i"), j("j");
        Stmt s = loop(i, 64, loop(j, 16, store(C, Expr(0.0), i * 16 + j), ForKind::Unrolled),
                      ForKind::Unrolled);
        UnrollLoopOptions o;
        o.maxSteps = 32;
        // The inner loop (16 steps) unrolls, the outer (64 x 16) stays a T.unroll loop.
        Stmt r = unrollLoops(s, o);
        auto* outer = r.as<ForNode>();
        QVERIFY(outer);
        QCOMPARE(outer->forKind, ForKind::Unrolled);
        QVERIFY(outer->body.as<SeqStmtNode>());
        QCOMPARE(int(outer->body.as<SeqStmtNode>()->seq.size()), 16);
        // With the default limit (512) neither fits: 64 x 16 = 1024.
        Stmt d = unrollLoops(s);
        QCOMPARE(d.as<ForNode>()->forKind, ForKind::Unrolled);
    }

    void autoMaxStep() {
        Buffer C = Buffer::make("C", DataType::float32(), {64});
        Var i("i"), j("j");
        Stmt s = loop(i, 16, loop(j, 3, store(C, Expr(1.0), i * 3 + j)));
        QVERIFY(unrollLoops(s).sameAs(s)); // off by default
        UnrollLoopOptions o;
        o.autoMaxStep = 4;
        QCOMPARE(text(unrollLoops(s, o)), QString(R"(for i in range(16):
    C[i * 3] = T.float32(1.0)
    C[i * 3 + 1] = T.float32(1.0)
    C[i * 3 + 2] = T.float32(1.0)
)"));
    }

    void symbolicExtentStays() {
        Buffer C = Buffer::make("C", DataType::float32(), {64});
        Var n("n"), j("j");
        Stmt s = loop(j, n, store(C, Expr(1.0), j), ForKind::Unrolled);
        QVERIFY(unrollLoops(s).sameAs(s));
    }
};

QTEST_APPLESS_MAIN(TestPassUnrollLoop)
#include "tst_pass_unroll_loop.moc"
