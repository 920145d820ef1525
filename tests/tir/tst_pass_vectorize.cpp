// vectorize: vectorized loops become Ramp/Broadcast code, or serial loops when they cannot
// (TIR text in -> text out).
#include "tir/IRParser.h"
#include "tir/IRPrinter.h"
#include "tir/passes/Vectorize.h"

#include "TirBuilders.h"

#include <QtTest>

using namespace tessel;
using namespace tessel::tir;

using namespace tessel::tir::test;

namespace {

Buffer buf(const char* name, int n = 256, DataType t = DataType::float32()) {
    return Buffer::make(name, t, {n});
}

} // namespace

class TestPassVectorize : public QObject {
    Q_OBJECT
private slots:
    void contiguousAccess() {
        Buffer A = buf("A"), B = buf("B");
        Stmt s = parseStmt(R"(for i in range(16):
    for j in T.vectorized(8):
        B[i * 8 + j] = A[i * 8 + j] + T.float32(1.0)
)",
                           {A, B});
        QCOMPARE(text(vectorizeLoops(s)), QString(R"(for i in range(16):
    B[T.Ramp(i * 8, 1, 8)] = A[T.Ramp(i * 8, 1, 8)] + T.Broadcast(T.float32(1.0), 8)
)"));
    }

    void stridedAccessAndInvariantScalar() {
        // B[j * 16 + i] = A[j * 16 + i] * S[i]: a stride-16 ramp; S[i] stays a scalar load.
        Buffer A = buf("A"), B = buf("B"), S = buf("S", 16);
        Stmt s = parseStmt(R"(for i in range(16):
    for j in T.vectorized(4):
        B[j * 16 + i] = A[j * 16 + i] * S[i]
)",
                           {A, B, S});
        QCOMPARE(text(vectorizeLoops(s)), QString(R"(for i in range(16):
    B[T.Ramp(i, 16, 4)] = A[T.Ramp(i, 16, 4)] * T.Broadcast(S[i], 4)
)"));
    }

    void nonZeroMinAndCast() {
        Buffer A = buf("A", 64, DataType::int32()), B = buf("B");
        Stmt s = parseStmt(R"(for j in T.vectorized(4, 12):
    B[j] = T.Cast("float32", A[j * 2])
)",
                           {A, B});
        QCOMPARE(text(vectorizeLoops(s)),
                 QString(R"(B[T.Ramp(4, 1, 8)] = T.Cast("float32x8", A[T.Ramp(8, 2, 8)])
)"));
    }

    void innerSerialLoopKeepsVectorBody() {
        // A reduction over k inside a vectorized j: the k loop stays, its body is vector code.
        Buffer A = buf("A"), C = buf("C", 8);
        Stmt s = parseStmt(R"(for j in T.vectorized(8):
    for k in range(4):
        C[j] = C[j] + A[k * 8 + j]
)",
                           {A, C});
        QCOMPARE(text(vectorizeLoops(s)), QString(R"(for k in range(4):
    C[T.Ramp(0, 1, 8)] = C[T.Ramp(0, 1, 8)] + A[T.Ramp(k * 8, 1, 8)]
)"));
    }

    void invariantConditionStaysAnIf() {
        Buffer A = buf("A"), B = buf("B");
        Stmt s = parseStmt(R"(for i in range(16):
    for j in T.vectorized(8):
        if i < 10:
            B[i * 8 + j] = A[i * 8 + j]
)",
                           {A, B});
        QCOMPARE(text(vectorizeLoops(s)), QString(R"(for i in range(16):
    if i < 10:
        B[T.Ramp(i * 8, 1, 8)] = A[T.Ramp(i * 8, 1, 8)]
)"));
    }

    void varyingConditionBecomesSelect() {
        Buffer A = buf("A"), B = buf("B");
        Stmt s = parseStmt(R"(for j in T.vectorized(8):
    if j >= 2:
        B[j] = A[j - 2]
    else:
        B[j] = T.float32(0.0)
)",
                           {A, B});
        QCOMPARE(
            text(vectorizeLoops(s)),
            QString(
                R"(B[T.Ramp(0, 1, 8)] = T.Select(T.Ramp(0, 1, 8) >= T.Broadcast(2, 8), A[T.Ramp(-2, 1, 8)], T.Broadcast(T.float32(0.0), 8))
)"));
    }

    void likelyGuardFallsBackToSerial() {
        // A bounds guard must not turn into a full-width store: the loop stays scalar.
        Buffer A = buf("A"), B = buf("B");
        Stmt s = parseStmt(R"(for j in T.vectorized(8):
    if T.likely(j < n):
        B[j] = A[j]
)",
                           {A, B});
        QCOMPARE(text(vectorizeLoops(s)), QString(R"(for j in range(8):
    if T.likely(j < n):
        B[j] = A[j]
)"));
    }

    void fallbacksToSerial() {
        Buffer A = buf("A"), B = buf("B");
        // Non-constant extent.
        Stmt s1 = parseStmt(R"(for j in T.vectorized(n):
    B[j] = A[j]
)",
                            {A, B});
        QCOMPARE(text(vectorizeLoops(s1)), QString(R"(for j in range(n):
    B[j] = A[j]
)"));
        // An inner loop whose extent varies with the lane.
        Stmt s2 = parseStmt(R"(for j in T.vectorized(4):
    for k in range(j):
        B[j] = A[k]
)",
                            {A, B});
        QCOMPARE(text(vectorizeLoops(s2)), QString(R"(for j in range(4):
    for k in range(j):
        B[j] = A[k]
)"));
        // An allocation inside.
        Stmt s3 = parseStmt(R"(for j in T.vectorized(4):
    tmp = T.allocate([1], "float32", "global")
    tmp[0] = A[j]
    B[j] = tmp[0]
)",
                            {A, B});
        QCOMPARE(text(vectorizeLoops(s3)), QString(R"(for j in range(4):
    tmp = T.allocate([1], "float32", "global")
    tmp[0] = A[j]
    B[j] = tmp[0]
)"));
    }

    void letBecomesVectorLet() {
        Buffer A = buf("A"), B = buf("B");
        Stmt s = parseStmt(R"(for j in T.vectorized(4):
    t: T.float32 = A[j]
    B[j] = t * t
)",
                           {A, B});
        QCOMPARE(text(vectorizeLoops(s)), QString(R"(t: T.float32x4 = A[T.Ramp(0, 1, 4)]
B[T.Ramp(0, 1, 4)] = t * t
)"));
    }

    void unchangedWithoutVectorizedLoops() {
        Buffer A = buf("A");
        Stmt s = parseStmt(R"(for i in range(8):
    A[i] = T.float32(0.0)
)",
                           {A});
        QVERIFY(vectorizeLoops(s).sameAs(s));
    }
};

QTEST_APPLESS_MAIN(TestPassVectorize)
#include "tst_pass_vectorize.moc"
