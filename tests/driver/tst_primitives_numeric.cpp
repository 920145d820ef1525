// Every schedule primitive, compiled through the whole pipeline (TIR passes,
// LLVM, JIT) and checked numerically against plain C++ loops.
#include "codegen/CodeGenLLVM.h"
#include "driver/TeDriver.h"
#include "runtime/NDArray.h"
#include "runtime/ThreadPool.h"
#include "tir/IROperators.h"
#include "tir/IRPrinter.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <random>

using namespace tessel;
using namespace tessel::te;
using tir::Expr;

namespace {

struct Gemm {
    int M, N, K;
    Tensor A, B, C;
    IterVar k;
    Gemm(int m, int n, int kk) : M(m), N(n), K(kk) {
        k = reduceAxis(tir::Range(0, K), "k");
        A = placeholder({M, K}, DataType::float32(), "A");
        B = placeholder({K, N}, DataType::float32(), "B");
        C = compute({M, N}, [&](const std::vector<tir::Var>& v) { return sum(A({v[0], k->var}) * B({k->var, v[1]}), {k}); },
                    "C", "", {"x", "y"});
    }
    IterVar x(Schedule& s) const { return s[C].data().leafIterVars[0]; }
    IterVar y(Schedule& s) const { return s[C].data().leafIterVars[1]; }
};

std::vector<float> randomVec(size_t n, unsigned seed) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<float> d(-1, 1);
    std::vector<float> v(n);
    for (auto& x : v) x = d(g);
    return v;
}

/// Builds and runs `s` over float buffers (inputs filled, outputs zeroed).
void runSchedule(const Schedule& s, const std::vector<Tensor>& args, std::vector<std::vector<float>*> data) {
    auto f = driver::lowerSchedule(s, args, "kernel");
    codegen::BuildOptions bo;
    bo.emitAssembly = false;
    auto r = codegen::build({f.lowered}, codegen::hostTarget(), bo);
    auto fn = r.module->function("kernel");
    QVERIFY(fn);
    // Kernels assume 64-byte aligned buffers (the runtime's NDArray gives that).
    std::vector<runtime::NDArray> arrays;
    std::vector<void*> ptrs;
    for (auto* d : data) {
        arrays.emplace_back(std::vector<int64_t>{int64_t(d->size())}, DataType::float32());
        std::copy(d->begin(), d->end(), arrays.back().data<float>());
        ptrs.push_back(arrays.back().rawData());
    }
    QCOMPARE(fn(ptrs.data()), 0);
    for (size_t i = 0; i < data.size(); ++i)
        std::copy(arrays[i].data<float>(), arrays[i].data<float>() + data[i]->size(), data[i]->begin());
}

double maxDiff(const std::vector<float>& a, const std::vector<float>& b) {
    double m = 0;
    for (size_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(double(a[i]) - double(b[i])));
    return m;
}

std::vector<float> gemmRef(const Gemm& g, const std::vector<float>& a, const std::vector<float>& b) {
    std::vector<float> c(size_t(g.M) * g.N, 0.f);
    for (int i = 0; i < g.M; ++i)
        for (int j = 0; j < g.N; ++j) {
            double acc = 0;
            for (int k = 0; k < g.K; ++k) acc += double(a[size_t(i) * g.K + k]) * b[size_t(k) * g.N + j];
            c[size_t(i) * g.N + j] = float(acc);
        }
    return c;
}

using ScheduleFn = std::function<void(Schedule&, Gemm&)>;

} // namespace

class TestPrimitivesNumeric : public QObject {
    Q_OBJECT
private slots:
    void gemm_data() {
        QTest::addColumn<int>("M");
        QTest::addColumn<int>("N");
        QTest::addColumn<int>("K");
        QTest::addColumn<int>("which");
        const char* names[] = {"default", "split", "split non-dividing", "split nparts", "tile+reorder",
                               "fuse", "vectorize", "vectorize non-dividing", "unroll", "parallel",
                               "pragma", "cache_write+compute_at", "cache_read", "ladder-like", "fuse+parallel"};
        for (int w = 0; w < 15; ++w) {
            QTest::newRow(names[w]) << 64 << 48 << 32 << w;
            QTest::newRow((std::string(names[w]) + " odd").c_str()) << 37 << 45 << 29 << w;
        }
    }
    void gemm() {
        QFETCH(int, M);
        QFETCH(int, N);
        QFETCH(int, K);
        QFETCH(int, which);
        Gemm g(M, N, K);
        Schedule s = createSchedule({g.C->op});
        auto st = s[g.C];
        switch (which) {
        case 0: break;
        case 1: st.split(g.x(s), 8); break;
        case 2: st.split(g.y(s), 7); break;
        case 3: st.splitByNParts(g.x(s), 3); break;
        case 4: {
            auto [xo, yo, xi, yi] = st.tile(g.x(s), g.y(s), 8, 16);
            auto [ko, ki] = st.split(g.k, 4);
            st.reorder({xo, yo, ko, xi, ki, yi});
            break;
        }
        case 5: st.fuse(g.x(s), g.y(s)); break;
        case 6:
        case 7: {
            auto [yo, yi] = st.split(g.y(s), which == 6 ? 16 : 13);
            st.reorder({g.x(s), yo, g.k, yi});
            st.vectorize(yi);
            break;
        }
        case 8: {
            auto [ko, ki] = st.split(g.k, 4);
            st.unroll(ki);
            break;
        }
        case 9: st.parallel(g.x(s)); break;
        case 10: st.pragma(g.x(s), "auto_unroll_max_step", Expr(8)); break;
        case 11: {
            Tensor CL = s.cacheWrite(g.C, "local");
            auto [xo, yo, xi, yi] = s[g.C].tile(g.x(s), g.y(s), 8, 16);
            s[CL].computeAt(s[g.C], yo);
            auto ax = s[CL].data().leafIterVars;
            s[CL].reorder({ax[2], ax[0], ax[1]});
            s[CL].vectorize(ax[1]);
            break;
        }
        case 12: {
            Tensor AL = s.cacheRead(g.A, "global", {g.C->op});
            s[AL].computeAt(s[g.C], g.x(s));
            break;
        }
        case 13: {
            Tensor CL = s.cacheWrite(g.C, "global");
            auto [xo, yo, xi, yi] = s[g.C].tile(g.x(s), g.y(s), 8, 16);
            s[CL].computeAt(s[g.C], yo);
            auto ax = s[CL].data().leafIterVars;
            auto [ko, ki] = s[CL].split(ax[2], 4);
            s[CL].reorder({ko, ax[0], ki, ax[1]});
            s[CL].unroll(ki);
            s[CL].vectorize(ax[1]);
            s[g.C].parallel(xo);
            break;
        }
        case 14: {
            IterVar f = st.fuse(g.x(s), g.y(s));
            auto [fo, fi] = st.split(f, 16);
            st.parallel(fo);
            break;
        }
        }
        auto a = randomVec(size_t(M) * K, 1), b = randomVec(size_t(K) * N, 2);
        std::vector<float> c(size_t(M) * N, -7.f);
        runSchedule(s, {g.A, g.B, g.C}, {&a, &b, &c});
        auto ref = gemmRef(g, a, b);
        double d = maxDiff(c, ref);
        QVERIFY2(d < 1e-4, qPrintable(QString("max abs diff %1").arg(d)));
    }

    // A producer read only by a stage computed inside its consumer (packed B read by
    // the write cache): its region comes from the inner stage's reads.
    void computeAtThroughInnerStage() {
        const int M = 40, N = 64, K = 24, nr = 16;
        auto k = reduceAxis(tir::Range(0, K), "k");
        auto A = placeholder({M, K}, DataType::float32(), "A");
        auto B = placeholder({K, N}, DataType::float32(), "B");
        auto PB = compute({N / nr, K, nr}, [&](auto& v) { return B({v[1], v[0] * nr + v[2]}); }, "packedB");
        auto C = compute({M, N}, [&](auto& v) {
            return sum(A({v[0], k->var}) * PB({tir::floordiv(v[1], nr), k->var, tir::floormod(v[1], nr)}), {k});
        }, "C", "", {"x", "y"});
        Schedule s = createSchedule({C->op});
        Tensor CL = s.cacheWrite(C, "local");
        auto ax = s[C].data().leafIterVars;
        auto [xo, yo, xi, yi] = s[C].tile(ax[0], ax[1], 8, nr);
        s[C].reorder({yo, xo, xi, yi});
        s[C].parallel(yo);
        s[CL].computeAt(s[C], xo);
        s[PB].computeAt(s[C], yo);
        s[PB].vectorize(s[PB].data().leafIterVars[2]);
        auto cl = s[CL].data().leafIterVars;
        s[CL].reorder({cl[2], cl[0], cl[1]});
        s[CL].vectorize(cl[1]);
        auto a = randomVec(size_t(M) * K, 5), b = randomVec(size_t(K) * N, 6);
        std::vector<float> c(size_t(M) * N, 0.f);
        runSchedule(s, {A, B, C}, {&a, &b, &c});
        Gemm g(M, N, K);
        double d = maxDiff(c, gemmRef(g, a, b));
        QVERIFY2(d < 1e-4, qPrintable(QString("max abs diff %1").arg(d)));
        auto f = driver::lowerSchedule(s, {A, B, C}, "kernel");
        std::string t = tir::toString(f.scheduled);
        QVERIFY2(t.find("with T.realize(packedB[y_outer:y_outer + 1, 0:24, 0:16], \"global\"):") != std::string::npos, t.c_str());
    }

    void inlineAndComputeAt_data() {
        QTest::addColumn<int>("which");
        QTest::newRow("root") << 0;
        QTest::newRow("inline") << 1;
        QTest::newRow("compute_at") << 2;
        QTest::newRow("compute_at inner") << 3;
    }
    void inlineAndComputeAt() {
        QFETCH(int, which);
        const int n = 33, m = 20;
        auto A = placeholder({n, m}, DataType::float32(), "A");
        auto B = compute({n, m}, [&](auto& v) { return tir::exp(A({v[0], v[1]})) * Expr(0.5); }, "B");
        auto C = compute({n, m - 2}, [&](auto& v) {
            return B({v[0], v[1]}) + B({v[0], v[1] + 1}) + B({v[0], v[1] + 2});
        }, "C");
        Schedule s = createSchedule({C->op});
        auto cx = s[C].data().leafIterVars;
        if (which == 1) s[B].computeInline();
        if (which == 2) s[B].computeAt(s[C], cx[0]);
        if (which == 3) {
            auto [yo, yi] = s[C].split(cx[1], 4);
            s[B].computeAt(s[C], yo);
        }
        auto a = randomVec(size_t(n) * m, 3);
        std::vector<float> c(size_t(n) * (m - 2), 0.f);
        runSchedule(s, {A, C}, {&a, &c});
        double worst = 0;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < m - 2; ++j) {
                double r = 0;
                for (int t = 0; t < 3; ++t) r += std::exp(double(a[size_t(i) * m + j + t])) * 0.5;
                worst = std::max(worst, std::fabs(r - c[size_t(i) * (m - 2) + j]) / std::fabs(r));
            }
        QVERIFY2(worst < 1e-5, qPrintable(QString("max rel err %1").arg(worst)));
    }
};

QTEST_APPLESS_MAIN(TestPrimitivesNumeric)
#include "tst_primitives_numeric.moc"
