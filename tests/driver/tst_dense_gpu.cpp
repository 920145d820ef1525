// The GPU's tiled matrix product (topi/DenseGpu.h): on this CPU its thread
// loops run one after another and its shared tiles are buffers, so under
// its default and other knob choices it must give the default schedule's
// results; for the GPU it must pass the verifier, keep the epilogue in the
// one kernel, and give PTX that ptxas assembles without spills. Workloads:
// Gemm with bias and ReLU, a transB Gemm of odd sizes (33 x 100 x 70), a
// batched MatMul, attention's [S, 1, K] x [K, N] input projection (rows
// along the batch axis), a rank-4 batch.
#include "GpuTestUtil.h"
#include "tir/IRPrinter.h"
#include "topi/DenseGpu.h"
#include "topi/Elementwise.h"
#include "topi/Nn.h"
#include "topi/TopiUtil.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace tessel;

namespace {

struct Function {
    const char* name;
    std::vector<te::Tensor> args;
    te::Tensor out;
};

te::Tensor input(std::vector<int64_t> shape, const char* name) {
    return te::placeholder(topi::toExprs(shape), DataType::float32(), name);
}

Function gemmBiasRelu(int64_t m, int64_t n, int64_t k, bool transB, const char* name) {
    auto a = input({m, k}, "a");
    auto b = transB ? input({n, k}, "b") : input({k, n}, "b");
    auto c = input({n}, "c");
    topi::nn::GemmParams p;
    p.transB = transB;
    te::Tensor y = topi::relu(topi::nn::gemm(a, b, c, p, "gemm"));
    return {name, {a, b, c, y}, y};
}

Function matmulOf(std::vector<int64_t> as, std::vector<int64_t> bs, bool bias, const char* name) {
    auto a = input(as, "a"), b = input(bs, "b");
    te::Tensor y = topi::nn::matmul(a, b, "matmul");
    Function fn{name, {a, b}, y};
    if (bias) {
        auto c = input({bs.back()}, "c");
        fn.args.push_back(c);
        fn.out = topi::add(y, c);
    }
    fn.args.push_back(fn.out);
    return fn;
}

std::vector<Function> workloads() {
    return {gemmBiasRelu(64, 96, 40, false, "gemm 64x96x40, bias, relu"),
            gemmBiasRelu(33, 100, 70, true, "gemm transB 33x100x70 (odd sizes), bias, relu"),
            matmulOf({4, 24, 16}, {4, 16, 20}, false, "batched matmul 4 x 24x16x20"),
            matmulOf({12, 1, 40}, {40, 56}, true, "[12, 1, 40] x [40, 56] + bias (rows along the batch)"),
            matmulOf({2, 3, 8, 6}, {2, 3, 6, 10}, false, "rank-4 batch 2x3 x 8x6x10")};
}

driver::LoweredFunction lowerWith(const Function& fn, const std::map<std::string, int64_t>& config,
                                  const Target& target, std::vector<te::Knob>* knobs = nullptr) {
    return gputest::lowerScheduled(topi::scheduleDenseGpu, fn.out, fn.args, config, target, knobs);
}

void checkOnCpu(const Function& fn, const std::map<std::string, int64_t>& config, const QString& what) {
    const driver::RunReport r = gputest::runOnCpu(lowerWith(fn, config, codegen::hostTarget()));
    QVERIFY2(r.ok, qPrintable(what + ": " + QString::fromStdString(r.error)));
}

} // namespace

class TestDenseGpu : public QObject {
    Q_OBJECT

private slots:
    void applies() {
        for (const Function& fn : workloads()) QVERIFY2(topi::denseGpuScheduleApplies({fn.out}), fn.name);
        // A matrix-vector product has no columns to tile: not this schedule's.
        auto a = input({8, 16}, "a"), v = input({16}, "v");
        QVERIFY(!topi::denseGpuScheduleApplies({topi::nn::matmul(a, v)}));
    }

    void defaultsComputeTheProduct() {
        for (const Function& fn : workloads()) checkOnCpu(fn, {}, fn.name);
    }

    // Every knob's other choices (one knob at a time, two choices each).
    void otherChoicesComputeTheProduct() {
        const auto all = workloads();
        for (const Function& fn : {all[1], all[3]}) {
            std::vector<te::Knob> knobs;
            lowerWith(fn, {}, codegen::hostTarget(), &knobs);
            QCOMPARE(int(knobs.size()), 3);
            for (auto& [knob, i] : gputest::otherChoices(knobs))
                checkOnCpu(fn, {{knob, i}}, QString("%1, %2 = %3").arg(fn.name, knob.c_str()).arg(i));
        }
    }

    // The defaults read the workload: 4 x 4 outputs a thread and 16 x 16
    // threads where the product is large enough, smaller register tiles
    // where that would leave under 128 blocks.
    void defaultsReadTheWorkload() {
        auto knobsOf = [](const Function& fn) {
            std::vector<te::Knob> knobs;
            lowerWith(fn, {}, gputest::cudaSm90(), &knobs);
            std::map<std::string, std::vector<int64_t>> v;
            for (auto& k : knobs) v[k.name] = k.choices[size_t(k.defaultIndex)].ints();
            return v;
        };
        auto big = knobsOf(gemmBiasRelu(1024, 1024, 256, false, "big"));
        QCOMPARE(big["tile_y"], (std::vector<int64_t>{16, 16, 4}));
        QCOMPARE(big["tile_x"], (std::vector<int64_t>{16, 16, 4}));
        QCOMPARE(big["tile_k"], (std::vector<int64_t>{16, 16}));
        // The transformer's feed-forward, 128 x 2048: 4 x 4 would be 64 blocks.
        auto ffn = knobsOf(matmulOf({1, 128, 512}, {512, 2048}, false, "ffn"));
        QCOMPARE(ffn["tile_y"], (std::vector<int64_t>{4, 16, 2}));
        QCOMPARE(ffn["tile_x"], (std::vector<int64_t>{32, 16, 4}));
    }

    // For the GPU: one kernel (the epilogue fused), shared tiles and
    // barriers, through the verifier; ptxas assembles it without spills.
    void ptxForTheGpu() {
        const QString assembler = gputest::ptxas();
        QTemporaryDir dir;
        for (const Function& fn : workloads()) {
            const driver::LoweredFunction f = lowerWith(fn, {}, gputest::cudaSm90());
            const QString tir = QString::fromStdString(tir::toString(f.lowered));
            QVERIFY2(tir.contains("\"shared\"") && tir.contains("tvm_storage_sync"), fn.name);
            QVERIFY2(tir.contains("threadIdx.x") && tir.contains("threadIdx.y"), fn.name);
            QCOMPARE(driver::splitForDevice({f})[0].kernels.size(), size_t(1));
            const std::string ptx = gputest::ptxOf({f});
            QVERIFY2(QString::fromStdString(ptx).contains("bar.sync"), fn.name);
            if (assembler.isEmpty()) continue;
            QString error;
            const auto usage = gputest::assembleKernel(assembler, f, dir.path(), fn.name, &error);
            QVERIFY2(error.isEmpty(), qPrintable(QString(fn.name) + ": " + error));
            QVERIFY2(usage.registers > 0 && usage.registers <= 128, fn.name);
            QCOMPARE(usage.spillBytes, 0);
        }
        if (assembler.isEmpty()) QSKIP("ptxas not found (the CUDA toolkit is not installed): PTX checked as text only");
    }
};

QTEST_GUILESS_MAIN(TestDenseGpu)
#include "tst_dense_gpu.moc"
