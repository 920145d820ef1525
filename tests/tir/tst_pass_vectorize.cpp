// vectorize: vectorized loops become Ramp/Broadcast code, or serial loops when they cannot.
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"
#include "tir/passes/Vectorize.h"

#include "TirBuilders.h"

#include <QtTest>

using namespace tessel;
using namespace tessel::tir;

using namespace tessel::tir::test;

namespace {

Stmt vloop(const Var& v, Expr extent, Stmt body) {
    return loop(v, extent, body, ForKind::Vectorized);
}

Buffer buf(const char* name, int n = 256, DataType t = DataType::float32()) {
    return Buffer::make(name, t, {n});
}

} // namespace

class TestPassVectorize : public QObject {
    Q_OBJECT
private slots:
    void contiguousAccess() {
        Buffer A = buf("A"), B = buf("B");
        Var i("i"), j("j");
        Expr x = i * 8 + j;
        Stmt s = loop(i, 16, vloop(j, 8, store(B, load(A, x) + 1.0, x)));
        QCOMPARE(text(vectorizeLoops(s)), QString(R"(for i in range(16):
    B[T.Ramp(i * 8, 1, 8)] = A[T.Ramp(i * 8, 1, 8)] + T.Broadcast(T.float32(1.0), 8)
)"));
    }

    void stridedAccessAndInvariantScalar() {
        // B[j * 16 + i] = A[j * 16 + i] * S[i]: a stride-16 ramp; S[i] stays a scalar load.
        Buffer A = buf("A"), B = buf("B"), S = buf("S", 16);
        Var i("i"), j("j");
        Expr x = j * 16 + i;
        Stmt s = loop(i, 16, vloop(j, 4, store(B, load(A, x) * load(S, i), x)));
        QCOMPARE(text(vectorizeLoops(s)), QString(R"(for i in range(16):
    B[T.Ramp(i, 16, 4)] = A[T.Ramp(i, 16, 4)] * T.Broadcast(S[i], 4)
)"));
    }

    void nonZeroMinAndCast() {
        Buffer A = buf("A", 64, DataType::int32()), B = buf("B");
        Var j("j");
        Stmt s = ForNode::make(j, 4, 8, ForKind::Vectorized,
                               store(B, cast(DataType::float32(), load(A, j * 2)), j));
        QCOMPARE(text(vectorizeLoops(s)),
                 QString(R"(B[T.Ramp(4, 1, 8)] = T.Cast("float32x8", A[T.Ramp(8, 2, 8)])
)"));
    }

    void innerSerialLoopKeepsVectorBody() {
        // A reduction over k inside a vectorized j: the k loop stays, its body is vector code.
        Buffer A = buf("A"), C = buf("C", 8);
        Var j("j"), k("k");
        Stmt s = vloop(j, 8, loop(k, 4, store(C, load(C, j) + load(A, k * 8 + j), j)));
        QCOMPARE(text(vectorizeLoops(s)), QString(R"(for k in range(4):
    C[T.Ramp(0, 1, 8)] = C[T.Ramp(0, 1, 8)] + A[T.Ramp(k * 8, 1, 8)]
)"));
    }

    void invariantConditionStaysAnIf() {
        Buffer A = buf("A"), B = buf("B");
        Var i("i"), j("j");
        Expr x = i * 8 + j;
        Stmt s = loop(i, 16, vloop(j, 8, IfThenElseNode::make(i < 10, store(B, load(A, x), x))));
        QCOMPARE(text(vectorizeLoops(s)), QString(R"(for i in range(16):
    if i < 10:
        B[T.Ramp(i * 8, 1, 8)] = A[T.Ramp(i * 8, 1, 8)]
)"));
    }

    void varyingConditionBecomesSelect() {
        Buffer A = buf("A"), B = buf("B");
        Var j("j");
        Stmt s = vloop(
            j, 8,
            IfThenElseNode::make(j >= 2, store(B, load(A, j - 2), j), store(B, Expr(0.0), j)));
        QCOMPARE(
            text(vectorizeLoops(s)),
            QString(
                R"(B[T.Ramp(0, 1, 8)] = T.Select(T.Ramp(0, 1, 8) >= T.Broadcast(2, 8), A[T.Ramp(-2, 1, 8)], T.Broadcast(T.float32(0.0), 8))
)"));
    }

    void likelyGuardFallsBackToSerial() {
        // A bounds guard must not turn into a full-width store: the loop stays scalar.
        Buffer A = buf("A"), B = buf("B");
        Var n("n"), j("j");
        Stmt body = IfThenElseNode::make(call(Intrinsic::Likely, {j < n}), store(B, load(A, j), j));
        Stmt s = vloop(j, 8, body);
        QCOMPARE(text(vectorizeLoops(s)), QString(R"(for j in range(8):
    if T.likely(j < n):
        B[j] = A[j]
)"));
    }

    void fallbacksToSerial() {
        Buffer A = buf("A"), B = buf("B");
        Var n("n"), j("j"), k("k");
        // Non-constant extent.
        Stmt s1 = vloop(j, n, store(B, load(A, j), j));
        QCOMPARE(text(vectorizeLoops(s1)), QString(R"(for j in range(n):
    B[j] = A[j]
)"));
        // An inner loop whose extent varies with the lane.
        Stmt s2 = vloop(j, 4, loop(k, j, store(B, load(A, k), j)));
        QCOMPARE(text(vectorizeLoops(s2)), QString(R"(for j in range(4):
    for k in range(j):
        B[j] = A[k]
)"));
        // An allocation inside.
        Buffer T = buf("tmp", 1);
        Stmt s3 = vloop(j, 4,
                        AllocateNode::make(T, SeqStmtNode::make({store(T, load(A, j), 0),
                                                                 store(B, load(T, 0), j)})));
        QCOMPARE(text(vectorizeLoops(s3)), QString(R"(for j in range(4):
    tmp = T.allocate([1], "float32", "global")
    tmp[0] = A[j]
    B[j] = tmp[0]
)"));
    }

    void letBecomesVectorLet() {
        Buffer A = buf("A"), B = buf("B");
        Var j("j"), t("t", DataType::float32());
        Stmt s = vloop(j, 4, LetStmtNode::make(t, load(A, j), store(B, t * t, j)));
        QCOMPARE(text(vectorizeLoops(s)), QString(R"(t: T.float32x4 = A[T.Ramp(0, 1, 4)]
B[T.Ramp(0, 1, 4)] = t * t
)"));
    }

    void unchangedWithoutVectorizedLoops() {
        Buffer A = buf("A");
        Var i("i");
        Stmt s = loop(i, 8, store(A, Expr(0.0), i));
        QVERIFY(vectorizeLoops(s).sameAs(s));
    }
};

QTEST_APPLESS_MAIN(TestPassVectorize)
#include "tst_pass_vectorize.moc"
