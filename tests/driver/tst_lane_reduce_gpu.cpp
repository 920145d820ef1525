// Reductions split across a block's threads on the GPU (topi/LaneReduceGpu.h):
// the GEMV of a classifier and the global poolings, each output's partials
// summed as a tree in shared memory. The lane computes must equal the plain
// ones (gemm, globalPool under their default schedules: a different
// summation order, so within the tolerance); the GPU schedule must give its
// own compute's results on this CPU under its default and other knob
// choices, and PTX that ptxas assembles without spills. Rows of 13, 45, 70,
// 81, 101 and 129 (not multiples of the lanes; 45 and 13 shorter than them)
// check the guard of the last round, and the tree the lanes that stay empty.
#include "GpuTestUtil.h"
#include "tir/IRPrinter.h"
#include "topi/Elementwise.h"
#include "topi/LaneReduceGpu.h"
#include "topi/Nn.h"
#include "topi/Reduce.h"
#include "topi/TopiUtil.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace tessel;

namespace {

te::Tensor input(std::vector<int64_t> shape, const char* name) {
    return te::placeholder(topi::toExprs(shape), DataType::float32(), name);
}

/// One workload two ways: the lane compute (scheduled for the GPU) and the
/// plain compute it must equal, over the same arguments.
struct Workload {
    QString name;
    std::vector<te::Tensor> inputs;
    te::Tensor lanes, plain;
};

Workload gemv(int64_t n, int64_t k, int64_t lanes, double alpha, bool relu) {
    auto a = input({1, k}, "a"), b = input({n, k}, "b"), c = input({n}, "c");
    topi::nn::GemmParams p;
    p.transB = true;
    p.alpha = alpha;
    te::Tensor x = topi::nn::gemvLanes(a, b, c, p, lanes, "fc");
    te::Tensor y = topi::nn::gemm(a, b, c, p, "fc");
    if (relu) {
        x = topi::relu(x);
        y = topi::relu(y);
    }
    return {QString("gemv N=%1 K=%2, %3 lanes").arg(n).arg(k).arg(lanes), {a, b, c}, x, y};
}

Workload globalPool(std::vector<int64_t> shape, topi::nn::PoolType type, int64_t lanes) {
    auto x = input(shape, "x");
    return {QString("global %1 pool %2x%3x%4x%5, %6 lanes")
                .arg(type == topi::nn::PoolType::Avg ? "average" : "max")
                .arg(shape[0]).arg(shape[1]).arg(shape[2]).arg(shape[3]).arg(lanes),
            {x},
            topi::nn::globalPoolLanes(x, type, lanes, "gap"),
            topi::nn::globalPool(x, type, "gap")};
}

/// Sums of rows of x [r, c, n] by reduceRowTree: an output with no axis of
/// extent 1 to choose its writer by (every lane of a row stores the sum).
Workload rowSums(int64_t r, int64_t c, int64_t n, int64_t lanes) {
    auto x = input({r, c, n}, "x");
    te::Tensor tree = topi::reduceRowTree({r, c}, n, lanes, topi::ReduceOp::Sum,
                                          [&](const std::vector<te::Expr>& i, te::Expr k) { return x({i[0], i[1], k}); },
                                          "row_sum");
    te::IterVar k = te::reduceAxis(tir::Range(0, int(n)), "k");
    te::Tensor plain = te::compute(topi::toExprs({r, c}), [&](const std::vector<tir::Var>& i) {
        return te::sum(x({i[0], i[1], k->var}), {k});
    }, "row_sum");
    return {QString("row sums %1x%2x%3, %4 lanes").arg(r).arg(c).arg(n).arg(lanes), {x}, tree, plain};
}

std::vector<Workload> workloads() {
    using topi::nn::PoolType;
    return {gemv(1000, 512, 32, 1.0, false),       gemv(37, 70, 32, 0.5, true),
            gemv(13, 100, 64, 1.0, false),         globalPool({1, 64, 7, 7}, PoolType::Avg, 32),
            globalPool({2, 40, 5, 9}, PoolType::Avg, 16), globalPool({1, 24, 7, 7}, PoolType::Max, 32),
            gemv(50, 101, 32, 1.0, true),          gemv(9, 129, 128, 2.0, false),
            globalPool({1, 30, 9, 9}, PoolType::Max, 64), globalPool({3, 7, 3, 15}, PoolType::Avg, 64),
            rowSums(6, 40, 100, 32)};
}

std::vector<te::Tensor> argsOf(const Workload& w, const te::Tensor& out) {
    std::vector<te::Tensor> args = w.inputs;
    args.push_back(out);
    return args;
}

driver::LoweredFunction lowerWith(const Workload& w, const std::map<std::string, int64_t>& config,
                                  const Target& target, std::vector<te::Knob>* knobs = nullptr) {
    return gputest::lowerScheduled(topi::scheduleLaneReduceGpu, w.lanes, argsOf(w, w.lanes), config, target, knobs);
}

} // namespace

class TestLaneReduceGpu : public QObject {
    Q_OBJECT

private slots:
    void applies() {
        for (const Workload& w : workloads()) QVERIFY2(topi::laneReduceGpuScheduleApplies({w.lanes}), qPrintable(w.name));
        for (const Workload& w : workloads()) QVERIFY(!topi::laneReduceGpuScheduleApplies({w.plain}));
        // A GEMV with B laid out [K, N] reads B along columns: the tiled schedule's.
        topi::nn::GemmParams p;
        QVERIFY(!topi::nn::gemvLanesApplies(input({1, 128}, "a"), input({128, 64}, "b"), p));
        p.transB = true;
        QVERIFY(topi::nn::gemvLanesApplies(input({1, 128}, "a"), input({64, 128}, "b"), p));
        QVERIFY(!topi::nn::gemvLanesApplies(input({2, 128}, "a"), input({64, 128}, "b"), p));
    }

    // The lane computes equal the plain ones, under the GPU schedule, on this CPU.
    void lanesComputeThePlainResult() {
        for (const Workload& w : workloads()) {
            const driver::LoweredFunction plain = driver::lowerSchedule(
                te::createSchedule({w.plain->op}), argsOf(w, w.plain), "plain", driver::LowerOptions{});
            const driver::RunReport ref = gputest::runOnCpu(plain);
            QVERIFY2(ref.ok, qPrintable(w.name + ": " + QString::fromStdString(ref.error)));
            const driver::RunReport r = gputest::runOnCpu(lowerWith(w, {}, codegen::hostTarget()), ref.outputs);
            QVERIFY2(r.ok, qPrintable(w.name + ": " + QString::fromStdString(r.error)));
        }
    }

    // Every knob's other choices (two each) against the default schedule.
    void otherChoicesComputeTheReduction() {
        const auto all = workloads();
        for (const Workload& w : {all[1], all[4]}) {
            std::vector<te::Knob> knobs;
            lowerWith(w, {}, codegen::hostTarget(), &knobs);
            QCOMPARE(int(knobs.size()), 1);
            for (auto& [knob, i] : gputest::otherChoices(knobs)) {
                const driver::RunReport r = gputest::runOnCpu(lowerWith(w, {{knob, i}}, codegen::hostTarget()));
                QVERIFY2(r.ok, qPrintable(QString("%1, %2 = %3: ").arg(w.name, knob.c_str()).arg(i) +
                                          QString::fromStdString(r.error)));
            }
        }
    }

    // The lanes knob of the strategies: a warp by default, 128 lanes only for rows longer than 64.
    void lanesKnob() {
        te::ConfigSpace cfg;
        QCOMPARE(topi::defineLanesKnob(&cfg, 512), int64_t(32));
        QCOMPARE(int(cfg.knobs()[0].size()), 4);
        te::ConfigSpace small;
        QCOMPARE(topi::defineLanesKnob(&small, 20), int64_t(32));
        QCOMPARE(int(small.knobs()[0].size()), 2); // 16, 32
        QCOMPARE(topi::defineLanesKnob(nullptr, 49), int64_t(32));
    }

    // For the GPU: one kernel, lanes on threadIdx.x and rows on
    // threadIdx.y, the partials in shared memory summed as a tree: a barrier
    // before each level and before the output, log2(lanes) in all, and one
    // writer per output (the store guarded to lane 0); ptxas assembles it
    // without spills.
    void ptxForTheGpu() {
        const QString assembler = gputest::ptxas();
        QTemporaryDir dir;
        for (const Workload& w : workloads()) {
            const driver::LoweredFunction f = lowerWith(w, {}, gputest::cudaSm90());
            const QString tir = QString::fromStdString(tir::toString(f.lowered));
            QVERIFY2(tir.contains("\"shared\"") && tir.contains("tvm_storage_sync"), qPrintable(w.name + "\n" + tir));
            QVERIFY2(tir.contains("thread=\"threadIdx.x\""), qPrintable(w.name));
            const int64_t lanes = staticShapeLast(w);
            QCOMPARE(int64_t(tir.count("tvm_storage_sync")), int64_t(std::log2(double(lanes))));
            // The output's one store, guarded to lane 0 where the output has an axis of extent 1.
            const QStringList lines = tir.split('\n');
            const QString out = QString::fromStdString(w.lanes->op->name) + "[";
            QList<int> stores;
            for (int i = 1; i < lines.size(); ++i)
                if (lines[i].trimmed().startsWith(out)) stores << i;
            QCOMPARE(stores.size(), 1);
            const bool writerAxis = !w.name.startsWith("row sums");
            QCOMPARE(lines[stores[0] - 1].endsWith(" < 1):"), writerAxis);
            const auto split = driver::splitForDevice({f});
            QCOMPARE(split[0].kernels.size(), size_t(1));
            QCOMPARE(split[0].kernels[0].block[0], staticShapeLast(w));
            // Rows a block: up to 256 threads, a divisor of the outputs (37 is prime: one).
            const int64_t rows = split[0].kernels[0].block[1];
            QVERIFY2(rows * split[0].kernels[0].block[0] <= 256 && rows >= 1, qPrintable(w.name));
            if (w.name.startsWith("gemv N=1000")) QCOMPARE(rows, int64_t(8));
            if (assembler.isEmpty()) continue;
            const QString problem = gputest::spillFreeKernel(assembler, f, dir.path(), w.name, 64);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        if (assembler.isEmpty()) QSKIP("ptxas not found (the CUDA toolkit is not installed): PTX checked as text only");
    }

private:
    /// The lanes of a workload's partials (threadIdx.x of its kernel).
    static int64_t staticShapeLast(const Workload& w) {
        for (auto& op : te::postOrderOps({w.lanes->op}))
            if (op->tag == topi::tag::kReduceLanes) return topi::staticShape(op.output(0)).back();
        return -1;
    }
};

QTEST_GUILESS_MAIN(TestLaneReduceGpu)
#include "tst_lane_reduce_gpu.moc"
