// GPU schedules through the driver: bind and thread_axis in TE scripts, errors
// at the schedule line (primitives and the GPU verifier), the kernels a GPU
// function splits into, the same schedules checked on the CPU against the
// default schedule, and PTX for the GPU GEMM ladder that ptxas assembles.
#include "GpuTestUtil.h"
#include "codegen/CodeGenC.h"
#include "driver/KernelBundleExport.h"
#include "driver/Measure.h"
#include "driver/ModelCompiler.h"
#include "frontend/ModelZoo.h"
#include "graph/GraphPrinter.h"
#include "graph/passes/InferShapes.h"
#include "runtime/CudaDriver.h"
#include "runtime/ExportedModel.h"
#include "driver/TeDriver.h"
#include "tir/IRPrinter.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace tessel;

namespace {

Target cuda() { return gputest::cudaSm90(); }

std::vector<driver::LoweredFunction> lowerFor(const std::string& src, const Target& target) {
    driver::ScriptOptions so;
    so.fileName = "gpu.te";
    so.target = target;
    return driver::lowerScript(src, so);
}

/// The error lowering `src` for a GPU gives, or "" when it lowers.
Diagnostic errorOf(const std::string& src) {
    try {
        lowerFor(src, cuda());
    } catch (const CompileError& e) {
        return e.diagnostic();
    }
    return {};
}

const char* kScale = R"(A = te.placeholder((64, 64), name="A")
B = te.compute((64, 64), lambda i, j: A[i, j] * 2.0, name="B")
s = te.create_schedule(B.op)
i, j = s[B].op.axis
)";

std::string ladder(const char* step) {
    QFile f(QString(TESSEL_SOURCE_DIR) + "/resources/examples/gemm-gpu/" + step);
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", step);
    return f.readAll().toStdString();
}

/// A ladder step at another size (the steps declare M, N, K first).
std::string resized(std::string src, int n) {
    for (const char* p : {"M = 1024", "N = 1024", "K = 1024"}) {
        auto at = src.find(p);
        if (at == std::string::npos) qFatal("no '%s' in the step", p);
        src.replace(at, std::string(p).size(), std::string(p).substr(0, 4) + std::to_string(n));
    }
    return src;
}

using gputest::ptxas;

/// PTX of the ladder's step `src` for sm_90.
std::string ptxOf(const std::string& src) {
    codegen::BuildOptions bo;
    bo.jit = false;
    return driver::buildFunctions(lowerFor(src, cuda()), cuda(), bo).assembly;
}

/// The registers `ptxas -v` reports for the one kernel of `ptx`; -1 when it fails.
int ptxasRegisters(const QString& assembler, const std::string& ptx, const QString& dir, const QString& name) {
    const auto usage = gputest::ptxasUsage(assembler, ptx, dir, name);
    return usage.size() == 1 ? usage.first().registers : -1;
}

/// `src` with `line` inserted before its tvm.build.
std::string beforeBuild(std::string src, const std::string& line) {
    auto at = src.find("func = tvm.build");
    if (at == std::string::npos) qFatal("no tvm.build in the step");
    return src.insert(at, line + "\n");
}

QString nvcc() {
    QString p = QStandardPaths::findExecutable("nvcc");
    if (p.isEmpty() && QFile::exists("/usr/local/cuda/bin/nvcc")) p = "/usr/local/cuda/bin/nvcc";
    return p;
}

/// nvcc -c of CUDA C `text` for sm_90; "" when it compiles, else its errors.
QString nvccErrors(const QString& compiler, const std::string& text, const QString& dir, const QString& name) {
    QFile f(dir + "/" + name + ".cu");
    if (!f.open(QIODevice::WriteOnly)) return "cannot write " + f.fileName();
    f.write(text.data(), qint64(text.size()));
    f.close();
    QProcess p;
    p.start(compiler, {"-c", "-arch=sm_90", f.fileName(), "-o", dir + "/" + name + ".o"});
    if (!p.waitForFinished(300000)) return "nvcc did not finish";
    return p.exitCode() == 0 ? QString() : QString(p.readAllStandardError());
}

std::vector<tir::PrimFunc> kernelsOf(const std::vector<driver::LoweredFunction>& fs) {
    std::vector<tir::PrimFunc> out;
    for (auto& split : driver::splitForDevice(fs))
        for (auto& k : split.kernels) out.push_back(k.kernel);
    return out;
}

QStringList ladderSteps() {
    return QDir(QString(TESSEL_SOURCE_DIR) + "/resources/examples/gemm-gpu").entryList({"*.te"}, QDir::Files, QDir::Name);
}

} // namespace

class TestGpuLowering : public QObject {
    Q_OBJECT
private slots:
    void bindMakesThreadLoops() {
        auto fs = lowerFor(std::string(kScale) + R"(s[B].bind(i, te.thread_axis("blockIdx.x"))
s[B].bind(j, te.thread_axis("threadIdx.x"))
)",
                           cuda());
        QCOMPARE(fs.size(), size_t(1));
        QString tir = QString::fromStdString(tir::toString(fs[0].lowered));
        QVERIFY2(tir.contains(R"(T.thread_binding(64, thread="blockIdx.x"))"), qPrintable(tir));
        QVERIFY2(tir.contains(R"(T.thread_binding(64, thread="threadIdx.x"))"), qPrintable(tir));
        auto split = driver::splitForDevice(fs);
        QCOMPARE(split[0].kernels.size(), size_t(1));
        const auto& k = split[0].kernels[0];
        QCOMPARE(k.grid[0], int64_t(64));
        QCOMPARE(k.block[0], int64_t(64));
        QCOMPARE(k.block[1], int64_t(1));
        QCOMPARE(k.args, (std::vector<size_t>{0, 1})); // the buffers in order of first use: A, B
    }

    void primitiveErrorsAtTheirLine_data() {
        QTest::addColumn<QString>("schedule");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown tag") << R"(s[B].bind(i, te.thread_axis("threadIdx.w")))" << 5 << "unknown thread tag";
        QTest::newRow("not a thread axis") << "s[B].bind(i, j)" << 5 << "must be a thread axis";
        QTest::newRow("split after bind") << "s[B].bind(i, te.thread_axis(\"blockIdx.x\"))\ns[B].split(i, factor=4)" << 6
                                          << "bound to blockIdx.x";
        QTest::newRow("tag twice") << "s[B].bind(i, te.thread_axis(\"threadIdx.x\"))\ns[B].bind(j, te.thread_axis(\"threadIdx.x\"))"
                                   << 6 << "already binds a loop to threadIdx.x";
        QTest::newRow("bad scope") << "s.cache_read(A, \"texture\", [B])" << 5 << "\"shared\"";
        QTest::newRow("no blocks per SM") << "s[B].launch_bounds(min_blocks=0)" << 5 << "min_blocks must be 1 to 32";
        QTest::newRow("launch bounds of an input") << "s[A].launch_bounds(2)" << 5 << "is an input";
    }
    void primitiveErrorsAtTheirLine() {
        QFETCH(QString, schedule);
        QFETCH(int, line);
        QFETCH(QString, message);
        Diagnostic d = errorOf(std::string(kScale) + schedule.toStdString() + "\n");
        QVERIFY2(QString::fromStdString(d.message).contains(message), d.message.c_str());
        QCOMPARE(d.loc.line, line);
    }

    void bindingAReductionIsRefused() {
        Diagnostic d = errorOf(R"(A = te.placeholder((64, 64), name="A")
k = te.reduce_axis((0, 64), "k")
B = te.compute((64,), lambda i: te.sum(A[i, k], axis=k), name="B")
s = te.create_schedule(B.op)
s[B].bind(s[B].op.reduce_axis[0], te.thread_axis("threadIdx.x"))
)");
        QVERIFY2(QString::fromStdString(d.message).contains("reduction"), d.message.c_str());
        QCOMPARE(d.loc.line, 5);
    }

    void verifierErrorsAtTheScheduleLine_data() {
        QTest::addColumn<QString>("schedule");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("message");
        QTest::newRow("nothing bound") << "" << 2 << "computed outside the loops bound";
        QTest::newRow("too many threads") << "s[B].bind(i, te.thread_axis(\"threadIdx.y\"))\n"
                                             "s[B].bind(j, te.thread_axis(\"threadIdx.x\"))"
                                          << 6 << "4096 threads";
        QTest::newRow("block inside thread") << "s[B].bind(i, te.thread_axis(\"threadIdx.x\"))\n"
                                                "s[B].bind(j, te.thread_axis(\"blockIdx.x\"))"
                                             << 6 << "blocks are outside threads";
        QTest::newRow("partly bound") << "io, ii = s[B].split(i, factor=8)\n"
                                         "s[B].bind(ii, te.thread_axis(\"threadIdx.x\"))\n"
                                         "s[B].reorder(io, j, ii)"
                                      << 7 << "outside the kernel";
        QTest::newRow("vthread of no constant extent") << "io, ii = s[B].split(i, factor=8)\n"
                                                          "iio, iii = s[B].split(ii, factor=te.var(\"n\"))\n"
                                                          "s[B].reorder(io, iio, j, iii)\n"
                                                          "s[B].bind(io, te.thread_axis(\"blockIdx.x\"))\n"
                                                          "s[B].bind(iio, te.thread_axis(\"vthread\"))\n"
                                                          "s[B].bind(j, te.thread_axis(\"threadIdx.x\"))"
                                                       << 9 << "bound to vthread has no constant extent";
    }
    void verifierErrorsAtTheScheduleLine() {
        QFETCH(QString, schedule);
        QFETCH(int, line);
        QFETCH(QString, message);
        Diagnostic d = errorOf(std::string(kScale) + schedule.toStdString() + "\n");
        QVERIFY2(QString::fromStdString(d.message).contains(message), d.message.c_str());
        QCOMPARE(d.loc.line, line);
    }

    void mismatchedThreadExtents() {
        Diagnostic d = errorOf(R"(A = te.placeholder((64, 64), name="A")
B = te.compute((64, 64), lambda i, j: A[i, j] * 2.0, name="B")
C = te.compute((64, 64), lambda i, j: B[i, j] + 1.0, name="C")
s = te.create_schedule(C.op)
BS = s.cache_read(B, "shared", [C])
i, j = s[C].op.axis
s[C].bind(i, te.thread_axis("blockIdx.x"))
s[C].bind(j, te.thread_axis("threadIdx.x"))
s[BS].compute_at(s[C], i)
bo, bi = s[BS].split(s[BS].op.axis[1], factor=32)
s[BS].bind(bi, te.thread_axis("threadIdx.x"))
s[B].bind(s[B].op.axis[0], te.thread_axis("blockIdx.x"))
s[B].bind(s[B].op.axis[1], te.thread_axis("threadIdx.x"))
)");
        QVERIFY2(QString::fromStdString(d.message).contains("same extent"), d.message.c_str());
        QVERIFY2(d.loc.line == 8 || d.loc.line == 11, qPrintable(QString::number(d.loc.line)));
    }

    // The shared tile is read by all threads of the block: its region covers
    // the block's tile (threads relaxed), and the GPU pipeline puts the two
    // barriers of the tile loop in place.
    void sharedTilesStep() {
        auto fs = lowerFor(ladder("02_shared_tiles.te"), cuda());
        auto split = driver::splitForDevice(fs);
        QCOMPARE(split[0].kernels.size(), size_t(1));
        const auto& k = split[0].kernels[0];
        QCOMPARE(k.grid, (std::array<int64_t, 3>{32, 32, 1}));
        QCOMPARE(k.block, (std::array<int64_t, 3>{16, 16, 1}));
        QCOMPARE(k.sharedBytes, int64_t(2 * 32 * 8 * 4));
        QString tir = QString::fromStdString(tir::toString(fs[0].lowered));
        QCOMPARE(tir.count("T.tvm_storage_sync(\"shared\")"), 2);
        QVERIFY2(tir.contains("A_shared = T.allocate([256], \"float32\", \"shared\")"), qPrintable(tir));
    }

    // Step 6: each thread's 8 x 8 outputs are 2 x 2 vthreads of 4 x 4. The
    // vthread loops are gone, written out inside the k loop: one thread holds
    // the four copies' accumulators (64), the shared tiles are the block's
    // (one copy for all vthreads), and a thread reads B at threadIdx.x * 4
    // (neighbours 16 bytes apart) instead of * 8.
    void virtualThreadsInterleaveTheThreadTile() {
        auto fs = lowerFor(ladder("06_virtual_threads.te"), cuda());
        QString tir = QString::fromStdString(tir::toString(fs[0].lowered));
        QVERIFY2(!tir.contains("vthread"), qPrintable(tir));
        QVERIFY2(tir.contains("C_local = T.allocate([64], \"float32\", \"local\")"), qPrintable(tir));
        QVERIFY2(tir.contains("A_shared = T.allocate([2048], \"float32\", \"shared\")"), qPrintable(tir));
        const QString tx = "y_inner_inner_outer";
        QVERIFY2(tir.contains("for " + tx + " in T.thread_binding(16, thread=\"threadIdx.x\""), qPrintable(tir));
        QVERIFY2(tir.contains("B_shared[" + tx + " * 4 + "), qPrintable(tir));
        QVERIFY2(!tir.contains("B_shared[" + tx + " * 8 + "), qPrintable(tir));
        // The four copies of an update, side by side (vthread (0,0), (1,0), (0,1), (1,1)).
        QRegularExpression copies("C_local\\[0\\] = .*\\n.*C_local\\[32\\] = .*\\n.*C_local\\[16\\] = .*\\n.*C_local\\[48\\] = ");
        QVERIFY2(tir.contains(copies), qPrintable(tir));
        auto split = driver::splitForDevice(fs);
        QCOMPARE(split[0].kernels[0].block, (std::array<int64_t, 3>{16, 16, 1}));
        QCOMPARE(split[0].kernels[0].grid, (std::array<int64_t, 3>{8, 8, 1}));
        QCOMPARE(split[0].kernels[0].minBlocksPerSM, int64_t(2));
    }

    // The vthread GEMM at 512^3 (4 x 4 blocks) on this CPU, thread loops one
    // after another, against the default schedule.
    void virtualThreadGemmComputesTheGemm() {
        auto fs = lowerFor(resized(ladder("06_virtual_threads.te"), 512), codegen::hostTarget());
        QVERIFY(!QString::fromStdString(tir::toString(fs[0].lowered)).contains("vthread"));
        driver::RunOptions ro;
        ro.evaluator = runtime::TimeEvaluator{1, 1, 1, 1};
        driver::RunReport r = driver::runAndCheck(fs[0], ro);
        QVERIFY2(r.ok, r.error.c_str());
    }

    // launch_bounds(min_blocks=2): .minnctapersm 2 beside .maxntid in the PTX,
    // __launch_bounds__(256, 2) in CUDA C; where ptxas is, the register count
    // of step 5 drops to what two blocks of 256 threads leave (128 each).
    void launchBoundsCapRegisters() {
        const std::string step5 = ladder("05_double_buffering.te");
        const std::string capped = beforeBuild(step5, "s[C].launch_bounds(min_blocks=2)");
        std::string ptx = ptxOf(capped);
        QVERIFY2(QString::fromStdString(ptx).contains(QRegularExpression("\\.maxntid 256, 1, 1\\s*\\n\\s*\\.minnctapersm 2")),
                 ptx.c_str());
        QVERIFY(QString::fromStdString(ptxOf(step5)).indexOf(".minnctapersm") < 0);
        QString c = QString::fromStdString(codegen::emitCudaC(kernelsOf(lowerFor(capped, cuda()))).text);
        QVERIFY2(c.contains("__launch_bounds__(256, 2) gemm_kernel0("), qPrintable(c));
        const QString assembler = ptxas();
        if (assembler.isEmpty()) QSKIP("ptxas not found (the CUDA toolkit is not installed): directives checked as text only");
        QTemporaryDir dir;
        int before = ptxasRegisters(assembler, ptxOf(step5), dir.path(), "step5");
        int after = ptxasRegisters(assembler, ptx, dir.path(), "step5-capped");
        int step6 = ptxasRegisters(assembler, ptxOf(ladder("06_virtual_threads.te")), dir.path(), "step6");
        qInfo("ptxas sm_90 registers: step 5 %d, step 5 with launch_bounds(min_blocks=2) %d, step 6 %d", before, after, step6);
        QVERIFY2(before > 128, qPrintable(QString::number(before)));
        QVERIFY2(after > 0 && after <= 128, qPrintable(QString::number(after)));
        QVERIFY2(step6 > 0 && step6 <= 128, qPrintable(QString::number(step6)));
    }

    // A GPU schedule means the same computation: on a CPU its thread loops
    // run one after another, and its results equal the default schedule's.
    void ladderStepsComputeTheGemmOnTheCpu() {
        for (const QString& step : ladderSteps()) {
            auto fs = lowerFor(resized(ladder(qPrintable(step)), 128), codegen::hostTarget());
            driver::RunOptions ro;
            ro.evaluator = runtime::TimeEvaluator{1, 1, 1, 1};
            driver::RunReport r = driver::runAndCheck(fs[0], ro);
            QVERIFY2(r.ok, qPrintable(step + ": " + QString::fromStdString(r.error)));
        }
    }

    void ptxForEveryLadderStep() {
        const QString assembler = ptxas();
        QTemporaryDir dir;
        QVERIFY(ladderSteps().size() >= 6);
        for (const QString& step : ladderSteps()) {
            auto fs = lowerFor(ladder(qPrintable(step)), cuda());
            codegen::BuildOptions bo;
            bo.jit = false;
            auto r = driver::buildFunctions(fs, cuda(), bo);
            QString ptx = QString::fromStdString(r.assembly);
            QVERIFY2(ptx.contains(".target sm_90"), qPrintable(step));
            QVERIFY2(ptx.contains(".visible .entry gemm_kernel0("), qPrintable(step));
            QVERIFY2(ptx.contains("%tid.x") && ptx.contains("%ctaid.y"), qPrintable(step));
            QVERIFY2(ptx.contains(".loc"), qPrintable(step + ": no line information"));
            if (!step.startsWith("01")) QVERIFY2(ptx.contains("bar.sync") && ptx.contains(".shared"), qPrintable(step));
            if (step.startsWith("05") || step.startsWith("06")) // double buffering: one barrier before the k loop, one in it
                QCOMPARE(ptx.count("bar.sync"), 2);
            QCOMPARE(ptx.contains(".minnctapersm 2"), step.startsWith("06"));
            if (step.startsWith("04"))
                QVERIFY2(ptx.contains(QRegularExpression("ld\\.global(\\.nc)?\\.v4\\.f32")) && ptx.contains("st.shared.v4.f32"), qPrintable(step));
            if (assembler.isEmpty()) continue;
            QString file = dir.filePath(step + ".ptx");
            QFile out(file);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(r.assembly.data(), qint64(r.assembly.size()));
            out.close();
            QProcess p;
            p.start(assembler, {"-arch=sm_90", file, "-o", dir.filePath(step + ".cubin")});
            QVERIFY(p.waitForFinished(60000));
            QVERIFY2(p.exitCode() == 0, qPrintable(step + ": " + p.readAllStandardError()));
        }
        if (assembler.isEmpty()) QSKIP("ptxas not found (the CUDA toolkit is not installed): PTX checked as text only");
    }

    // The files a GPU host runs: PTX, the launch table, the CPU's outputs.
    // Where there is a GPU the bundle runs and matches; elsewhere the run
    // fails with the reason, never a crash.
    void kernelBundleRoundTrip() {
        QTemporaryDir dir;
        auto fs = lowerFor(resized(ladder("02_shared_tiles.te"), 128), cuda());
        runtime::KernelBundle written = driver::exportKernelBundle(fs[0], dir.path().toStdString(), cuda());
        runtime::KernelBundle b = runtime::KernelBundle::load(dir.path().toStdString());
        QCOMPARE(QString::fromStdString(b.signature.str()), QString::fromStdString(written.signature.str()));
        QCOMPARE(b.launches.size(), size_t(1));
        QCOMPARE(b.launches[0].shape.grid, (std::array<unsigned, 3>{4, 4, 1}));
        QCOMPARE(b.launches[0].shape.block, (std::array<unsigned, 3>{16, 16, 1}));
        QCOMPARE(b.launches[0].shape.sharedBytes, 2048u);
        QCOMPARE(b.launches[0].args, (std::vector<size_t>{0, 1, 2}));
        QCOMPARE(b.flops, 2.0 * 128 * 128 * 128);
        QCOMPARE(b.expected.size(), size_t(1));
        QCOMPARE(QFileInfo(dir.filePath("expected0.bin")).size(), qint64(128 * 128 * 4));
        QVERIFY(QFileInfo(dir.filePath("kernels.ptx")).size() > 0);

        std::string why;
        if (!runtime::cuda::driver(&why) || runtime::CudaDeviceAPI().count() == 0) {
            QCOMPARE(runtime::CudaDeviceAPI().count(), 0);
            try {
                runtime::runBundle(b, runtime::Device::cuda(0));
                QFAIL("a bundle ran without a GPU");
            } catch (const std::runtime_error& e) {
                QVERIFY2(QString(e.what()).contains("NVIDIA") || QString(e.what()).contains("does not exist"), e.what());
            }
            QSKIP("no CUDA device here: the bundle was written and read back, not run");
        }
        runtime::BundleRun r = runtime::runBundle(b, runtime::Device::cuda(0), 3);
        QVERIFY2(r.checked && r.ok, r.message.c_str());
    }

    void kernelBundleErrors() {
        QTemporaryDir dir;
        QVERIFY(!runtime::KernelBundle::isBundle(dir.path().toStdString()));
        QFile f(dir.filePath("kernels.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "tessel-kernel-bundle", "version": 2})");
        f.close();
        QVERIFY(runtime::KernelBundle::isBundle(dir.path().toStdString()));
        {
            // A model exported for a GPU has a launch table of the same name beside its plan:
            // tessel-run must run it as a model, not refuse it as a bundle.
            QFile plan(dir.filePath("plan.json"));
            QVERIFY(plan.open(QIODevice::WriteOnly));
        }
        QVERIFY(!runtime::KernelBundle::isBundle(dir.path().toStdString()));
        QFile::remove(dir.filePath("plan.json"));
        try {
            runtime::KernelBundle::load(dir.path().toStdString());
            QFAIL("a bundle of version 2 loaded");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString(e.what()).contains("version 2"), e.what());
        }
    }

    // Every fused function of a whole model, under the GPU strategies'
    // schedules (tiled convolution, depthwise, dense, lane reductions) or
    // the GPU's default (one thread per output element), verified and in
    // PTX that ptxas assembles; the kernels of the GPU schedules without
    // spills. The transformer encoder is the bench's export (models/references).
    void zooModelsToPtx_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QStringList>("strategies"); // GPU records the model must use
        QTest::newRow("resnet18") << "resnet18" << QStringList{"conv2d_nchw_cuda", "dense_cuda", "global_pool_cuda"};
        QTest::newRow("mobilenet_v2") << "mobilenet_v2"
                                      << QStringList{"conv2d_nchw_cuda", "depthwise_conv2d_nchw_cuda", "dense_cuda",
                                                     "global_pool_cuda"};
        QTest::newRow("transformer_encoder") << "transformer_encoder" << QStringList{"matmul_cuda", "dense_cuda", "softmax_cuda", "layer_norm_cuda"};
    }
    void zooModelsToPtx() {
        QFETCH(QString, model);
        QFETCH(QStringList, strategies);
        QTemporaryDir dir;
        std::string onnx = dir.filePath(model + ".onnx").toStdString();
        if (model == "transformer_encoder") {
            onnx = TESSEL_BINARY_DIR "/models/transformer_encoder/model.onnx";
            if (!QFile::exists(QString::fromStdString(onnx)))
                QSKIP("no transformer_encoder export (ctest -R models/references writes it)");
        } else {
            frontend::writeZooModel(model.toStdString(), onnx);
        }
        driver::CompileOptions co;
        co.request = driver::CompileRequest::forTarget("cuda -mcpu=sm_90");
        driver::CompiledModel m = driver::compileModel(onnx, {}, co);
        QVERIFY(!m.module); // nothing runs here
        QString ptx = QString::fromStdString(m.build.assembly);
        size_t functions = 0;
        for (auto& f : m.functions)
            if (f.lowered.lowered.defined()) {
                ++functions;
                QVERIFY2(ptx.contains(QString::fromStdString(".entry " + f.name + "_kernel0(")), f.name.c_str());
            }
        QVERIFY(functions >= 20);
        QMap<QString, QString> strategyOf; // kernel name -> the anchor's strategy
        QMap<QString, int> perStrategy;
        for (auto& f : m.functions) {
            if (!f.lowered.lowered.defined()) continue;
            const QString st = QString::fromStdString(f.strategy);
            ++perStrategy[st.endsWith("_cuda") ? st : "GPU default"];
            for (int k = 0; ptx.contains(QString::fromStdString(".entry " + f.name + "_kernel") + QString::number(k) + "("); ++k)
                strategyOf[QString::fromStdString(f.name + "_kernel") + QString::number(k)] = st;
        }
        qInfo("%s: %d fused functions, %d kernels", qPrintable(model), int(functions), int(ptx.count(".entry")));
        for (auto it = perStrategy.begin(); it != perStrategy.end(); ++it)
            qInfo("%s: %d fused functions with %s", qPrintable(model), it.value(), qPrintable(it.key()));
        for (const QString& st : strategies) QVERIFY2(perStrategy.contains(st), qPrintable(st));
        QVERIFY2(!QString::fromStdString(graph::printGraph(m.graph).text).contains("LayoutTransform"),
                 "a GPU keeps NCHW");
        if (model == "resnet18") {
            // The export a GPU host runs with tessel-run: plan, weights, PTX, and each fused
            // function's launches; loading it without a GPU says why.
            const std::string exportDir = dir.filePath("export").toStdString();
            driver::exportModel(m, exportDir, co.request.target);
            QVERIFY(QFile::exists(dir.filePath("export/kernels.ptx")) && !QFile::exists(dir.filePath("export/model.so")));
            QFile table(dir.filePath("export/kernels.json"));
            QVERIFY(table.open(QIODevice::ReadOnly));
            const std::string json = table.readAll().toStdString();
            QCOMPARE(runtime::parseFunctionLaunches(json).size(), functions);
            QCOMPARE(runtime::parseKernelShapes(json).size(), size_t(ptx.count(".entry")));
            if (runtime::CudaDeviceAPI().count() == 0) {
                try {
                    runtime::loadExportedModel(exportDir);
                    QFAIL("a GPU export loaded without a GPU");
                } catch (const std::runtime_error& e) {
                    QVERIFY2(QString(e.what()).contains("NVIDIA"), e.what());
                }
            }
        }
        const QString assembler = ptxas();
        if (assembler.isEmpty()) QSKIP("ptxas not found: PTX checked as text only");
        QString error;
        const auto usage = gputest::ptxasUsage(assembler, m.build.assembly, dir.path(), "model", &error);
        QVERIFY2(error.isEmpty(), qPrintable(error.left(4000)));
        // The direct convolution's spills are reported, not refused: given only
        // .maxntid, ptxas caps three of ResNet-18's at 40 registers and spills
        // 24 bytes (with .minnctapersm 1 they take 79 and spill nothing), and
        // which is faster is for the GPU host to measure.
        const QStringList spillFree{"depthwise_conv2d_nchw_cuda", "dense_cuda", "matmul_cuda", "global_pool_cuda",
                                    "softmax_cuda", "layer_norm_cuda"};
        QMap<QString, QList<int>> registers; // strategy -> its kernels' registers
        QStringList spills;
        for (auto it = usage.begin(); it != usage.end(); ++it) {
            const QString st = strategyOf.value(it.key());
            if (!st.endsWith("_cuda")) continue;
            registers[st].append(it.value().registers);
            if (it.value().spillBytes == 0) continue;
            const QString line = QString("%1 (%2): %3 registers, %4 bytes spilled")
                                     .arg(it.key(), st).arg(it.value().registers).arg(it.value().spillBytes);
            if (spillFree.contains(st)) spills << line;
            else qInfo("%s", qPrintable(line));
        }
        for (auto it = registers.begin(); it != registers.end(); ++it) {
            QList<int> r = it.value();
            std::sort(r.begin(), r.end());
            QStringList text;
            for (int x : r) text << QString::number(x);
            qInfo("%s, ptxas sm_90 registers of %s kernels: %s", qPrintable(model), qPrintable(it.key()),
                  qPrintable(text.join(' ')));
        }
        QVERIFY2(spills.isEmpty(), qPrintable("spilled: " + spills.join("; ")));
        if (model != "resnet18") return; // one model's export and CUDA C are enough for CI's time
        const QString compiler = nvcc();
        if (compiler.isEmpty()) return;
        std::vector<driver::LoweredFunction> fs;
        for (auto& f : m.functions)
            if (f.lowered.lowered.defined()) fs.push_back(f.lowered);
        QString errors = nvccErrors(compiler, codegen::emitCudaC(kernelsOf(fs)).text, dir.path(), "model");
        QVERIFY2(errors.isEmpty(), qPrintable(errors.left(4000)));
    }

    // Pieces of attention in a model's graph, compiled for the GPU: the
    // keys' Reshape + Transpose (0, 2, 3, 1) and a Transpose fused with Relu
    // get the fallback's tiled transpose (one 32 x 33 float tile in shared
    // memory, 32 x 8 threads), LogSoftmax the log_softmax_cuda record (PTX
    // lg2/ex2, no call); one kernel each, assembled by ptxas without spills.
    void attentionPiecesOnTheGpu() {
        graph::Graph g("pieces");
        auto type = [](const char* t) { return *graph::TensorType::parse(t); };
        auto x = g.addInput("x", type("float32[1, 128, 512]"));
        auto shape = g.addConstant("shape", graph::Constant::fromInts({4}, {1, 128, 8, 64}));
        graph::Attributes keys, last;
        keys.set("perm", std::vector<int64_t>{0, 2, 3, 1});
        last.set("axis", int64_t(-1));
        auto k = g.addOp("Transpose", {g.addOp("Reshape", {x, shape})}, keys);
        auto ls = g.addOp("LogSoftmax", {g.addInput("scores", type("float32[4, 1000]"))}, last);
        auto t = g.addOp("Relu", {g.addOp("Transpose", {g.addInput("m", type("float32[300, 200]"))})});
        g.setOutputs({k, ls, t});
        g = graph::inferShapes(g);
        driver::CompileOptions co;
        co.request = driver::CompileRequest::forTarget("cuda -mcpu=sm_90");
        const driver::CompiledModel m = driver::compileGraph(g, co);
        int tiled = 0, logSoftmax = 0, functions = 0;
        for (auto& f : m.functions) {
            if (!f.lowered.lowered.defined()) continue;
            ++functions;
            const auto split = driver::splitForDevice({f.lowered});
            QCOMPARE(split[0].kernels.size(), size_t(1));
            const auto& kernel = split[0].kernels[0];
            if (f.strategy == "log_softmax_cuda") {
                ++logSoftmax;
                QCOMPARE(kernel.block[0], int64_t(256));
                continue;
            }
            QCOMPARE(kernel.block[0], int64_t(32));
            QCOMPARE(kernel.block[1], int64_t(8));
            QCOMPARE(kernel.sharedBytes, int64_t(32 * 33 * 4));
            ++tiled;
        }
        QCOMPARE(functions, 3);
        QCOMPARE(tiled, 2);
        QCOMPARE(logSoftmax, 1);
        const QString ptx = QString::fromStdString(m.build.assembly);
        QVERIFY(ptx.contains("lg2.approx.f32") && ptx.contains("ex2.approx.f32") && !ptx.contains("call"));
        const QString assembler = ptxas();
        if (assembler.isEmpty()) QSKIP("ptxas not found: PTX checked as text only");
        QTemporaryDir dir;
        QString error;
        const auto usage = gputest::ptxasUsage(assembler, m.build.assembly, dir.path(), "pieces", &error);
        QVERIFY2(error.isEmpty(), qPrintable(error.left(4000)));
        QCOMPARE(usage.size(), 3);
        for (auto it = usage.begin(); it != usage.end(); ++it) {
            qInfo("%s: %d registers, %d bytes spilled", qPrintable(it.key()), it.value().registers, it.value().spillBytes);
            QCOMPARE(it.value().spillBytes, 0);
        }
    }

    // sin needs libdevice, which is not linked: an error names it. float32
    // exp and log are PTX's approximate ex2 and lg2 (no call, nothing to link).
    void mathWithoutLibdeviceIsAnError() {
        Diagnostic d;
        try {
            auto fs = lowerFor(R"(A = te.placeholder((64,), name="A")
B = te.compute((64,), lambda i: te.sin(A[i]), name="B")
s = te.create_schedule(B.op)
s[B].bind(s[B].op.axis[0], te.thread_axis("threadIdx.x"))
)",
                               cuda());
            driver::buildFunctions(fs, cuda());
            QFAIL("sin compiled for a GPU without libdevice");
        } catch (const CompileError& e) {
            QVERIFY2(QString(e.what()).contains("'sin'"), e.what());
        }
        auto fs = lowerFor(R"(A = te.placeholder((64,), name="A")
B = te.compute((64,), lambda i: te.log(A[i]) + te.exp(A[i]), name="B")
s = te.create_schedule(B.op)
s[B].bind(s[B].op.axis[0], te.thread_axis("threadIdx.x"))
)",
                           cuda());
        const QString ptx = QString::fromStdString(driver::buildFunctions(fs, cuda()).assembly);
        QVERIFY2(ptx.contains("lg2.approx.f32") && ptx.contains("ex2.approx.f32") && !ptx.contains("call"),
                 qPrintable(ptx));
        // The CUDA C view says what the PTX computes: the intrinsics, not libm's.
        const QString c = QString::fromStdString(codegen::emitCudaC(kernelsOf(fs)).text);
        QVERIFY2(c.contains("__logf(") && c.contains("__expf(") && !c.contains(" expf(") &&
                     !c.contains(" logf("),
                 qPrintable(c));
    }

    void cudaCForEveryLadderStep() {
        const QString compiler = nvcc();
        QTemporaryDir dir;
        for (const QString& step : ladderSteps()) {
            auto fs = lowerFor(ladder(qPrintable(step)), cuda());
            codegen::CSource c = codegen::emitCudaC(kernelsOf(fs));
            QString text = QString::fromStdString(c.text);
            const QString bounds = step.startsWith("06") ? "256, 2" : "256"; // step 6 asks for 2 blocks per SM
            QVERIFY2(text.contains("extern \"C\" __global__ void __launch_bounds__(" + bounds + ") gemm_kernel0("), qPrintable(text));
            QVERIFY2(text.contains("threadIdx.x") && text.contains("blockIdx.y"), qPrintable(step));
            if (!step.startsWith("01"))
                QVERIFY2(text.contains("__shared__") && text.contains("__syncthreads()"), qPrintable(step));
            QVERIFY(c.lines.toTir.size() >= size_t(text.count('\n')));
            if (compiler.isEmpty()) continue;
            QString errors = nvccErrors(compiler, c.text, dir.path(), QFileInfo(step).baseName());
            QVERIFY2(errors.isEmpty(), qPrintable(step + ":\n" + errors));
        }
        if (compiler.isEmpty()) QSKIP("nvcc not found (the CUDA toolkit is not installed): CUDA C checked as text only");
    }

    void cpuTargetsKeepRefusingPtx() {
        codegen::BuildOptions bo;
        bo.jit = false;
        auto fs = lowerFor(ladder("01_naive_bind.te"), codegen::hostTarget());
        auto r = driver::buildFunctions(fs, codegen::hostTarget(), bo);
        QVERIFY(!QString::fromStdString(r.assembly).contains(".entry"));
    }
};

QTEST_MAIN(TestGpuLowering)
#include "tst_gpu_lowering.moc"
