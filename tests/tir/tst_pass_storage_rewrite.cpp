// storage-rewrite: unused allocations go, allocations leave serial loops, buffers share memory
// (TIR text in -> text out).
#include "tir/IRParser.h"
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
        Buffer A = buf("A", 16);
        Stmt s = parseStmt(R"(unused = T.allocate([16], "float32", "global")
for i in range(16):
    A[i] = T.float32(0.0)
)",
                           {A});
        QCOMPARE(text(storageRewrite(s)), QString(R"(for i in range(16):
    A[i] = T.float32(0.0)
)"));
    }

    void hoistedOutOfSerialLoop() {
        Buffer A = buf("A", 64), B = buf("B", 64);
        Stmt s = parseStmt(R"(for i in range(8):
    tile = T.allocate([8], "float32", "local")
    for j in range(8):
        tile[j] = A[i * 8 + j]
    for j_1 in range(8):
        B[i * 8 + j_1] = tile[j_1]
)",
                           {A, B});
        QCOMPARE(text(storageRewrite(s)), QString(R"(tile = T.allocate([8], "float32", "local")
for i in range(8):
    for j in range(8):
        tile[j] = A[i * 8 + j]
    for j_1 in range(8):
        B[i * 8 + j_1] = tile[j_1]
)"));
    }

    void notHoistedOutOfParallelLoop() {
        Buffer A = buf("A", 64);
        Stmt s = parseStmt(R"(for i in T.parallel(8):
    tile = T.allocate([8], "float32", "global")
    for j in range(8):
        tile[j] = T.float32(1.0)
    A[i] = tile[0]
)",
                           {A});
        QVERIFY(storageRewrite(s).sameAs(s));
        StorageRewriteOptions off;
        off.hoist = false;
        Stmt serial = parseStmt(R"(for i in range(8):
    tile = T.allocate([8], "float32", "global")
    for j in range(8):
        tile[j] = T.float32(1.0)
    A[i] = tile[0]
)",
                                {A});
        QVERIFY(storageRewrite(serial, off).sameAs(serial));
    }

    void disjointLifetimesShareMemory() {
        // t0 -> t1 -> t2 -> out: t0 is dead once t1 is written, so t2 reuses t0 (grown to 32).
        Buffer out = buf("out", 32);
        Stmt body = parseStmt(R"(t0 = T.allocate([16], "float32", "global")
for a in range(16):
    t0[a] = T.float32(1.0)
t1 = T.allocate([16], "float32", "global")
for b in range(16):
    t1[b] = t0[b] * T.float32(2.0)
t2 = T.allocate([32], "float32", "global")
for c in range(32):
    t2[c] = t1[c % 16]
for d in range(32):
    out[d] = t2[d]
)",
                              {out});
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
        Stmt s = parseStmt(R"(f = T.allocate([16], "float32", "global")
for a in range(16):
    f[a] = T.float32(1.0)
n = T.allocate([16], "int32", "global")
for b in range(16):
    n[b] = 1
)");
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
