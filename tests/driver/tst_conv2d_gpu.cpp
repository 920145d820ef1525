// The GPU's tiled direct convolution (topi/Conv2dGpu.h): on this CPU its
// thread loops run one after another and its shared tiles are buffers, so
// each schedule, under its default and under other knob choices, must give
// the default schedule's results; for the GPU it must pass the verifier and
// give PTX. Workloads: ResNet's 3x3 and 1x1 (stride 2) convolutions, the
// 7x7 stem, one input channel, the fused epilogues (bias, residual, ReLU),
// and MobileNet's depthwise 3x3 (stride 1 and 2, odd sizes).
#include "GpuTestUtil.h"
#include "ir/Diagnostic.h"
#include "tir/IRPrinter.h"
#include "tir/passes/VerifyGPUCode.h"
#include "topi/Conv2dGpu.h"
#include "topi/Elementwise.h"
#include "topi/Nn.h"
#include "topi/TopiUtil.h"

#include <QTemporaryDir>
#include <algorithm>
#include <QtTest>

using namespace tessel;

namespace {

struct Workload {
    const char* name;
    int64_t c, f, hw, k, stride, pad;
    bool bias, residual;
    bool depthwise = false; ///< one group per channel (f == c)
};

struct Function {
    std::vector<te::Tensor> args;
    te::Tensor out;
};

Function build(const Workload& w) {
    auto x = te::placeholder({topi::intImm(1), topi::intImm(w.c), topi::intImm(w.hw), topi::intImm(w.hw)},
                             DataType::float32(), "x");
    auto wt = te::placeholder({topi::intImm(w.f), topi::intImm(w.depthwise ? 1 : w.c), topi::intImm(w.k), topi::intImm(w.k)},
                              DataType::float32(), "w");
    Function fn{{x, wt}, {}};
    te::Tensor b;
    if (w.bias) {
        b = te::placeholder({topi::intImm(w.f)}, DataType::float32(), "b");
        fn.args.push_back(b);
    }
    topi::nn::ConvParams p{{w.stride, w.stride}, {w.pad, w.pad, w.pad, w.pad}, {}, w.depthwise ? w.c : 1};
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
    {"depthwise 3x3 pad 1, bias, relu", 32, 32, 14, 3, 1, 1, true, false, true},
    {"depthwise 3x3 stride 2 pad 1, 15x15", 24, 24, 15, 3, 2, 1, false, false, true},
};

/// Lowers `fn` under the GPU schedule with `config`, for `target`.
driver::LoweredFunction lowerWith(const Function& fn, const std::map<std::string, int64_t>& config, const Target& target,
                                  std::vector<te::Knob>* knobs = nullptr) {
    return gputest::lowerScheduled(topi::scheduleConv2dGpu, fn.out, fn.args, config, target, knobs);
}

void checkOnCpu(const Function& fn, const std::map<std::string, int64_t>& config, const QString& what) {
    const driver::RunReport r = gputest::runOnCpu(lowerWith(fn, config, codegen::hostTarget()));
    QVERIFY2(r.ok, qPrintable(what + ": " + QString::fromStdString(r.error)));
}

} // namespace

class TestConv2dGpu : public QObject {
    Q_OBJECT

private slots:
    void applies() {
        for (const Workload& w : kWorkloads) QVERIFY2(topi::conv2dGpuScheduleApplies({build(w).out}), w.name);
        // A 1-d convolution (tag opaque) is not this schedule's.
        auto x = te::placeholder({topi::intImm(1), topi::intImm(8), topi::intImm(8)});
        auto wt = te::placeholder({topi::intImm(8), topi::intImm(8), topi::intImm(3)});
        QVERIFY(!topi::conv2dGpuScheduleApplies({topi::nn::conv(x, wt, {{1}, {1, 1}, {1}, 1})}));
    }

    void defaultsComputeTheConvolution() {
        for (const Workload& w : kWorkloads) checkOnCpu(build(w), {}, w.name);
    }

    // Every knob's other choices (one knob at a time, two choices each).
    void otherChoicesComputeTheConvolution() {
        for (const Workload& w : {kWorkloads[0], kWorkloads[3], kWorkloads[6]}) {
            const Function fn = build(w);
            std::vector<te::Knob> knobs;
            lowerWith(fn, {}, codegen::hostTarget(), &knobs);
            QCOMPARE(int(knobs.size()), 5);
            // vthread_x needs two columns a thread: virtualThreadsAlongTheRow.
            for (auto& [knob, i] : gputest::otherChoices(knobs, 2, "vthread_x"))
                checkOnCpu(fn, {{knob, i}}, QString("%1, %2 = %3").arg(w.name, knob.c_str()).arg(i));
        }
    }

    // vthread_x = 2 with two columns a thread: the columns are a row of
    // threads apart, so neighbouring threads read the shared window one
    // stride apart where one vthread has them two strides apart.
    // The same outputs on this CPU; for the GPU no vthread loop is left,
    // ptxas keeps it within 128 registers and spills nothing. A vthread
    // count that does not divide the columns is refused.
    void virtualThreadsAlongTheRow() {
        const QString assembler = gputest::ptxas();
        QTemporaryDir dir;
        for (const Workload& w : {kWorkloads[0], kWorkloads[3], kWorkloads[6]}) {
            const Function fn = build(w);
            std::vector<te::Knob> knobs;
            lowerWith(fn, {}, codegen::hostTarget(), &knobs);
            const te::Knob& tileX = *std::find_if(knobs.begin(), knobs.end(), [](auto& k) { return k.name == "tile_x"; });
            const std::vector<int64_t> def = tileX.choices[size_t(tileX.defaultIndex)].ints();
            int64_t twoColumns = -1; // [blocks, half the threads, 2]: the same block tile
            for (int64_t i = 0; i < tileX.size(); ++i)
                if (tileX.choices[size_t(i)].ints() == std::vector<int64_t>{def[0], def[1] / 2, 2}) twoColumns = i;
            QVERIFY2(twoColumns >= 0 && def[1] % 2 == 0, w.name);
            const std::map<std::string, int64_t> interleaved{{"tile_x", twoColumns}, {"vthread_x", 1}};
            checkOnCpu(fn, interleaved, QString(w.name) + ", vthread_x = 2");
            const driver::LoweredFunction f = lowerWith(fn, interleaved, gputest::cudaSm90());
            const QString tir = QString::fromStdString(tir::toString(f.lowered));
            QVERIFY2(!tir.contains("vthread"), qPrintable(tir));
            if (assembler.isEmpty()) continue;
            QString error;
            const auto usage =
                gputest::assembleKernel(assembler, f, dir.path(), QString(w.name) + " with vthread_x = 2", &error);
            QVERIFY2(error.isEmpty(), qPrintable(QString(w.name) + ": " + error));
            QVERIFY(usage.registers > 0 && usage.registers <= 128);
            QCOMPARE(usage.spillBytes, 0);
        }
        try {
            lowerWith(build(kWorkloads[0]), {{"vthread_x", 1}}, codegen::hostTarget());
            QFAIL("two vthreads of one column a thread");
        } catch (const CompileError& e) {
            QVERIFY2(QString(e.what()).contains("vthread_x 2 does not divide the 1 columns"), e.what());
        }
        if (assembler.isEmpty()) QSKIP("ptxas not found (the CUDA toolkit is not installed): registers not checked");
    }

    // For the GPU: one kernel (the epilogue fused), shared tiles and a
    // barrier, through the verifier; ptxas assembles it without spills.
    void lowersForTheGpu() {
        const QString assembler = gputest::ptxas();
        QTemporaryDir dir;
        for (const Workload& w : kWorkloads) {
            const driver::LoweredFunction f = lowerWith(build(w), {}, gputest::cudaSm90());
            const QString tir = QString::fromStdString(tir::toString(f.lowered));
            QVERIFY2(tir.contains("\"shared\""), w.name);
            QVERIFY2(tir.contains("tvm_storage_sync"), w.name);
            QVERIFY2(tir.contains("threadIdx.x") && tir.contains("threadIdx.y"), w.name);
            QCOMPARE(driver::splitForDevice({f})[0].kernels.size(), size_t(1));
            if (assembler.isEmpty()) continue;
            QString error;
            const auto usage = gputest::assembleKernel(assembler, f, dir.path(), w.name, &error);
            QVERIFY2(error.isEmpty(), qPrintable(QString(w.name) + ": " + error));
            QVERIFY(usage.registers > 0 && usage.registers <= 128);
            QCOMPARE(usage.spillBytes, 0);
        }
        if (assembler.isEmpty()) QSKIP("ptxas not found (the CUDA toolkit is not installed): PTX checked as text only");
    }
};

QTEST_GUILESS_MAIN(TestConv2dGpu)
#include "tst_conv2d_gpu.moc"
