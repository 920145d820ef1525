// The one bounds analysis (tir/arith/ConstIntBound.h) as the passes use it:
// deciding conditions over loop ranges (what loop-partition removes), the
// difference bound that cancels common terms, the tighter floormod of a
// dividend within one block, and the integer division helpers (IntDiv.h).
// The decisions include every kind the passes' former light helper made.
#include "tir/IROperators.h"
#include "tir/arith/ConstIntBound.h"
#include "tir/arith/IntDiv.h"

#include <QtTest>

#include <optional>

using namespace tessel;
using namespace tessel::tir;
namespace arith = tessel::tir::arith;

namespace {

/// "true", "false" or "undecided", for readable comparisons.
QString decided(std::optional<bool> d) {
    if (!d) return "undecided";
    return *d ? "true" : "false";
}

} // namespace

class TestConstIntBound : public QObject {
    Q_OBJECT

    // Loop variables of a 12-element loop split by 4: xo in [0, 2], xi in [0, 3];
    // n is an unbound int32 (a symbolic shape).
    Var xo{"xo"}, xi{"xi"}, n{"n"};
    arith::VarBoundMap loops() const {
        return {{xo.get(), {0, 2}}, {xi.get(), {0, 3}}};
    }
    QString decide(const Expr& cond) const {
        return decided(arith::decideCondition(cond, loops()));
    }

private slots:
    void comparisonsOverLoopRanges() {
        Expr idx = xo * 4 + xi; // [0, 11]
        QCOMPARE(decide(idx < 12), QString("true"));
        QCOMPARE(decide(idx < 10), QString("undecided")); // the guard of a split of 10 by 4
        QCOMPARE(decide(idx <= 11), QString("true"));
        QCOMPARE(decide(idx >= 0), QString("true"));
        QCOMPARE(decide(idx > 11), QString("false"));
        QCOMPARE(decide(idx >= 12), QString("false"));
        QCOMPARE(decide(idx == 12), QString("false"));
        QCOMPARE(decide(idx != 12), QString("true"));
        QCOMPARE(decide(idx == 5), QString("undecided"));
        QCOMPARE(decide(xi - xo * 4 < -5), QString("undecided"));
        QCOMPARE(decide(xi - xo * 4 < -8), QString("false"));
        QCOMPARE(decide(xi - xo * 4 >= -8), QString("true"));
        // A narrower range (a loop part) decides what the whole range cannot.
        arith::VarBoundMap part = loops();
        part[xo.get()] = {0, 1};
        QCOMPARE(decided(arith::decideCondition(idx < 10, part)), QString("true"));
        part[xo.get()] = {2, 2};
        QCOMPARE(decided(arith::decideCondition(idx < 8, part)), QString("false"));
    }

    void logicAndLikely() {
        QCOMPARE(decide(call(Intrinsic::Likely, {xo * 4 + xi < 12})), QString("true"));
        QCOMPARE(decide(call(Intrinsic::Likely, {xo * 4 + xi < 10})), QString("undecided"));
        QCOMPARE(decide(xi < 4 && xo < 3), QString("true"));
        QCOMPARE(decide(xi < 4 && xo < 1), QString("undecided"));
        QCOMPARE(decide(xo < 1 && xi > 5), QString("false")); // one false side is enough
        QCOMPARE(decide(xo < 1 || xi < 4), QString("true"));  // one true side is enough
        QCOMPARE(decide(xo > 5 || xi > 5), QString("false"));
        QCOMPARE(decide(xo > 5 || xi > 2), QString("undecided"));
        QCOMPARE(decide(!(xi < 4)), QString("false"));
        QCOMPARE(decide(!(xi < 2)), QString("undecided"));
        QCOMPARE(decide(IntImmNode::make(DataType::boolean(), 1)), QString("true"));
        QCOMPARE(decide(IntImmNode::make(DataType::boolean(), 0)), QString("false"));
    }

    void divisionAndModulo() {
        QCOMPARE(decide(floordiv(xo * 4 + xi, 4) < 3), QString("true"));
        QCOMPARE(decide(floormod(xo * 4 + xi, 4) < 4), QString("true"));
        QCOMPARE(decide(floormod(xo * 4 + xi, 4) < 3), QString("undecided"));
        // Within one block the remainder is exact: (xi + 9) % 8 with xi in [0, 3] is [1, 4].
        QCOMPARE(decide(floormod(xi + 9, 8) >= 1), QString("true"));
        QCOMPARE(decide(floormod(xi - 7, 8) >= 1), QString("true"));
    }

    void unknownVariablesStayUndecided() {
        // n ranges over int32: nothing is decided about it ...
        QCOMPARE(decide(xo * 4 + xi < n), QString("undecided"));
        QCOMPARE(decide(n >= 0), QString("undecided"));
        // ... except what holds for every int32 (the analysis assumes no overflow).
        QCOMPARE(decide(cast(DataType::int64(), n) < Expr(int64_t(1) << 32)), QString("true"));
        // Floats and vectors are not decided.
        Var f("f", DataType::float32());
        QCOMPARE(decide(f < FloatImmNode::make(DataType::float32(), 1.0)), QString("undecided"));
        Expr v = RampNode::make(xi, Expr(1), 4) < BroadcastNode::make(Expr(100), 4);
        QCOMPARE(decide(v), QString("undecided"));
    }

    void commonTermsCancel() {
        // The same terms on both sides cancel, even with n unbound.
        QCOMPARE(decide(xo * 4 + xi + n < xo * 4 + n + 4), QString("true"));
        QCOMPARE(decide(n * 2 + xi >= n * 2), QString("true"));
        arith::ConstIntBound d = arith::differenceBound(n * 4 + xi + 3, n * 4 + xi, {});
        QCOMPARE(d.min, 3);
        QCOMPARE(d.max, 3);
        // The plain interval of the same subtraction is wide: each n is independent.
        arith::ConstIntBound wide = arith::constIntBound(SubNode::make(n * 4 + 3, n * 4));
        QVERIFY(wide.min < 0 && wide.max > 3);
    }

    void unsignedComparisonsDoNotWrap() {
        // u - v for uint32 would wrap; the decision compares the two intervals.
        DataType u32(DataType::Code::UInt, 32);
        Var u("u", u32), v("v", u32);
        arith::VarBoundMap m{{u.get(), {0, 3}}, {v.get(), {5, 9}}};
        QCOMPARE(decided(arith::decideCondition(u < v, m)), QString("true"));
        QCOMPARE(decided(arith::decideCondition(v < u, m)), QString("false"));
        QCOMPARE(decided(arith::decideCondition(u == v, m)), QString("false"));
        arith::ConstIntBound d = arith::differenceBound(u, v, m);
        QCOMPARE(d.min, -9);
        QCOMPARE(d.max, -2);
    }

    void decideComparisonTable() {
        using arith::ConstIntBound;
        auto d = [](NodeKind k, int64_t lo, int64_t hi) {
            return decided(arith::decideComparison(k, ConstIntBound{lo, hi}));
        };
        QCOMPARE(d(NodeKind::LT, -5, -1), QString("true"));
        QCOMPARE(d(NodeKind::LT, 0, 3), QString("false"));
        QCOMPARE(d(NodeKind::LT, -1, 0), QString("undecided"));
        QCOMPARE(d(NodeKind::LE, -5, 0), QString("true"));
        QCOMPARE(d(NodeKind::LE, 1, 3), QString("false"));
        QCOMPARE(d(NodeKind::GT, 1, 3), QString("true"));
        QCOMPARE(d(NodeKind::GT, -3, 0), QString("false"));
        QCOMPARE(d(NodeKind::GE, 0, 3), QString("true"));
        QCOMPARE(d(NodeKind::GE, -3, -1), QString("false"));
        QCOMPARE(d(NodeKind::EQ, 0, 0), QString("true"));
        QCOMPARE(d(NodeKind::EQ, 1, 4), QString("false"));
        QCOMPARE(d(NodeKind::EQ, -1, 1), QString("undecided"));
        QCOMPARE(d(NodeKind::NE, 0, 0), QString("false"));
        QCOMPARE(d(NodeKind::NE, -4, -1), QString("true"));
        QCOMPARE(d(NodeKind::Add, -4, -1), QString("undecided")); // not a comparison
        QCOMPARE(d(NodeKind::LT, ConstIntBound::kNegInf, ConstIntBound::kPosInf),
                 QString("undecided"));
    }

    void floorModWithinOneBlock() {
        arith::VarBoundMap m = loops();
        auto bound = [&](const Expr& e) {
            arith::ConstIntBound b = arith::constIntBound(e, m);
            return QString("[%1, %2]").arg(b.min).arg(b.max);
        };
        QCOMPARE(bound(floormod(xi + 9, 8)), QString("[1, 4]"));  // [9, 12] in block 1
        QCOMPARE(bound(floormod(xi - 7, 8)), QString("[1, 4]"));  // [-7, -4] in block -1
        QCOMPARE(bound(floormod(xi + 6, 8)), QString("[0, 7]"));  // [6, 9] crosses a block
        QCOMPARE(bound(floormod(xi, 8)), QString("[0, 3]"));
        QCOMPARE(bound(floormod(n, 8)), QString("[0, 7]"));
    }

    void integerDivision() {
        static_assert(arith::floorDivInt(-7, 2) == -4 && arith::ceilDivInt(-7, 2) == -3);
        QCOMPARE(arith::floorDivInt(7, 2), 3);
        QCOMPARE(arith::floorDivInt(-7, 2), -4);
        QCOMPARE(arith::floorDivInt(7, -2), -4);
        QCOMPARE(arith::floorDivInt(-7, -2), 3);
        QCOMPARE(arith::floorDivInt(-8, 2), -4);
        QCOMPARE(arith::floorModInt(7, 2), 1);
        QCOMPARE(arith::floorModInt(-7, 2), 1);
        QCOMPARE(arith::floorModInt(7, -2), -1);
        QCOMPARE(arith::floorModInt(-7, -2), -1);
        QCOMPARE(arith::floorModInt(-8, 4), 0);
        QCOMPARE(arith::ceilDivInt(7, 2), 4);
        QCOMPARE(arith::ceilDivInt(-7, 2), -3);
        QCOMPARE(arith::ceilDivInt(7, -2), -3);
        QCOMPARE(arith::ceilDivInt(-7, -2), 4);
        QCOMPARE(arith::ceilDivInt(6, 3), 2);
        QCOMPARE(arith::ceilDivInt(0, 5), 0);
        // The defining properties on every small pair: a = q*b + r with r in
        // [0, b) (or (b, 0] for b < 0), and ceil = floor + 1 exactly when b does not divide a.
        for (int64_t a = -20; a <= 20; ++a)
            for (int64_t b : {-7, -3, -1, 1, 2, 5}) {
                int64_t q = arith::floorDivInt(a, b), r = arith::floorModInt(a, b);
                QCOMPARE(q * b + r, a);
                QVERIFY(b > 0 ? (0 <= r && r < b) : (b < r && r <= 0));
                QCOMPARE(arith::ceilDivInt(a, b) - q, int64_t(a % b != 0 ? 1 : 0));
            }
    }
};

QTEST_APPLESS_MAIN(TestConstIntBound)
#include "tst_const_int_bound.moc"
