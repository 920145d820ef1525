// storage-rewrite: unused allocations go, allocations leave serial loops, buffers share memory.
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"
#include "tir/passes/StorageRewrite.h"

#include "TirBuilders.h"

#include <QtTest>

using namespace tessel;
using namespace tessel::tir;

using namespace tessel::tir::test;

namespace {

Buffer buf(const char* name, int n, DataType t = DataType::float32(),
           const char* scope = "global") {
    return Buffer::make(name, t, {n}, scope);
}

} // namespace

class TestPassStorageRewrite : public QObject {
    Q_OBJECT
private slots:
    void unusedAllocationIsRemoved() {
        Buffer A = buf("A", 16), T = buf("unused", 16);
        Var i("i");
        Stmt s = AllocateNode::make(T, loop(i, 16, store(A, Expr(0.0), i)));
        QCOMPARE(text(storageRewrite(s)), QString(R"(for i in range(16):
    A[i] = T.float32(0.0)
)"));
    }

    void hoistedOutOfSerialLoop() {
        Buffer A = buf("A", 64), B = buf("B", 64), T = buf("tile", 8, DataType::float32(), "local");
        Var i("i"), j("j"), j2("j");
        Stmt body = AllocateNode::make(
            T, SeqStmtNode::make({loop(j, 8, store(T, load(A, i * 8 + j), j)),
                                  loop(j2, 8, store(B, load(T, j2), i * 8 + j2))}));
        Stmt s = loop(i, 8, body);
        QCOMPARE(text(storageRewrite(s)), QString(R"(tile = T.allocate([8], "float32", "local")
for i in range(8):
    for j in range(8):
        tile[j] = A[i * 8 + j]
    for j_1 in range(8):
        B[i * 8 + j_1] = tile[j_1]
)"));
    }

    void notHoistedOutOfParallelLoop() {
        Buffer A = buf("A", 64), T = buf("tile", 8);
        Var i("i"), j("j");
        Stmt body = AllocateNode::make(
            T, SeqStmtNode::make({loop(j, 8, store(T, Expr(1.0), j)), store(A, load(T, 0), i)}));
        Stmt s = loop(i, 8, body, ForKind::Parallel);
        QVERIFY(storageRewrite(s).sameAs(s));
        StorageRewriteOptions off;
        off.hoist = false;
        Stmt serial = loop(i, 8, body);
        QVERIFY(storageRewrite(serial, off).sameAs(serial));
    }

    void disjointLifetimesShareMemory() {
        // t0 -> t1 -> t2 -> out: t0 is dead once t1 is written, so t2 reuses t0 (grown to 32).
        Buffer out = buf("out", 32);
        Buffer t0 = buf("t0", 16), t1 = buf("t1", 16), t2 = buf("t2", 32);
        Var a("a"), b("b"), c("c"), d("d");
        Stmt s0 = loop(a, 16, store(t0, Expr(1.0), a));
        Stmt s1 = loop(b, 16, store(t1, load(t0, b) * 2.0, b));
        Stmt s2 = loop(c, 32, store(t2, load(t1, floormod(c, 16)), c));
        Stmt s3 = loop(d, 32, store(out, load(t2, d), d));
        Stmt body = AllocateNode::make(
            t0, SeqStmtNode::make(
                    {s0, AllocateNode::make(
                             t1, SeqStmtNode::make(
                                     {s1, AllocateNode::make(t2, SeqStmtNode::make({s2, s3}))}))}));
        QCOMPARE(text(storageRewrite(body)), QString(R"(t0 = T.allocate([32], "float32", "global")
t1 = T.allocate([16], "float32", "global")
for a in range(16):
    t0[a] = T.float32(1.0)
for b in range(16):
    t1[b] = t0[b] * T.float32(2.0)
for c in range(32):
    t0[c] = t1[c % 16]
for d in range(32):
    out[d] = t0[d]
)"));
        StorageRewriteOptions noReuse;
        noReuse.reuse = false;
        QCOMPARE(text(storageRewrite(body, noReuse)),
                 QString(R"(t0 = T.allocate([16], "float32", "global")
t1 = T.allocate([16], "float32", "global")
t2 = T.allocate([32], "float32", "global")
for a in range(16):
    t0[a] = T.float32(1.0)
for b in range(16):
    t1[b] = t0[b] * T.float32(2.0)
for c in range(32):
    t2[c] = t1[c % 16]
for d in range(32):
    out[d] = t2[d]
)"));
    }

    void differentTypesDoNotShare() {
        Buffer out = buf("out", 16);
        Buffer f = buf("f", 16), n = buf("n", 16, DataType::int32());
        Var a("a"), b("b");
        Stmt s = SeqStmtNode::make({AllocateNode::make(f, loop(a, 16, store(f, Expr(1.0), a))),
                                    AllocateNode::make(n, loop(b, 16, store(n, Expr(1), b)))});
        QCOMPARE(text(storageRewrite(s)), QString(R"(f = T.allocate([16], "float32", "global")
n = T.allocate([16], "int32", "global")
for a in range(16):
    f[a] = T.float32(1.0)
for b in range(16):
    n[b] = 1
)"));
    }
};

QTEST_APPLESS_MAIN(TestPassStorageRewrite)
#include "tst_pass_storage_rewrite.moc"
