// Softmax and layer normalisation along the innermost axis on the GPU, one
// block per row with the row's reductions as trees in shared memory
// (topi/RowReduceGpu.h, topi::reduceRowTree). The tree computes must equal
// the plain ones under the default schedule (a different summation order,
// so within the tolerance), under the GPU schedule on this CPU (thread loops
// one after another) with its default and other lane counts; the PTX is one
// kernel of `lanes` threads that ptxas assembles without spills. Rows of
// 100 and 70 are not multiples of the lanes; rows of 13 are shorter than a warp.
//
// Log softmax's log and both softmaxes' exp are PTX's approximate lg2 and ex2
// on the GPU (codegen's NVPTX hooks, CUDA's __logf and __expf); the bound it
// is held to is derived at kLogSoftmaxAbsError below, checked here on this
// CPU (libm's log and exp) and, where a CUDA device is, on the GPU.
#include "GpuTestUtil.h"
#include "ir/Diagnostic.h"
#include "tir/IRPrinter.h"
#include "topi/Reduce.h"
#include "topi/RowReduceGpu.h"
#include "topi/Tags.h"
#include "topi/TopiUtil.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace tessel;

namespace {

te::Tensor input(std::vector<int64_t> shape, const char* name) {
    return te::placeholder(topi::toExprs(shape), DataType::float32(), name);
}

enum class Kind { Softmax, LogSoftmax, LayerNorm };

/// One workload two ways: the tree compute (scheduled for the GPU) and the
/// plain compute it must equal, over the same arguments.
struct Workload {
    QString name;
    Kind kind = Kind::Softmax;
    std::vector<int64_t> shape;
    bool bias = true;
    std::vector<te::Tensor> inputs;
    te::Tensor plain;

    te::Tensor tree(int64_t lanes) const {
        switch (kind) {
        case Kind::Softmax: return topi::nn::softmax(inputs[0], -1, "softmax", lanes);
        case Kind::LogSoftmax: return topi::nn::logSoftmax(inputs[0], -1, "log_softmax", lanes);
        case Kind::LayerNorm: {
            topi::nn::LayerNormParams p;
            p.treeLanes = lanes;
            return topi::nn::layerNorm(inputs[0], inputs[1], bias ? inputs[2] : te::Tensor(), p, "ln").output;
        }
        }
        return {};
    }
};

QString shapeText(const std::vector<int64_t>& shape) {
    QStringList parts;
    for (int64_t d : shape) parts << QString::number(d);
    return parts.join('x');
}

Workload softmax(std::vector<int64_t> shape, bool log = false) {
    Workload w;
    w.name = QString("%1 %2").arg(log ? "log softmax" : "softmax", shapeText(shape));
    w.kind = log ? Kind::LogSoftmax : Kind::Softmax;
    w.shape = shape;
    w.inputs = {input(shape, "x")};
    w.plain = log ? topi::nn::logSoftmax(w.inputs[0], -1, "log_softmax") : topi::nn::softmax(w.inputs[0], -1, "softmax");
    return w;
}

Workload layerNorm(std::vector<int64_t> shape, bool bias) {
    Workload w;
    w.name = QString("layer norm %1%2").arg(shapeText(shape), bias ? "" : " (no bias)");
    w.kind = Kind::LayerNorm;
    w.shape = shape;
    w.bias = bias;
    w.inputs = {input(shape, "x"), input({shape.back()}, "scale")};
    if (bias) w.inputs.push_back(input({shape.back()}, "bias"));
    w.plain = topi::nn::layerNorm(w.inputs[0], w.inputs[1], bias ? w.inputs[2] : te::Tensor(), {}, "ln").output;
    return w;
}

std::vector<Workload> workloads() {
    return {softmax({4, 16, 128}),         softmax({3, 5, 100}),           softmax({2, 7, 13}),
            softmax({6, 37}, true),        softmax({4, 16, 128}, true),    softmax({3, 5, 100}, true),
            softmax({2, 7, 13}, true),     softmax({2, 3, 1000}, true),    layerNorm({1, 16, 512}, true),
            layerNorm({2, 3, 70}, false),  layerNorm({5, 13}, true)};
}

/// The absolute error log softmax is held to on rows of up to 1000 of
/// inputs in [0, 1) (the seeded inputs of every run), against the plain
/// compute on this CPU. Output y = t - log S with t = x - max in (-1, 0] and
/// S = sum of e^t in (n / e, n], so ln n - 1 < |y| < ln n + 1 < 8. On the
/// GPU: e^t by ex2.approx of t log2 e is within 2 + floor(1.173 |t|) = 3 ulp
/// (CUDA's bound for __expf), so S is within 3 x 2^-23 relative, plus the
/// rounding of the sums (each thread's n / lanes adds and log2(lanes)
/// levels: under 16 x 2^-24 here), 1.3e-6 relative in all, which is as much
/// absolute error in log S; log S by lg2.approx times ln 2 is within 3 ulp
/// of log S < 8 (CUDA's bound for __logf outside [0.5, 2], where it is
/// 2^-21.41 absolute): 1.4e-6; the final subtraction rounds by half an ulp
/// of |y| < 8: 2.4e-7. About 3e-6 in all; held to 1e-5, three times that,
/// which relative to |y| > ln 13 - 1 > 1.5 is under 7e-6. libm on this CPU
/// is within an ulp of each and lands near 1e-7.
constexpr double kLogSoftmaxAbsError = 1e-5;

std::vector<te::Tensor> argsOf(const Workload& w, const te::Tensor& out) {
    std::vector<te::Tensor> args = w.inputs;
    args.push_back(out);
    return args;
}

driver::LoweredFunction lowerGpu(const Workload& w, int64_t lanes, const Target& target) {
    const te::Tensor out = w.tree(lanes);
    auto schedule = [](const std::vector<te::Tensor>& outs, te::ConfigSpace&) {
        return topi::scheduleRowReduceGpu(outs);
    };
    return gputest::lowerScheduled(schedule, out, argsOf(w, out), {}, target);
}

/// The plain compute under the default schedule, run on seeded inputs.
driver::RunReport reference(const Workload& w) {
    const driver::LoweredFunction plain =
        driver::lowerSchedule(te::createSchedule({w.plain->op}), argsOf(w, w.plain), "plain", driver::LowerOptions{});
    return gputest::runOnCpu(plain);
}

int64_t defaultLanes(const Workload& w) { return topi::defineRowThreadsKnob(nullptr, w.shape.back()); }

} // namespace

class TestRowReduceGpu : public QObject {
    Q_OBJECT

private slots:
    void applies() {
        for (const Workload& w : workloads()) {
            QVERIFY2(topi::rowReduceGpuScheduleApplies({w.tree(defaultLanes(w))}), qPrintable(w.name));
            QVERIFY2(!topi::rowReduceGpuScheduleApplies({w.plain}), qPrintable(w.name));
        }
        // Statistics as outputs too: not one output.
        const Workload ln = layerNorm({4, 64}, true);
        topi::nn::LayerNormParams p;
        p.treeLanes = 32;
        const auto r = topi::nn::layerNorm(ln.inputs[0], ln.inputs[1], ln.inputs[2], p, "ln");
        QVERIFY(!topi::rowReduceGpuScheduleApplies({r.output, r.mean}));
        // A tree needs the innermost axis and a power of two.
        QVERIFY_EXCEPTION_THROWN(topi::nn::softmax(ln.inputs[0], 0, "s", 32), CompileError);
        QVERIFY_EXCEPTION_THROWN(topi::nn::softmax(ln.inputs[0], -1, "s", 24), CompileError);
    }

    // The knob: the row's length up to 256 threads, at least 16; powers of two below twice the row.
    void rowThreadsKnob() {
        QCOMPARE(topi::defineRowThreadsKnob(nullptr, 128), int64_t(128));
        QCOMPARE(topi::defineRowThreadsKnob(nullptr, 512), int64_t(256));
        QCOMPARE(topi::defineRowThreadsKnob(nullptr, 100), int64_t(64));
        QCOMPARE(topi::defineRowThreadsKnob(nullptr, 13), int64_t(16));
        te::ConfigSpace cfg;
        QCOMPARE(topi::defineRowThreadsKnob(&cfg, 512), int64_t(256));
        QCOMPARE(int(cfg.knobs()[0].size()), 6); // 16 … 512
        te::ConfigSpace small;
        topi::defineRowThreadsKnob(&small, 13);
        QCOMPARE(int(small.knobs()[0].size()), 1);
    }

    // The tree computes under the GPU schedule equal the plain ones under the
    // default schedule, with the default lanes and with others.
    void treesComputeThePlainResult() {
        for (const Workload& w : workloads()) {
            const driver::RunReport ref = reference(w);
            QVERIFY2(ref.ok, qPrintable(w.name + ": " + QString::fromStdString(ref.error)));
            for (int64_t lanes : {defaultLanes(w), int64_t(16), int64_t(2 * defaultLanes(w))}) {
                const driver::RunReport r = gputest::runOnCpu(lowerGpu(w, lanes, codegen::hostTarget()), ref.outputs);
                QVERIFY2(r.ok, qPrintable(QString("%1, %2 lanes: ").arg(w.name).arg(lanes) +
                                          QString::fromStdString(r.error)));
            }
        }
    }

    // Log softmax against the plain compute within kLogSoftmaxAbsError, with
    // the default lanes: on this CPU, and on this machine's GPU where it has one.
    void logSoftmaxWithinItsBound() {
        const bool gpu = driver::whyCannotRun(gputest::cudaSm90()).empty();
        for (const Workload& w : workloads()) {
            if (w.kind != Kind::LogSoftmax) continue;
            const driver::RunReport ref = reference(w);
            QVERIFY2(ref.ok, qPrintable(w.name + ": " + QString::fromStdString(ref.error)));
            const int64_t lanes = defaultLanes(w);
            const driver::RunReport r = gputest::runOnCpu(lowerGpu(w, lanes, codegen::hostTarget()), ref.outputs);
            QVERIFY2(r.ok, qPrintable(w.name + ": " + QString::fromStdString(r.error)));
            qInfo("%s, %d lanes, this CPU: max abs error %.3g", qPrintable(w.name), int(lanes), r.maxAbsErr);
            QVERIFY2(r.maxAbsErr <= kLogSoftmaxAbsError, qPrintable(QString("%1: %2").arg(w.name).arg(r.maxAbsErr)));
            if (!gpu) continue;
            driver::RunOptions ro;
            ro.request.target = gputest::cudaSm90();
            ro.evaluator = runtime::TimeEvaluator{1, 1, 1, 1};
            const driver::RunReport g = driver::runAndCheck(lowerGpu(w, lanes, gputest::cudaSm90()), ro);
            QVERIFY2(g.ok, qPrintable(w.name + " on the GPU: " + QString::fromStdString(g.error)));
            qInfo("%s, %d lanes, GPU: max abs error %.3g", qPrintable(w.name), int(lanes), g.maxAbsErr);
            QVERIFY2(g.maxAbsErr <= kLogSoftmaxAbsError, qPrintable(QString("%1 on the GPU: %2").arg(w.name).arg(g.maxAbsErr)));
        }
        if (!gpu) QSKIP("no CUDA device here: the bound checked on this CPU only");
    }

    // For the GPU: one kernel of one block per row and `lanes` threads, the
    // partials and levels in shared memory behind barriers; exp and log are
    // PTX's approximate ex2 and lg2, no call (libdevice is not linked);
    // ptxas assembles it without spills.
    void ptxForTheGpu() {
        const QString assembler = gputest::ptxas();
        QTemporaryDir dir;
        for (const Workload& w : workloads()) {
            const int64_t lanes = defaultLanes(w);
            const driver::LoweredFunction f = lowerGpu(w, lanes, gputest::cudaSm90());
            const QString tir = QString::fromStdString(tir::toString(f.lowered));
            QVERIFY2(tir.contains("\"shared\"") && tir.contains("tvm_storage_sync"), qPrintable(w.name + "\n" + tir));
            const auto split = driver::splitForDevice({f});
            QCOMPARE(split[0].kernels.size(), size_t(1));
            const auto& k = split[0].kernels[0];
            QCOMPARE(k.block[0], lanes);
            int64_t rows = 1;
            for (size_t d = 0; d + 1 < w.shape.size(); ++d) rows *= w.shape[d];
            QCOMPARE(k.grid[0], rows);
            // A barrier before each level and before the rows are written: log2(lanes) + 1 per tree at least.
            const int levels = int(std::log2(double(lanes)));
            QVERIFY2(tir.count("tvm_storage_sync") >= 2 * levels, qPrintable(w.name + "\n" + tir));
            // The partials accumulate in registers: no barrier inside the loop over the row.
            QVERIFY2(tir.contains("\"local\""), qPrintable(w.name + "\n" + tir));
            const QString ptx = QString::fromStdString(gputest::ptxOf({f}));
            QVERIFY2(!ptx.contains("call"), qPrintable(w.name + "\n" + ptx));
            if (w.kind != Kind::LayerNorm) QVERIFY2(ptx.contains("ex2.approx.f32"), qPrintable(w.name));
            QCOMPARE(ptx.contains("lg2.approx.f32"), w.kind == Kind::LogSoftmax);
            if (assembler.isEmpty()) continue;
            const QString problem = gputest::spillFreeKernel(assembler, f, dir.path(), w.name, 64);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        if (assembler.isEmpty()) QSKIP("ptxas not found (the CUDA toolkit is not installed): PTX checked as text only");
    }
};

QTEST_GUILESS_MAIN(TestRowReduceGpu)
#include "tst_row_reduce_gpu.moc"
