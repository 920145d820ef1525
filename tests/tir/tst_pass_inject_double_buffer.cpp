// inject-double-buffer: a marked shared tile gets two halves, the next tile is
// loaded before this one is read, one barrier per iteration (TIR in -> out).
#include "tir/IRPrinter.h"
#include "tir/passes/InjectDoubleBuffer.h"
#include "tir/passes/ThreadSync.h"

#include "TirBuilders.h"

#include <QtTest>

using namespace tessel;
using namespace tessel::tir;
using namespace tessel::tir::test;

namespace {

Stmt threadLoop(const Var& v, int64_t n, Stmt body) {
    return ForNode::make(v, 0, Expr(int(n)), ForKind::ThreadBinding, std::move(body), {}, "threadIdx.x");
}

/// for tx (threads): for ko in range(4): S <- A's tile ko; sync; C[tx] += sum S; sync
struct TileLoop {
    Buffer A = Buffer::make("A", DataType::float32(), {64});
    Buffer S = Buffer::make("S", DataType::float32(), {16}, "shared");
    Buffer C = Buffer::make("C", DataType::float32(), {16});
    Buffer D = Buffer::make("D", DataType::float32(), {16}, "shared");
    Var tx{"tx"}, t{"t"}, ko{"ko"}, ki{"ki"};

    Stmt build(bool alsoWritesD) const {
        Stmt fill = AttrStmtNode::make("double_buffer_write", S->data,
                                       threadLoop(t, 16, store(S, load(A, ko * 16 + t), Expr(t))));
        Stmt compute = loop(ki, 16, store(C, load(C, Expr(tx)) + load(S, Expr(ki)), Expr(tx)));
        std::vector<Stmt> body = {fill, storageSync(), compute, storageSync()};
        if (alsoWritesD) body.insert(body.begin() + 1, store(D, load(A, Expr(tx)), Expr(tx)));
        Stmt s = threadLoop(tx, 16, loop(ko, 4, SeqStmtNode::make(body)));
        return AllocateNode::make(S, AllocateNode::make(D, s));
    }
};

} // namespace

class TestPassInjectDoubleBuffer : public QObject {
    Q_OBJECT
private slots:
    void tileLoopGetsTwoHalves() {
        TileLoop l;
        QCOMPARE(text(injectDoubleBuffer(l.build(false))), QString(R"(S = T.allocate([32], "float32", "shared")
D = T.allocate([16], "float32", "shared")
for tx in T.thread_binding(16, thread="threadIdx.x"):
    for t in T.thread_binding(16, thread="threadIdx.x"):
        S[t] = A[t]
    T.evaluate(T.tvm_storage_sync("shared"))
    for ko in range(4):
        if ko + 1 < 4:
            for t in T.thread_binding(16, thread="threadIdx.x"):
                S[t + (ko + 1) % 2 * 16] = A[(ko + 1) * 16 + t]
        for ki in range(16):
            C[tx] = C[tx] + S[ki + ko % 2 * 16]
        T.evaluate(T.tvm_storage_sync("shared"))
)"));
    }

    // Another shared buffer written in the same loop: its readers would need
    // the barriers the transformation removes, so the loop stays.
    void otherSharedWritesKeepTheLoop() {
        TileLoop l;
        Stmt s = l.build(true);
        QString out = text(injectDoubleBuffer(s));
        QVERIFY2(out.contains("S = T.allocate([16]"), qPrintable(out));
        QCOMPARE(out.count("tvm_storage_sync"), 2);
    }

    void unmarkedCodeIsUnchanged() {
        Buffer A = Buffer::make("A", DataType::float32(), {16});
        Var i("i");
        Stmt s = loop(i, 16, store(A, load(A, Expr(i)) + 1.0f, Expr(i)));
        QVERIFY(injectDoubleBuffer(s).sameAs(s));
    }
};

QTEST_MAIN(TestPassInjectDoubleBuffer)
#include "tst_pass_inject_double_buffer.moc"
