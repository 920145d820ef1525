// The reductions, softmax and normalisation computes against ONNX's node tests.
//
// ReduceSum's axes (an input from opset 13) are bound to their test values as
// constants (the second column).
//
// Not listed:
// - test_layer_normalization_*_expanded compute their Reshape targets with
//   Shape/Slice/Concat at run time; importing them needs constant folding (a
//   graph pass), which this operator-level harness does not run.
#include "TopiTestUtil.h"
#include "topi/Tags.h"

#include <QtTest>

#include <cmath>

class TestTopiReduce : public QObject {
    Q_OBJECT
private slots:
    void nodeTests_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QList<int>>("constantInputs");
        auto row = [](const std::string& name, QList<int> constants) {
            QTest::newRow(name.c_str()) << QString::fromStdString(name) << constants;
        };
        for (const char* op : {"max", "mean", "min", "prod", "sum"}) {
            const std::string p = std::string("test_reduce_") + op;
            QList<int> axes = std::string(op) == "sum" ? QList<int>{1} : QList<int>{};
            // ReduceMax names one of them "keepdim" (sic).
            row(p + (std::string(op) == "max" ? "_default_axes_keepdim_example"
                                              : "_default_axes_keepdims_example"),
                axes);
            for (const char* c :
                 {"_default_axes_keepdims_random", "_do_not_keepdims_example",
                  "_do_not_keepdims_random", "_keepdims_example", "_keepdims_random",
                  "_negative_axes_keepdims_example", "_negative_axes_keepdims_random"})
                row(p + c, axes);
        }
        row("test_reduce_sum_empty_axes_input_noop_example", {1});
        row("test_reduce_sum_empty_axes_input_noop_random", {1});
        for (const char* op : {"softmax", "logsoftmax"}) {
            const std::string p = std::string("test_") + op;
            for (const char* c :
                 {"_axis_0", "_axis_1", "_axis_2", "_default_axis", "_large_number",
                  "_negative_axis", std::string(op) == "softmax" ? "_example" : "_example_1"}) {
                row(p + c, {});
                row(p + c + "_expanded", {});
            }
        }
        for (const char* n :
             {"test_reduce_l1_default_axes_keepdims_random", "test_reduce_l1_do_not_keepdims_example",
              "test_reduce_l2_keep_dims_random", "test_reduce_l2_negative_axes_keep_dims_example",
              "test_reduce_log_sum", "test_reduce_log_sum_default", "test_reduce_log_sum_negative_axes",
              "test_reduce_log_sum_exp_do_not_keepdims_random", "test_reduce_log_sum_exp_default_axes_keepdims_example",
              "test_reduce_sum_square_keepdims_random", "test_reduce_sum_square_negative_axes_keepdims_example",
              "test_argmax_keepdims_random", "test_argmax_no_keepdims_example_select_last_index",
              "test_argmax_negative_axis_keepdims_random_select_last_index", "test_argmin_default_axis_random",
              "test_argmin_no_keepdims_example_select_last_index", "test_argmin_keepdims_example",
              "test_hardmax_axis_0", "test_hardmax_axis_2", "test_hardmax_example", "test_hardmax_one_hot",
              "test_lrn", "test_lrn_default", "test_mvn"})
            row(n, {});
        for (const char* n : {"test_cumsum_1d", "test_cumsum_1d_exclusive", "test_cumsum_1d_reverse",
                              "test_cumsum_1d_reverse_exclusive", "test_cumsum_2d_axis_0", "test_cumsum_2d_negative_axis"})
            row(n, {1});
        for (const char* n : {"test_layer_normalization_2d_axis0",
                              "test_layer_normalization_2d_axis1",
                              "test_layer_normalization_2d_axis_negative_1",
                              "test_layer_normalization_2d_axis_negative_2",
                              "test_layer_normalization_3d_axis0_epsilon",
                              "test_layer_normalization_3d_axis1_epsilon",
                              "test_layer_normalization_3d_axis2_epsilon",
                              "test_layer_normalization_3d_axis_negative_1_epsilon",
                              "test_layer_normalization_3d_axis_negative_2_epsilon",
                              "test_layer_normalization_3d_axis_negative_3_epsilon",
                              "test_layer_normalization_4d_axis0",
                              "test_layer_normalization_4d_axis1",
                              "test_layer_normalization_4d_axis2",
                              "test_layer_normalization_4d_axis3",
                              "test_layer_normalization_4d_axis_negative_1",
                              "test_layer_normalization_4d_axis_negative_2",
                              "test_layer_normalization_4d_axis_negative_3",
                              "test_layer_normalization_4d_axis_negative_4",
                              "test_layer_normalization_default_axis",
                              "test_instancenorm_epsilon",
                              "test_instancenorm_example"})
            row(n, {});
    }
    void nodeTests() {
        QFETCH(QString, name);
        QFETCH(QList<int>, constantInputs);
        tessel::topi::test::NodeTestOptions o;
        o.constantInputs.assign(constantInputs.begin(), constantInputs.end());
        auto r = tessel::topi::test::runNodeTest(name.toStdString(), o);
        QVERIFY2(r.failure.empty(), r.failure.c_str());
    }

    // Reductions to a scalar (all axes, keepdims=0; softmax of a vector), which
    // no node test has: 0-d reduction stages.
    void scalarResults() {
        using namespace tessel;
        graph::Graph g("scalars");
        auto x = g.addInput("x", *graph::TensorType::parse("float32[2, 3]"));
        auto v = g.addInput("v", *graph::TensorType::parse("float32[4]"));
        graph::Attributes flat;
        flat.set("keepdims", int64_t(0));
        graph::Attributes axis0;
        axis0.set("axis", int64_t(0));
        g.setOutputs({g.addOp("ReduceSum", {x}, flat), g.addOp("ReduceMax", {x}, flat),
                      g.addOp("ReduceMean", {x}, flat), g.addOp("Softmax", {v}, axis0),
                      g.addOp("LogSoftmax", {v}, axis0)});
        g = graph::inferShapes(g);
        const std::vector<double> vs{1, 2, 3, 1000};
        double m = 1000, sum = 0;
        for (double e : vs)
            sum += std::exp(e - m);
        std::vector<double> soft, logSoft;
        for (double e : vs) {
            soft.push_back(std::exp(e - m) / sum);
            logSoft.push_back(e - m - std::log(sum));
        }
        auto r = topi::test::runGraphTest(
            g,
            {{"x", graph::Constant::fromFloats({2, 3}, {1, 2, 3, 4, 5, 6})},
             {"v", graph::Constant::fromFloats({4}, vs)}},
            {graph::Constant::fromFloats({}, {21}), graph::Constant::fromFloats({}, {6}),
             graph::Constant::fromFloats({}, {3.5}), graph::Constant::fromFloats({4}, soft),
             graph::Constant::fromFloats({4}, logSoft)});
        QVERIFY2(r.failure.empty(), r.failure.c_str());
    }

    // Rows whose length is a multiple of 8 or 16 are reduced as vector-wide
    // partial results (kReduceLanes) under the model compiler's schedule:
    // softmax and log-softmax over the last axis and whole-vector reductions,
    // against the formulas in double.
    void rowReductionsInVectorLanes() {
        using namespace tessel;
        graph::Graph g("rows");
        auto x = g.addInput("x", *graph::TensorType::parse("float32[3, 48]"));
        auto y = g.addInput("y", *graph::TensorType::parse("float32[2, 5, 40]"));
        auto v = g.addInput("v", *graph::TensorType::parse("float32[64]"));
        graph::Attributes last;
        last.set("axis", int64_t(-1));
        graph::Attributes flat;
        flat.set("keepdims", int64_t(0));
        g.setOutputs({g.addOp("Softmax", {x}, last), g.addOp("LogSoftmax", {y}, last), g.addOp("ReduceSum", {v}, flat),
                      g.addOp("ReduceMax", {v}, flat)});
        g = graph::inferShapes(g);
        auto values = [](size_t n, double scale, double shift) {
            std::vector<double> out;
            for (size_t i = 0; i < n; ++i) out.push_back(std::sin(double(i) * 0.37) * scale + shift);
            return out;
        };
        const auto xs = values(3 * 48, 4, 1), ys = values(2 * 5 * 40, 30, -7), vs = values(64, 2, 0.5);
        auto rowsOf = [](const std::vector<double>& in, size_t row, bool log) {
            std::vector<double> out;
            for (size_t r = 0; r < in.size() / row; ++r) {
                double m = -1e300, sum = 0;
                for (size_t i = 0; i < row; ++i) m = std::max(m, in[r * row + i]);
                for (size_t i = 0; i < row; ++i) sum += std::exp(in[r * row + i] - m);
                for (size_t i = 0; i < row; ++i)
                    out.push_back(log ? in[r * row + i] - m - std::log(sum) : std::exp(in[r * row + i] - m) / sum);
            }
            return out;
        };
        double vsum = 0, vmax = -1e300;
        for (double e : vs) vsum += e, vmax = std::max(vmax, e);
        auto r = topi::test::runGraphTest(g,
                                          {{"x", graph::Constant::fromFloats({3, 48}, xs)},
                                           {"y", graph::Constant::fromFloats({2, 5, 40}, ys)},
                                           {"v", graph::Constant::fromFloats({64}, vs)}},
                                          {graph::Constant::fromFloats({3, 48}, rowsOf(xs, 48, false)),
                                           graph::Constant::fromFloats({2, 5, 40}, rowsOf(ys, 40, true)),
                                           graph::Constant::fromFloats({}, {vsum}), graph::Constant::fromFloats({}, {vmax})});
        QVERIFY2(r.failure.empty(), r.failure.c_str());
        // The computes have the partial stage (16 partials of a 48-long row, 8 of 40).
        te::Tensor t = te::placeholder(topi::toExprs({3, 48}), DataType::float32(), "t");
        te::Tensor soft = topi::nn::softmax(t, -1);
        int lanes = 0;
        for (te::Stage st : te::createSchedule({soft->op}).stages())
            if (st.op()->tag == topi::tag::kReduceLanes) ++lanes;
        QCOMPARE(lanes, 2); // the maxima and the sums
    }

    // ArgMax and ArgMin on rows of ties: the first index, or the last with
    // select_last_index; and Hardmax marks the first maximum only.
    void argReductionTies() {
        using namespace tessel;
        using runtime::NDArray;
        using topi::test::Tensors;
        const std::vector<float> xs{2, 5, 5, 1, 1, 0, 0, 0, 3, 3, 3, -1};
        NDArray x({3, 4}, DataType::float32());
        std::copy(xs.begin(), xs.end(), x.data<float>());
        for (bool last : {false, true})
            for (bool isMax : {true, false}) {
                auto r = topi::test::runCompute({x}, [&](const Tensors& in) {
                    topi::ArgReduceParams p;
                    p.axis = 1;
                    p.keepDims = false;
                    p.selectLastIndex = last;
                    p.isMax = isMax;
                    return Tensors{topi::argReduce(in[0], p)};
                });
                QVERIFY2(r.error.empty(), r.error.c_str());
                for (int row = 0; row < 3; ++row) {
                    int64_t want = -1;
                    for (int j = 0; j < 4; ++j) {
                        const float v = xs[size_t(row * 4 + j)];
                        const bool better = want < 0 || (isMax ? v > xs[size_t(row * 4 + want)] : v < xs[size_t(row * 4 + want)]);
                        const bool tie = want >= 0 && v == xs[size_t(row * 4 + want)];
                        if (better || (last && tie)) want = j;
                    }
                    QCOMPARE(r.outputs[0].data<int64_t>()[row], want);
                }
            }
        auto r = topi::test::runCompute({x}, [](const Tensors& in) { return Tensors{topi::hardmax(in[0], 1)}; });
        QVERIFY2(r.error.empty(), r.error.c_str());
        const std::vector<float> want{0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
        for (size_t i = 0; i < want.size(); ++i)
            QCOMPARE(r.outputs[0].data<float>()[i], want[i]);
    }

    // The typed computes, called directly as a TE script would.
    void typedComputes() {
        using namespace tessel;
        using runtime::NDArray;
        using topi::test::Tensors;
        NDArray x({2, 3, 4}, DataType::float32());
        x.fillRandom(3);
        const float* xd = x.data<float>();
        auto r = topi::test::runCompute({x}, [](const Tensors& in) {
            return Tensors{topi::reduce(in[0], topi::ReduceOp::Mean, {.axes = {0, -1}, .keepDims = false})};
        });
        QVERIFY2(r.error.empty(), r.error.c_str());
        QCOMPARE(r.outputs[0].shape(), (std::vector<int64_t>{3}));
        for (int j = 0; j < 3; ++j) {
            double sum = 0;
            for (int i = 0; i < 2; ++i)
                for (int k = 0; k < 4; ++k)
                    sum += xd[(i * 3 + j) * 4 + k];
            QVERIFY(std::abs(r.outputs[0].data<float>()[j] - sum / 8) < 1e-5);
        }
        // Softmax rows sum to one; the max and sum stages are reductions.
        r = topi::test::runCompute({x}, [](const Tensors& in) { return Tensors{topi::nn::softmax(in[0], 1)}; });
        QVERIFY2(r.error.empty(), r.error.c_str());
        for (int i = 0; i < 2; ++i)
            for (int k = 0; k < 4; ++k) {
                double sum = 0;
                for (int j = 0; j < 3; ++j)
                    sum += r.outputs[0].data<float>()[(i * 3 + j) * 4 + k];
                QVERIFY(std::abs(sum - 1.0) < 1e-5);
            }
        // layerNorm's statistics keep the normalised axes with extent 1.
        NDArray scale({4}, DataType::float32());
        scale.fillRandom(4);
        r = topi::test::runCompute({x, scale}, [](const Tensors& in) {
            auto n = topi::nn::layerNorm(in[0], in[1], {}, {.axis = -1, .epsilon = 1e-3});
            return Tensors{n.output, n.mean, n.invStdDev};
        });
        QVERIFY2(r.error.empty(), r.error.c_str());
        QCOMPARE(r.outputs[1].shape(), (std::vector<int64_t>{2, 3, 1}));
        double mean = (xd[0] + xd[1] + xd[2] + xd[3]) / 4;
        QVERIFY(std::abs(r.outputs[1].data<float>()[0] - mean) < 1e-5);
        r = topi::test::runCompute({x}, [](const Tensors& in) {
            return Tensors{topi::reduce(in[0], topi::ReduceOp::Sum, {.axes = {3}})};
        });
        QVERIFY2(r.error.find("axis 3 is out of range for rank 3") != std::string::npos, r.error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestTopiReduce)
#include "tst_topi_reduce.moc"
