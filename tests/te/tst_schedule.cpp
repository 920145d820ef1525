// Schedule primitives: the loops they leave, the TIR they lower to, and the
// diagnostics for illegal requests. Numeric checks of the same primitives are in
// tests/driver/tst_primitives_numeric.cpp (they need codegen).
#include "ir/Diagnostic.h"
#include "te/Lower.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"

#include <QtTest>

using namespace tessel;
using namespace tessel::te;
using tir::Expr;

namespace {

struct Gemm {
    Tensor A, B, C;
    IterVar k;
    Gemm(int M, int N, int K) {
        k = reduceAxis(tir::Range(0, K), "k");
        A = placeholder({M, K}, DataType::float32(), "A");
        B = placeholder({K, N}, DataType::float32(), "B");
        C = compute({M, N}, [&](const std::vector<tir::Var>& v) { return sum(A({v[0], k->var}) * B({k->var, v[1]}), {k}); },
                    "C", "", {"x", "y"});
    }
    IterVar x(Schedule& s) const { return s[C].data().leafIterVars[0]; }
    IterVar y(Schedule& s) const { return s[C].data().leafIterVars[1]; }
};

std::string lowerText(const Schedule& s, const std::vector<Tensor>& args) {
    return tir::toString(scheduleToPrimFunc(s, args, "f"));
}

std::string leafNames(const Stage& st) {
    std::string r;
    for (auto& iv : st.data().leafIterVars) r += (r.empty() ? "" : " ") + iv->var.name();
    return r;
}

QString errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const CompileError& e) {
        return QString::fromStdString(e.diagnostic().message);
    }
    return {};
}

} // namespace

class TestSchedule : public QObject {
    Q_OBJECT
private slots:
    void defaultSchedule() {
        Gemm g(16, 16, 16);
        Schedule s = createSchedule({g.C->op});
        QCOMPARE(QString::fromStdString(lowerText(s, {g.A, g.B, g.C})),
                 QString("@T.prim_func\n"
                         "def f(A: T.Buffer((16, 16), \"float32\"), B: T.Buffer((16, 16), \"float32\"), C: T.Buffer((16, 16), \"float32\")):\n"
                         "    for x in range(16):\n"
                         "        for y in range(16):\n"
                         "            C[x, y] = T.float32(0.0)\n"
                         "            for k in range(16):\n"
                         "                C[x, y] = C[x, y] + A[x, k] * B[k, y]\n"));
    }

    void splitDividingHasNoGuard() {
        Gemm g(16, 16, 16);
        Schedule s = createSchedule({g.C->op});
        auto [xo, xi] = s[g.C].split(g.x(s), 4);
        QCOMPARE(QString::fromStdString(leafNames(s[g.C])), QString("x_outer x_inner y k"));
        std::string t = lowerText(s, {g.A, g.B, g.C});
        QVERIFY(t.find("for x_outer in range(4):") != std::string::npos);
        QVERIFY(t.find("for x_inner in range(4):") != std::string::npos);
        QVERIFY(t.find("C[x_outer * 4 + x_inner, y] = C[x_outer * 4 + x_inner, y] + A[x_outer * 4 + x_inner, k] * B[k, y]") != std::string::npos);
        QVERIFY(t.find("if ") == std::string::npos);
    }

    void splitNonDividingHasGuard() {
        Gemm g(10, 16, 16);
        Schedule s = createSchedule({g.C->op});
        s[g.C].split(g.x(s), 4);
        std::string t = lowerText(s, {g.A, g.B, g.C});
        QVERIFY(t.find("for x_outer in range(3):") != std::string::npos);
        QVERIFY2(t.find("if T.likely(x_outer * 4 + x_inner < 10):") != std::string::npos, t.c_str());
    }

    void splitByNParts() {
        Gemm g(16, 16, 16);
        Schedule s = createSchedule({g.C->op});
        s[g.C].splitByNParts(g.y(s), 2);
        std::string t = lowerText(s, {g.A, g.B, g.C});
        QVERIFY(t.find("for y_outer in range(2):") != std::string::npos);
        QVERIFY(t.find("for y_inner in range(8):") != std::string::npos);
        QVERIFY(t.find("C[x, y_outer * 8 + y_inner]") != std::string::npos);
    }

    void tileAndReorder() {
        Gemm g(64, 64, 64);
        Schedule s = createSchedule({g.C->op});
        auto [xo, yo, xi, yi] = s[g.C].tile(g.x(s), g.y(s), 32, 16);
        QCOMPARE(QString::fromStdString(leafNames(s[g.C])), QString("x_outer y_outer x_inner y_inner k"));
        auto [ko, ki] = s[g.C].split(g.k, 4);
        s[g.C].reorder({xo, yo, ko, xi, ki, yi});
        QCOMPARE(QString::fromStdString(leafNames(s[g.C])),
                 QString("x_outer y_outer k_outer x_inner k_inner y_inner"));
        std::string t = lowerText(s, {g.A, g.B, g.C});
        // The reduction's init runs over the data-parallel loops inside the first reduce loop.
        QVERIFY2(t.find("for x_inner_init in range(32):") != std::string::npos, t.c_str());
        QVERIFY(t.find("C[x_outer * 32 + x_inner_init, y_outer * 16 + y_inner_init] = T.float32(0.0)") != std::string::npos);
    }

    void fuse() {
        Gemm g(8, 4, 4);
        Schedule s = createSchedule({g.C->op});
        IterVar f = s[g.C].fuse(g.x(s), g.y(s));
        QCOMPARE(QString::fromStdString(f->var.name()), QString("x_y_fused"));
        std::string t = lowerText(s, {g.A, g.B, g.C});
        QVERIFY(t.find("for x_y_fused in range(32):") != std::string::npos);
        QVERIFY2(t.find("C[x_y_fused // 4, x_y_fused % 4]") != std::string::npos, t.c_str());
    }

    void annotations() {
        Gemm g(16, 32, 8);
        Schedule s = createSchedule({g.C->op});
        auto [yo, yi] = s[g.C].split(g.y(s), 16);
        s[g.C].reorder({g.x(s), yo, g.k, yi});
        s[g.C].vectorize(yi);
        s[g.C].parallel(g.x(s));
        s[g.C].unroll(g.k);
        s[g.C].pragma(yo, "auto_unroll_max_step", Expr(16));
        std::string t = lowerText(s, {g.A, g.B, g.C});
        QVERIFY(t.find("for x in T.parallel(16):") != std::string::npos);
        QVERIFY(t.find("for y_outer in T.serial(2, annotations={\"pragma_auto_unroll_max_step\": 16}):") != std::string::npos);
        QVERIFY(t.find("for k in T.unroll(8):") != std::string::npos);
        QVERIFY(t.find("for y_inner in T.vectorized(16):") != std::string::npos);
    }

    void computeInline() {
        auto A = placeholder({8}, DataType::float32(), "A");
        auto B = compute({8}, [&](auto& v) { return A({v[0]}) * Expr(2.0); }, "B");
        auto C = compute({8}, [&](auto& v) { return B({v[0]}) + Expr(1.0); }, "C");
        Schedule s = createSchedule({C->op});
        s[B].computeInline();
        std::string t = lowerText(s, {A, C});
        QCOMPARE(QString::fromStdString(t),
                 QString("@T.prim_func\ndef f(A: T.Buffer((8,), \"float32\"), C: T.Buffer((8,), \"float32\")):\n"
                         "    for i in range(8):\n        C[i] = A[i] * T.float32(2.0) + T.float32(1.0)\n"));
    }

    void computeAtAndRoot() {
        auto A = placeholder({16, 16}, DataType::float32(), "A");
        auto B = compute({16, 16}, [&](auto& v) { return A({v[0], v[1]}) + Expr(1.0); }, "B");
        auto C = compute({16, 16}, [&](auto& v) { return B({v[0], v[1]}) * Expr(3.0); }, "C");
        Schedule s = createSchedule({C->op});
        auto cx = s[C].data().leafIterVars[0];
        s[B].computeAt(s[C], cx);
        std::string t = lowerText(s, {A, C});
        QVERIFY2(t.find("with T.realize(B[i:i + 1, 0:16], \"global\"):") != std::string::npos, t.c_str());
        QVERIFY(t.find("for i_1 in range(1):") != std::string::npos);
        QVERIFY(t.find("B[i + i_1, j] = A[i + i_1, j] + T.float32(1.0)") != std::string::npos);
        s[B].computeRoot();
        t = lowerText(s, {A, C});
        QVERIFY2(t.find("with T.realize(B[0:16, 0:16], \"global\"):") != std::string::npos, t.c_str());
    }

    void cacheReadAndWrite() {
        Gemm g(32, 32, 32);
        Schedule s = createSchedule({g.C->op});
        Tensor AL = s.cacheRead(g.A, "local", {g.C->op});
        Tensor CL = s.cacheWrite(g.C, "local");
        QCOMPARE(QString::fromStdString(AL.name()), QString("A_local"));
        QCOMPARE(QString::fromStdString(CL.name()), QString("C_local"));
        auto [xo, xi] = s[g.C].split(g.x(s), 8);
        s[CL].computeAt(s[g.C], xo);
        std::string t = lowerText(s, {g.A, g.B, g.C});
        QVERIFY2(t.find("with T.realize(C_local[x_outer * 8:x_outer * 8 + 8, 0:32], \"local\"):") != std::string::npos, t.c_str());
        QVERIFY(t.find("C_local[x_outer * 8 + x_c, y_c] = C_local[x_outer * 8 + x_c, y_c] + A_local[x_outer * 8 + x_c, k] * B[k, y_c]") != std::string::npos);
        QVERIFY(t.find("C[x_outer * 8 + x_inner, y] = C_local[x_outer * 8 + x_inner, y]") != std::string::npos);
        QVERIFY(t.find("A_local[ax0, ax1] = A[ax0, ax1]") != std::string::npos);
    }

    // The last block of a non-dividing tile: the cache computed there must not
    // compute (and read A) past the 37 rows that exist.
    void computeAtGuardsThePartialBlock() {
        Gemm g(37, 32, 16);
        Schedule s = createSchedule({g.C->op});
        Tensor CL = s.cacheWrite(g.C, "local");
        auto [xo, xi] = s[g.C].split(g.x(s), 8);
        s[CL].computeAt(s[g.C], xo);
        std::string t = lowerText(s, {g.A, g.B, g.C});
        QVERIFY2(t.find("if T.likely(x_outer * 8 + x_c < 37):") != std::string::npos, t.c_str());
        // Init and update are both guarded; the lower bound is proven and not checked.
        QVERIFY(t.find("if T.likely(x_outer * 8 + x_c < 37):", t.find("if T.likely(x_outer * 8 + x_c < 37):") + 1) != std::string::npos);
        QVERIFY(t.find("0 <=") == std::string::npos);
    }

    // storage_align: the realization of the aligned stage carries the
    // alignment for storage-flatten (tir/passes/StorageFlatten.h pads it).
    void storageAlignMarksTheRealization() {
        Gemm g(32, 32, 32);
        Schedule s = createSchedule({g.C->op});
        Tensor AS = s.cacheRead(g.A, "shared", {g.C->op});
        auto [xo, xi] = s[g.C].split(g.x(s), 8);
        s[AS].computeAt(s[g.C], xo);
        s[AS].storageAlign(s[AS].data().leafIterVars[0], 32, 1);
        std::string t = lowerText(s, {g.A, g.B, g.C});
        const std::string attr = "with T.attr(\"buffer_dim_align\", T.call_extern(\"int32\", \"tvm_tuple\", A_shared, 0, 32, 1)):";
        QVERIFY2(t.find(attr) != std::string::npos, t.c_str());
        QVERIFY(t.find("with T.realize(A_shared[x_outer * 8:x_outer * 8 + 8, 0:32], \"shared\"):", t.find(attr)) != std::string::npos);
        QCOMPARE(errorOf([&] { s[AS].storageAlign(g.k, 32, 1); }),
                 QString("storage_align: 'k' is not an axis of stage 'A_shared' (give one of A_shared.op.axis)"));
        QCOMPARE(errorOf([&] { s[AS].storageAlign(s[AS].data().leafIterVars[0], 32, 32); }),
                 QString("storage_align: the factor must be at least 1 and the offset in [0, factor), not 32 and 32"));
        QCOMPARE(errorOf([&] { s[g.A].storageAlign(s[AS].data().leafIterVars[0], 32, 1); }),
                 QString("storage_align: 'A' is an input; align a cache_read of it"));
    }

    void illegalSchedules_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("message");
        QTest::newRow("split twice") << 0 << "split: loop 'x' of stage 'C' was already split or fused; use the loops that replaced it";
        QTest::newRow("reorder other stage") << 1 << "reorder: loop 'i' belongs to stage 'D', not to stage 'C'";
        QTest::newRow("vectorize symbolic") << 2 << "vectorize: loop 'i' has no constant extent; split it by a constant factor first";
        QTest::newRow("vectorize reduce") << 3 << "vectorize: 'k' is a reduction loop; only data-parallel loops can be vectorized";
        QTest::newRow("parallel reduce") << 4 << "parallel: 'k' is a reduction loop; parallel threads would race on the result";
        QTest::newRow("fuse not adjacent") << 5 << "fuse: loops 'x' and 'k' must be adjacent, outer first (reorder them first)";
        QTest::newRow("inline reduction") << 6 << "compute_inline: 'C' is an output of the schedule";
        QTest::newRow("split factor") << 7 << "split: factor must be a positive integer";
        QTest::newRow("reorder twice") << 8 << "reorder: loop 'x' is named twice";
        QTest::newRow("cache_write late") << 9 << "cache_write: call it before any other schedule primitive on stage 'C'";
    }
    void illegalSchedules() {
        QFETCH(int, which);
        QFETCH(QString, message);
        Gemm g(16, 16, 16);
        auto D = compute({4}, [&](auto& v) { return g.C({v[0], v[0]}) + Expr(1.0); }, "D");
        Schedule s = createSchedule({D->op});
        tir::Var n("n");
        auto P = placeholder({n}, DataType::float32(), "P");
        auto Q = compute({n}, [&](auto& v) { return P({v[0]}); }, "Q");
        Schedule sq = createSchedule({Q->op});
        Schedule sc = createSchedule({g.C->op});
        QString got = errorOf([&] {
            switch (which) {
            case 0: { auto x = g.x(s); s[g.C].split(x, 4); s[g.C].split(x, 2); break; }
            case 1: s[g.C].reorder({s[D].data().leafIterVars[0], g.x(s)}); break;
            case 2: sq[Q].vectorize(sq[Q].data().leafIterVars[0]); break;
            case 3: s[g.C].vectorize(g.k); break;
            case 4: s[g.C].parallel(g.k); break;
            case 5: s[g.C].fuse(g.x(s), g.k); break;
            case 6: sc[g.C].computeInline(); break;
            case 7: s[g.C].split(g.x(s), 0); break;
            case 8: s[g.C].reorder({g.x(s), g.x(s)}); break;
            case 9: s[g.C].split(g.x(s), 4); s.cacheWrite(g.C, "local"); break;
            }
        });
        QCOMPARE(got, message);
    }
};

QTEST_APPLESS_MAIN(TestSchedule)
#include "tst_schedule.moc"
