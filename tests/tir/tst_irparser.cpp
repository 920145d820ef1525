// IR parser: TIR text -> TIR, round-tripping with IRPrinter.
#include "ir/Diagnostic.h"
#include "tir/IROperators.h"
#include "tir/IRParser.h"
#include "tir/IRPrinter.h"

#include "TirBuilders.h"

#include <QtTest>

#include <limits>

using namespace tessel;
using namespace tessel::tir;

using namespace tessel::tir::test;

namespace {

/// print(parse(print(s))) == print(s).
void checkRoundTrip(const Stmt& s, const std::vector<Buffer>& buffers, const std::vector<Var>& vars = {}) {
    std::string printed = toString(s);
    Stmt parsed = parseStmt(printed, buffers, vars);
    QCOMPARE(QString::fromStdString(toString(parsed)), QString::fromStdString(printed));
}

void checkRoundTrip(const PrimFunc& f) {
    std::string printed = toString(f);
    PrimFunc parsed = parsePrimFunc(printed);
    QCOMPARE(QString::fromStdString(toString(parsed)), QString::fromStdString(printed));
}

/// The parse error of `text`, as "line:column: message".
QString parseError(const std::string& text, const std::vector<Buffer>& buffers = {}) {
    try {
        parseStmt(text, buffers);
    } catch (const CompileError& e) {
        auto& d = e.diagnostic();
        return QString("%1:%2: %3").arg(d.loc.line).arg(d.loc.column).arg(QString::fromStdString(d.message));
    }
    return "no error";
}

} // namespace

class TestIRParser : public QObject {
    Q_OBJECT
private slots:
    void roundTripLoopsAndStores() {
        Buffer A = Buffer::make("A", DataType::float32(), {64});
        Buffer B = Buffer::make("B", DataType::float32(), {64});
        Var i("i"), j("j");
        Expr x = i * 4 + j;
        checkRoundTrip(loop(i, 16, loop(j, 4, store(B, load(A, x) * 2.0, x), ForKind::Unrolled)), {A, B});
        checkRoundTrip(ForNode::make(i, 1, 2, ForKind::Parallel, store(A, Expr(0.0), i)), {A});
        checkRoundTrip(ForNode::make(i, j, 8, ForKind::Vectorized, store(A, Expr(0.0), i)), {A});
        checkRoundTrip(ForNode::make(i, 0, 8, ForKind::Serial, store(A, Expr(0.0), i),
                                     {{"pragma_unroll", Expr(1)}, {"pragma_x", Expr(4)}}),
                       {A});
        checkRoundTrip(ForNode::make(i, 2, j, ForKind::Serial, store(A, Expr(0.0), i)), {A});
        // int64 bounds: the loop variable takes their type.
        Var l("l", DataType::int64());
        checkRoundTrip(ForNode::make(l, IntImmNode::make(DataType::int64(), 0), IntImmNode::make(DataType::int64(), 16),
                                     ForKind::Serial, store(A, Expr(0.0), l)),
                       {A});
        Stmt p = parseStmt("for l in range(T.int64(2), T.int64(18)):\n    A[l] = T.float32(0.0)\n", {A});
        QCOMPARE(p.as<ForNode>()->loopVar.type(), DataType::int64());
        QCOMPARE(text(p), QString("for l in range(T.int64(2), T.int64(18)):\n    A[l] = T.float32(0.0)\n"));
    }

    void roundTripShadowedNames() {
        Buffer A = Buffer::make("A", DataType::float32(), {64});
        Var i("i"), i2("i"), i3("i_1");
        Stmt s = SeqStmtNode::make({loop(i, 4, store(A, Expr(1.0), i)), loop(i2, 4, store(A, Expr(2.0), i2)),
                                    loop(i3, 4, store(A, Expr(3.0), i3))});
        checkRoundTrip(s, {A});
        Stmt nested = loop(i, 4, loop(i2, 4, store(A, Expr(1.0), i * 4 + i2)));
        checkRoundTrip(nested, {A});
    }

    void roundTripArithmetic() {
        Buffer A = Buffer::make("A", DataType::float32(), {64});
        Buffer I = Buffer::make("I", DataType::int32(), {64});
        Var i("i"), n("n");
        Expr a = AddNode::make(i, MulNode::make(SubNode::make(n, 2), 3));
        Expr b = SubNode::make(i, SubNode::make(n, 1)); // needs parentheses
        Expr c = FloorDivNode::make(FloorModNode::make(i, 7), AddNode::make(n, 1));
        Expr d = MinNode::make(DivNode::make(i, 2), ModNode::make(n, MaxNode::make(i, -3)));
        Expr e = SubNode::make(i, IntImmNode::make(DataType::int32(), -5));
        Stmt s = SeqStmtNode::make({store(I, a, i), store(I, b, i), store(I, c, i), store(I, d, i), store(I, e, i),
                                    store(I, CastNode::make(DataType::int32(), load(A, i)), i)});
        checkRoundTrip(s, {A, I});
    }

    void roundTripLogicAndSelect() {
        Buffer A = Buffer::make("A", DataType::float32(), {64});
        Var i("i"), n("n");
        Expr cond = OrNode::make(AndNode::make(LTNode::make(i, n), NotNode::make(EQNode::make(i, 3))),
                                 AndNode::make(GENode::make(i, 1), OrNode::make(NENode::make(i, 2), LENode::make(n, 4))));
        Expr notOr = NotNode::make(OrNode::make(GTNode::make(i, 1), IntImmNode::make(DataType::boolean(), 1)));
        Stmt s = IfThenElseNode::make(cond, store(A, SelectNode::make(notOr, Expr(1.0), load(A, i)), i),
                                      IfThenElseNode::make(IntImmNode::make(DataType::boolean(), 0),
                                                           store(A, Expr(2.0), i)));
        checkRoundTrip(loop(i, 64, s), {A});
    }

    void roundTripLiteralsAndCalls() {
        Buffer A = Buffer::make("A", DataType::float32(), {64});
        Buffer L = Buffer::make("L", DataType::int64(), {64});
        Var i("i");
        double inf = std::numeric_limits<double>::infinity();
        Expr f = AddNode::make(FloatImmNode::make(DataType::float32(), inf),
                               FloatImmNode::make(DataType::float32(), -inf));
        Expr g = MulNode::make(FloatImmNode::make(DataType::float32(), 1.5e-7),
                               FloatImmNode::make(DataType::float32(), -0.25));
        Expr h = call(Intrinsic::Exp, {load(A, i)});
        Expr k = CallNode::make(DataType::float32(), Intrinsic::Fma, {load(A, i), load(A, i), Expr(1.0)});
        Expr ext = CallNode::makeExtern(DataType::float32(), "my_fn", {load(A, i), Expr(2)});
        Expr ext0 = CallNode::makeExtern(DataType::int32(), "tick", {});
        Stmt s = SeqStmtNode::make({
            store(A, f, i), store(A, g, i), store(A, h, i), store(A, k, i), store(A, ext, i),
            store(L, AddNode::make(IntImmNode::make(DataType::int64(), 5), CastNode::make(DataType::int64(), i)), i),
            store(A, FloatImmNode::make(DataType::float64(), 0.1).as<FloatImmNode>() ? CastNode::make(
                         DataType::float32(), FloatImmNode::make(DataType::float64(), 0.1)) : Expr(),
                  i),
            EvaluateNode::make(ext0),
            IfThenElseNode::make(call(Intrinsic::Likely, {LTNode::make(i, 4)}), store(A, Expr(0.0), i)),
        });
        checkRoundTrip(loop(i, 64, s), {A, L});
    }

    void roundTripVectors() {
        Buffer A = Buffer::make("A", DataType::float32(), {64});
        Var i("i");
        Expr idx = RampNode::make(MulNode::make(i, 4), 1, 4);
        Expr v = AddNode::make(load(A, idx), BroadcastNode::make(Expr(1.0), 4));
        checkRoundTrip(loop(i, 16, store(A, v, idx)), {A});
    }

    void roundTripLetAttrAllocateRealize() {
        Buffer A = Buffer::make("A", DataType::float32(), {16, 8});
        Buffer T = Buffer::make("tmp", DataType::float32(), {16, 8}, "local");
        Var i("i"), j("j"), x("x"), y("y", DataType::float32());
        Stmt produce = loop(j, 8, store(T, load(A, {i, j}), {i, j}));
        Stmt consume = LetStmtNode::make(
            x, AddNode::make(i, 1),
            AttrStmtNode::make("pragma_debug", StringImmNode::make("yes"),
                               store(A, LetNode::make(y, load(T, {i, 0}), AddNode::make(y, y)), {i, x})));
        Stmt realize = BufferRealizeNode::make(T, {Range(i, 1), Range(0, 8)}, SeqStmtNode::make({produce, consume}));
        checkRoundTrip(loop(i, 16, realize), {A, T});

        Buffer F = Buffer::make("flat", DataType::float32(), {32}, "local");
        Stmt alloc = AllocateNode::make(F, SeqStmtNode::make({store(F, Expr(0.0), 3), store(A, load(F, 3), {0, 0})}));
        checkRoundTrip(loop(i, 4, alloc), {A});
        // An undeclared float32 realize: its shape is the realized extents.
        Buffer R = Buffer::make("R", DataType::float32(), {4, 8});
        checkRoundTrip(BufferRealizeNode::make(R, {Range(0, 4), Range(0, 8)}, store(R, Expr(1.0), {1, 2})), {});
    }

    void roundTripFunctions() {
        Buffer A = Buffer::make("A", DataType::float32(), {16, 8});
        Var n("n");
        Buffer B = Buffer::make("B", DataType::int64(), {n});
        Buffer C = Buffer::make("C", DataType::float32(), {64});
        Var i("i"), j("j");
        checkRoundTrip(PrimFunc::make("copy", {A, C},
                                      loop(i, 16, loop(j, 8, store(C, load(A, {i, j}), AddNode::make(MulNode::make(i, 8), j))))));
        checkRoundTrip(PrimFunc::make("sym", {B}, loop(i, n, store(B, CastNode::make(DataType::int64(), i), i))));
        checkRoundTrip(PrimFunc::make("empty", {}, noOp()));
    }

    void parsesHandWrittenText() {
        Buffer A = Buffer::make("A", DataType::float32(), {16});
        // Comments, blank lines, elif, a free variable, floats and the '+' unary.
        Stmt s = parseStmt(R"(
# leading comment
for i in range(n):

    if i < 2:   # trailing comment
        A[i] = T.float32(1)
    elif i == +3:
        A[i] = -T.float32(2.5)
    else:
        A[i] = T.max(A[i], T.float32("inf"))
)",
                           {A});
        QCOMPARE(text(s), QString(R"(for i in range(n):
    if i < 2:
        A[i] = T.float32(1.0)
    else:
        if i == 3:
            A[i] = T.float32(-2.5)
        else:
            A[i] = T.max(A[i], T.float32("inf"))
)"));
        // The same name in one scope is the same Var; the loop var is the For's.
        auto* f = s.as<ForNode>();
        QVERIFY(f);
        auto* ite = f->body.as<IfThenElseNode>();
        QVERIFY(ite && ite->condition.as<LTNode>()->a.sameAs(f->loopVar));
        QCOMPARE(f->extent.as<VarNode>()->name, std::string("n"));

        // Declared vars keep their identity and type; let vars get their type.
        Var m("m", DataType::int64());
        Stmt t = parseStmt("x: T.int64 = m + T.int64(1)\nA[0] = T.Cast(\"float32\", x)\n", {A}, {m});
        auto* let = t.as<LetStmtNode>();
        QVERIFY(let);
        QVERIFY(let->value.as<AddNode>()->a.sameAs(m));
        QCOMPARE(let->var.type(), DataType::int64());

        // Expressions keep their exact shape (no folding).
        Expr e = parseExpr("1 + 2 * 3 - (4 - 5) // 2 % 3");
        QCOMPARE(QString::fromStdString(toString(e)), QString("1 + 2 * 3 - (4 - 5) // 2 % 3"));
        QVERIFY(e.as<SubNode>());
        // An indented text: the first line's indentation is level 0.
        Stmt ind = parseStmt("    for k in T.unroll(2):\n        A[k] = T.float32(0.0)\n", {A});
        QCOMPARE(ind.as<ForNode>()->forKind, ForKind::Unrolled);
        // Written no-ops stay in a sequence.
        Stmt seq = parseStmt("T.evaluate(0)\nA[0] = T.float32(0.0)\n", {A});
        QVERIFY(seq.as<SeqStmtNode>());
    }

    void declaredBuffersKeepIdentity() {
        Buffer A = Buffer::make("A", DataType::float32(), {16, 8});
        Buffer T = Buffer::make("tmp", DataType::float32(), {8}, "local");
        PrimFunc f = parsePrimFunc(R"(@T.prim_func
def main(A: T.Buffer((16, 8), "float32")):
    tmp = T.allocate([8], "float32", "local")
    tmp[0] = A[0, 0]
)",
                                   {A, T});
        QVERIFY(f->params[0].sameAs(A));
        QVERIFY(f->body.as<AllocateNode>()->buffer.sameAs(T));
    }

    void errors_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");
        QTest::newRow("unknown buffer") << "X[0] = T.float32(1.0)\n" << "1:1: unknown buffer 'X'";
        QTest::newRow("type mismatch")
            << "for i in range(4):\n    A[i] = 1\n"
            << "2:10: invalid TIR: stored value type int32 differs from buffer A of float32";
        QTest::newRow("bad indent") << "for i in range(4):\n    A[i] = T.float32(1.0)\n  A[0] = T.float32(1.0)\n"
                                    << "3:3: unindent does not match any outer indentation level";
        QTest::newRow("missing colon") << "for i in range(4)\n    A[i] = T.float32(1.0)\n"
                                       << "1:18: expected ':' after the loop header, got end of line";
        QTest::newRow("missing block") << "if True:\nA[0] = T.float32(1.0)\n" << "2:1: expected an indented block, got 'A'";
        QTest::newRow("unclosed") << "A[0] = T.exp(A[1]\n" << "1:13: bracket is never closed";
        QTest::newRow("unknown call") << "A[0] = T.frobnicate(A[1])\n" << "1:8: unknown function T.frobnicate";
        QTest::newRow("bare call") << "A[0] = exp(A[1])\n"
                                   << "1:8: unknown function 'exp'; TIR functions are written T.exp(...)";
        QTest::newRow("else alone") << "else:\n    A[0] = T.float32(1.0)\n" << "1:1: 'else' without a matching 'if'";
        QTest::newRow("bad type") << "x: T.int33 = 1\n" << "1:6: unknown data type T.int33";
        QTest::newRow("let type") << "x: T.int64 = 1\n" << "1:1: let value has type int32, not int64";
        QTest::newRow("logic on ints") << "if 1 and 2:\n    A[0] = T.float32(1.0)\n"
                                       << "1:6: invalid TIR: logical operator needs bool operands, got int32";
        QTest::newRow("bad char") << "A[0] = $\n" << "1:8: unexpected character '$'";
        QTest::newRow("unterminated string") << "with T.attr(\"k, 1):\n" << "1:13: unterminated string literal";
        QTest::newRow("empty") << "\n\n" << "3:1: expected a statement, got an empty text";
        QTest::newRow("buffer as value") << "A[0] = A\n" << "1:8: buffer 'A' is not a value; index it as A[...]";
        QTest::newRow("range annotations") << "for i in range(4, annotations={\"a\": 1}):\n    T.evaluate(0)\n"
                                           << "1:19: range() takes no annotations; use T.serial(..., annotations={...})";
        QTest::newRow("trailing") << "A[0] = T.float32(1.0) T.float32(2.0)\n"
                                  << "1:23: expected end of line after the statement, got 'T'";
        QTest::newRow("reduce") << "A[0] = T.sum(A[1], axis=[k])\n"
                                << "1:8: reductions (T.sum) cannot be parsed; they only occur in TE computes";
    }

    void errors() {
        QFETCH(QString, text);
        QFETCH(QString, error);
        Buffer A = Buffer::make("A", DataType::float32(), {16});
        QCOMPARE(parseError(text.toStdString(), {A}), error);
    }

    void deepNestingIsAnErrorNotACrash() {
        std::string deep = "A[0] = " + std::string(5000, '(') + "1" + std::string(5000, ')') + "\n";
        Buffer A = Buffer::make("A", DataType::int32(), {16});
        QVERIFY(parseError(deep, {A}).contains("nesting too deep"));
    }

    void functionErrors() {
        QVERIFY_THROWS_EXCEPTION(CompileError, parsePrimFunc("def f(A: T.Buffer((4,), \"float32\"), A: T.Buffer((4,), \"float32\")):\n    T.evaluate(0)\n"));
        QVERIFY_THROWS_EXCEPTION(CompileError, parsePrimFunc("@T.prim_func\ndef f():\n    T.evaluate(0)\nextra\n"));
        QVERIFY_THROWS_EXCEPTION(CompileError, parsePrimFunc("@T.prim_func\ndef f(A: T.Buffer((4,), \"float99\")):\n    T.evaluate(0)\n"));
    }
};

QTEST_APPLESS_MAIN(TestIRParser)
#include "tst_irparser.moc"
