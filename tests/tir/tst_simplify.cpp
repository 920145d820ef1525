// The arithmetic simplifier: constant folding, canonical linear forms,
// division by constants with bounds, proofs of comparisons, vector rules,
// interval bounds, statement clean-ups, and a randomized equivalence check
// against a small evaluator.
#include "tir/ExprEquality.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"
#include "tir/arith/Analyzer.h"
#include "tir/arith/ConstIntBound.h"
#include "tir/arith/Simplify.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <optional>
#include <random>
#include <unordered_map>

using namespace tessel;
using namespace tessel::tir;
namespace arith = tessel::tir::arith;

namespace {

/// An Expr for QTest data columns (Expr's operator== builds an EQ node, which
/// QMetaType would try to use as a comparison).
struct Boxed {
    Expr e;
};

DataType i32 = DataType::int32();
DataType f32 = DataType::float32();

Expr fimm(double v) {
    return FloatImmNode::make(f32, v);
}
Expr iimm(int64_t v) {
    return IntImmNode::make(i32, v);
}
Expr bcast(Expr v, int n) {
    return BroadcastNode::make(std::move(v), n);
}
Expr ramp(Expr b, Expr s, int n) {
    return RampNode::make(std::move(b), std::move(s), n);
}

QString str(const Expr& e) {
    return QString::fromStdString(toString(e));
}
QString str(const Stmt& s) {
    return QString::fromStdString(toString(s));
}

/// A tiny evaluator of integer/bool TIR over int64; nullopt on division by zero.
std::optional<int64_t> eval(const Expr& e, const std::unordered_map<const VarNode*, int64_t>& env) {
    auto bin = [&](const auto* op, auto f) -> std::optional<int64_t> {
        auto a = eval(op->a, env), b = eval(op->b, env);
        if (!a || !b) return std::nullopt;
        return f(*a, *b);
    };
    auto fdiv = [](int64_t a, int64_t b) {
        int64_t q = a / b;
        return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
    };
    switch (e.kind()) {
    case NodeKind::IntImm:
        return e.as<IntImmNode>()->value;
    case NodeKind::Var:
        return env.at(e.as<VarNode>());
    case NodeKind::Add:
        return bin(e.as<AddNode>(), [](int64_t a, int64_t b) { return a + b; });
    case NodeKind::Sub:
        return bin(e.as<SubNode>(), [](int64_t a, int64_t b) { return a - b; });
    case NodeKind::Mul:
        return bin(e.as<MulNode>(), [](int64_t a, int64_t b) { return a * b; });
    case NodeKind::Min:
        return bin(e.as<MinNode>(), [](int64_t a, int64_t b) { return std::min(a, b); });
    case NodeKind::Max:
        return bin(e.as<MaxNode>(), [](int64_t a, int64_t b) { return std::max(a, b); });
    case NodeKind::LT:
        return bin(e.as<LTNode>(), [](int64_t a, int64_t b) { return int64_t(a < b); });
    case NodeKind::LE:
        return bin(e.as<LENode>(), [](int64_t a, int64_t b) { return int64_t(a <= b); });
    case NodeKind::GT:
        return bin(e.as<GTNode>(), [](int64_t a, int64_t b) { return int64_t(a > b); });
    case NodeKind::GE:
        return bin(e.as<GENode>(), [](int64_t a, int64_t b) { return int64_t(a >= b); });
    case NodeKind::EQ:
        return bin(e.as<EQNode>(), [](int64_t a, int64_t b) { return int64_t(a == b); });
    case NodeKind::NE:
        return bin(e.as<NENode>(), [](int64_t a, int64_t b) { return int64_t(a != b); });
    case NodeKind::And:
        return bin(e.as<AndNode>(), [](int64_t a, int64_t b) { return int64_t(a && b); });
    case NodeKind::Or:
        return bin(e.as<OrNode>(), [](int64_t a, int64_t b) { return int64_t(a || b); });
    case NodeKind::Not: {
        auto a = eval(e.as<NotNode>()->a, env);
        if (!a) return std::nullopt;
        return int64_t(!*a);
    }
    case NodeKind::FloorDiv:
    case NodeKind::FloorMod:
    case NodeKind::Div:
    case NodeKind::Mod: {
        const Expr& ea = e.kind() == NodeKind::FloorDiv   ? e.as<FloorDivNode>()->a
                         : e.kind() == NodeKind::FloorMod ? e.as<FloorModNode>()->a
                         : e.kind() == NodeKind::Div      ? e.as<DivNode>()->a
                                                          : e.as<ModNode>()->a;
        const Expr& eb = e.kind() == NodeKind::FloorDiv   ? e.as<FloorDivNode>()->b
                         : e.kind() == NodeKind::FloorMod ? e.as<FloorModNode>()->b
                         : e.kind() == NodeKind::Div      ? e.as<DivNode>()->b
                                                          : e.as<ModNode>()->b;
        auto a = eval(ea, env), b = eval(eb, env);
        if (!a || !b || *b == 0) return std::nullopt;
        switch (e.kind()) {
        case NodeKind::FloorDiv:
            return fdiv(*a, *b);
        case NodeKind::FloorMod:
            return *a - fdiv(*a, *b) * *b;
        case NodeKind::Div:
            return *a / *b;
        default:
            return *a % *b;
        }
    }
    case NodeKind::Select: {
        auto* op = e.as<SelectNode>();
        auto c = eval(op->condition, env);
        if (!c) return std::nullopt;
        return eval(*c ? op->trueValue : op->falseValue, env);
    }
    default:
        return std::nullopt;
    }
}

} // namespace

Q_DECLARE_METATYPE(Boxed)

class TestSimplify : public QObject {
    Q_OBJECT

    // x, y: unbounded; z in [0, 16); xo, xi in [0, 32); i in [0, 8); n in [-8, 8)
    Var x{"x"}, y{"y"}, z{"z"}, xo{"xo"}, xi{"xi"}, i{"i"}, n{"n"};

    void bindAll(arith::Analyzer& an) {
        an.bind(z, Range(0, 16));
        an.bind(xo, Range(0, 32));
        an.bind(xi, Range(0, 32));
        an.bind(i, Range(0, 8));
        an.bind(n, Range(-8, 16));
    }
    Expr simp(const Expr& e) {
        arith::Analyzer an;
        bindAll(an);
        return an.simplify(e);
    }
    void addRow(const char* name, const Expr& e, const char* expected) {
        QTest::newRow(name) << Boxed{e} << QString(expected);
    }
    void columns() {
        QTest::addColumn<Boxed>("boxed");
        QTest::addColumn<QString>("expected");
    }
    void check() {
        QFETCH(Boxed, boxed);
        QFETCH(QString, expected);
        Expr input = boxed.e;
        Expr out = simp(input);
        QCOMPARE(str(out), expected);
        QCOMPARE(out.type(), input.type());
        // A fixed point: simplifying again changes nothing.
        QCOMPARE(str(simp(out)), expected);
    }

private slots:
    void intFolding_data() {
        columns();
        addRow("add", AddNode::make(iimm(3), iimm(4)), "7");
        addRow("sub", SubNode::make(iimm(3), iimm(10)), "-7");
        addRow("mul", MulNode::make(iimm(-3), iimm(4)), "-12");
        addRow("floordiv-neg", FloorDivNode::make(iimm(-7), iimm(2)), "-4");
        addRow("floormod-neg", FloorModNode::make(iimm(-7), iimm(2)), "1");
        addRow("truncdiv-neg", DivNode::make(iimm(-7), iimm(2)), "-3");
        addRow("truncmod-neg", ModNode::make(iimm(-7), iimm(2)), "-1");
        addRow("min", MinNode::make(iimm(3), iimm(-2)), "-2");
        addRow("max", MaxNode::make(iimm(3), iimm(-2)), "3");
        addRow("nested",
               MulNode::make(AddNode::make(iimm(2), iimm(3)), SubNode::make(iimm(10), iimm(4))),
               "30");
        addRow("int64", AddNode::make(Expr(int64_t(1) << 40), Expr(int64_t(5))),
               "T.int64(1099511627781)");
        addRow("int32-wraps", AddNode::make(iimm(2147483647), iimm(1)), "-2147483648");
        addRow("add-zero", AddNode::make(x, iimm(0)), "x");
        addRow("mul-one", MulNode::make(iimm(1), x), "x");
        addRow("mul-zero", MulNode::make(x, iimm(0)), "0");
        addRow("div-by-zero-kept", FloorDivNode::make(iimm(4), iimm(0)), "4 // 0");
        addRow("cmp", LTNode::make(iimm(3), iimm(4)), "True");
        addRow("eq", EQNode::make(iimm(3), iimm(4)), "False");
    }
    void intFolding() { check(); }

    void floatFolding_data() {
        columns();
        addRow("add", AddNode::make(fimm(1.5), fimm(2.25)), "T.float32(3.75)");
        addRow("mul", MulNode::make(fimm(1.5), fimm(-2)), "T.float32(-3.0)");
        addRow("div", DivNode::make(fimm(1), fimm(4)), "T.float32(0.25)");
        // 0.1f + 0.2f rounds in float32, as the hardware would.
        addRow("rounding", AddNode::make(fimm(0.1), fimm(0.2)), "T.float32(0.300000012)");
        Var a("a", f32), b("b", f32);
        // Never reassociate: (a + 1) + 2 keeps both additions.
        addRow("no-reassoc", AddNode::make(AddNode::make(a, fimm(1)), fimm(2)),
               "a + T.float32(1.0) + T.float32(2.0)");
        addRow("no-cancel", SubNode::make(AddNode::make(a, b), b), "a + b - b");
        // x + 0.0 is not x (for x = -0.0); x - 0.0, x * 1 and x / 1 are.
        addRow("add-zero-kept", AddNode::make(a, fimm(0)), "a + T.float32(0.0)");
        addRow("sub-zero", SubNode::make(a, fimm(0)), "a");
        addRow("mul-one", MulNode::make(a, fimm(1)), "a");
        addRow("div-one", DivNode::make(a, fimm(1)), "a");
        addRow("mul-zero-kept", MulNode::make(a, fimm(0)), "a * T.float32(0.0)");
        addRow("cmp", LTNode::make(fimm(1), fimm(2)), "True");
        addRow("float-cmp-kept", LTNode::make(a, b), "a < b");
        addRow("not-lt-kept", NotNode::make(LTNode::make(a, b)), "not a < b");
        addRow("min", MinNode::make(fimm(1), fimm(-2)), "T.float32(-2.0)");
    }
    void floatFolding() { check(); }

    void linearForms_data() {
        columns();
        addRow("cancel-mul", (x * 4 + y) - x * 4, "y");
        addRow("distribute", (x + 1) * 2 - 2, "x * 2");
        addRow("cancel-all", x * 32 + y - (x * 32 + y), "0");
        addRow("collect", x + x + x, "x * 3");
        addRow("collect-mixed", x * 2 + y - x + 3 - y * 2 + 4, "x - y + 7");
        addRow("only-negative", 0 - x - y, "0 - x - y");
        addRow("const-first", 10 - x, "10 - x");
        addRow("neg-const", x - 5 + 2, "x - 3");
        addRow("scale", (x * 3 + 2) * 4, "x * 12 + 8");
        addRow("nested-sub", x - (y - (x - 1)), "x * 2 - y - 1");
        addRow("opaque-terms", floordiv(x, 3) * 2 + y * x - floordiv(x, 3), "x // 3 + y * x");
        addRow("div-mod-merge", floordiv(x, 8) * 8 + floormod(x, 8), "x");
        addRow("div-mod-merge-scaled", floordiv(x + y, 4) * 12 + floormod(x + y, 4) * 3 + 1,
               "x * 3 + y * 3 + 1");
        Var w("w", DataType::int64());
        addRow("int64", w * int64_t(3) - w + int64_t(1), "w * T.int64(2) + T.int64(1)");
    }
    void linearForms() { check(); }

    void divMod_data() {
        columns();
        addRow("split-div", floordiv(xo * 32 + xi, 32), "xo");
        addRow("split-mod", floormod(xo * 32 + xi, 32), "xi");
        addRow("three-level-div", floordiv(x * 64 + y * 16 + z, 16), "x * 4 + y");
        addRow("three-level-mod", floormod(x * 64 + y * 16 + z, 16), "z");
        addRow("in-block-div", floordiv(z, 16), "0");
        addRow("in-block-mod", floormod(z, 16), "z");
        addRow("in-block-offset", floordiv(z + 16, 16), "1");
        addRow("const-split", floordiv(x * 4 + 6, 4), "x + 1");
        addRow("const-split-mod", floormod(x * 4 + 6, 4), "2");
        addRow("unknown-rest", floordiv(x * 8 + y, 8), "x + y // 8");
        addRow("gcd-reduce", floordiv(x * 4 + 3, 16), "x // 4");
        addRow("gcd-reduce-mod", floormod(x * 4 + 3, 16), "x % 4 * 4 + 3");
        addRow("small-part", floordiv(x * 16 + i, 32), "x // 2");
        addRow("small-part-mod", floormod(x * 16 + i, 32), "x % 2 * 16 + i");
        addRow("nested-div", floordiv(floordiv(x, 4), 8), "x // 32");
        addRow("nested-mod", floormod(floormod(x, 32), 8), "x % 8");
        addRow("mul-div", floordiv(x * 12, 4), "x * 3");
        addRow("mod-of-mul", floormod(x * 12, 4), "0");
        addRow("negative-range-kept", floordiv(n, 8), "n // 8");
        addRow("negative-range-shift", floordiv(n + 8, 16), "0");
        addRow("trunc-nonneg", truncdiv(xo * 32 + xi, 32), "xo");
        addRow("truncmod-nonneg", truncmod(xo * 32 + xi, 32), "xi");
        addRow("trunc-kept", truncdiv(x, 4), "T.truncdiv(x, 4)");
        addRow("div-one", floordiv(x, 1), "x");
        addRow("var-divisor-small", floordiv(i, z + 8), "0");
    }
    void divMod() { check(); }

    void minMax_data() {
        columns();
        addRow("bounds-min", min(xi, 32), "xi");
        addRow("bounds-max", max(xi, 32), "32");
        addRow("bounds-max0", max(xi, 0), "xi");
        addRow("diff-min", min(x, x + 1), "x");
        addRow("diff-max", max(x * 2 + 3, x * 2 - 1), "x * 2 + 3");
        addRow("same", min(x + y, y + x), "x + y");
        addRow("unknown", min(x, y), "T.min(x, y)");
        addRow("nested-const", MinNode::make(MinNode::make(x, iimm(8)), iimm(4)), "T.min(x, 4)");
        addRow("const-right", MaxNode::make(iimm(3), x), "T.max(x, 3)");
        addRow("split-tail", min(xo * 32 + xi, 1024), "xo * 32 + xi");
        addRow("split-tail-kept", min(xo * 32 + xi, 1000), "T.min(xo * 32 + xi, 1000)");
    }
    void minMax() { check(); }

    void comparisons_data() {
        columns();
        addRow("split-guard", xo * 32 + xi < 1024, "True");
        addRow("split-guard-kept", xo * 32 + xi < 1000, "xo * 32 + xi < 1000");
        addRow("ge-zero", xo * 32 + xi >= 0, "True");
        addRow("false", xi > 40, "False");
        addRow("cancel", x + 1 < y + 1, "x < y");
        addRow("move-const", x + 3 < 10, "x < 7");
        addRow("const-left", 10 < x + 1, "9 < x");
        addRow("gt-turned", x > y, "y < x");
        addRow("same-terms", x * 4 + y < x * 4 + 8, "y < 8");
        addRow("gcd-lt", x * 4 < 10, "x < 3");
        addRow("gcd-le", x * 4 <= 10, "x <= 2");
        addRow("gcd-eq-false", x * 4 == 10, "False");
        addRow("gcd-eq", x * 4 == 8, "x == 2");
        addRow("gcd-ne-true", x * 2 + 1 != 0, "True");
        addRow("eq-self", x + y == y + x, "True");
        addRow("ne-bounds", i != 9, "True");
        addRow("and-true", (xi < 32) && (x < y), "x < y");
        addRow("and-false", (xi < 0) && (x < y), "False");
        addRow("or-true", (x < y) || (i < 8), "True");
        addRow("or-false", (x < y) || (i > 8), "x < y");
        addRow("and-self", (x < y) && (x < y), "x < y");
        addRow("and-not", AndNode::make(x < y, NotNode::make(x < y)), "False");
        addRow("or-not", OrNode::make(x < y, NotNode::make(x < y)), "True");
        addRow("not-not", NotNode::make(NotNode::make(x < y)), "x < y");
        addRow("not-lt", NotNode::make(x < y), "y <= x");
        addRow("not-eq", NotNode::make(x == y), "x != y");
        addRow("not-const", NotNode::make(xi < 32), "False");
    }
    void comparisons() { check(); }

    void selectAndCast_data() {
        columns();
        addRow("select-true", select(xi < 32, x, y), "x");
        addRow("select-false", select(xi >= 32, x, y), "y");
        addRow("select-same", select(x < y, x + 1, 1 + x), "x + 1");
        addRow("select-kept", select(x < y, x, y), "T.Select(x < y, x, y)");
        addRow("cast-int", CastNode::make(DataType::int64(), iimm(7)), "T.int64(7)");
        addRow("cast-narrow", CastNode::make(i32, Expr(int64_t(1) << 32)), "0");
        addRow("cast-float", CastNode::make(f32, iimm(3)), "T.float32(3.0)");
        addRow("cast-trunc", CastNode::make(i32, fimm(-2.75)), "-2");
        addRow("cast-bool", CastNode::make(DataType::boolean(), iimm(5)), "True");
        addRow("cast-same", CastNode::make(i32, x), "x");
        addRow("cast-kept", CastNode::make(DataType::int64(), x + 0), "T.Cast(\"int64\", x)");
        addRow("cast-bcast", CastNode::make(DataType::float32(4), bcast(iimm(2), 4)),
               "T.Broadcast(T.float32(2.0), 4)");
    }
    void selectAndCast() { check(); }

    void vectors_data() {
        columns();
        addRow("ramp-plus-bcast", ramp(x, iimm(1), 8) + bcast(y, 8), "T.Ramp(x + y, 1, 8)");
        addRow("bcast-plus-ramp", bcast(iimm(4), 8) + ramp(x * 4, iimm(1), 8),
               "T.Ramp(x * 4 + 4, 1, 8)");
        addRow("bcast-mul", bcast(x, 4) * bcast(y, 4), "T.Broadcast(x * y, 4)");
        addRow("bcast-fold", bcast(iimm(3), 4) * bcast(iimm(5), 4), "T.Broadcast(15, 4)");
        addRow("ramp-mul", ramp(x, iimm(1), 4) * bcast(iimm(3), 4), "T.Ramp(x * 3, 3, 4)");
        addRow("ramp-plus-ramp", ramp(x, iimm(1), 4) + ramp(y, iimm(2), 4), "T.Ramp(x + y, 3, 4)");
        addRow("ramp-minus-ramp", ramp(x, iimm(2), 4) - ramp(x, iimm(2), 4), "T.Broadcast(0, 4)");
        addRow("bcast-minus-ramp", bcast(y, 4) - ramp(x, iimm(2), 4), "T.Ramp(y - x, -2, 4)");
        addRow("ramp-div", floordiv(ramp(x * 16, iimm(1), 16), bcast(iimm(16), 16)),
               "T.Broadcast(x, 16)");
        addRow("ramp-mod", floormod(ramp(x * 16, iimm(1), 16), bcast(iimm(16), 16)),
               "T.Ramp(0, 1, 16)");
        addRow("ramp-div-inner", floordiv(ramp(xi * 4, iimm(1), 4), bcast(iimm(8), 4)),
               "T.Broadcast(xi // 2, 4)");
        addRow("ramp-mod-inner", floormod(ramp(xi * 4, iimm(1), 4), bcast(iimm(8), 4)),
               "T.Ramp(xi % 2 * 4, 1, 4)");
        addRow("ramp-div-crosses", floordiv(ramp(x * 16 + 8, iimm(1), 16), bcast(iimm(16), 16)),
               "T.Ramp(x * 16 + 8, 1, 16) // T.Broadcast(16, 16)");
        addRow("ramp-div-whole", floordiv(ramp(x, iimm(32), 4), bcast(iimm(16), 4)),
               "T.Ramp(x // 16, 2, 4)");
        addRow("ramp-mod-whole", floormod(ramp(x, iimm(32), 4), bcast(iimm(16), 4)),
               "T.Broadcast(x % 16, 4)");
        addRow("ramp-cmp", ramp(xo * 32, iimm(1), 32) < bcast(iimm(1024), 32),
               "T.Broadcast(True, 32)");
        addRow("ramp-cmp-kept", ramp(xo * 32, iimm(1), 32) < bcast(iimm(1000), 32),
               "T.Ramp(xo * 32, 1, 32) < T.Broadcast(1000, 32)");
        addRow("ramp-zero-stride", ramp(x, iimm(0), 4) + bcast(iimm(1), 4),
               "T.Broadcast(x + 1, 4)");
        addRow("bcast-and",
               AndNode::make(bcast(x < y, 4), bcast(IntImmNode::make(DataType::boolean(), 1), 4)),
               "T.Broadcast(x < y, 4)");
    }
    void vectors() { check(); }

    void bounds_data() {
        QTest::addColumn<Boxed>("boxed");
        QTest::addColumn<qlonglong>("lo");
        QTest::addColumn<qlonglong>("hi");
        constexpr qlonglong inf = arith::ConstIntBound::kPosInf;
        QTest::newRow("imm") << Boxed{Expr(7)} << 7LL << 7LL;
        QTest::newRow("var") << Boxed{Expr(xi)} << 0LL << 31LL;
        QTest::newRow("unbound-int32")
            << Boxed{Expr(x)} << qlonglong(INT32_MIN) << qlonglong(INT32_MAX);
        QTest::newRow("unbound-int64") << Boxed{Expr(Var("w", DataType::int64()))} << -inf << inf;
        QTest::newRow("add") << Boxed{xo * 32 + xi} << 0LL << 1023LL;
        QTest::newRow("sub") << Boxed{xi - xo} << -31LL << 31LL;
        QTest::newRow("mul-neg") << Boxed{n * -3} << -21LL << 24LL;
        QTest::newRow("floordiv") << Boxed{floordiv(n, 3)} << -3LL << 2LL;
        QTest::newRow("floormod") << Boxed{floormod(x, 8)} << 0LL << 7LL;
        QTest::newRow("floormod-small") << Boxed{floormod(i, 16)} << 0LL << 7LL;
        QTest::newRow("truncdiv") << Boxed{truncdiv(n, 3)} << -2LL << 2LL;
        QTest::newRow("truncmod") << Boxed{truncmod(n, 3)} << -2LL << 2LL;
        QTest::newRow("min") << Boxed{min(xi, i)} << 0LL << 7LL;
        QTest::newRow("max") << Boxed{max(xi, n)} << 0LL << 31LL;
        QTest::newRow("select") << Boxed{select(x < y, i, n)} << -8LL << 7LL;
        QTest::newRow("cast") << Boxed{cast(DataType::int64(), n)} << -8LL << 7LL;
        QTest::newRow("cast-narrow")
            << Boxed{CastNode::make(DataType(DataType::Code::Int, 8), xo * 32)} << -128LL << 127LL;
        QTest::newRow("cmp") << Boxed{(x < y)} << 0LL << 1LL;
        QTest::newRow("ramp") << Boxed{ramp(xo * 4, iimm(1), 4)} << 0LL << 127LL;
        QTest::newRow("ramp-neg-stride") << Boxed{ramp(i, iimm(-2), 4)} << -6LL << 7LL;
        QTest::newRow("bcast") << Boxed{bcast(n, 8)} << -8LL << 7LL;
        QTest::newRow("div-var") << Boxed{floordiv(xi, i + 1)} << 0LL << 31LL;
        QTest::newRow("let") << Boxed{LetNode::make(Var("t"), i * 2, Expr(0))} << 0LL << 0LL;
    }
    void bounds() {
        QFETCH(Boxed, boxed);
        QFETCH(qlonglong, lo);
        Expr input = boxed.e;
        QFETCH(qlonglong, hi);
        arith::Analyzer an;
        bindAll(an);
        arith::ConstIntBound b = an.constIntBound(input);
        QCOMPARE(qlonglong(b.min), lo);
        QCOMPARE(qlonglong(b.max), hi);
    }

    void boundsFromRanges() {
        arith::Analyzer an;
        Var a("a"), b("b"), c("c");
        an.bind(a, Range(4, 8)); // [4, 12)
        QCOMPARE(an.constIntBound(a).min, 4);
        QCOMPARE(an.constIntBound(a).max, 11);
        an.bind(b, Range(a * 2, 3)); // [8, 24] .. [24 + 2]
        QCOMPARE(an.constIntBound(b).min, 8);
        QCOMPARE(an.constIntBound(b).max, 24);
        an.bind(c, a + 1); // a let value
        QCOMPARE(an.constIntBound(c).min, 5);
        QCOMPARE(an.constIntBound(c).max, 12);
        Var k("k");
        an.bind(k, Expr(5));
        QCOMPARE(str(an.simplify(k * 2 + a)), QString("a + 10"));
    }

    void analyzerScopes() {
        arith::Analyzer an;
        Var a("a"), b("b");
        an.bind(a, Range(0, 32));
        QVERIFY(an.canProve(a < 32));
        QVERIFY(!an.canProve(a * 32 + b < 1024));
        {
            arith::Analyzer::Scope scope(an);
            an.bind(b, Range(0, 32));
            QVERIFY(an.canProve(a * 32 + b < 1024));
            {
                arith::Analyzer::Scope inner(an);
                an.bind(a, Range(0, 4)); // rebinding narrows, undone at scope end
                QVERIFY(an.canProve(a * 32 + b < 128));
            }
            QVERIFY(!an.canProve(a * 32 + b < 128));
            QVERIFY(an.canProve(a * 32 + b < 1024));
        }
        QVERIFY(!an.canProve(a * 32 + b < 1024));
        QVERIFY(an.canProve(a < 32));
        QVERIFY(an.canProveGreaterEqual(a, 0));
        QVERIFY(!an.canProveGreaterEqual(a - 1, 0));
        an.pushScope();
        an.bind(b, Range(0, 1));
        QCOMPARE(str(an.simplify(a + b)), QString("a"));
        an.popScope();
        QCOMPARE(str(an.simplify(a + b)), QString("a + b"));
    }

    void freeFunctionSimplify() {
        QCOMPARE(str(arith::simplify((x + 1) * 2 - 2)), QString("x * 2"));
        Expr e = x + y;
        QVERIFY(arith::simplify(e).sameAs(e)); // unchanged expressions are returned as is
    }

    void splitGuardRemoved() {
        // for xo in range(32): for xi in range(32): if xo*32 + xi < 1024: B[xo*32 + xi] = A[...]
        Buffer A = Buffer::make("A", f32, {Expr(1024)});
        Buffer B = Buffer::make("B", f32, {Expr(1024)});
        auto body = [&](int extent) {
            Expr idx = xo * 32 + xi;
            Stmt store = BufferStoreNode::make(B, BufferLoadNode::make(A, {idx}) * fimm(2), {idx});
            Stmt guarded = IfThenElseNode::make(idx < extent, store);
            return ForNode::make(xo, Expr(0), Expr(32), ForKind::Serial,
                                 ForNode::make(xi, Expr(0), Expr(32), ForKind::Serial, guarded));
        };
        QCOMPARE(str(arith::simplify(body(1024))),
                 QString("for xo in range(32):\n"
                         "    for xi in range(32):\n"
                         "        B[xo * 32 + xi] = A[xo * 32 + xi] * T.float32(2.0)\n"));
        // 1000 is no multiple of 32: the guard stays.
        QCOMPARE(str(arith::simplify(body(1000))),
                 QString("for xo in range(32):\n"
                         "    for xi in range(32):\n"
                         "        if xo * 32 + xi < 1000:\n"
                         "            B[xo * 32 + xi] = A[xo * 32 + xi] * T.float32(2.0)\n"));
        PrimFunc f = PrimFunc::make("scale", {A, B}, body(1024));
        QVERIFY(toString(arith::simplify(f)).find("if ") == std::string::npos);
    }

    void loopsAndSequences() {
        Buffer B = Buffer::make("B", DataType::int32(), {Expr(64)});
        Var k("k"), j("j");
        // extent 1: the body with k = 3
        Stmt one = ForNode::make(k, Expr(3), Expr(1), ForKind::Serial,
                                 BufferStoreNode::make(B, k * 2, {k + 1}));
        QCOMPARE(str(arith::simplify(one)), QString("B[4] = 6\n"));
        // extent 0 and negative extents: nothing
        Stmt zero =
            ForNode::make(k, Expr(0), Expr(0), ForKind::Serial, BufferStoreNode::make(B, k, {k}));
        QVERIFY(isNoOp(arith::simplify(zero)));
        Stmt neg = ForNode::make(k, Expr(0), Expr(4) - Expr(6), ForKind::Serial,
                                 BufferStoreNode::make(B, k, {k}));
        QVERIFY(isNoOp(arith::simplify(neg)));
        // sequences drop the no-ops that simplification leaves
        Stmt s1 = BufferStoreNode::make(B, Expr(1), {Expr(0)});
        Stmt s2 = IfThenElseNode::make(LTNode::make(iimm(3), iimm(2)),
                                       BufferStoreNode::make(B, Expr(2), {Expr(1)}));
        Stmt seq = SeqStmtNode::make({s1, s2, zero, BufferStoreNode::make(B, Expr(3), {Expr(2)})});
        QCOMPARE(str(arith::simplify(seq)), QString("B[0] = 1\nB[2] = 3\n"));
        // if False with else: the else branch
        Stmt ite = IfThenElseNode::make(LTNode::make(iimm(5), iimm(2)),
                                        BufferStoreNode::make(B, Expr(1), {Expr(0)}),
                                        BufferStoreNode::make(B, Expr(2), {Expr(0)}));
        QCOMPARE(str(arith::simplify(ite)), QString("B[0] = 2\n"));
        // loop bounds with a non-zero min: j in [4, 12)
        Stmt shifted =
            ForNode::make(j, Expr(4), Expr(8), ForKind::Serial,
                          BufferStoreNode::make(B, select(j >= 4, j, 0), {floordiv(j, 16)}));
        QCOMPARE(str(arith::simplify(shifted)), QString("for j in range(4, 12):\n    B[0] = j\n"));
    }

    void letsAndConditions() {
        Buffer B = Buffer::make("B", DataType::int32(), {Expr(64)});
        Var k("k"), t("t"), u("u");
        // LetStmt: the value's bound is known in the body
        Stmt let = ForNode::make(
            k, Expr(0), Expr(8), ForKind::Serial,
            LetStmtNode::make(t, k * 4,
                              BufferStoreNode::make(B, floordiv(t, 32), {floormod(t, 32)})));
        QCOMPARE(str(arith::simplify(let)),
                 QString("for k in range(8):\n    t: T.int32 = k * 4\n    B[t] = 0\n"));
        // an unused let disappears
        Stmt unused = LetStmtNode::make(u, k * 4, BufferStoreNode::make(B, Expr(1), {Expr(0)}));
        QCOMPARE(str(arith::simplify(unused)), QString("B[0] = 1\n"));
        // the condition of an if narrows the bound in its branches
        Stmt cond = ForNode::make(
            k, Expr(0), Expr(64), ForKind::Serial,
            IfThenElseNode::make(k < 16, BufferStoreNode::make(B, min(k, 20), {floordiv(k, 16)}),
                                 BufferStoreNode::make(B, max(k, 10), {k})));
        QCOMPARE(str(arith::simplify(cond)), QString("for k in range(64):\n"
                                                     "    if k < 16:\n"
                                                     "        B[0] = k\n"
                                                     "    else:\n"
                                                     "        B[k] = k\n"));
        // Let expressions
        Expr le = LetNode::make(t, Expr(3), t * 2 + k);
        QCOMPARE(str(arith::simplify(le)), QString("k + 6"));
    }

    void randomizedEquivalence() {
        std::mt19937 rng(12345);
        Var a("a"), b("b"), c("c");
        const int64_t aLo = 0, aHi = 7, bLo = -4, bHi = 3, cLo = 0, cHi = 2;
        auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
        std::function<Expr(int)> gen = [&](int depth) -> Expr {
            if (depth == 0 || pick(0, 9) < 2) {
                switch (pick(0, 3)) {
                case 0:
                    return a;
                case 1:
                    return b;
                case 2:
                    return c;
                default:
                    return iimm(pick(-5, 9));
                }
            }
            Expr l = gen(depth - 1), r = gen(depth - 1);
            int divisor = std::array<int, 9>{1, 2, 3, 4, 8, 16, -3, 5, 6}[pick(0, 8)];
            switch (pick(0, 13)) {
            case 0:
            case 1:
                return AddNode::make(l, r);
            case 2:
            case 3:
                return SubNode::make(l, r);
            case 4:
                return MulNode::make(l, iimm(pick(-3, 8)));
            case 5:
                return MulNode::make(l, r);
            case 6:
                return FloorDivNode::make(l, iimm(divisor));
            case 7:
                return FloorModNode::make(l, iimm(divisor));
            case 8:
                return DivNode::make(l, iimm(divisor));
            case 9:
                return ModNode::make(l, iimm(divisor));
            case 10:
                return MinNode::make(l, r);
            case 11:
                return MaxNode::make(l, r);
            case 12:
                return SelectNode::make(LTNode::make(l, r), gen(depth - 1), l);
            default: {
                Expr cond = pick(0, 1) ? Expr(LENode::make(l, r)) : Expr(NENode::make(l, r));
                if (pick(0, 1)) cond = AndNode::make(cond, GTNode::make(r, iimm(pick(-3, 3))));
                if (pick(0, 1)) cond = NotNode::make(cond);
                return SelectNode::make(cond, l, r);
            }
            }
        };
        std::function<Expr(int)> genBool = [&](int depth) -> Expr {
            Expr l = gen(depth), r = gen(depth);
            switch (pick(0, 6)) {
            case 0:
                return LTNode::make(l, r);
            case 1:
                return LENode::make(l, r);
            case 2:
                return EQNode::make(l, r);
            case 3:
                return NENode::make(l, r);
            case 4:
                return GENode::make(l, r);
            case 5:
                return AndNode::make(LTNode::make(l, r), NotNode::make(EQNode::make(l, iimm(2))));
            default:
                return OrNode::make(GTNode::make(l, r), LENode::make(r, iimm(pick(-4, 4))));
            }
        };
        arith::Analyzer an;
        an.bind(a, Range(aLo, aHi - aLo + 1));
        an.bind(b, Range(bLo, bHi - bLo + 1));
        an.bind(c, Range(cLo, cHi - cLo + 1));
        int checked = 0, changed = 0;
        for (int iter = 0; iter < 3000; ++iter) {
            Expr e = iter % 4 == 3 ? genBool(3) : gen(4);
            Expr s = an.simplify(e);
            QCOMPARE(s.type(), e.type());
            if (!structuralEqual(s, e)) ++changed;
            std::unordered_map<const VarNode*, int64_t> env;
            for (int64_t va = aLo; va <= aHi; ++va)
                for (int64_t vb = bLo; vb <= bHi; ++vb)
                    for (int64_t vc = cLo; vc <= cHi; ++vc) {
                        env[a.get()] = va;
                        env[b.get()] = vb;
                        env[c.get()] = vc;
                        auto want = eval(e, env);
                        if (!want) continue; // division by zero in the original
                        auto got = eval(s, env);
                        if (!got || *got != *want) {
                            QFAIL(
                                qPrintable(QString("a=%1 b=%2 c=%3: %4 -> %5 gives %6, expected %7")
                                               .arg(va)
                                               .arg(vb)
                                               .arg(vc)
                                               .arg(str(e), str(s))
                                               .arg(got ? QString::number(*got) : QString("none"))
                                               .arg(*want)));
                        }
                        ++checked;
                    }
        }
        QVERIFY(checked > 100000);
        QVERIFY(changed > 1000);
    }
};

QTEST_APPLESS_MAIN(TestSimplify)
#include "tst_simplify.moc"
