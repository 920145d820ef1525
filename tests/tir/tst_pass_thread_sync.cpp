// thread-sync: barriers where threads of a block share memory (TIR text in -> text out),
// and the TIR spelling of thread-bound loops and barriers.
#include "ir/Diagnostic.h"
#include "tir/IRParser.h"
#include "tir/IRPrinter.h"
#include "tir/passes/ThreadSync.h"

#include "TirBuilders.h"

#include <QtTest>

using namespace tessel;
using namespace tessel::tir;
using namespace tessel::tir::test;

class TestPassThreadSync : public QObject {
    Q_OBJECT
private slots:
    void threadBindingRoundTrips() {
        Buffer A = Buffer::make("A", DataType::float32(), {64});
        const char* src = R"(for bx in T.thread_binding(4, thread="blockIdx.x"):
    for tx in T.thread_binding(16, thread="threadIdx.x"):
        A[bx * 16 + tx] = T.float32(1.0)
        T.evaluate(T.tvm_storage_sync("shared"))
)";
        Stmt s = parseStmt(src, {A});
        auto* loop = s.as<ForNode>();
        QVERIFY(loop);
        QCOMPARE(loop->forKind, ForKind::ThreadBinding);
        QCOMPARE(QString::fromStdString(loop->threadTag), QString("blockIdx.x"));
        QCOMPARE(text(s), QString(src));
    }

    void threadBindingNeedsATag() {
        Buffer A = Buffer::make("A", DataType::float32(), {64});
        try {
            parseStmt("for tx in T.thread_binding(16):\n    A[tx] = T.float32(1.0)\n", {A});
            QFAIL("a thread_binding without thread= parsed");
        } catch (const CompileError& e) {
            QVERIFY2(QString(e.what()).contains("thread="), e.what());
        }
    }

    // The GEMM pattern: each k tile is loaded into shared memory by all
    // threads, then read by all: a barrier before the reads, and one at the
    // end of the tile loop before the next tile overwrites what was read.
    void tileLoadComputeLoop() {
        Buffer A = Buffer::make("A", DataType::float32(), {1024});
        Buffer S = Buffer::make("S", DataType::float32(), {16}, "shared");
        Buffer C = Buffer::make("C", DataType::float32(), {64});
        Stmt s = parseStmt(R"(for bx in T.thread_binding(4, thread="blockIdx.x"):
    for tx in T.thread_binding(16, thread="threadIdx.x"):
        for ko in range(64):
            for t in T.thread_binding(16, thread="threadIdx.x"):
                S[t] = A[ko * 16 + t]
            for ki in range(16):
                C[bx * 16 + tx] = C[bx * 16 + tx] + S[ki]
)",
                           {A, S, C});
        QCOMPARE(text(threadSync(s)), QString(R"(for bx in T.thread_binding(4, thread="blockIdx.x"):
    for tx in T.thread_binding(16, thread="threadIdx.x"):
        for ko in range(64):
            for t in T.thread_binding(16, thread="threadIdx.x"):
                S[t] = A[ko * 16 + t]
            T.evaluate(T.tvm_storage_sync("shared"))
            for ki in range(16):
                C[bx * 16 + tx] = C[bx * 16 + tx] + S[ki]
            T.evaluate(T.tvm_storage_sync("shared"))
)"));
    }

    // Two thread loops of one block: write then read -> one barrier between.
    // Reads of global or local memory, and code outside kernels, get none.
    void onlySharedHazardsInKernels() {
        Buffer A = Buffer::make("A", DataType::float32(), {64});
        Buffer S = Buffer::make("S", DataType::float32(), {16}, "shared");
        Buffer L = Buffer::make("L", DataType::float32(), {16}, "local");
        Stmt s = parseStmt(R"(for i in range(16):
    L[i] = A[i]
    A[i] = L[i]
for bx in T.thread_binding(4, thread="blockIdx.x"):
    for tx in T.thread_binding(16, thread="threadIdx.x"):
        L[tx] = A[bx * 16 + tx]
    for t2 in T.thread_binding(16, thread="threadIdx.x"):
        S[t2] = L[t2]
    for t3 in T.thread_binding(16, thread="threadIdx.x"):
        A[bx * 16 + t3] = S[15 - t3]
)",
                           {A, S, L});
        QCOMPARE(text(threadSync(s)), QString(R"(for i in range(16):
    L[i] = A[i]
    A[i] = L[i]
for bx in T.thread_binding(4, thread="blockIdx.x"):
    for tx in T.thread_binding(16, thread="threadIdx.x"):
        L[tx] = A[bx * 16 + tx]
    for t2 in T.thread_binding(16, thread="threadIdx.x"):
        S[t2] = L[t2]
    T.evaluate(T.tvm_storage_sync("shared"))
    for t3 in T.thread_binding(16, thread="threadIdx.x"):
        A[bx * 16 + t3] = S[15 - t3]
)"));
    }

    // A barrier under a condition would hang the threads that skip it: the
    // if counts as one statement of the sequence around it.
    void noBarrierUnderAnIf() {
        Buffer S = Buffer::make("S", DataType::float32(), {16}, "shared");
        Buffer A = Buffer::make("A", DataType::float32(), {16});
        Stmt s = parseStmt(R"(for tx in T.thread_binding(16, thread="threadIdx.x"):
    if tx < 8:
        S[tx] = A[tx]
        A[tx] = S[15 - tx]
)",
                           {S, A});
        QCOMPARE(text(threadSync(s)), text(s));
    }
};

QTEST_MAIN(TestPassThreadSync)
#include "tst_pass_thread_sync.moc"
