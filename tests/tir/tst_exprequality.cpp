// Structural equality and hashing of TIR expressions: same shapes compare
// equal, variables and buffers compare by identity, float literals by bits.
// This is the one equality of the compiler (the passes' former light
// structuralEqual was merged into it): the cases where the two differed —
// float literals, reductions — are pinned down here.
#include "tir/ExprEquality.h"
#include "tir/IROperators.h"

#include <QtTest>

#include <cmath>

using namespace tessel;
using namespace tessel::tir;

class TestExprEquality : public QObject {
    Q_OBJECT
private slots:
    void equalShapes() {
        Var x("x"), y("y");
        QVERIFY(structuralEqual(x * 4 + y, x * 4 + y));
        QVERIFY(structuralEqual(floordiv(x, 2) - floormod(y, 3), floordiv(x, 2) - floormod(y, 3)));
        QVERIFY(structuralEqual(select(x < y, x, y), select(x < y, x, y)));
        QVERIFY(structuralEqual(RampNode::make(x, Expr(1), 8), RampNode::make(x, Expr(1), 8)));
        QVERIFY(structuralEqual(BroadcastNode::make(y, 4), BroadcastNode::make(y, 4)));
        QVERIFY(structuralEqual(cast(DataType::int64(), x), cast(DataType::int64(), x)));
        QVERIFY(structuralEqual(exp(cast(DataType::float32(), x)), exp(cast(DataType::float32(), x))));
        QVERIFY(structuralEqual(Expr(), Expr()));
    }

    void differentShapes() {
        Var x("x"), y("y");
        QVERIFY(!structuralEqual(x + y, y + x));
        QVERIFY(!structuralEqual(x + y, x - y));
        QVERIFY(!structuralEqual(x * 4, x * 5));
        QVERIFY(!structuralEqual(floordiv(x, 2), truncdiv(x, 2)));
        QVERIFY(!structuralEqual(RampNode::make(x, Expr(1), 8), RampNode::make(x, Expr(1), 4)));
        QVERIFY(!structuralEqual(BroadcastNode::make(y, 4), BroadcastNode::make(y, 8)));
        QVERIFY(!structuralEqual(x, Expr()));
        QVERIFY(!structuralEqual(Expr(), x));
        // Types matter: int32 1 vs int64 1.
        QVERIFY(!structuralEqual(Expr(1), Expr(int64_t(1))));
        QVERIFY(!structuralEqual(cast(DataType::int64(), x), cast(DataType::float32(), x)));
    }

    void varsByIdentity() {
        Var a("x"), b("x");
        QVERIFY(structuralEqual(a, a));
        QVERIFY(!structuralEqual(a, b));
        QVERIFY(!structuralEqual(a + 1, b + 1));
        Var alias(a.get());
        QVERIFY(structuralEqual(alias * 2, a * 2));
    }

    void buffersByIdentity() {
        Var i("i");
        Buffer A = Buffer::make("A", DataType::float32(), {Expr(16)});
        Buffer B = Buffer::make("A", DataType::float32(), {Expr(16)});
        QVERIFY(structuralEqual(BufferLoadNode::make(A, {i + 1}), BufferLoadNode::make(A, {i + 1})));
        QVERIFY(!structuralEqual(BufferLoadNode::make(A, {i}), BufferLoadNode::make(B, {i})));
        QVERIFY(!structuralEqual(BufferLoadNode::make(A, {i}), BufferLoadNode::make(A, {i + 1})));
    }

    void floatLiterals() {
        DataType f = DataType::float32();
        QVERIFY(structuralEqual(FloatImmNode::make(f, 1.5), FloatImmNode::make(f, 1.5)));
        QVERIFY(!structuralEqual(FloatImmNode::make(f, 0.0), FloatImmNode::make(f, -0.0)));
        Expr nan = FloatImmNode::make(f, std::nan(""));
        QVERIFY(structuralEqual(nan, FloatImmNode::make(f, std::nan(""))));
        QVERIFY(
            !structuralEqual(FloatImmNode::make(f, 1.0), FloatImmNode::make(DataType::float64(), 1.0)));
    }

    void casts() {
        Var x("x");
        DataType i8(DataType::Code::Int, 8);
        QVERIFY(structuralEqual(cast(i8, x), cast(i8, x)));
        // The target type is part of the cast: same operand, different targets.
        QVERIFY(!structuralEqual(cast(DataType::int64(), x), cast(i8, x)));
        QVERIFY(structuralEqual(cast(DataType::float32(), cast(DataType::int64(), x)),
                                cast(DataType::float32(), cast(DataType::int64(), x))));
        QVERIFY(!structuralEqual(cast(DataType::float32(), cast(DataType::int64(), x)),
                                 cast(DataType::float32(), x)));
    }

    void floatLiteralsInsideExpressions() {
        // Bits, not ==: a +0.0 and a -0.0 operand make different expressions
        // (x * +0.0 and x * -0.0 differ for negative x), and an expression with
        // a NaN literal still equals itself rebuilt.
        Var x("x", DataType::float32());
        DataType f = DataType::float32();
        QVERIFY(!structuralEqual(MulNode::make(x, FloatImmNode::make(f, 0.0)),
                                 MulNode::make(x, FloatImmNode::make(f, -0.0))));
        QVERIFY(structuralEqual(AddNode::make(x, FloatImmNode::make(f, std::nan(""))),
                                AddNode::make(x, FloatImmNode::make(f, std::nan("")))));
        QCOMPARE(structuralHash(AddNode::make(x, FloatImmNode::make(f, std::nan("")))),
                 structuralHash(AddNode::make(x, FloatImmNode::make(f, std::nan("")))));
    }

    void reductions() {
        Var i("i"), k("k");
        Buffer A = Buffer::make("A", DataType::float32(), {Expr(16), Expr(16)});
        IterVar rk = IterVar::make(Range(Expr(0), Expr(16)), k, IterVarKind::CommReduce);
        IterVar rk2 = IterVar::make(Range(Expr(0), Expr(16)), Var("k"), IterVarKind::CommReduce);
        auto src = [&](const Var& v) { return BufferLoadNode::make(A, {i, v}); };
        Expr sum = ReduceNode::make(ReduceKind::Sum, src(k), {rk});
        // Rebuilt from the same axis: equal, with equal hashes.
        QVERIFY(structuralEqual(sum, ReduceNode::make(ReduceKind::Sum, src(k), {rk})));
        QCOMPARE(structuralHash(sum), structuralHash(ReduceNode::make(ReduceKind::Sum, src(k), {rk})));
        // Another combiner, another axis (even with the same name and range),
        // another condition: not equal.
        QVERIFY(!structuralEqual(sum, ReduceNode::make(ReduceKind::Max, src(k), {rk})));
        QVERIFY(!structuralEqual(sum, ReduceNode::make(ReduceKind::Sum, src(rk2->var), {rk2})));
        QVERIFY(!structuralEqual(sum, ReduceNode::make(ReduceKind::Sum, src(k), {rk}, k < 8)));
        QVERIFY(structuralEqual(ReduceNode::make(ReduceKind::Sum, src(k), {rk}, k < 8),
                                ReduceNode::make(ReduceKind::Sum, src(k), {rk}, k < 8)));
    }

    void calls() {
        Var x("x", DataType::float32());
        QVERIFY(structuralEqual(sqrt(x), sqrt(x)));
        QVERIFY(!structuralEqual(sqrt(x), exp(x)));
        Expr e1 = CallNode::makeExtern(DataType::float32(), "f", {x});
        Expr e2 = CallNode::makeExtern(DataType::float32(), "g", {x});
        QVERIFY(!structuralEqual(e1, e2));
        QVERIFY(structuralEqual(e1, CallNode::makeExtern(DataType::float32(), "f", {x})));
    }

    void lets() {
        Var x("x"), v("v");
        QVERIFY(structuralEqual(LetNode::make(v, x + 1, v * 2), LetNode::make(v, x + 1, v * 2)));
        Var w("v");
        QVERIFY(!structuralEqual(LetNode::make(v, x + 1, v * 2), LetNode::make(w, x + 1, w * 2)));
    }

    void hashAgrees() {
        Var x("x"), y("y");
        std::vector<std::pair<Expr, Expr>> equal = {
            {x * 4 + y, x * 4 + y},
            {floordiv(x + 3, 8), floordiv(x + 3, 8)},
            {select(x < y, x, y), select(x < y, x, y)},
            {RampNode::make(x, Expr(2), 4), RampNode::make(x, Expr(2), 4)},
        };
        for (auto& [a, b] : equal) {
            QVERIFY(structuralEqual(a, b));
            QCOMPARE(structuralHash(a), structuralHash(b));
        }
        // Different expressions usually hash differently.
        QVERIFY(structuralHash(x + y) != structuralHash(x - y));
        QVERIFY(structuralHash(x * 4) != structuralHash(x * 5));
        QVERIFY(structuralHash(Var("x")) != structuralHash(Var("x")));
    }

    void unorderedContainers() {
        Var x("x");
        std::unordered_map<Expr, int, StructuralHash, StructuralEqual> m;
        m[x + 1] = 1;
        m[x + 1] += 1; // a fresh but equal key finds the same slot
        m[x + 2] = 5;
        QCOMPARE(m.size(), size_t(2));
        QCOMPARE(m[x + 1], 2);
    }
};

QTEST_APPLESS_MAIN(TestExprEquality)
#include "tst_exprequality.moc"
