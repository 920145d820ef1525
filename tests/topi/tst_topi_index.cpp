// The computes of the indexing operators (gathers, scatters, OneHot, TopK,
// ReverseSequence, Trilu, EyeLike, MaxPool's indices, MaxUnpool), RoiAlign,
// Det, Einsum, the losses, linear quantisation, the signal operators and
// GridSample: against ONNX's node tests, and the
// rules those tests leave open (TopK's ties, scatters onto one element,
// Einsum's forms) against small reference implementations written here.
//
// Inputs that carry a shape or a count (OneHot's depth, TopK's K, STFT's
// frame step and length, MaxUnpool's output_shape) are bound to their test values as constants (the
// second column).
#include "TopiTestUtil.h"
#include "graph/passes/InferShapes.h"
#include "ir/AxisMath.h"
#include "topi/Einsum.h"
#include "topi/Index.h"

#include <QtTest>

#include <algorithm>
#include <numeric>

using namespace tessel;

namespace {

graph::Attributes attrs(std::initializer_list<std::pair<const char*, graph::AttrValue>> kv) {
    graph::Attributes a;
    for (auto& [k, v] : kv) a.set(k, v);
    return a;
}

} // namespace

class TestTopiIndex : public QObject {
    Q_OBJECT
private slots:
    void nodeTests_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QList<int>>("constantInputs");
        auto row = [](const std::string& name, QList<int> constants = {}) {
            QTest::newRow(name.c_str()) << QString::fromStdString(name) << constants;
        };
        for (const char* n : {"test_gather_elements_0", "test_gather_elements_1", "test_gather_elements_negative_indices",
                              "test_gathernd_example_float32", "test_gathernd_example_int32",
                              "test_gathernd_example_int32_batch_dim1", "test_scatter_elements_with_axis",
                              "test_scatter_elements_with_duplicate_indices", "test_scatter_elements_with_negative_indices",
                              "test_scatter_elements_without_axis", "test_scatter_with_axis", "test_scatternd",
                              "test_scatternd_add", "test_scatternd_multiply", "test_reversesequence_batch",
                              "test_reversesequence_time", "test_tril", "test_tril_neg", "test_triu_one_row",
                              "test_triu_square_neg", "test_tril_out_pos", "test_eyelike_populate_off_main_diagonal",
                              "test_eyelike_with_dtype", "test_eyelike_without_dtype", "test_einsum_batch_diagonal",
                              "test_einsum_batch_matmul", "test_einsum_inner_prod", "test_einsum_sum",
                              "test_einsum_transpose", "test_nllloss_NCd1_mean_weight_negative_ii",
                              "test_nllloss_NCd1d2_no_weight_reduction_mean_ii", "test_nllloss_NCd1d2d3_sum_weight_high_ii",
                              "test_nllloss_NCd1d2d3d4d5_none_no_weight", "test_sce_mean_weight_ii_3d_log_prob",
                              "test_sce_NCd1d2d3_none_no_weight_negative_ii_log_prob", "test_sce_sum",
                              "test_quantizelinear", "test_quantizelinear_axis", "test_dequantizelinear",
                              "test_dequantizelinear_axis", "test_dynamicquantizelinear",
                              "test_dynamicquantizelinear_min_adjusted", "test_hannwindow", "test_hammingwindow_symmetric",
                              "test_blackmanwindow", "test_dft", "test_dft_axis", "test_dft_inverse", "test_gridsample",
                              "test_gridsample_aligncorners_true", "test_gridsample_bicubic", "test_gridsample_nearest",
                              "test_gridsample_border_padding", "test_gridsample_reflection_padding",
                              "test_maxpool_with_argmax_2d_precomputed_pads",
                              "test_maxpool_with_argmax_2d_precomputed_strides", "test_maxunpool_export_without_output_shape",
                              "test_roialign_aligned_false", "test_roialign_aligned_true", "test_det_2d", "test_det_nd"})
            row(n);
        row("test_maxunpool_export_with_output_shape", {2});
        for (const char* n : {"test_onehot_with_axis", "test_onehot_negative_indices", "test_onehot_without_axis",
                              "test_top_k", "test_top_k_negative_axis", "test_top_k_smallest", "test_stft_with_window"})
            row(n, {1});
        row("test_stft", {1, 2});
    }
    void nodeTests() {
        QFETCH(QString, name);
        QFETCH(QList<int>, constantInputs);
        topi::test::NodeTestOptions o;
        o.constantInputs.assign(constantInputs.begin(), constantInputs.end());
        auto r = topi::test::runNodeTest(name.toStdString(), o);
        QVERIFY2(r.failure.empty(), r.failure.c_str());
    }

    // TopK on rows with ties: equal elements come out lower index first (ONNX),
    // largest and smallest, against a stable sort.
    void topKTiesKeepIndexOrder() {
        const std::vector<double> xs{3, 1, 3, 2, 3, 1, 0, 2, 2, 2, 5, 2};
        for (bool largest : {true, false}) {
            graph::Graph g("topk");
            auto x = g.addInput("x", *graph::TensorType::parse("float32[2, 6]"));
            auto k = g.addConstant("k", graph::Constant::fromInts({1}, {4}));
            auto outs = g.addNode("TopK", {x, k}, attrs({{"largest", int64_t(largest)}}), 2, "topk")->outputs();
            g.setOutputs(outs);
            g = graph::inferShapes(g);
            std::vector<double> values;
            std::vector<int64_t> indices;
            for (int r = 0; r < 2; ++r) {
                std::vector<int64_t> order(6);
                std::iota(order.begin(), order.end(), 0);
                std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
                    return largest ? xs[size_t(r * 6 + a)] > xs[size_t(r * 6 + b)]
                                   : xs[size_t(r * 6 + a)] < xs[size_t(r * 6 + b)];
                });
                for (int j = 0; j < 4; ++j) {
                    indices.push_back(order[size_t(j)]);
                    values.push_back(xs[size_t(r * 6 + order[size_t(j)])]);
                }
            }
            auto res = topi::test::runGraphTest(g, {{"x", graph::Constant::fromFloats({2, 6}, xs)}},
                                                {graph::Constant::fromFloats({2, 4}, values),
                                                 graph::Constant::fromInts({2, 4}, indices)});
            QVERIFY2(res.failure.empty(), (std::string(largest ? "largest: " : "smallest: ") + res.failure).c_str());
        }
    }

    // Several updates onto one element: add sums them and mul multiplies them
    // into the data (ScatterND and ScatterElements), a negative index counting
    // from the end.
    void scattersCombineUpdatesOnOneElement() {
        const std::vector<double> data{1, 2, 3, 4, 5, 6};
        const std::vector<int64_t> rows{1, 1, 4, -1}; // -1 is the last element (5)
        const std::vector<double> upd{10, 20, 30, 40};
        for (const char* red : {"add", "mul"}) {
            std::vector<double> want = data;
            for (size_t j = 0; j < rows.size(); ++j) {
                const auto at = static_cast<size_t>(rows[j] < 0 ? rows[j] + 6 : rows[j]);
                want[at] = std::string(red) == "add" ? want[at] + upd[j] : want[at] * upd[j];
            }
            graph::Graph g("scatter");
            auto d = g.addInput("d", *graph::TensorType::parse("float32[6]"));
            auto u = g.addInput("u", *graph::TensorType::parse("float32[4]"));
            auto nd = g.addConstant("nd", graph::Constant::fromInts({4, 1}, rows));
            auto el = g.addConstant("el", graph::Constant::fromInts({4}, rows));
            g.setOutputs({g.addOp("ScatterND", {d, nd, u}, attrs({{"reduction", std::string(red)}})),
                          g.addOp("ScatterElements", {d, el, u}, attrs({{"reduction", std::string(red)}}))});
            g = graph::inferShapes(g);
            auto res = topi::test::runGraphTest(
                g, {{"d", graph::Constant::fromFloats({6}, data)}, {"u", graph::Constant::fromFloats({4}, upd)}},
                {graph::Constant::fromFloats({6}, want), graph::Constant::fromFloats({6}, want)});
            QVERIFY2(res.failure.empty(), (std::string(red) + ": " + res.failure).c_str());
        }
    }

    // Einsum's forms against loops written out: trace, diagonal, transpose,
    // outer product, an implicit output, and batched products whose ellipsis
    // broadcasts.
    void einsumForms_data() {
        QTest::addColumn<QString>("equation");
        QTest::addColumn<QList<int>>("shapeA"); // operand shapes; an empty B: one operand
        QTest::addColumn<QList<int>>("shapeB");
        QTest::newRow("trace") << "ii" << QList<int>{4, 4} << QList<int>{};
        QTest::newRow("diagonal") << "ii->i" << QList<int>{3, 3} << QList<int>{};
        QTest::newRow("transpose") << "ij->ji" << QList<int>{2, 5} << QList<int>{};
        QTest::newRow("sum all") << "ijk->" << QList<int>{2, 3, 4} << QList<int>{};
        QTest::newRow("outer") << "i,j->ij" << QList<int>{3} << QList<int>{4};
        QTest::newRow("implicit matmul") << "ij,jk" << QList<int>{2, 3} << QList<int>{3, 5};
        QTest::newRow("ellipsis broadcast") << "...ij,...jk->...ik" << QList<int>{2, 1, 3, 4} << QList<int>{5, 4, 2};
        QTest::newRow("contract two") << "abc,cba->b" << QList<int>{2, 3, 4} << QList<int>{4, 3, 2};
    }
    void einsumForms() {
        QFETCH(QString, equation);
        QFETCH(QList<int>, shapeA);
        QFETCH(QList<int>, shapeB);
        using runtime::NDArray;
        std::vector<NDArray> ins;
        for (const auto& s : {shapeA, shapeB})
            if (!s.isEmpty()) {
                ins.emplace_back(std::vector<int64_t>(s.begin(), s.end()), DataType::float64());
                ins.back().fillRandom(uint64_t(ins.size()));
            }
        const std::string eq = equation.toStdString();
        auto r = topi::test::runCompute(ins, [&](const topi::test::Tensors& in) {
            return topi::test::Tensors{topi::einsum(eq, in)};
        });
        QVERIFY2(r.error.empty(), r.error.c_str());
        // The reference: every assignment of the letters, products added into
        // the output element they name (extent-1 ellipsis axes read index 0).
        std::vector<int64_t> ranks;
        for (auto& a : ins) ranks.push_back(int64_t(a.shape().size()));
        const EinsumTerms t = parseEinsum(eq, ranks);
        QVERIFY2(t.error.empty(), t.error.c_str());
        std::map<char, int64_t> extent;
        for (size_t k = 0; k < ins.size(); ++k)
            for (size_t d = 0; d < t.inputs[k].size(); ++d)
                extent[t.inputs[k][d]] = std::max(extent[t.inputs[k][d]], ins[k].shape()[d]);
        std::vector<char> letters;
        for (auto& [c, n] : extent) letters.push_back(c);
        std::vector<int64_t> outShape;
        for (char c : t.output) outShape.push_back(extent[c]);
        QCOMPARE(r.outputs[0].shape(), outShape);
        std::vector<double> want(size_t(std::max<int64_t>(1, r.outputs[0].numElements())), 0.0);
        std::map<char, int64_t> at;
        std::function<void(size_t)> visit = [&](size_t l) {
            if (l < letters.size()) {
                for (int64_t v = 0; v < extent[letters[l]]; ++v) {
                    at[letters[l]] = v;
                    visit(l + 1);
                }
                return;
            }
            double p = 1;
            for (size_t k = 0; k < ins.size(); ++k) {
                int64_t flat = 0;
                for (size_t d = 0; d < t.inputs[k].size(); ++d) {
                    const int64_t n = ins[k].shape()[d];
                    flat = flat * n + (n == 1 ? 0 : at[t.inputs[k][d]]);
                }
                p *= ins[k].data<double>()[flat];
            }
            int64_t o = 0;
            for (char c : t.output) o = o * extent[c] + at[c];
            want[size_t(o)] += p;
        };
        visit(0);
        const double* got = r.outputs[0].data<double>();
        for (size_t i = 0; i < want.size(); ++i)
            QVERIFY2(std::abs(got[i] - want[i]) <= 1e-9 * (1 + std::abs(want[i])),
                     (eq + ": element " + std::to_string(i) + " is " + std::to_string(got[i]) + ", want " +
                      std::to_string(want[i]))
                         .c_str());
    }

    // Bad input is a CompileError with its reason, never a crash.
    void badInputsAreErrors() {
        using namespace tessel::topi;
        te::Tensor x = te::placeholder(toExprs({3, 4}), DataType::float32(), "x");
        te::Tensor i = te::placeholder(toExprs({3}), DataType::int64(), "i");
        QVERIFY_THROWS_EXCEPTION(CompileError, topK(x, 5));
        QVERIFY_THROWS_EXCEPTION(CompileError, einsum("ij,jk->ik", {x}));
        QVERIFY_THROWS_EXCEPTION(CompileError, einsum("ij->ik", {x}));
        QVERIFY_THROWS_EXCEPTION(CompileError, gatherElements(x, i));
        QVERIFY_THROWS_EXCEPTION(CompileError, oneHot(i, 0, x));
        QCOMPARE(QString::fromStdString(parseEinsum("ij,j", {2}).error),
                 QString("the equation names 2 operands, there are 1"));
        QCOMPARE(QString::fromStdString(parseEinsum("i1", {2}).error), QString("'1' is not an axis letter"));
    }
};

QTEST_GUILESS_MAIN(TestTopiIndex)
#include "tst_topi_index.moc"
