// inject-virtual-thread: a vthread loop's iterations interleaved statement by
// statement, per-vthread buffers enlarged, the rest kept once (TIR in -> out).
#include "tir/passes/InjectVirtualThread.h"

#include "TirBuilders.h"

#include <QtTest>

using namespace tessel;
using namespace tessel::tir;
using namespace tessel::tir::test;

namespace {

Stmt vthreadLoop(const Var& v, Expr n, Stmt body, const char* tag = "vthread") {
    return ForNode::make(v, 0, std::move(n), ForKind::ThreadBinding, std::move(body), {}, tag);
}

/// A GEMM-shaped thread body: per k, a shared element filled (the same for
/// every vthread), then two accumulators per vthread updated from it; then
/// the accumulators written out.
struct Accumulate {
    Buffer A = Buffer::make("A", DataType::float32(), {64});
    Buffer S = Buffer::make("S", DataType::float32(), {8}, "shared");
    Buffer L = Buffer::make("L", DataType::float32(), {2}, "local");
    Buffer C = Buffer::make("C", DataType::float32(), {8});
    Var k{"k"}, i{"i"}, j{"j"};

    Stmt body(const Expr& v) const {
        Stmt fill = store(S, load(A, k * 8 + v * 0), Expr(k));
        Stmt update = loop(i, 2, store(L, load(L, Expr(i)) + load(S, v * 2 + i), Expr(i)));
        Stmt out = loop(j, 2, store(C, load(L, Expr(j)), v * 2 + j));
        return AllocateNode::make(L, SeqStmtNode::make({loop(k, 8, SeqStmtNode::make({fill, update})), out}));
    }
};

} // namespace

class TestPassInjectVirtualThread : public QObject {
    Q_OBJECT
private slots:
    // The update is copied inside the i loop, next to the other vthread's
    // copy; the fill, which no vthread changes, stays one statement; the
    // local accumulators get one half per vthread.
    void copiesInterleavedWhereTheyStand() {
        Accumulate a;
        Var v("vx");
        QCOMPARE(text(injectVirtualThread(vthreadLoop(v, 2, a.body(v)))), QString(R"(L = T.allocate([4], "float32", "local")
for k in range(8):
    S[k] = A[k * 8]
    for i in range(2):
        L[i] = L[i] + S[i]
        L[i + 2] = L[i + 2] + S[2 + i]
for j in range(2):
    C[j] = L[j]
    C[2 + j] = L[j + 2]
)"));
    }

    // Two vthread loops (2 x 2): the outer copies the inner's copies, four
    // accumulator copies in all.
    void nestedVthreadsMultiply() {
        Accumulate a;
        Var vy("vy"), vx("vx");
        Stmt s = vthreadLoop(vy, 2, vthreadLoop(vx, 2, a.body(vy * 4 + vx), "vthread.x"), "vthread.y");
        QString out = text(injectVirtualThread(s));
        QVERIFY2(out.contains(R"(L = T.allocate([8], "float32", "local"))"), qPrintable(out));
        QVERIFY2(!out.contains("vthread"), qPrintable(out));
        QCOMPARE(out.count("C["), 4);
        QCOMPARE(out.count("S[k] = "), 1);
        // The copies of (vy, vx) = (0, 0), (1, 0), (0, 1), (1, 1) and their halves of L.
        for (const char* copy : {"L[i] = L[i] + S[i]", "L[i + 4] = L[i + 4] + S[8 + i]", "L[i + 2] = L[i + 2] + S[2 + i]",
                                 "L[i + 2 + 4] = L[i + 2 + 4] + S[10 + i]"})
            QVERIFY2(out.contains(copy), qPrintable(QString(copy) + "\n" + out));
    }

    // A vector access of a per-vthread buffer: every lane moves to the copy.
    void vectorAccessesMoveEveryLane() {
        Buffer L = Buffer::make("L", DataType::float32(), {4}, "local");
        Buffer C = Buffer::make("C", DataType::float32(), {8});
        Var v("v");
        Expr lanes = RampNode::make(Expr(0), Expr(1), 4);
        Stmt body = AllocateNode::make(
            L, SeqStmtNode::make({store(L, BroadcastNode::make(cast(DataType::float32(), v), 4), lanes),
                                  store(C, load(L, lanes), RampNode::make(v * 4, Expr(1), 4))}));
        // (The simplify pass after it folds Ramp + Broadcast into one Ramp.)
        QCOMPARE(text(injectVirtualThread(vthreadLoop(v, 2, body))), QString(R"(L = T.allocate([8], "float32", "local")
L[T.Ramp(0, 1, 4) + T.Broadcast(0, 4)] = T.Broadcast(T.Cast("float32", 0), 4)
L[T.Ramp(0, 1, 4) + T.Broadcast(4, 4)] = T.Broadcast(T.Cast("float32", 1), 4)
C[T.Ramp(0, 1, 4)] = L[T.Ramp(0, 1, 4) + T.Broadcast(0, 4)]
C[T.Ramp(4, 1, 4)] = L[T.Ramp(0, 1, 4) + T.Broadcast(4, 4)]
)"));
    }

    // A loop whose extent depends on the vthread is copied whole: a serial
    // loop over the copies (written-out copies would not interleave anyway).
    void loopOfVthreadExtentBecomesSerial() {
        Buffer C = Buffer::make("C", DataType::float32(), {16});
        Var v("v"), i("i");
        Stmt s = vthreadLoop(v, 2, loop(i, v + 1, store(C, Expr(1.0f), v * 8 + i)));
        QCOMPARE(text(injectVirtualThread(s)), QString(R"(for v_s in range(2):
    for i in range(v_s + 1):
        C[v_s * 8 + i] = T.float32(1.0)
)"));
    }

    void manyVthreadsBecomeASerialLoop() {
        Buffer C = Buffer::make("C", DataType::float32(), {32});
        Var v("v");
        Stmt s = vthreadLoop(v, 16, store(C, Expr(1.0f), Expr(v)));
        QString out = text(injectVirtualThread(s));
        QVERIFY2(out.startsWith("for v_s in range(16):"), qPrintable(out));
        InjectVirtualThreadOptions o;
        o.maxUnrolled = 17;
        QCOMPARE(text(injectVirtualThread(s, o)).count("C["), 16);
    }

    // A vthread of no constant extent is left for the GPU verifier to refuse;
    // code without vthreads is returned as it was.
    void untouchedCodeIsTheSame() {
        Buffer C = Buffer::make("C", DataType::float32(), {32});
        Var v("v"), n("n"), i("i");
        Stmt dynamic = vthreadLoop(v, n, store(C, Expr(1.0f), Expr(v)));
        QVERIFY(injectVirtualThread(dynamic).sameAs(dynamic));
        Stmt plain = loop(i, 32, store(C, Expr(1.0f), Expr(i)));
        QVERIFY(injectVirtualThread(plain).sameAs(plain));
    }
};

QTEST_APPLESS_MAIN(TestPassInjectVirtualThread)
#include "tst_pass_inject_virtual_thread.moc"
