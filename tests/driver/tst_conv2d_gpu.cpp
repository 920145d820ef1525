// The GPU's tiled direct convolution (topi/Conv2dGpu.h): on this CPU its
// thread loops run one after another and its shared tiles are buffers, so
// each schedule, under its default and under other knob choices, must give
// the default schedule's results; for the GPU it must pass the verifier and
// give PTX. Workloads: ResNet's 3x3 and 1x1 (stride 2) convolutions, the
// 7x7 stem, one input channel, and the fused epilogues (bias, residual, ReLU).
#include "codegen/Target.h"
#include "driver/Measure.h"
#include "driver/TeDriver.h"
#include "tir/IRPrinter.h"
#include "tir/passes/VerifyGPUCode.h"
#include "topi/Conv2dGpu.h"
#include "topi/Elementwise.h"
#include "topi/Nn.h"
#include "topi/TopiUtil.h"

#include <QtTest>

using namespace tessel;

namespace {

struct Workload {
    const char* name;
    int64_t c, f, hw, k, stride, pad;
    bool bias, residual;
};

struct Function {
    std::vector<te::Tensor> args;
    te::Tensor out;
};

Function build(const Workload& w) {
    auto x = te::placeholder({topi::intImm(1), topi::intImm(w.c), topi::intImm(w.hw), topi::intImm(w.hw)},
                             DataType::float32(), "x");
    auto wt = te::placeholder({topi::intImm(w.f), topi::intImm(w.c), topi::intImm(w.k), topi::intImm(w.k)},
                              DataType::float32(), "w");
    Function fn{{x, wt}, {}};
    te::Tensor b;
    if (w.bias) {
        b = te::placeholder({topi::intImm(w.f)}, DataType::float32(), "b");
        fn.args.push_back(b);
    }
    topi::nn::ConvParams p{{w.stride, w.stride}, {w.pad, w.pad, w.pad, w.pad}, {}, 1};
    te::Tensor y = topi::nn::conv2d(x, wt, p, b, "conv");
    if (w.residual) {
        auto r = te::placeholder(y->shape, DataType::float32(), "r");
        fn.args.push_back(r);
        y = topi::add(y, r);
    }
    if (w.bias || w.residual) y = topi::relu(y);
    fn.out = y;
    fn.args.push_back(y);
    return fn;
}

const Workload kWorkloads[] = {
    {"3x3 pad 1, bias, relu", 16, 32, 14, 3, 1, 1, true, false},
    {"3x3 pad 1, bias, residual, relu", 8, 16, 14, 3, 1, 1, true, true},
    {"1x1 stride 2, no epilogue", 8, 16, 14, 1, 2, 0, false, false},
    {"7x7 stride 2 pad 3 (stem)", 3, 16, 32, 7, 2, 3, true, false},
    {"one input channel", 1, 8, 12, 3, 1, 1, false, false},
};

/// Lowers `fn` under the GPU schedule with `config`, for `target`.
driver::LoweredFunction lowerWith(const Function& fn, const std::map<std::string, int64_t>& config, const Target& target,
                                  std::vector<te::Knob>* knobs = nullptr) {
    te::ConfigSpace cfg(config);
    te::Schedule s = topi::scheduleConv2dGpu({fn.out}, cfg);
    cfg.checkConfigUsed();
    if (knobs) *knobs = cfg.knobs();
    driver::LowerOptions lo;
    if (target.isGPU()) lo.gpu = tir::GpuLimits{};
    return driver::lowerSchedule(s, fn.args, "conv", lo);
}

void checkOnCpu(const Function& fn, const std::map<std::string, int64_t>& config, const QString& what) {
    driver::RunOptions ro;
    ro.evaluator = runtime::TimeEvaluator{1, 1, 1, 1};
    const driver::RunReport r = driver::runAndCheck(lowerWith(fn, config, codegen::hostTarget()), ro);
    QVERIFY2(r.ok, qPrintable(what + ": " + QString::fromStdString(r.error)));
}

} // namespace

class TestConv2dGpu : public QObject {
    Q_OBJECT

private slots:
    void applies() {
        for (const Workload& w : kWorkloads) QVERIFY2(topi::conv2dGpuScheduleApplies({build(w).out}), w.name);
        // A depthwise convolution is not this schedule's.
        auto x = te::placeholder({topi::intImm(1), topi::intImm(8), topi::intImm(8), topi::intImm(8)});
        auto wt = te::placeholder({topi::intImm(8), topi::intImm(1), topi::intImm(3), topi::intImm(3)});
        QVERIFY(!topi::conv2dGpuScheduleApplies({topi::nn::conv2d(x, wt, {{}, {1, 1, 1, 1}, {}, 8})}));
    }

    void defaultsComputeTheConvolution() {
        for (const Workload& w : kWorkloads) checkOnCpu(build(w), {}, w.name);
    }

    // Every knob's other choices (one knob at a time, two choices each).
    void otherChoicesComputeTheConvolution() {
        for (const Workload& w : {kWorkloads[0], kWorkloads[3]}) {
            const Function fn = build(w);
            std::vector<te::Knob> knobs;
            lowerWith(fn, {}, codegen::hostTarget(), &knobs);
            QCOMPARE(int(knobs.size()), 4);
            for (const te::Knob& k : knobs)
                for (int64_t i = 0, tried = 0; i < k.size() && tried < 2; ++i) {
                    if (i == k.defaultIndex) continue;
                    ++tried;
                    checkOnCpu(fn, {{k.name, i}}, QString("%1, %2 = %3").arg(w.name, k.name.c_str()).arg(i));
                }
        }
    }

    // For the GPU: one kernel (the epilogue fused), shared tiles and a barrier, through the verifier.
    void lowersForTheGpu() {
        const Target cuda = codegen::resolveTarget("cuda -mcpu=sm_90");
        for (const Workload& w : kWorkloads) {
            const driver::LoweredFunction f = lowerWith(build(w), {}, cuda);
            const QString tir = QString::fromStdString(tir::toString(f.lowered));
            QVERIFY2(tir.contains("\"shared\""), w.name);
            QVERIFY2(tir.contains("tvm_storage_sync"), w.name);
            QVERIFY2(tir.contains("threadIdx.x") && tir.contains("threadIdx.y"), w.name);
        }
    }
};

QTEST_GUILESS_MAIN(TestConv2dGpu)
#include "tst_conv2d_gpu.moc"
