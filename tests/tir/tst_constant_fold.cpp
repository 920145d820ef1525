// The light fold (tir/arith/ConstantFold.h): constant operands fold as
// IROperators folds them, nothing is reordered, floats are left alone,
// unchanged nodes are kept; substituteAndFold folds what a substitution
// makes constant. Also isLikely / stripLikely (IROperators.h).
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"
#include "tir/arith/ConstantFold.h"

#include "TirBuilders.h"

#include <QtTest>

using namespace tessel;
using namespace tessel::tir;
using namespace tessel::tir::test;
namespace arith = tessel::tir::arith;

namespace {

QString str(const Expr& e) {
    return QString::fromStdString(toString(e));
}
Expr imm(int64_t v) {
    return IntImmNode::make(DataType::int32(), v);
}

} // namespace

class TestConstantFold : public QObject {
    Q_OBJECT
private slots:
    void integerArithmeticFolds() {
        Var i("i");
        // Built with make(), so nothing folded yet.
        QCOMPARE(str(arith::foldConstants(AddNode::make(MulNode::make(imm(2), imm(4)), i))),
                 QString("8 + i"));
        QCOMPARE(str(arith::foldConstants(AddNode::make(i, imm(0)))), QString("i"));
        QCOMPARE(str(arith::foldConstants(MulNode::make(imm(1), i))), QString("i"));
        QCOMPARE(str(arith::foldConstants(FloorDivNode::make(imm(-7), imm(2)))), QString("-4"));
        QCOMPARE(str(arith::foldConstants(FloorModNode::make(imm(-7), imm(2)))), QString("1"));
        QCOMPARE(str(arith::foldConstants(MinNode::make(imm(3), SubNode::make(imm(9), imm(7))))),
                 QString("2"));
    }

    void comparisonsAndLogicFold() {
        Var i("i");
        QCOMPARE(str(arith::foldConstants(LTNode::make(imm(3), imm(4)))), QString("True"));
        QCOMPARE(str(arith::foldConstants(
                     AndNode::make(LTNode::make(imm(3), imm(4)), LTNode::make(i, imm(4))))),
                 QString("i < 4"));
        QCOMPARE(str(arith::foldConstants(NotNode::make(EQNode::make(imm(1), imm(2))))),
                 QString("True"));
    }

    void shapeIsKept() {
        Var i("i");
        // No reordering or collecting: that is the simplifier's job.
        Expr e = SubNode::make(AddNode::make(i, imm(8)), imm(8));
        QVERIFY(arith::foldConstants(e).sameAs(e));
        Expr f = AddNode::make(imm(8), i);
        QVERIFY(arith::foldConstants(f).sameAs(f));
        // Division by a zero literal stays (it is the program's error, not the fold's).
        Expr z = FloorDivNode::make(i, imm(0));
        QCOMPARE(str(arith::foldConstants(z)), str(z));
    }

    void floatsAreLeftAlone() {
        DataType f32 = DataType::float32();
        Expr e = MulNode::make(FloatImmNode::make(f32, 2.0), FloatImmNode::make(f32, 3.0));
        QVERIFY(arith::foldConstants(e).sameAs(e));
        Var x("x", f32);
        Expr g = AddNode::make(x, FloatImmNode::make(f32, 0.0)); // x + 0.0 is not x for x = -0.0
        QVERIFY(arith::foldConstants(g).sameAs(g));
    }

    void substituteAndFoldStatements() {
        Buffer A = Buffer::make("A", DataType::float32(), {64});
        Buffer B = Buffer::make("B", DataType::float32(), {64});
        Var x("x"), i("i");
        Stmt s = store(B, load(A, x * 4 + i), MulNode::make(x, imm(4)) + i);
        Stmt r = arith::substituteAndFold(s, VarMap{{x.get(), imm(2)}});
        QCOMPARE(text(r), QString("B[8 + i] = A[8 + i]\n"));
        // x = 0: the multiple vanishes instead of printing 0 * 4 + i.
        QCOMPARE(text(arith::substituteAndFold(s, VarMap{{x.get(), imm(0)}})),
                 QString("B[i] = A[i]\n"));
        // Nothing to substitute: the same statement comes back.
        QVERIFY(arith::substituteAndFold(s, VarMap{}).sameAs(s));
        QVERIFY(arith::substituteAndFold(s, VarMap{{Var("y").get(), imm(1)}}).sameAs(s));
    }

    void substituteAndFoldExpressions() {
        Var x("x"), i("i");
        Expr e = LTNode::make(AddNode::make(MulNode::make(x, imm(4)), i), imm(10));
        QCOMPARE(str(arith::substituteAndFold(e, VarMap{{x.get(), imm(1)}})), QString("4 + i < 10"));
        QCOMPARE(str(arith::substituteAndFold(e, VarMap{{x.get(), imm(2)}, {i.get(), imm(3)}})),
                 QString("False"));
    }

    void likelyHints() {
        Var i("i");
        Expr c = i < 10;
        Expr l = call(Intrinsic::Likely, {c});
        QVERIFY(isLikely(l));
        QVERIFY(!isLikely(c));
        QVERIFY(stripLikely(l).sameAs(c));
        QVERIFY(stripLikely(c).sameAs(c));
    }
};

QTEST_APPLESS_MAIN(TestConstantFold)
#include "tst_constant_fold.moc"
