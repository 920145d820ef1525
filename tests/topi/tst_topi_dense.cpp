// The matrix products: MatMul and Gemm through their strategies on every
// operand shape, the packed dense layer (panels of 16 columns packed by
// a stage or at compile time, panels per task that fill the multiply-add
// pipes, one thread below 2^18 multiply-adds), dense as gemm, and matmul of
// any rank scheduled with its knobs, against plain-loop references.
#include "TopiNnTestUtil.h"
#include "topi/BatchMatmul.h"
#include "topi/DensePacked.h"
#include "topi/Schedule.h"
#include "tir/IRPrinter.h"

#include <QtTest>

namespace {

using namespace tessel;
using runtime::NDArray;
using Shape = std::vector<int64_t>;
using topi::test::isReduction;
using topi::test::matmulRef;
using topi::test::OpRun;
using topi::test::placeholders;
using topi::test::randomArray;
using topi::test::runCompute;
using topi::test::runTensors;
using topi::test::stageTagged;
using topi::test::Tensors;
using topi::test::TestPacker;
using topi::test::attrs;
using topi::test::runOp;

} // namespace

class TestTopiDense : public QObject {
    Q_OBJECT
private slots:
    void matmulShapes_data() {
        QTest::addColumn<Shape>("a");
        QTest::addColumn<Shape>("b");
        QTest::addColumn<Shape>("out");
        QTest::newRow("vector_matrix") << Shape{4} << Shape{4, 3} << Shape{3};
        QTest::newRow("vector_batch") << Shape{4} << Shape{2, 4, 3} << Shape{2, 3};
        QTest::newRow("matrix_vector") << Shape{3, 4} << Shape{4} << Shape{3};
        QTest::newRow("batch_vector") << Shape{2, 3, 4} << Shape{4} << Shape{2, 3};
        QTest::newRow("dot") << Shape{4} << Shape{4} << Shape{};
        QTest::newRow("broadcast_batch")
            << Shape{2, 1, 3, 4} << Shape{5, 4, 2} << Shape{2, 5, 3, 2};
        QTest::newRow("broadcast_both") << Shape{1, 3, 4} << Shape{2, 1, 4, 5} << Shape{2, 1, 3, 5};
    }
    void matmulShapes() {
        QFETCH(Shape, a);
        QFETCH(Shape, b);
        QFETCH(Shape, out);
        NDArray x = randomArray(a, 18), y = randomArray(b, 19);
        auto r = runCompute({x, y}, [](const Tensors& in) { return Tensors{topi::nn::matmul(in[0], in[1])}; });
        CHECK_CLOSE(r, matmulRef(x, y, out));
        QCOMPARE(r.stages.back()->tag, std::string(topi::tag::kDense));
    }
    void gemmBiasShapes_data() {
        QTest::addColumn<Shape>("c"); // empty: no C
        QTest::addColumn<double>("alpha");
        QTest::addColumn<double>("beta");
        QTest::addColumn<bool>("withC");
        QTest::newRow("row_bias") << Shape{1, 5} << 0.5 << 2.0 << true;
        QTest::newRow("column_bias") << Shape{3, 1} << 1.0 << 1.0 << true;
        QTest::newRow("scalar_bias") << Shape{} << 1.0 << -1.0 << true;
        QTest::newRow("no_bias_alpha") << Shape{} << 2.0 << 1.0 << false;
        QTest::newRow("beta_zero") << Shape{3, 5} << 1.0 << 0.0 << true;
    }
    void gemmBiasShapes() {
        QFETCH(Shape, c);
        QFETCH(double, alpha);
        QFETCH(double, beta);
        QFETCH(bool, withC);
        // Both transposed: A is [K, M] = [4, 3], B is [N, K] = [5, 4].
        NDArray a = randomArray({4, 3}, 20), b = randomArray({5, 4}, 21), cv = randomArray(c, 22);
        std::vector<NDArray> ins{a, b};
        if (withC) ins.push_back(cv);
        auto r = runCompute(ins, [&](const Tensors& in) {
            return Tensors{topi::nn::gemm(in[0], in[1], withC ? in[2] : te::Tensor(),
                                          {.transA = true, .transB = true, .alpha = alpha, .beta = beta})};
        });
        NDArray want({3, 5}, DataType::float32());
        for (int64_t i = 0; i < 3; ++i)
            for (int64_t j = 0; j < 5; ++j) {
                double acc = 0;
                for (int64_t k = 0; k < 4; ++k)
                    acc += double(a.data<float>()[k * 3 + i]) * b.data<float>()[j * 4 + k];
                double bias = 0;
                if (withC && beta != 0.0) {
                    int64_t ci =
                        c.size() == 2 ? (c[0] == 1 ? 0 : i) * c[1] + (c[1] == 1 ? 0 : j) : 0;
                    bias = beta * cv.data<float>()[ci];
                }
                want.data<float>()[i * 5 + j] = float(alpha * acc + bias);
            }
        CHECK_CLOSE(r, want);
        QVERIFY(isReduction(stageTagged(r, topi::tag::kDense)));
    }

    // The packed dense layer: N = 20 leaves the last 16-column panel part
    // padding, which must never reach the output.
    void densePackedMatchesGemm_data() {
        QTest::addColumn<bool>("withPacker");
        QTest::addColumn<bool>("transB");
        QTest::newRow("stage") << false << false;
        QTest::newRow("stage_transB") << false << true;
        QTest::newRow("packer") << true << false;
        QTest::newRow("packer_transB") << true << true;
    }
    void densePackedMatchesGemm() {
        QFETCH(bool, withPacker);
        QFETCH(bool, transB);
        NDArray a = randomArray({3, 5}, 34), bw = randomArray(transB ? Shape{20, 5} : Shape{5, 20}, 35),
                c = randomArray({20}, 36);
        topi::nn::GemmParams p{.transB = transB, .alpha = 0.5, .beta = 2.0};
        auto reference = runCompute({a, bw, c}, [&](const Tensors& in) {
            return Tensors{topi::nn::gemm(in[0], in[1], in[2], p)};
        });
        QVERIFY2(reference.error.empty(), reference.error.c_str());
        Tensors args = placeholders({a, bw, c});
        QVERIFY(topi::nn::densePackedApplies(args[0], args[1], p));
        QVERIFY(!topi::nn::densePackedApplies(args[0], args[1], {.transA = true}));
        TestPacker packer;
        packer.know(args[1], bw);
        OpRun r;
        try {
            Tensors outs{topi::nn::densePacked(args[0], args[1], args[2], p, "fc", withPacker ? &packer : nullptr)};
            std::vector<NDArray> buffers{a, bw, c};
            args.insert(args.end(), packer.args.begin(), packer.args.end());
            buffers.insert(buffers.end(), packer.buffers.begin(), packer.buffers.end());
            runTensors(r, args, buffers, outs);
        } catch (const std::exception& e) {
            r.error = e.what();
        }
        CHECK_CLOSE(r, reference.outputs[0]);
        QVERIFY(isReduction(stageTagged(r, topi::tag::kDensePacked)));
        QCOMPARE(packer.args.size(), size_t(withPacker ? 1 : 0));
    }

    // The packed dense layer's panels per task: enough accumulator vectors
    // (8) to hide the multiply-add latency, within the register file. A GEMV
    // (one row) took one panel before: 2 vectors under AVX2, 1 under AVX-512.
    void densePackedPanelsFillThePipes_data() {
        QTest::addColumn<int>("lanes");
        QTest::addColumn<int>("registers");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("panels");
        QTest::newRow("avx2 gemv") << 8 << 16 << 1 << 512 << 4;
        QTest::newRow("avx512 gemv") << 16 << 32 << 1 << 512 << 8;
        QTest::newRow("avx2 gemv 1000 columns") << 8 << 16 << 1 << 1000 << 3; // 63 panels: 3 divides
        QTest::newRow("avx2 4 rows") << 8 << 16 << 4 << 512 << 1;
        QTest::newRow("avx512 4 rows") << 16 << 32 << 4 << 512 << 2;
    }
    void densePackedPanelsFillThePipes() {
        QFETCH(int, lanes);
        QFETCH(int, registers);
        QFETCH(int, rows);
        QFETCH(int, n);
        QFETCH(int, panels);
        te::Tensor a = te::placeholder(topi::toExprs({rows, 128}), DataType::float32(), "a");
        te::Tensor b = te::placeholder(topi::toExprs({128, n}), DataType::float32(), "b");
        te::Tensor out = topi::nn::densePacked(a, b, {}, {}, "fc", nullptr);
        te::Schedule s = te::createSchedule({out->op});
        te::Tensor acc;
        for (te::Stage st : s.stages())
            if (st.op()->tag == topi::tag::kDensePacked) acc = st.op().output(0);
        topi::ScheduleOptions options;
        options.vectorLanes = lanes;
        options.vectorRegisters = registers;
        te::ConfigSpace cfg;
        topi::scheduleDensePacked(s, acc, out, options, cfg);
        const auto& knobs = cfg.knobs();
        auto it = std::find_if(knobs.begin(), knobs.end(), [](const te::Knob& k) { return k.name == "tile_n"; });
        QVERIFY(it != knobs.end());
        QCOMPARE(it->choices[size_t(it->chosen)].ints().back(), int64_t(panels));
        // No choice holds more accumulator vectors of one row than the registers.
        for (const auto& c : it->choices) QVERIFY(c.ints().back() * (16 / lanes) <= registers - 3);
        // Below 2^18 multiply-adds (a GEMV of 128 x 512) the product stays on one thread.
        const std::string tir = tir::toString(driver::lowerSchedule(s, {a, b, out}, "fc").lowered);
        QCOMPARE(tir.find("T.parallel") != std::string::npos, rows * 128 * n >= (1 << 18));
    }

    // dense is gemm with B transposed and C as a row bias.
    void denseIsGemmTransposedB() {
        NDArray x = randomArray({2, 6}, 40), w = randomArray({4, 6}, 41), b = randomArray({4}, 42);
        auto d = runCompute({x, w, b}, [](const Tensors& in) { return Tensors{topi::nn::dense(in[0], in[1], in[2])}; });
        auto g = runCompute({x, w, b}, [](const Tensors& in) {
            return Tensors{topi::nn::gemm(in[0], in[1], in[2], {.transB = true})};
        });
        QVERIFY2(g.error.empty(), g.error.c_str());
        CHECK_CLOSE(d, g.outputs[0]);
        QVERIFY(isReduction(stageTagged(d, topi::tag::kDense)));
    }

    // ------------------------------------------------------------------
    // The default schedules (topi::scheduleFused, as the model compiler runs
    // them) of MatMul and ConvTranspose, against the plain-loop references.

    // MatMul of rank 2, 3 and 4: a constant B through the packed dense layer
    // (packed by the packer or by a stage), two activations through the
    // blocked batched schedule; with and without an element-wise epilogue
    // (2 * x + 1) fused after the product.
    void matmulScheduled_data() {
        QTest::addColumn<Shape>("a");
        QTest::addColumn<Shape>("b");
        QTest::addColumn<Shape>("out");
        QTest::addColumn<int>("constB"); // 0: activation, 1: packed by a stage, 2: by the packer
        QTest::addColumn<bool>("epilogue");
        for (int e = 0; e < 2; ++e) {
            const bool ep = e == 1;
            const char* sfx = ep ? "_epilogue" : "";
            auto row = [&](const char* name) -> QTestData& { return QTest::newRow((std::string(name) + sfx).c_str()); };
            row("2d_const_partial_panel") << Shape{37, 20} << Shape{20, 24} << Shape{37, 24} << 2 << ep;
            row("3d_const_stage") << Shape{2, 37, 20} << Shape{20, 40} << Shape{2, 37, 40} << 1 << ep;
            row("3d_const_m1") << Shape{33, 1, 20} << Shape{20, 32} << Shape{33, 1, 32} << 2 << ep;
            row("4d_const") << Shape{2, 3, 5, 20} << Shape{20, 17} << Shape{2, 3, 5, 17} << 2 << ep;
            row("2d") << Shape{37, 20} << Shape{20, 48} << Shape{37, 48} << 0 << ep;
            row("3d_attention") << Shape{8, 12, 16} << Shape{8, 16, 64} << Shape{8, 12, 64} << 0 << ep;
            row("3d_odd_n") << Shape{3, 7, 9} << Shape{3, 9, 10} << Shape{3, 7, 10} << 0 << ep;
            row("4d") << Shape{2, 4, 8, 16} << Shape{2, 4, 16, 32} << Shape{2, 4, 8, 32} << 0 << ep;
            row("4d_broadcast") << Shape{2, 1, 6, 16} << Shape{3, 16, 32} << Shape{2, 3, 6, 32} << 0 << ep;
        }
    }
    void matmulScheduled() {
        QFETCH(Shape, a);
        QFETCH(Shape, b);
        QFETCH(Shape, out);
        QFETCH(int, constB);
        QFETCH(bool, epilogue);
        NDArray x = randomArray(a, 60), y = randomArray(b, 61);
        NDArray want = matmulRef(x, y, out);
        if (epilogue)
            for (int64_t i = 0; i < want.numElements(); ++i) want.data<float>()[i] = 2 * want.data<float>()[i] + 1;
        Tensors args = placeholders({x, y});
        TestPacker packer;
        packer.know(args[1], y);
        OpRun r;
        try {
            te::Tensor mm = constB ? topi::nn::matmulPacked(args[0], args[1], "mm", constB == 2 ? &packer : nullptr)
                                   : topi::nn::matmul(args[0], args[1], "mm");
            te::Tensor o = mm;
            if (epilogue)
                o = te::compute(mm->shape, [&](const std::vector<tir::Var>& i) {
                    return mm(topi::exprs(i)) * topi::constant(DataType::float32(), 2.0) +
                           topi::constant(DataType::float32(), 1.0);
                }, "twice_plus_one", topi::tag::kElemWise);
            std::vector<NDArray> buffers{x, y};
            args.insert(args.end(), packer.args.begin(), packer.args.end());
            buffers.insert(buffers.end(), packer.buffers.begin(), packer.buffers.end());
            runTensors(r, args, buffers, {o}, [](const std::vector<te::Operation>& ops) {
                std::vector<te::Tensor> outs;
                for (auto& op : ops) outs.push_back(op.output(0));
                return topi::scheduleFused(outs);
            });
        } catch (const std::exception& e) {
            r.error = e.what();
        }
        CHECK_CLOSE(r, want);
        QVERIFY(isReduction(stageTagged(r, constB ? topi::tag::kDensePacked : topi::tag::kDense)));
        QCOMPARE(packer.args.size(), size_t(constB == 2 ? 1 : 0));
    }

    // The batched schedule's knobs: an empty config is the heuristic (4 rows,
    // 4 vectors of columns), and every other choice computes the same product.
    void matmulScheduleKnobs() {
        NDArray x = randomArray({4, 12, 16}, 62), y = randomArray({4, 16, 64}, 63);
        NDArray want = matmulRef(x, y, {4, 12, 64});
        auto run = [&](std::map<std::string, int64_t> config, std::vector<te::Knob>* knobs) {
            Tensors args = placeholders({x, y});
            OpRun r;
            try {
                te::Tensor mm = topi::nn::matmul(args[0], args[1], "mm");
                runTensors(r, args, {x, y}, {mm}, [&](const std::vector<te::Operation>& ops) {
                    te::Schedule s = te::createSchedule(ops);
                    te::ConfigSpace cfg(config);
                    topi::scheduleMatmul(s, mm, mm, {}, cfg);
                    cfg.checkConfigUsed();
                    if (knobs) *knobs = cfg.knobs();
                    return s;
                });
            } catch (const std::exception& e) {
                r.error = e.what();
            }
            return r;
        };
        std::vector<te::Knob> knobs;
        OpRun byDefault = run({}, &knobs);
        CHECK_CLOSE(byDefault, want);
        QCOMPARE(knobs.size(), size_t(2));
        QCOMPARE(knobs[0].name, std::string("tile_x"));
        QCOMPARE(knobs[0].value().ints(), (std::vector<int64_t>{1, 64}));
        QCOMPARE(knobs[1].name, std::string("tile_y"));
        QCOMPARE(knobs[1].value().ints(), (std::vector<int64_t>{3, 4}));
        // Whole vectors only: 16, 32 and 64 columns.
        QCOMPARE(knobs[0].size(), int64_t(3));
        for (int64_t ix = 0; ix < knobs[0].size(); ++ix)
            for (int64_t iy = 0; iy < knobs[1].size(); ++iy) {
                OpRun r = run({{"tile_x", ix}, {"tile_y", iy}}, nullptr);
                CHECK_CLOSE(r, want);
            }
    }

};

QTEST_GUILESS_MAIN(TestTopiDense)
#include "tst_topi_dense.moc"
