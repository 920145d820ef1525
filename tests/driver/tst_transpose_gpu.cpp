// The GPU fallback's tiled transpose (topi/ScheduleGpu.h): a fused function
// whose innermost output axis walks an input across its rows stages 32 x 32
// tiles of that input in shared memory, rows padded to 33 elements. On this
// CPU (thread loops one after another, the tile a buffer) it must give the
// default schedule's results on shapes that are not multiples of 32; for the
// GPU it must be one kernel of 8 x 32 threads with one padded tile per
// transposed input, and PTX that ptxas assembles without spills. Functions
// that are not transposes keep one thread per output element.
#include "GpuTestUtil.h"
#include "ir/Diagnostic.h"
#include "te/script/ScriptPrinter.h"
#include "tir/IRPrinter.h"
#include "topi/Elementwise.h"
#include "topi/Reduce.h"
#include "topi/ScheduleGpu.h"
#include "topi/TopiUtil.h"
#include "topi/Transform.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace tessel;

namespace {

te::Tensor input(std::vector<int64_t> shape, const char* name) {
    return te::placeholder(topi::toExprs(shape), DataType::float32(), name);
}

struct Function {
    QString name;
    std::vector<te::Tensor> inputs;
    te::Tensor out;
    int tiles = 1; ///< inputs staged in shared memory
};

Function transposeOf(std::vector<int64_t> shape, std::vector<int64_t> perm) {
    auto x = input(shape, "x");
    QStringList s, p;
    for (int64_t d : shape) s << QString::number(d);
    for (int64_t d : perm) p << QString::number(d);
    return {QString("transpose %1 by (%2)").arg(s.join('x'), p.join(',')), {x}, topi::transform::transpose(x, perm)};
}

/// relu(x^T + b): the epilogue and a bias read along the output's rows.
Function transposeBiasRelu(int64_t m, int64_t n) {
    auto x = input({m, n}, "x"), b = input({m}, "b");
    te::Tensor t = topi::transform::transpose(x, {1, 0});
    te::Tensor y = topi::relu(topi::add(t, b));
    return {QString("relu(x^T + b), x %1x%2").arg(m).arg(n), {x, b}, y};
}

/// Attention's keys: [B, S, H x D] as [B, S, H, D], then to [B, H, D, S].
Function keysTransposed(int64_t b, int64_t s, int64_t h, int64_t d) {
    auto x = input({b, s, h * d}, "x");
    te::Tensor r = topi::transform::reshape(x, {b, s, h, d});
    return {QString("reshape %1x%2x%3 to (%1, %2, %4, %5), transpose (0,2,3,1)").arg(b).arg(s).arg(h * d).arg(h).arg(d),
            {x},
            topi::transform::transpose(r, {0, 2, 3, 1})};
}

/// x^T + y^T: two inputs, two tiles.
Function twoTransposed(int64_t m, int64_t n) {
    auto x = input({m, n}, "x"), y = input({m, n}, "y");
    te::Tensor s = topi::add(topi::transform::transpose(x, {1, 0}), topi::transform::transpose(y, {1, 0}));
    return {QString("x^T + y^T, %1x%2").arg(m).arg(n), {x, y}, s, 2};
}

std::vector<Function> transposes() {
    return {transposeOf({45, 70}, {1, 0}),     transposeOf({3, 50, 33}, {0, 2, 1}),
            transposeOf({20, 7, 50}, {2, 1, 0}), transposeBiasRelu(70, 37),
            keysTransposed(2, 40, 3, 24),      twoTransposed(33, 65)};
}

std::vector<te::Tensor> argsOf(const Function& fn) {
    std::vector<te::Tensor> args = fn.inputs;
    args.push_back(fn.out);
    return args;
}

driver::LoweredFunction lowerFallback(const Function& fn, const Target& target) {
    auto schedule = [](const std::vector<te::Tensor>& outs, te::ConfigSpace&) { return topi::scheduleFusedGpu(outs); };
    return gputest::lowerScheduled(schedule, fn.out, argsOf(fn), {}, target);
}

} // namespace

class TestTransposeGpu : public QObject {
    Q_OBJECT

private slots:
    void applies() {
        for (const Function& fn : transposes()) QVERIFY2(topi::tiledTransposeApplies({fn.out}), qPrintable(fn.name));
        // The innermost axis stays innermost: coalesced already.
        QVERIFY(!topi::tiledTransposeApplies({transposeOf({4, 30, 3, 40}, {0, 2, 1, 3}).out}));
        // Element-wise, a reduction, two outputs, axes too short for a tile.
        auto x = input({64, 64}, "x");
        QVERIFY(!topi::tiledTransposeApplies({topi::relu(x)}));
        QVERIFY(!topi::tiledTransposeApplies({topi::reduce(topi::transform::transpose(x, {1, 0}), topi::ReduceOp::Sum, {{1}})}));
        const te::Tensor t = topi::transform::transpose(x, {1, 0});
        QVERIFY(!topi::tiledTransposeApplies({t, topi::relu(t)}));
        QVERIFY(!topi::tiledTransposeApplies({transposeOf({8, 200}, {1, 0}).out}));
        // x^T + x: x read two ways (the tile's region would widen): not tiled.
        QVERIFY(!topi::tiledTransposeApplies({topi::add(t, x)}));
    }

    // The tiled schedule on this CPU equals the default schedule.
    void tilesComputeTheTranspose() {
        for (const Function& fn : transposes()) {
            const driver::RunReport r = gputest::runOnCpu(lowerFallback(fn, codegen::hostTarget()));
            QVERIFY2(r.ok, qPrintable(fn.name + ": " + QString::fromStdString(r.error)));
            QCOMPARE(r.maxAbsErr, 0.0); // copies: exact
        }
    }

    // For the GPU: one kernel of 32 x 8 threads, a block per tile, each
    // tile 32 rows of 33 floats in shared memory behind a barrier; ptxas
    // assembles it without spills.
    void ptxForTheGpu() {
        const QString assembler = gputest::ptxas();
        QTemporaryDir dir;
        for (const Function& fn : transposes()) {
            const driver::LoweredFunction f = lowerFallback(fn, gputest::cudaSm90());
            const QString tir = QString::fromStdString(tir::toString(f.lowered));
            QVERIFY2(tir.contains("tvm_storage_sync"), qPrintable(fn.name + "\n" + tir));
            const auto split = driver::splitForDevice({f});
            QCOMPARE(split[0].kernels.size(), size_t(1));
            const auto& k = split[0].kernels[0];
            QCOMPARE(k.block[0], int64_t(32));
            QCOMPARE(k.block[1], int64_t(8));
            QCOMPARE(k.sharedBytes, int64_t(fn.tiles * 32 * 33 * 4));
            const std::vector<int64_t> shape = topi::staticShape(fn.out);
            int64_t blocks = 1;
            for (int64_t d : shape) blocks *= d;
            QVERIFY2(k.grid[0] < blocks / 64, qPrintable(fn.name)); // a block per 32 x 32 tile, not per 256 outputs
            if (assembler.isEmpty()) continue;
            const QString problem = gputest::spillFreeKernel(assembler, f, dir.path(), fn.name, 40);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
        if (assembler.isEmpty()) QSKIP("ptxas not found (the CUDA toolkit is not installed): PTX checked as text only");
    }

    // The schedule prints as a TE script (what the IDE's schedule editor
    // shows, storage_align included) that lowers to the same TIR.
    void printsAsAScript() {
        for (const Function& fn : transposes()) {
            const driver::LoweredFunction f = lowerFallback(fn, codegen::hostTarget());
            const std::string script = te::script::printScript(f.schedule, f.args, f.name);
            QVERIFY2(script.find(".storage_align(") != std::string::npos, script.c_str());
            std::vector<driver::LoweredFunction> again;
            try {
                again = driver::lowerScript(script, {});
            } catch (const CompileError& e) {
                QFAIL(qPrintable(fn.name + ": " + e.what() + "\n" + QString::fromStdString(script)));
            }
            QCOMPARE(again.size(), size_t(1));
            QCOMPARE(tir::toString(again[0].scheduled), tir::toString(f.scheduled));
        }
    }

    // What does not apply keeps the fallback: a block of 256 threads, one output each, no shared memory.
    void othersKeepOneThreadPerOutput() {
        const Function fn = transposeOf({4, 30, 3, 40}, {0, 2, 1, 3});
        const auto split = driver::splitForDevice({lowerFallback(fn, gputest::cudaSm90())});
        QCOMPARE(split[0].kernels.size(), size_t(1));
        QCOMPARE(split[0].kernels[0].block[0], int64_t(256));
        QCOMPARE(split[0].kernels[0].sharedBytes, int64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestTransposeGpu)
#include "tst_transpose_gpu.moc"
