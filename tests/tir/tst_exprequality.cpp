// Structural equality and hashing of TIR expressions: same shapes compare
// equal, variables and buffers compare by identity, float literals by bits.
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
        QVERIFY(deepEqual(x * 4 + y, x * 4 + y));
        QVERIFY(deepEqual(floordiv(x, 2) - floormod(y, 3), floordiv(x, 2) - floormod(y, 3)));
        QVERIFY(deepEqual(select(x < y, x, y), select(x < y, x, y)));
        QVERIFY(deepEqual(RampNode::make(x, Expr(1), 8), RampNode::make(x, Expr(1), 8)));
        QVERIFY(deepEqual(BroadcastNode::make(y, 4), BroadcastNode::make(y, 4)));
        QVERIFY(deepEqual(cast(DataType::int64(), x), cast(DataType::int64(), x)));
        QVERIFY(deepEqual(exp(cast(DataType::float32(), x)), exp(cast(DataType::float32(), x))));
        QVERIFY(deepEqual(Expr(), Expr()));
    }

    void differentShapes() {
        Var x("x"), y("y");
        QVERIFY(!deepEqual(x + y, y + x));
        QVERIFY(!deepEqual(x + y, x - y));
        QVERIFY(!deepEqual(x * 4, x * 5));
        QVERIFY(!deepEqual(floordiv(x, 2), truncdiv(x, 2)));
        QVERIFY(!deepEqual(RampNode::make(x, Expr(1), 8), RampNode::make(x, Expr(1), 4)));
        QVERIFY(!deepEqual(BroadcastNode::make(y, 4), BroadcastNode::make(y, 8)));
        QVERIFY(!deepEqual(x, Expr()));
        QVERIFY(!deepEqual(Expr(), x));
        // Types matter: int32 1 vs int64 1.
        QVERIFY(!deepEqual(Expr(1), Expr(int64_t(1))));
        QVERIFY(!deepEqual(cast(DataType::int64(), x), cast(DataType::float32(), x)));
    }

    void varsByIdentity() {
        Var a("x"), b("x");
        QVERIFY(deepEqual(a, a));
        QVERIFY(!deepEqual(a, b));
        QVERIFY(!deepEqual(a + 1, b + 1));
        Var alias(a.get());
        QVERIFY(deepEqual(alias * 2, a * 2));
    }

    void buffersByIdentity() {
        Var i("i");
        Buffer A = Buffer::make("A", DataType::float32(), {Expr(16)});
        Buffer B = Buffer::make("A", DataType::float32(), {Expr(16)});
        QVERIFY(deepEqual(BufferLoadNode::make(A, {i + 1}), BufferLoadNode::make(A, {i + 1})));
        QVERIFY(!deepEqual(BufferLoadNode::make(A, {i}), BufferLoadNode::make(B, {i})));
        QVERIFY(!deepEqual(BufferLoadNode::make(A, {i}), BufferLoadNode::make(A, {i + 1})));
    }

    void floatLiterals() {
        DataType f = DataType::float32();
        QVERIFY(deepEqual(FloatImmNode::make(f, 1.5), FloatImmNode::make(f, 1.5)));
        QVERIFY(!deepEqual(FloatImmNode::make(f, 0.0), FloatImmNode::make(f, -0.0)));
        Expr nan = FloatImmNode::make(f, std::nan(""));
        QVERIFY(deepEqual(nan, FloatImmNode::make(f, std::nan(""))));
        QVERIFY(
            !deepEqual(FloatImmNode::make(f, 1.0), FloatImmNode::make(DataType::float64(), 1.0)));
    }

    void calls() {
        Var x("x", DataType::float32());
        QVERIFY(deepEqual(sqrt(x), sqrt(x)));
        QVERIFY(!deepEqual(sqrt(x), exp(x)));
        Expr e1 = CallNode::makeExtern(DataType::float32(), "f", {x});
        Expr e2 = CallNode::makeExtern(DataType::float32(), "g", {x});
        QVERIFY(!deepEqual(e1, e2));
        QVERIFY(deepEqual(e1, CallNode::makeExtern(DataType::float32(), "f", {x})));
    }

    void lets() {
        Var x("x"), v("v");
        QVERIFY(deepEqual(LetNode::make(v, x + 1, v * 2), LetNode::make(v, x + 1, v * 2)));
        Var w("v");
        QVERIFY(!deepEqual(LetNode::make(v, x + 1, v * 2), LetNode::make(w, x + 1, w * 2)));
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
            QVERIFY(deepEqual(a, b));
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
