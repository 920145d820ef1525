// Softmax and layer normalisation along the innermost axis on the GPU, one
// block per row with the row's reductions as trees in shared memory
// (topi/RowReduceGpu.h, topi::reduceRowTree). The tree computes must equal
// the plain ones under the default schedule (a different summation order,
// so within the tolerance), under the GPU schedule on this CPU (thread loops
// one after another) with its default and other lane counts; the PTX is one
// kernel of `lanes` threads that ptxas assembles without spills. Rows of
// 100 and 70 are not multiples of the lanes; rows of 13 are shorter than a warp.
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
    return {softmax({4, 16, 128}), softmax({3, 5, 100}), softmax({2, 7, 13}), softmax({6, 37}, true),
            layerNorm({1, 16, 512}, true), layerNorm({2, 3, 70}, false), layerNorm({5, 13}, true)};
}

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

    // For the GPU: one kernel of one block per row and `lanes` threads, the
    // partials and levels in shared memory behind barriers; ptxas assembles
    // it without spills.
    void ptxForTheGpu() {
        const QString assembler = gputest::ptxas();
        QTemporaryDir dir;
        for (const Workload& w : workloads()) {
            if (w.kind == Kind::LogSoftmax) continue; // log needs libdevice, not linked yet
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
            if (assembler.isEmpty()) continue;
            const QString problem = gputest::spillFreeKernel(assembler, f, dir.path(), w.name, 64);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        if (assembler.isEmpty()) QSKIP("ptxas not found (the CUDA toolkit is not installed): PTX checked as text only");
    }
};

QTEST_GUILESS_MAIN(TestRowReduceGpu)
#include "tst_row_reduce_gpu.moc"
