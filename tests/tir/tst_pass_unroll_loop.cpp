// unroll-loop: unrolled loops become copies of their body (TIR text in -> text out).
#include "tir/IRParser.h"
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
        Stmt s = parseStmt(R"(for i in range(16):
    for j in T.unroll(4):
        B[i * 4 + j] = A[i * 4 + j] * T.float32(2.0)
)",
                           {A, B});
        QCOMPARE(text(unrollLoops(s)), QString(R"(for i in range(16):
    B[i * 4] = A[i * 4] * T.float32(2.0)
    B[i * 4 + 1] = A[i * 4 + 1] * T.float32(2.0)
    B[i * 4 + 2] = A[i * 4 + 2] * T.float32(2.0)
    B[i * 4 + 3] = A[i * 4 + 3] * T.float32(2.0)
)"));
    }

    void nestedUnrolledLoopsWithMin() {
        Buffer C = Buffer::make("C", DataType::float32(), {16});
        Stmt s = parseStmt(R"(for i in T.unroll(1, 3):
    for j in T.unroll(2):
        C[i * 4 + j] = T.float32(0.0)
)",
                           {C});
        QCOMPARE(text(unrollLoops(s)), QString(R"(C[4] = T.float32(0.0)
C[5] = T.float32(0.0)
C[8] = T.float32(0.0)
C[9] = T.float32(0.0)
)"));
    }

    void tooManyStepsStaysUnrollLoop() {
        Buffer C = Buffer::make("C", DataType::float32(), {1024});
        Stmt s = parseStmt(R"(for i in T.unroll(64):
    for j in T.unroll(16):
        C[i * 16 + j] = T.float32(0.0)
)",
                           {C});
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
        Stmt s = parseStmt(R"(for i in range(16):
    for j in range(3):
        C[i * 3 + j] = T.float32(1.0)
)",
                           {C});
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
        Stmt s = parseStmt(R"(for j in T.unroll(n):
    C[j] = T.float32(1.0)
)",
                           {C});
        QVERIFY(unrollLoops(s).sameAs(s));
    }
};

QTEST_APPLESS_MAIN(TestPassUnrollLoop)
#include "tst_pass_unroll_loop.moc"
