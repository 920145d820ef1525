// The convolution, matrix-product and pooling computes against ONNX's node
// tests, PyTorch's exported module and operator tests (opset 6 models), and
// plain-loop references for the attribute combinations those leave out.
#include "TopiNnTestUtil.h"
#include "topi/ConvTransposeNCHWc.h"
#include "topi/DensePacked.h"
#include "topi/Schedule.h"
#include "codegen/Target.h"
#include "tir/IRPrinter.h"

#include <QtTest>

namespace {

using namespace tessel;
using runtime::NDArray;
using Shape = std::vector<int64_t>;
using topi::test::OpRun;
using topi::test::placeholders;
using topi::test::runCompute;
using topi::test::runTensors;
using topi::test::Tensors;
using topi::test::TestPacker;
using topi::test::isReduction;
using topi::test::matmulRef;
using topi::test::randomArray;
using topi::test::stageTagged;
using topi::test::attrs;
using topi::test::runOp;

/// Runs the PyTorch test folder `dir` (under data/), whose input_<i>.pb
/// tensors carry no names: they bind to the graph inputs by position.
topi::test::NodeTestResult runPyTorchTest(const std::string& dir) {
    namespace fs = std::filesystem;
    const std::string path = std::string(topi::test::kNodeData) + "../" + dir;
    const std::string data = path + "/test_data_set_0/";
    try {
        graph::Graph g = frontend::importOnnx(path + "/model.onnx");
        std::map<std::string, Ref<graph::Constant>> inputs;
        for (size_t i = 0; i < g.inputs().size(); ++i)
            inputs[g.inputs()[i]->name] =
                frontend::readTensorProto(data + "input_" + std::to_string(i) + ".pb").value;
        std::vector<Ref<graph::Constant>> expected;
        for (int i = 0; fs::exists(data + "output_" + std::to_string(i) + ".pb"); ++i)
            expected.push_back(
                frontend::readTensorProto(data + "output_" + std::to_string(i) + ".pb").value);
        return topi::test::runGraphTest(g, inputs, expected);
    } catch (const CompileError& e) {
        return {std::string("compile error: ") + e.what(), ""};
    }
}

/// Row-major offset of `idx` in `shape`.
int64_t offset(const Shape& shape, const Shape& idx) {
    int64_t o = 0;
    for (size_t i = 0; i < shape.size(); ++i)
        o = o * shape[i] + idx[i];
    return o;
}

// Plain-loop references (NCHW, 2-d spatial) written from the ONNX operator
// definitions, independent of the computes' formulations.

/// The blocked convolution's schedule of the stages `ops` (output `out`).
te::Schedule scheduleBlockedConv(const std::vector<te::Operation>& ops, const te::Tensor& out,
                                 const topi::ScheduleOptions& options, te::ConfigSpace& cfg) {
    te::Schedule s = te::createSchedule(ops);
    te::Tensor conv;
    for (te::Stage st : s.stages())
        if (st.op()->tag == topi::tag::kConv2dNCHWc) conv = st.op().output(0);
    topi::scheduleConv2dNCHWc(s, conv, out, options, cfg);
    return s;
}

struct Geometry {
    Shape strides{1, 1}, dilations{1, 1}, padBegin{0, 0};
};

/// Conv: gathers every tap inside the input.
NDArray convRef(const NDArray& x, const NDArray& w, const NDArray* b, int64_t group,
                const Geometry& g, const Shape& outShape) {
    NDArray y = NDArray::zeros(outShape, DataType::float32());
    const Shape& xs = x.shape();
    const Shape& ws = w.shape();
    const int64_t groupIn = ws[1], groupOut = ws[0] / group;
    const float* xd = x.data<float>();
    const float* wd = w.data<float>();
    float* yd = y.data<float>();
    for (int64_t n = 0; n < outShape[0]; ++n)
        for (int64_t m = 0; m < outShape[1]; ++m)
            for (int64_t oy = 0; oy < outShape[2]; ++oy)
                for (int64_t ox = 0; ox < outShape[3]; ++ox) {
                    double acc = b ? b->data<float>()[m] : 0.0;
                    for (int64_t c = 0; c < groupIn; ++c)
                        for (int64_t ky = 0; ky < ws[2]; ++ky)
                            for (int64_t kx = 0; kx < ws[3]; ++kx) {
                                int64_t iy =
                                    oy * g.strides[0] - g.padBegin[0] + ky * g.dilations[0];
                                int64_t ix =
                                    ox * g.strides[1] - g.padBegin[1] + kx * g.dilations[1];
                                if (iy < 0 || iy >= xs[2] || ix < 0 || ix >= xs[3]) continue;
                                int64_t ic = m / groupOut * groupIn + c;
                                acc += double(xd[offset(xs, {n, ic, iy, ix})]) *
                                       wd[offset(ws, {m, c, ky, kx})];
                            }
                    yd[offset(outShape, {n, m, oy, ox})] = float(acc);
                }
    return y;
}

/// ConvTranspose: scatters x[i] * w[k] to full position i * stride + k *
/// dilation, and keeps the output window that starts at padBegin.
NDArray convTransposeRef(const NDArray& x, const NDArray& w, const NDArray* b, int64_t group,
                         const Geometry& g, const Shape& outShape) {
    std::vector<double> acc(size_t(outShape[0] * outShape[1] * outShape[2] * outShape[3]), 0.0);
    const Shape& xs = x.shape();
    const Shape& ws = w.shape();
    const int64_t groupIn = xs[1] / group, groupOut = ws[1];
    for (int64_t n = 0; n < xs[0]; ++n)
        for (int64_t c = 0; c < xs[1]; ++c)
            for (int64_t iy = 0; iy < xs[2]; ++iy)
                for (int64_t ix = 0; ix < xs[3]; ++ix)
                    for (int64_t m = 0; m < groupOut; ++m)
                        for (int64_t ky = 0; ky < ws[2]; ++ky)
                            for (int64_t kx = 0; kx < ws[3]; ++kx) {
                                int64_t oy =
                                    iy * g.strides[0] + ky * g.dilations[0] - g.padBegin[0];
                                int64_t ox =
                                    ix * g.strides[1] + kx * g.dilations[1] - g.padBegin[1];
                                if (oy < 0 || oy >= outShape[2] || ox < 0 || ox >= outShape[3])
                                    continue;
                                int64_t oc = c / groupIn * groupOut + m;
                                acc[size_t(offset(outShape, {n, oc, oy, ox}))] +=
                                    double(x.data<float>()[offset(xs, {n, c, iy, ix})]) *
                                    w.data<float>()[offset(ws, {c, m, ky, kx})];
                            }
    NDArray y(outShape, DataType::float32());
    for (int64_t i = 0; i < y.numElements(); ++i) {
        int64_t oc = i / (outShape[2] * outShape[3]) % outShape[1];
        y.data<float>()[i] = float(acc[size_t(i)] + (b ? b->data<float>()[oc] : 0.0));
    }
    return y;
}

/// MaxPool / AveragePool; `padEnd` bounds the taps count_include_pad counts.
NDArray poolRef(const NDArray& x, bool isMax, bool includePad, const Shape& kernel,
                const Geometry& g, const Shape& padEnd, const Shape& outShape) {
    NDArray y(outShape, DataType::float32());
    const Shape& xs = x.shape();
    for (int64_t n = 0; n < outShape[0]; ++n)
        for (int64_t c = 0; c < outShape[1]; ++c)
            for (int64_t oy = 0; oy < outShape[2]; ++oy)
                for (int64_t ox = 0; ox < outShape[3]; ++ox) {
                    double acc = isMax ? -INFINITY : 0.0;
                    int64_t count = 0;
                    for (int64_t ky = 0; ky < kernel[0]; ++ky)
                        for (int64_t kx = 0; kx < kernel[1]; ++kx) {
                            int64_t iy = oy * g.strides[0] - g.padBegin[0] + ky * g.dilations[0];
                            int64_t ix = ox * g.strides[1] - g.padBegin[1] + kx * g.dilations[1];
                            bool inside = iy >= 0 && iy < xs[2] && ix >= 0 && ix < xs[3];
                            bool inPadded = iy >= -g.padBegin[0] && iy < xs[2] + padEnd[0] &&
                                            ix >= -g.padBegin[1] && ix < xs[3] + padEnd[1];
                            count += includePad ? inPadded : inside;
                            if (!inside) continue;
                            double v = x.data<float>()[offset(xs, {n, c, iy, ix})];
                            acc = isMax ? std::max(acc, v) : acc + v;
                        }
                    y.data<float>()[offset(outShape, {n, c, oy, ox})] =
                        float(isMax ? acc : acc / double(count));
                }
    return y;
}

/// An NCHW float32 array stored in `b`-channel blocks ([N, C/b, H, W, b]).
NDArray toBlocks(const NDArray& a, int64_t b) {
    const auto s = a.shape();
    NDArray out = NDArray::empty({s[0], s[1] / b, s[2], s[3], b}, DataType::float32());
    const float* src = a.data<float>();
    float* dst = out.data<float>();
    for (int64_t n = 0; n < s[0]; ++n)
        for (int64_t c = 0; c < s[1]; ++c)
            for (int64_t i = 0; i < s[2] * s[3]; ++i)
                dst[((n * (s[1] / b) + c / b) * s[2] * s[3] + i) * b + c % b] = src[(n * s[1] + c) * s[2] * s[3] + i];
    return out;
}

/// The NCHW array of one stored in channel blocks.
NDArray fromBlocks(const NDArray& a) {
    const auto s = a.shape();
    const int64_t b = s[4], c = s[1] * b;
    NDArray out = NDArray::empty({s[0], c, s[2], s[3]}, DataType::float32());
    const float* src = a.data<float>();
    float* dst = out.data<float>();
    for (int64_t n = 0; n < s[0]; ++n)
        for (int64_t ch = 0; ch < c; ++ch)
            for (int64_t i = 0; i < s[2] * s[3]; ++i)
                dst[(n * c + ch) * s[2] * s[3] + i] = src[((n * s[1] + ch / b) * s[2] * s[3] + i) * b + ch % b];
    return out;
}

} // namespace

/// `outs` on the placeholders `args` (bound to `x`) under the default
/// schedule with 8 float lanes, which is left in `kept`.
OpRun runPoolSchedule(const Tensors& args, const NDArray& x, const Tensors& outs, te::Schedule& kept) {
    OpRun r;
    runTensors(r, args, {x}, outs, [&](const std::vector<te::Operation>&) {
        topi::ScheduleOptions o;
        o.vectorLanes = 8;
        kept = topi::scheduleFused(outs, o);
        return kept;
    });
    return r;
}

/// Whether every pooling stage of `s` has `leaves` loops, the innermost
/// vectorised and the outermost parallel.
bool poolVectorisedAndParallel(const te::Schedule& s, size_t leaves) {
    bool found = false;
    for (te::Stage st : s.stages()) {
        if (st.op()->tag != topi::tag::kPool) continue;
        const auto& d = st.data();
        bool vectorised = false, parallel = false;
        for (auto& [iv, a] : d.annotations) {
            vectorised = vectorised || (a == te::IterAnnotation::Vectorize && iv == d.leafIterVars.back().get());
            parallel = parallel || (a == te::IterAnnotation::Parallel && iv == d.leafIterVars.front().get());
        }
        if (d.leafIterVars.size() != leaves || !vectorised || !parallel) return false;
        found = true;
    }
    return found;
}

class TestTopiNn : public QObject {
    Q_OBJECT
private slots:
    void nodeTests_data() {
        QTest::addColumn<QString>("name");
        // Every conv*, convtranspose*, gemm*, matmul*, maxpool*, averagepool*,
        // globalaveragepool* and globalmaxpool* node test, except:
        // - test_convinteger_*, test_basic_convinteger, test_matmulinteger: the
        //   quantized operators ConvInteger and MatMulInteger, not these;
        // - test_maxpool_with_argmax_*: MaxPool's Indices output is not supported;
        // - test_globalaveragepool*, test_globalmaxpool*: opset-1 models, which the
        //   importer refuses; globalPoolData runs their data.
        for (const char* n : {"test_basic_conv_with_padding",
                              "test_basic_conv_without_padding",
                              "test_conv_with_autopad_same",
                              "test_conv_with_strides_and_asymmetric_padding",
                              "test_conv_with_strides_no_padding",
                              "test_conv_with_strides_padding",
                              "test_convtranspose",
                              "test_convtranspose_1d",
                              "test_convtranspose_3d",
                              "test_convtranspose_autopad_same",
                              "test_convtranspose_dilations",
                              "test_convtranspose_kernel_shape",
                              "test_convtranspose_output_shape",
                              "test_convtranspose_pad",
                              "test_convtranspose_pads",
                              "test_convtranspose_with_kernel",
                              "test_gemm_all_attributes",
                              "test_gemm_alpha",
                              "test_gemm_beta",
                              "test_gemm_default_matrix_bias",
                              "test_gemm_default_no_bias",
                              "test_gemm_default_scalar_bias",
                              "test_gemm_default_single_elem_vector_bias",
                              "test_gemm_default_vector_bias",
                              "test_gemm_default_zero_bias",
                              "test_gemm_transposeA",
                              "test_gemm_transposeB",
                              "test_matmul_2d",
                              "test_matmul_3d",
                              "test_matmul_4d",
                              "test_maxpool_1d_default",
                              "test_maxpool_2d_ceil",
                              "test_maxpool_2d_default",
                              "test_maxpool_2d_dilations",
                              "test_maxpool_2d_pads",
                              "test_maxpool_2d_precomputed_pads",
                              "test_maxpool_2d_precomputed_same_upper",
                              "test_maxpool_2d_precomputed_strides",
                              "test_maxpool_2d_same_lower",
                              "test_maxpool_2d_same_upper",
                              "test_maxpool_2d_strides",
                              "test_maxpool_2d_uint8",
                              "test_maxpool_3d_default",
                              "test_averagepool_1d_default",
                              "test_averagepool_2d_ceil",
                              "test_averagepool_2d_default",
                              "test_averagepool_2d_pads",
                              "test_averagepool_2d_pads_count_include_pad",
                              "test_averagepool_2d_precomputed_pads",
                              "test_averagepool_2d_precomputed_pads_count_include_pad",
                              "test_averagepool_2d_precomputed_same_upper",
                              "test_averagepool_2d_precomputed_strides",
                              "test_averagepool_2d_same_lower",
                              "test_averagepool_2d_same_upper",
                              "test_averagepool_2d_strides",
                              "test_averagepool_3d_default"})
            QTest::newRow(n) << QString(n);
    }
    void nodeTests() {
        QFETCH(QString, name);
        auto r = tessel::topi::test::runNodeTest(name.toStdString());
        QVERIFY2(r.failure.empty(), r.failure.c_str());
    }

    void pyTorchTests_data() {
        QTest::addColumn<QString>("name");
        // Every Conv*, ConvTranspose*, AvgPool*, MaxPool* and Linear* module test.
        for (const char* n : {"test_AvgPool1d",
                              "test_AvgPool1d_stride",
                              "test_AvgPool2d",
                              "test_AvgPool2d_stride",
                              "test_AvgPool3d",
                              "test_AvgPool3d_stride",
                              "test_AvgPool3d_stride1_pad0_gpu_input",
                              "test_Conv1d",
                              "test_Conv1d_dilated",
                              "test_Conv1d_groups",
                              "test_Conv1d_pad1",
                              "test_Conv1d_pad1size1",
                              "test_Conv1d_pad2",
                              "test_Conv1d_pad2size1",
                              "test_Conv1d_stride",
                              "test_Conv2d",
                              "test_Conv2d_depthwise",
                              "test_Conv2d_depthwise_padded",
                              "test_Conv2d_depthwise_strided",
                              "test_Conv2d_depthwise_with_multiplier",
                              "test_Conv2d_dilated",
                              "test_Conv2d_groups",
                              "test_Conv2d_groups_thnn",
                              "test_Conv2d_no_bias",
                              "test_Conv2d_padding",
                              "test_Conv2d_strided",
                              "test_Conv3d",
                              "test_Conv3d_dilated",
                              "test_Conv3d_dilated_strided",
                              "test_Conv3d_groups",
                              "test_Conv3d_no_bias",
                              "test_Conv3d_stride",
                              "test_Conv3d_stride_padding",
                              "test_ConvTranspose2d",
                              "test_ConvTranspose2d_no_bias",
                              "test_Linear",
                              "test_Linear_no_bias",
                              "test_MaxPool1d",
                              "test_MaxPool1d_stride",
                              "test_MaxPool1d_stride_padding_dilation",
                              "test_MaxPool2d",
                              "test_MaxPool2d_stride_padding_dilation",
                              "test_MaxPool3d",
                              "test_MaxPool3d_stride",
                              "test_MaxPool3d_stride_padding"}) {
            std::string path = std::string("pytorch-converted/") + n;
            QTest::newRow(path.c_str()) << QString::fromStdString(path);
        }
        // The PyTorch operator tests whose models use only these operators.
        for (const char* n : {"test_operator_conv", "test_operator_convtranspose",
                              "test_operator_maxpool", "test_operator_mm", "test_operator_addmm"}) {
            std::string path = std::string("pytorch-operator/") + n;
            QTest::newRow(path.c_str()) << QString::fromStdString(path);
        }
    }
    void pyTorchTests() {
        QFETCH(QString, name);
        auto r = runPyTorchTest(name.toStdString());
        QVERIFY2(r.failure.empty(), r.failure.c_str());
    }

    // The ONNX global pooling tests are opset-1 models, which the importer
    // refuses (it reads opsets 6 to 17): their data, through nodes built here.
    void globalPoolData_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("op");
        QTest::newRow("avg") << "test_globalaveragepool"
                             << "GlobalAveragePool";
        QTest::newRow("avg_precomputed") << "test_globalaveragepool_precomputed"
                                         << "GlobalAveragePool";
        QTest::newRow("max") << "test_globalmaxpool"
                             << "GlobalMaxPool";
        QTest::newRow("max_precomputed") << "test_globalmaxpool_precomputed"
                                         << "GlobalMaxPool";
    }
    void globalPoolData() {
        QFETCH(QString, name);
        QFETCH(QString, op);
        const std::string dir = std::string(topi::test::kNodeData) + name.toStdString();
        auto x = frontend::readTensorProto(dir + "/test_data_set_0/input_0.pb");
        auto want = frontend::readTensorProto(dir + "/test_data_set_0/output_0.pb");
        auto r = runOp(op.toStdString(), {topi::test::toArray(*x.value)}, {});
        CHECK_CLOSE(r, topi::test::toArray(*want.value));
        QVERIFY(stageTagged(r, topi::tag::kPool));
    }

    // Global pooling of channel blocks under the default schedule: the plane
    // is reduced outside the block, which is one vector, in tasks per block.
    void globalPoolBlockedSchedule() {
        NDArray x = randomArray({2, 3, 5, 6, 8}, 91);
        for (auto type : {topi::nn::PoolType::Avg, topi::nn::PoolType::Max}) {
            Tensors args = placeholders({x});
            Tensors outs{topi::nn::globalPool(args[0], type, "gp", true)};
            te::Schedule kept;
            OpRun r = runPoolSchedule(args, x, outs, kept);
            QVERIFY2(r.error.empty(), r.error.c_str());
            for (int64_t n = 0; n < 2; ++n)
                for (int64_t cb = 0; cb < 3; ++cb)
                    for (int64_t cc = 0; cc < 8; ++cc) {
                        double sum = 0, best = -1e30;
                        for (int64_t i = 0; i < 30; ++i) {
                            const double v = x.data<float>()[((n * 3 + cb) * 30 + i) * 8 + cc];
                            sum += v;
                            best = std::max(best, v);
                        }
                        const double want = type == topi::nn::PoolType::Avg ? sum / 30 : best;
                        QVERIFY(std::fabs(r.outputs[0].data<float>()[(n * 3 + cb) * 8 + cc] - want) < 1e-5);
                    }
            QVERIFY(poolVectorisedAndParallel(kept, 7)); // n.cb, h, w, rh, rw, cc.outer, cc.inner
        }
    }

    // A window pooling of channel blocks (ResNet's 3x3/2 MaxPool after
    // alter-layout) under the default schedule: one vector of the block per
    // tap, tasks over images, blocks and output rows; padded taps never win
    // a max nor count in an average.
    void windowPoolBlockedSchedule() {
        NDArray x = randomArray({2, 2, 7, 9, 8}, 92);
        for (auto type : {topi::nn::PoolType::Avg, topi::nn::PoolType::Max}) {
            Tensors args = placeholders({x});
            topi::nn::PoolParams p{.kernel = {3, 3}, .strides = {2, 2}, .padding = {1, 1, 1, 1}, .channelBlock = true};
            Tensors outs{topi::nn::pool(args[0], type, p, "wp")};
            te::Schedule kept;
            OpRun r = runPoolSchedule(args, x, outs, kept);
            QVERIFY2(r.error.empty(), r.error.c_str());
            QCOMPARE(r.outputs[0].shape(), (std::vector<int64_t>{2, 2, 4, 5, 8}));
            for (int64_t n = 0; n < 2; ++n)
                for (int64_t cb = 0; cb < 2; ++cb)
                    for (int64_t oh = 0; oh < 4; ++oh)
                        for (int64_t ow = 0; ow < 5; ++ow)
                            for (int64_t cc = 0; cc < 8; ++cc) {
                                double sum = 0, best = -1e30;
                                int taps = 0;
                                for (int64_t ih = oh * 2 - 1; ih <= oh * 2 + 1; ++ih)
                                    for (int64_t iw = ow * 2 - 1; iw <= ow * 2 + 1; ++iw) {
                                        if (ih < 0 || ih >= 7 || iw < 0 || iw >= 9) continue;
                                        const double v = x.data<float>()[(((n * 2 + cb) * 7 + ih) * 9 + iw) * 8 + cc];
                                        sum += v;
                                        best = std::max(best, v);
                                        ++taps;
                                    }
                                const double want = type == topi::nn::PoolType::Avg ? sum / taps : best;
                                const double got =
                                    r.outputs[0].data<float>()[(((n * 2 + cb) * 4 + oh) * 5 + ow) * 8 + cc];
                                QVERIFY2(std::fabs(got - want) < 1e-5,
                                         qPrintable(QString("%1 %2 %3 %4: %5 vs %6").arg(n).arg(cb).arg(oh).arg(ow).arg(got).arg(want)));
                            }
            QVERIFY(poolVectorisedAndParallel(kept, 6)); // n.cb.h, w, rh, rw, cc.outer, cc.inner
        }
    }

    // Parameter combinations the ONNX tests leave out, against the references:
    // the typed computes called directly, and through the graph adapter where
    // ONNX's attributes (auto_pad, output_shape) need resolving.
    void convGroupsStridesDilationsPadsBias() {
        NDArray x = randomArray({2, 4, 7, 8}, 1), w = randomArray({6, 2, 3, 2}, 2),
                b = randomArray({6}, 3);
        auto r = runCompute({x, w, b}, [](const Tensors& in) {
            return Tensors{topi::nn::conv2d(
                in[0], in[1], {.strides = {2, 1}, .padding = {1, 0, 2, 1}, .dilation = {1, 2}, .groups = 2}, in[2])};
        });
        CHECK_CLOSE(r, convRef(x, w, &b, 2, {{2, 1}, {1, 2}, {1, 0}}, {2, 6, 4, 7}));
        // pad -> conv (a pure reduction) -> bias.
        QCOMPARE(r.stages.back()->tag, std::string(topi::tag::kBroadcast));
        QVERIFY(isReduction(stageTagged(r, topi::tag::kConv2d)));
        QVERIFY(stageTagged(r, topi::tag::kPad));
    }
    void convAutoPad() {
        // Odd total padding: the extra row and column go first (LOWER) or last (UPPER).
        NDArray x = randomArray({1, 2, 7, 6}, 4), w = randomArray({3, 2, 4, 3}, 5);
        auto lower =
            runOp("Conv", {x, w},
                  attrs({{"auto_pad", std::string("SAME_LOWER")}, {"strides", Shape{2, 2}}}));
        CHECK_CLOSE(lower, convRef(x, w, nullptr, 1, {{2, 2}, {1, 1}, {2, 1}}, {1, 3, 4, 3}));
        auto upper =
            runOp("Conv", {x, w},
                  attrs({{"auto_pad", std::string("SAME_UPPER")}, {"strides", Shape{2, 2}}}));
        CHECK_CLOSE(upper, convRef(x, w, nullptr, 1, {{2, 2}, {1, 1}, {1, 0}}, {1, 3, 4, 3}));
        // VALID ignores pads; with none there is no pad stage.
        auto valid =
            runOp("Conv", {x, w},
                  attrs({{"auto_pad", std::string("VALID")}, {"pads", Shape{1, 1, 1, 1}}}));
        CHECK_CLOSE(valid, convRef(x, w, nullptr, 1, {}, {1, 3, 4, 4}));
        QVERIFY(!stageTagged(valid, topi::tag::kPad));
        QCOMPARE(valid.stages.back()->tag, std::string(topi::tag::kConv2d));
    }
    void convDepthwise() {
        NDArray x = randomArray({1, 4, 5, 5}, 6), w = randomArray({4, 1, 3, 3}, 7);
        auto r = runCompute({x, w}, [](const Tensors& in) {
            return Tensors{topi::nn::conv2d(in[0], in[1], {.padding = {1}, .groups = 4})};
        });
        CHECK_CLOSE(r, convRef(x, w, nullptr, 4, {{1, 1}, {1, 1}, {1, 1}}, {1, 4, 5, 5}));
        QVERIFY(isReduction(stageTagged(r, topi::tag::kDepthwise)));
        // A channel multiplier is a grouped convolution, not TVM's depthwise.
        NDArray w3 = randomArray({8, 1, 3, 3}, 8);
        auto m = runCompute({x, w3}, [](const Tensors& in) {
            return Tensors{topi::nn::conv2d(in[0], in[1], {.strides = {1, 2}, .groups = 4})};
        });
        CHECK_CLOSE(m, convRef(x, w3, nullptr, 4, {{1, 2}, {1, 1}, {0, 0}}, {1, 8, 3, 2}));
        QCOMPARE(m.stages.back()->tag, std::string(topi::tag::kConv2d));
    }
    void convTransposeGroupsStridesDilationsPads() {
        NDArray x = randomArray({1, 4, 3, 4}, 9), w = randomArray({4, 3, 3, 2}, 10),
                b = randomArray({6}, 11);
        auto r = runCompute({x, w, b}, [](const Tensors& in) {
            return Tensors{topi::nn::convTranspose(in[0], in[1],
                                                   {.strides = {2, 3},
                                                    .padding = {1, 0, 0, 2},
                                                    .dilation = {2, 1},
                                                    .outputPadding = {1, 1},
                                                    .groups = 2},
                                                   in[2])};
        });
        CHECK_CLOSE(r, convTransposeRef(x, w, &b, 2, {{2, 3}, {2, 1}, {1, 0}}, {1, 6, 9, 10}));
        QVERIFY(isReduction(stageTagged(r, topi::tag::kOpaque)));
    }
    void convTransposeOutputShape() {
        NDArray x = randomArray({1, 1, 3, 3}, 12), w = randomArray({1, 2, 3, 3}, 13);
        // Full output 7: an odd total crop of 1 starts at 0 for SAME_UPPER, at 1 otherwise.
        auto upper =
            runOp("ConvTranspose", {x, w},
                  attrs({{"auto_pad", std::string("SAME_UPPER")}, {"strides", Shape{2, 2}}}));
        CHECK_CLOSE(upper,
                    convTransposeRef(x, w, nullptr, 1, {{2, 2}, {1, 1}, {0, 0}}, {1, 2, 6, 6}));
        auto lower =
            runOp("ConvTranspose", {x, w},
                  attrs({{"auto_pad", std::string("SAME_LOWER")}, {"strides", Shape{2, 2}}}));
        CHECK_CLOSE(lower,
                    convTransposeRef(x, w, nullptr, 1, {{2, 2}, {1, 1}, {1, 1}}, {1, 2, 6, 6}));
        auto given = runOp("ConvTranspose", {x, w},
                           attrs({{"output_shape", Shape{6, 5}}, {"strides", Shape{2, 2}}}));
        CHECK_CLOSE(given,
                    convTransposeRef(x, w, nullptr, 1, {{2, 2}, {1, 1}, {1, 1}}, {1, 2, 6, 5}));
        // A larger output than the full one extends it at the end.
        auto larger = runOp("ConvTranspose", {x, w},
                            attrs({{"output_shape", Shape{9, 8}}, {"strides", Shape{2, 2}}}));
        CHECK_CLOSE(larger,
                    convTransposeRef(x, w, nullptr, 1, {{2, 2}, {1, 1}, {0, 0}}, {1, 2, 9, 8}));
    }
    void poolCeilModePadsDilations_data() {
        QTest::addColumn<bool>("isMax");
        QTest::addColumn<bool>("includePad");
        QTest::newRow("max") << true << false;
        QTest::newRow("avg") << false << false;
        QTest::newRow("avg_count_include_pad") << false << true;
    }
    void poolCeilModePadsDilations() {
        QFETCH(bool, isMax);
        QFETCH(bool, includePad);
        // The last window starts inside the end padding and reaches past it.
        NDArray x = randomArray({1, 2, 8, 8}, 14);
        topi::nn::PoolParams p{.kernel = {3, 3},
                               .strides = {2},
                               .padding = {1, 1, 1, 1},
                               .dilation = {2, 1},
                               .ceilMode = true,
                               .countIncludePad = includePad};
        auto type = isMax ? topi::nn::PoolType::Max : topi::nn::PoolType::Avg;
        auto r = runCompute({x}, [&](const Tensors& in) { return Tensors{topi::nn::pool2d(in[0], type, p)}; });
        CHECK_CLOSE(r, poolRef(x, isMax, includePad, {3, 3}, {{2, 2}, {2, 1}, {1, 1}}, {1, 1},
                               {1, 2, 4, 5}));
        QVERIFY(isReduction(stageTagged(r, topi::tag::kPool)));
    }
    void poolSameLower() {
        NDArray x = randomArray({1, 1, 5, 6}, 15);
        auto a = attrs({{"kernel_shape", Shape{2, 3}},
                        {"strides", Shape{2, 2}},
                        {"auto_pad", std::string("SAME_LOWER")},
                        {"count_include_pad", int64_t(1)}});
        auto r = runOp("AveragePool", {x}, a);
        CHECK_CLOSE(
            r, poolRef(x, false, true, {2, 3}, {{2, 2}, {1, 1}, {1, 1}}, {0, 0}, {1, 1, 3, 3}));
    }
    void maxPoolIntegerPadding() {
        // Padding must never win the maximum: int8's lowest value, not 0.
        NDArray x8 = randomArray({1, 1, 4, 4}, 16, DataType::int8());
        NDArray xf(x8.shape(), DataType::float32());
        for (int64_t i = 0; i < x8.numElements(); ++i) {
            x8.data<int8_t>()[i] = int8_t(-1 - std::abs(x8.data<int8_t>()[i]));
            xf.data<float>()[i] = x8.data<int8_t>()[i];
        }
        auto r = runCompute({x8}, [](const Tensors& in) {
            return Tensors{topi::nn::pool2d(in[0], topi::nn::PoolType::Max, {.kernel = {2}, .padding = {1}})};
        });
        QVERIFY2(r.error.empty(), r.error.c_str());
        NDArray want =
            poolRef(xf, true, false, {2, 2}, {{1, 1}, {1, 1}, {1, 1}}, {1, 1}, {1, 1, 5, 5});
        for (int64_t i = 0; i < want.numElements(); ++i)
            QCOMPARE(double(r.outputs[0].data<int8_t>()[i]), double(want.data<float>()[i]));
    }
    // MaxPool's Indices: the flat index of the first maximum of each window
    // (row-major scan; padding never wins), row-major or column-major.
    void maxPoolIndices() {
        NDArray x = randomArray({1, 2, 4, 5}, 17);
        // Ties inside windows: the first in scan order must win.
        x.data<float>()[1] = x.data<float>()[0] = 3.0f;
        for (int64_t storage : {0, 1}) {
            auto r = runOp("MaxPool", {x},
                           attrs({{"kernel_shape", Shape{2, 2}}, {"pads", Shape{1, 0, 0, 1}},
                                  {"storage_order", storage}}),
                           2);
            QVERIFY2(r.error.empty(), r.error.c_str());
            QCOMPARE(r.outputs[1].shape(), (std::vector<int64_t>{1, 2, 4, 5}));
            const float* xd = x.data<float>();
            for (int64_t c = 0; c < 2; ++c)
                for (int64_t oh = 0; oh < 4; ++oh)
                    for (int64_t ow = 0; ow < 5; ++ow) {
                        int64_t best = -1, bh = 0, bw = 0;
                        for (int64_t kh = 0; kh < 2; ++kh)
                            for (int64_t kw = 0; kw < 2; ++kw) {
                                const int64_t h = oh - 1 + kh, w = ow + kw;
                                if (h < 0 || h >= 4 || w >= 5) continue;
                                const int64_t at = (c * 4 + h) * 5 + w;
                                if (best < 0 || xd[at] > xd[best]) best = at, bh = h, bw = w;
                            }
                        const int64_t want = c * 20 + (storage ? bw * 4 + bh : bh * 5 + bw);
                        QCOMPARE(r.outputs[1].data<int64_t>()[(c * 4 + oh) * 5 + ow], want);
                        QCOMPARE(r.outputs[0].data<float>()[(c * 4 + oh) * 5 + ow], xd[best]);
                    }
        }
        // Blocked or 3-d pooling has no Indices compute: a clear error.
        auto r = runOp("MaxPool", {randomArray({1, 1, 4, 4, 4}, 18)}, attrs({{"kernel_shape", Shape{2, 2, 2}}}), 2);
        QVERIFY2(r.error.find("Indices output of MaxPool is supported for plain 2-d pooling only") != std::string::npos,
                 r.error.c_str());
    }
    // The blocked convolution, with its weights packed by a stage (no
    // compile-time constants: a TE script) and by a packer (the model
    // compiler's constants become a kernel argument), against the reference.
    void blockedConvPackedByStageAndByPacker_data() {
        QTest::addColumn<bool>("withPacker");
        QTest::newRow("stage") << false;
        QTest::newRow("packer") << true;
    }
    void blockedConvPackedByStageAndByPacker() {
        QFETCH(bool, withPacker);
        NDArray x = randomArray({1, 12, 9, 7}, 30), w = randomArray({16, 12, 3, 3}, 31), b = randomArray({16}, 32);
        topi::nn::ConvParams p{.strides = {2, 1}, .padding = {1, 0, 1, 2}};
        Tensors args = placeholders({x, w, b});
        QVERIFY(topi::nn::conv2dNCHWcLayout(args[0], args[1], p));
        QCOMPARE(topi::nn::conv2dNCHWcLayout(args[0], args[1], p)->icBn, int64_t(12));
        TestPacker packer;
        packer.know(args[1], w);
        OpRun r;
        try {
            Tensors outs{topi::nn::conv2dNCHWc(args[0], args[1], p, args[2], "conv", withPacker ? &packer : nullptr)};
            std::vector<NDArray> buffers{x, w, b};
            args.insert(args.end(), packer.args.begin(), packer.args.end());
            buffers.insert(buffers.end(), packer.buffers.begin(), packer.buffers.end());
            runTensors(r, args, buffers, outs);
        } catch (const std::exception& e) {
            r.error = e.what();
        }
        CHECK_CLOSE(r, convRef(x, w, &b, 1, {{2, 1}, {1, 1}, {1, 0}}, {1, 16, 5, 7}));
        QVERIFY(isReduction(stageTagged(r, topi::tag::kConv2dNCHWc)));
        // Packed by the packer, the weights are an argument: no packing stage.
        QCOMPARE(packer.args.size(), size_t(withPacker ? 1 : 0));
        bool packStage = false;
        for (auto& op : r.stages)
            packStage = packStage || (op->name == "conv_wpack" && op->opKind() == te::OpKind::Compute);
        QCOMPARE(packStage, !withPacker);
        // Not blocked: grouped, or too few output channels.
        QVERIFY(!topi::nn::conv2dNCHWcLayout(args[0], args[1], {.groups = 2}));
        Tensors narrow = placeholders({x, randomArray({12, 12, 3, 3}, 33)});
        QVERIFY(!topi::nn::conv2dNCHWcLayout(narrow[0], narrow[1], {}));
    }

    // Grouped convolutions in blocks: each group's channels are blocked on
    // their own (2 groups of 16 -> 16; 3 groups of 24 -> 8 with 1x1 strided),
    // against the reference, scheduled as a model compiles them.
    void blockedConvGrouped_data() {
        QTest::addColumn<int>("groups");
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("outChannels");
        QTest::addColumn<int>("kernel");
        QTest::addColumn<int>("stride");
        QTest::newRow("2 groups 3x3") << 2 << 32 << 32 << 3 << 1;
        QTest::newRow("3 groups 1x1 strided") << 3 << 24 << 24 << 1 << 2;
        QTest::newRow("4 groups 3x3 strided, 8 out per group") << 4 << 16 << 32 << 3 << 2;
    }
    void blockedConvGrouped() {
        QFETCH(int, groups);
        QFETCH(int, channels);
        QFETCH(int, outChannels);
        QFETCH(int, kernel);
        QFETCH(int, stride);
        NDArray x = randomArray({1, channels, 10, 9}, 40),
                w = randomArray({outChannels, channels / groups, kernel, kernel}, 41),
                b = randomArray({outChannels}, 42);
        const int64_t pad = kernel / 2;
        topi::nn::ConvParams p{.strides = {stride, stride}, .padding = {pad, pad, pad, pad}, .groups = groups};
        Tensors args = placeholders({x, w, b});
        auto layout = topi::nn::conv2dNCHWcLayout(args[0], args[1], p);
        QVERIFY(layout);
        QVERIFY((channels / groups) % layout->icBn == 0 && (outChannels / groups) % layout->ocBn == 0);
        TestPacker packer;
        packer.know(args[1], w);
        OpRun r;
        try {
            Tensors outs{topi::nn::conv2dNCHWc(args[0], args[1], p, args[2], "conv", &packer)};
            std::vector<NDArray> buffers{x, w, b};
            args.insert(args.end(), packer.args.begin(), packer.args.end());
            buffers.insert(buffers.end(), packer.buffers.begin(), packer.buffers.end());
            runTensors(r, args, buffers, outs, [&](const std::vector<te::Operation>&) { return topi::scheduleFused(outs); });
        } catch (const std::exception& e) {
            r.error = e.what();
        }
        const int64_t oh = (10 + 2 * pad - kernel) / stride + 1, ow = (9 + 2 * pad - kernel) / stride + 1;
        CHECK_CLOSE(r, convRef(x, w, &b, groups, {{stride, stride}, {1, 1}, {pad, pad}}, {1, outChannels, oh, ow}));
        QVERIFY(isReduction(stageTagged(r, topi::tag::kConv2dNCHWc)));
        // Weights that do not fit the groups, or a depthwise convolution: not blocked.
        QVERIFY(!topi::nn::conv2dNCHWcLayout(args[0], placeholders({randomArray({outChannels, channels, kernel, kernel}, 43)})[0], p));
        topi::nn::ConvParams dw = p;
        dw.groups = channels;
        QVERIFY(!topi::nn::conv2dNCHWcLayout(args[0], placeholders({randomArray({channels, 1, kernel, kernel}, 44)})[0], dw));
    }

    // A strided 1x1 convolution with 64 output channels or more copies only
    // the pixels it reads (a data stage of the output's plane, materialised);
    // with fewer it reads its input in place. Plain and blocked inputs, one
    // stride per axis, against the reference.
    void blockedConvStridedPointwiseSubsamples_data() {
        QTest::addColumn<int>("outChannels");
        QTest::addColumn<bool>("blockedInput");
        QTest::addColumn<bool>("subsampled");
        QTest::newRow("64 out, NCHW8c in") << 64 << true << true;
        QTest::newRow("64 out, NCHW in") << 64 << false << true;
        QTest::newRow("32 out: a view") << 32 << true << false;
    }
    void blockedConvStridedPointwiseSubsamples() {
        QFETCH(int, outChannels);
        QFETCH(bool, blockedInput);
        QFETCH(bool, subsampled);
        NDArray x = randomArray({1, 16, 9, 10}, 45), w = randomArray({outChannels, 16, 1, 1}, 46),
                b = randomArray({outChannels}, 47);
        NDArray want = convRef(x, w, &b, 1, {{2, 3}, {1, 1}, {0, 0}}, {1, outChannels, 5, 4});
        topi::ScheduleOptions options;
        options.vectorLanes = 8;
        options.vectorRegisters = 16;
        const topi::nn::ConvLayouts layouts{blockedInput ? "NCHW8c" : "", "NCHW8c"};
        NDArray xin = blockedInput ? toBlocks(x, 8) : x;
        Tensors args = placeholders({xin, w, b});
        OpRun r;
        try {
            te::ConfigSpace cfg;
            topi::nn::ConvParams p{.strides = {2, 3}};
            te::Tensor out = topi::nn::conv2dNCHWc(args[0], args[1], p, args[2], "conv", nullptr, &cfg, layouts);
            runTensors(r, args, {xin, w, b}, {out}, [&](const std::vector<te::Operation>& ops) {
                return scheduleBlockedConv(ops, out, options, cfg);
            });
        } catch (const std::exception& e) {
            r.error = e.what();
        }
        if (r.error.empty()) r.outputs[0] = fromBlocks(r.outputs[0]);
        CHECK_CLOSE(r, want);
        const te::OperationNode* data = nullptr;
        for (auto& op : r.stages)
            if (op->name == "conv_data") data = op.get();
        QVERIFY(data);
        const auto* compute = dynamic_cast<const te::ComputeOpNode*>(data);
        QVERIFY(compute);
        QCOMPARE(compute->tag, std::string(subsampled ? topi::tag::kPad : topi::tag::kInjective));
        QCOMPARE(tir::asConstInt(compute->axis[2]->dom.extent).value_or(0), int64_t(subsampled ? 5 : 9));
        QCOMPARE(tir::asConstInt(compute->axis[3]->dom.extent).value_or(0), int64_t(subsampled ? 4 : 10));
    }

    // Padding, strides and dilation take one value for every axis, one per
    // axis, or (padding) every begin then every end; other counts are errors
    // a TE script's author can read.
    void parameterListForms() {
        NDArray x = randomArray({1, 2, 6, 5}, 37), w = randomArray({3, 2, 3, 3}, 38);
        auto full = runCompute({x, w}, [](const Tensors& in) {
            return Tensors{topi::nn::conv2d(in[0], in[1], {.strides = {2, 2}, .padding = {1, 1, 1, 1}})};
        });
        QVERIFY2(full.error.empty(), full.error.c_str());
        for (auto padding : {Shape{1}, Shape{1, 1}}) {
            auto r = runCompute({x, w}, [&](const Tensors& in) {
                return Tensors{topi::nn::conv2d(in[0], in[1], {.strides = {2}, .padding = padding})};
            });
            CHECK_CLOSE(r, full.outputs[0]);
        }
        auto bad = runCompute({x, w}, [](const Tensors& in) {
            return Tensors{topi::nn::conv2d(in[0], in[1], {.padding = {1, 1, 1}})};
        });
        QVERIFY2(bad.error.find("padding has 3 values for 2 spatial axes") != std::string::npos, bad.error.c_str());
        auto strides = runCompute({x, w}, [](const Tensors& in) {
            return Tensors{topi::nn::conv2d(in[0], in[1], {.strides = {1, 1, 1}})};
        });
        QVERIFY2(strides.error.find("strides has 3 values for 2 spatial axes") != std::string::npos,
                 strides.error.c_str());
        auto pool3d = runCompute({randomArray({1, 1, 4, 4, 4}, 39)}, [](const Tensors& in) {
            return Tensors{topi::nn::pool2d(in[0], topi::nn::PoolType::Max, {.kernel = {2}})};
        });
        QVERIFY2(pool3d.error.find("has rank 5, expected 4") != std::string::npos, pool3d.error.c_str());
    }

    // A 7 x 7 plane under AVX2's 16 registers: blocks whose rows divide the
    // plane hold at most 7 accumulators (1 x 7 pixels of one channel block),
    // too few for the FMA latency, so rows that do not divide it are offered
    // too (the last row block partial, peeled), and the default is one of
    // them: [1, 2, 7], 14 accumulators; every block fits the registers and
    // computes the convolution. With AVX-512's 32 registers [2, 1, 7] fits and only
    // dividing rows are offered.
    void blockedConvSmallPlaneBlocks_data() {
        QTest::addColumn<int>("registers");
        QTest::addColumn<Shape>("byDefault");
        QTest::newRow("avx2") << 16 << Shape{2, 1, 5};
        QTest::newRow("avx512") << 32 << Shape{2, 1, 7};
    }
    void blockedConvSmallPlaneBlocks() {
        QFETCH(int, registers);
        QFETCH(Shape, byDefault);
        NDArray x = randomArray({1, 16, 7, 7}, 90), w = randomArray({32, 16, 3, 3}, 91), b = randomArray({32}, 92);
        NDArray want = convRef(x, w, &b, 1, {{1, 1}, {1, 1}, {1, 1}}, {1, 32, 7, 7});
        topi::ScheduleOptions options;
        options.vectorLanes = 8;
        options.vectorRegisters = registers;
        const topi::nn::ConvLayouts layouts{"NCHW8c", "NCHW8c"};
        auto run = [&](std::map<std::string, int64_t> config, std::vector<te::Knob>* knobs) {
            NDArray xb = toBlocks(x, 8);
            Tensors args = placeholders({xb, w, b});
            OpRun r;
            try {
                te::ConfigSpace cfg(config);
                topi::nn::ConvParams p{.strides = {1, 1}, .padding = {1, 1, 1, 1}};
                te::Tensor out = topi::nn::conv2dNCHWc(args[0], args[1], p, args[2], "conv", nullptr, &cfg, layouts);
                runTensors(r, args, {xb, w, b}, {out}, [&](const std::vector<te::Operation>& ops) {
                    te::Schedule s = scheduleBlockedConv(ops, out, options, cfg);
                    cfg.checkConfigUsed();
                    if (knobs) *knobs = cfg.knobs();
                    return s;
                });
            } catch (const std::exception& e) {
                r.error = e.what();
            }
            if (r.error.empty()) r.outputs[0] = fromBlocks(r.outputs[0]);
            return r;
        };
        std::vector<te::Knob> knobs;
        CHECK_CLOSE(run({}, &knobs), want);
        const te::Knob* block = nullptr;
        for (const auto& k : knobs)
            if (k.name == "reg_block") block = &k;
        QVERIFY(block);
        QCOMPARE(block->value().ints(), byDefault);
        std::vector<int64_t> partial;     // choices whose last row block is partial
        std::vector<int64_t> partialCols; // single rows whose last block of columns is partial
        for (int64_t i = 0; i < block->size(); ++i) {
            const auto c = block->choices.at(size_t(i)).ints();
            QVERIFY(c[0] * c[1] * c[2] + c[0] + 1 <= registers);
            if (7 % c[1] != 0) partial.push_back(i);
            if (7 % c[2] != 0) {
                QCOMPARE(c[1], int64_t(1));
                partialCols.push_back(i);
            }
        }
        QCOMPARE(partial.empty(), registers != 16);
        QVERIFY(!partialCols.empty());
        // Partial blocks are peeled off, not guarded around each multiply-add.
        for (const auto* kind : {&partial, &partialCols})
            if (!kind->empty()) {
                te::Tensor xp = te::placeholder(topi::toExprs({1, 2, 7, 7, 8}), DataType::float32(), "x");
                te::Tensor wp = te::placeholder(topi::toExprs({32, 16, 3, 3}), DataType::float32(), "w");
                te::ConfigSpace cfg({{"reg_block", kind->back()}});
                topi::nn::ConvParams p{.strides = {1, 1}, .padding = {1, 1, 1, 1}};
                te::Tensor out = topi::nn::conv2dNCHWc(xp, wp, p, {}, "conv", nullptr, &cfg, layouts);
                te::Schedule s = scheduleBlockedConv({out->op}, out, options, cfg);
                const std::string tir = tir::toString(driver::lowerSchedule(s, {xp, wp, out}, "conv").lowered);
                QVERIFY2(tir.find("likely") == std::string::npos, tir.c_str());
            }
        // The first and the last of each kind (each takes a second to build).
        for (const auto* kind : {&partial, &partialCols})
            if (!kind->empty()) {
                CHECK_CLOSE(run({{"reg_block", kind->front()}}, nullptr), want);
                CHECK_CLOSE(run({{"reg_block", kind->back()}}, nullptr), want);
            }
    }

    // The default register block is the one the cycle model
    // (topi::registerBlockCycles) prefers: under AVX2's 16 registers
    // ResNet-18's planes of 7 x 2^k pixels get 12 accumulators along a row
    // ([2, 1, 6], its last block peeled) where only 8 tile the row exactly;
    // 14 x 14 and 7 x 7 planes get two channel blocks of 5 pixels ([2, 1,
    // 5], the last block peeled), whose input-block channels unroll, where
    // [1, 1, 14] and [1, 2, 7] fill the registers and keep the channel loop
    // (Zen 3: 1.35-1.4x slower); with AVX-512's 32 registers the defaults
    // tile the row exactly.
    void registerBlockDefaults_data() {
        QTest::addColumn<int>("registers");
        QTest::addColumn<int>("ocb");
        QTest::addColumn<int>("plane");
        QTest::addColumn<Shape>("byDefault");
        QTest::newRow("avx2 56x56") << 16 << 8 << 56 << Shape{2, 1, 6};
        QTest::newRow("avx2 28x28") << 16 << 16 << 28 << Shape{2, 1, 6};
        QTest::newRow("avx2 14x14") << 16 << 32 << 14 << Shape{2, 1, 5};
        QTest::newRow("avx2 7x7") << 16 << 64 << 7 << Shape{2, 1, 5};
        QTest::newRow("avx512 56x56") << 32 << 4 << 56 << Shape{4, 1, 4};
        QTest::newRow("avx512 7x7") << 32 << 32 << 7 << Shape{2, 1, 7};
    }
    void registerBlockDefaults() {
        QFETCH(int, registers);
        QFETCH(int, ocb);
        QFETCH(int, plane);
        QFETCH(Shape, byDefault);
        const topi::RegisterBlocks blocks = topi::registerBlocks(ocb, plane, plane, registers);
        QCOMPARE(blocks.choices.at(blocks.defaultIndex), byDefault);
        // The model: a block that tiles the row beats one with fewer
        // accumulators, and a peeled block pays for its partial last step.
        QVERIFY(topi::registerBlockCycles(8, 56, 56, {2, 1, 6}) < topi::registerBlockCycles(8, 56, 56, {2, 1, 4}));
        QVERIFY(topi::registerBlockCycles(8, 56, 56, {2, 1, 6}) > topi::registerBlockCycles(8, 56, 56, {2, 1, 7}));
        QCOMPARE(topi::registerBlockCycles(8, 56, 56, {2, 1, 8}), 0.5); // 16 multiply-adds on two pipes: the peak
        // A step kept in a loop costs more; which blocks unroll cleanly.
        QVERIFY(topi::registerBlockCycles(32, 14, 14, {1, 1, 14}, false) >
                topi::registerBlockCycles(32, 14, 14, {1, 1, 14}, true));
        QVERIFY(topi::unrollsCleanly({2, 1, 6}, 16));
        QVERIFY(!topi::unrollsCleanly({1, 1, 12}, 16)); // one channel block: spills under AVX2
        QVERIFY(!topi::unrollsCleanly({4, 2, 3}, 32));  // 24 accumulators of 32 registers
        QVERIFY(topi::unrollsCleanly({4, 1, 4}, 32));
    }

    // Every register block the convolution offers fits the register file
    // as LLVM allocates it: no vector register is spilled to the stack or
    // reloaded in a basic block that multiplies (the inner loop), for each
    // block of at least 10 accumulators on AVX2 (16 registers) and AVX-512
    // (32), on a 12-pixel row whose divisors allow [2, 1, 6] and [2, 1, 12],
    // with the channels of an input block unrolled where unroll_ic's default
    // says so (some blocks of each kind are).
    void registerBlocksDoNotSpill_data() {
        QTest::addColumn<QString>("target");
        QTest::addColumn<int>("lanes");
        QTest::addColumn<int>("registers");
        QTest::newRow("avx2") << "x86_64 -mcpu=znver3" << 8 << 16;
        QTest::newRow("avx512") << "x86_64 -mcpu=skylake-avx512" << 16 << 32;
    }
    void registerBlocksDoNotSpill() {
        QFETCH(QString, target);
        QFETCH(int, lanes);
        QFETCH(int, registers);
        const Target t = codegen::resolveTarget(target.toStdString());
        topi::ScheduleOptions options;
        options.vectorLanes = lanes;
        options.vectorRegisters = registers;
        const std::string block = "NCHW" + std::to_string(lanes) + "c";
        const topi::nn::ConvLayouts layouts{block, block};
        auto assembly = [&](std::map<std::string, int64_t> config, std::vector<te::Knob>* knobs) {
            te::Tensor x = te::placeholder(topi::toExprs({1, 64 / lanes, 12, 12, lanes}), DataType::float32(), "x");
            te::Tensor w = te::placeholder(topi::toExprs({4 * lanes, 64, 3, 3}), DataType::float32(), "w");
            te::ConfigSpace cfg(config);
            topi::nn::ConvParams p{.padding = {1, 1, 1, 1}};
            te::Tensor out = topi::nn::conv2dNCHWc(x, w, p, {}, "conv", nullptr, &cfg, layouts);
            te::Schedule s = scheduleBlockedConv({out->op}, out, options, cfg);
            if (knobs) *knobs = cfg.knobs();
            std::vector<te::Tensor> args;
            for (const auto& op : te::postOrderOps({out->op}))
                if (dynamic_cast<const te::PlaceholderOpNode*>(op.get())) args.push_back(op.output(0));
            args.push_back(out);
            codegen::BuildOptions bo;
            bo.jit = false;
            return driver::buildFunctions({driver::lowerSchedule(s, args, "conv")}, t, bo).assembly;
        };
        // Vector moves between a register and the stack inside a basic block
        // holding a fused multiply-add (the register block's loop body).
        auto spillsInFmaBlocks = [](const std::string& text) {
            static const QRegularExpression spill(QStringLiteral(R"(%[xyz]mm\d+.*\(%rsp\)|\(%rsp\).*%[xyz]mm\d+)"));
            int spills = 0, inBlock = 0;
            bool fma = false;
            for (const QString& line : QString::fromStdString(text + "\n.end:").split(QLatin1Char('\n'))) {
                // A label or a jump ends the block (a loop's reloads after
                // its backward branch are the epilogue's, not the loop's).
                if ((!line.startsWith(QLatin1Char('\t')) && line.endsWith(QLatin1Char(':'))) ||
                    line.startsWith(QLatin1String("\tj"))) {
                    if (fma) spills += inBlock;
                    fma = false;
                    inBlock = 0;
                } else if (line.contains(QLatin1String("vfmadd"))) {
                    fma = true;
                } else if (spill.match(line).hasMatch()) {
                    ++inBlock;
                }
            }
            return spills;
        };
        std::vector<te::Knob> knobs;
        QCOMPARE(spillsInFmaBlocks(assembly({}, &knobs)), 0);
        const te::Knob* blocks = nullptr;
        for (const auto& k : knobs)
            if (k.name == "reg_block") blocks = &k;
        QVERIFY(blocks);
        int checked = 0, unrolled = 0; // blocks, and those whose input-block channels are unrolled by default
        for (int64_t i = 0; i < blocks->size(); ++i) {
            const auto c = blocks->choices.at(size_t(i)).ints();
            if (c[0] * c[1] * c[2] < 10) continue;
            std::vector<te::Knob> chosen;
            const std::string text = assembly({{"reg_block", i}}, &chosen);
            for (const auto& k : chosen)
                if (k.name == "unroll_ic" && k.value().asBool()) ++unrolled;
            QVERIFY2(text.find("vfmadd") != std::string::npos, "no multiply-add in the assembly");
            QVERIFY2(spillsInFmaBlocks(text) == 0,
                     qPrintable(QStringLiteral("reg_block [%1, %2, %3] spills").arg(c[0]).arg(c[1]).arg(c[2])));
            ++checked;
        }
        QVERIFY(checked >= 3);
        QVERIFY(unrolled >= 2);
    }

    // Which operand the blocked convolution's tasks re-read: rows first
    // when the input outgrows the core's cache and the weights fit it,
    // channel blocks first when both fit or the weights are the larger
    // stream; the knob's default follows ScheduleOptions::l2Bytes and both
    // orders compute the convolution.
    void blockedConvTaskOrder() {
        const int64_t kib = 1024, mib = 1024 * 1024;
        // ResNet-50's 1 x 1 from 256 channels at 56 x 56: input 3.2 MB, weights 128 KB.
        QCOMPARE(topi::defaultTaskOrder(3136 * kib, 128 * kib, 8, 56, 512 * kib), std::string("rows"));
        // Its 3 x 3 of 128 channels at 28 x 28: weights 576 KB outgrow the cache.
        QCOMPARE(topi::defaultTaskOrder(450 * kib, 576 * kib, 8, 28, 512 * kib), std::string("channels"));
        // Both fit, or both outgrow it with the weights the larger stream.
        QCOMPARE(topi::defaultTaskOrder(300 * kib, 200 * kib, 8, 56, 512 * kib), std::string("channels"));
        QCOMPARE(topi::defaultTaskOrder(784 * kib, 9 * mib, 16, 7, 512 * kib), std::string("channels"));

        NDArray x = randomArray({1, 64, 16, 16}, 93), w = randomArray({128, 64, 1, 1}, 94);
        NDArray want = convRef(x, w, nullptr, 1, {{1, 1}, {1, 1}, {0, 0}}, {1, 128, 16, 16});
        const topi::nn::ConvLayouts layouts{"NCHW8c", "NCHW8c"};
        auto run = [&](int64_t l2, std::map<std::string, int64_t> config, std::string* order) {
            topi::ScheduleOptions options;
            options.vectorLanes = 8;
            options.vectorRegisters = 16;
            options.l2Bytes = l2;
            NDArray xb = toBlocks(x, 8);
            Tensors args = placeholders({xb, w});
            OpRun r;
            try {
                te::ConfigSpace cfg(config);
                te::Tensor out = topi::nn::conv2dNCHWc(args[0], args[1], {}, {}, "conv", nullptr, &cfg, layouts);
                runTensors(r, args, {xb, w}, {out}, [&](const std::vector<te::Operation>& ops) {
                    te::Schedule s = scheduleBlockedConv(ops, out, options, cfg);
                    cfg.checkConfigUsed();
                    for (const auto& k : cfg.knobs())
                        if (k.name == "task_order" && order) *order = k.value().asString();
                    return s;
                });
            } catch (const std::exception& e) {
                r.error = e.what();
            }
            if (r.error.empty()) r.outputs[0] = fromBlocks(r.outputs[0]);
            return r;
        };
        // Input 64 KB, weights 32 KB: a 48 KB cache holds only the weights.
        std::string order;
        CHECK_CLOSE(run(48 * kib, {}, &order), want);
        QCOMPARE(order, std::string("rows"));
        CHECK_CLOSE(run(mib, {}, &order), want);
        QCOMPARE(order, std::string("channels"));
        CHECK_CLOSE(run(mib, {{"task_order", 1}}, &order), want);
        QCOMPARE(order, std::string("rows"));
    }

    // The transposed convolution's knobs: register blocks (channel blocks x
    // rows x columns, one or all column phases) spread over those the AVX2 and
    // AVX-512 register files allow, and input-channel blocks, compute the same
    // product; every block offered fits the registers (accumulators + one
    // phase's weights + a broadcast).
    void convTransposeKnobs_data() {
        QTest::addColumn<int>("lanes");
        QTest::addColumn<int>("registers");
        QTest::newRow("avx2") << 8 << 16;
        QTest::newRow("avx512") << 16 << 32;
    }
    void convTransposeKnobs() {
        QFETCH(int, lanes);
        QFETCH(int, registers);
        NDArray x = randomArray({1, 16, 4, 4}, 67), w = randomArray({16, 16, 4, 4}, 68);
        NDArray want = convTransposeRef(x, w, nullptr, 1, {{2, 2}, {1, 1}, {1, 1}}, {1, 16, 8, 8});
        topi::ScheduleOptions options;
        options.vectorLanes = lanes;
        options.vectorRegisters = registers;
        const topi::nn::ConvLayouts layouts{"NCHW8c", "NCHW8c"};
        auto run = [&](std::map<std::string, int64_t> config, std::vector<te::Knob>* knobs) {
            NDArray xb = toBlocks(x, 8);
            Tensors args = placeholders({xb, w});
            OpRun r;
            try {
                te::ConfigSpace cfg(config);
                topi::nn::ConvTransposeParams p{.strides = {2, 2}, .padding = {1, 1, 1, 1}};
                te::Tensor ct = topi::nn::convTransposeNCHWc(args[0], args[1], p, {}, "ct", nullptr, layouts, &cfg);
                runTensors(r, args, {xb, w}, {ct}, [&](const std::vector<te::Operation>& ops) {
                    te::Schedule s = te::createSchedule(ops);
                    te::Tensor conv;
                    for (te::Stage st : s.stages())
                        if (st.op()->tag == topi::tag::kConvTransposeNCHWc) conv = st.op().output(0);
                    topi::scheduleConvTransposeNCHWc(s, conv, ct, options, cfg);
                    cfg.checkConfigUsed();
                    if (knobs) *knobs = cfg.knobs();
                    return s;
                });
            } catch (const std::exception& e) {
                r.error = e.what();
            }
            if (r.error.empty()) r.outputs[0] = fromBlocks(r.outputs[0]);
            return r;
        };
        std::vector<te::Knob> knobs;
        OpRun byDefault = run({}, &knobs);
        CHECK_CLOSE(byDefault, want);
        QCOMPARE(knobs.size(), size_t(2));
        QCOMPARE(knobs[0].name, std::string("tile_ic"));
        QCOMPARE(knobs[0].value().ints(), (std::vector<int64_t>{1, 16}));
        QCOMPARE(knobs[1].name, std::string("reg_block"));
        // Two 8-channel blocks of one vector (AVX2) or half of one (AVX-512):
        // one register per block either way.
        for (int64_t i = 0; i < knobs[1].size(); ++i) {
            const auto b = knobs[1].choices.at(size_t(i)).ints();
            QCOMPARE(b.size(), size_t(4));
            QVERIFY(b[0] * b[1] * b[2] * b[3] + b[0] + 1 <= registers);
            QVERIFY(b[3] == 1 || b[3] == 2);
        }
        QVERIFY(knobs[1].size() > 4);
        // Six choices spread over the list (every one takes ~0.5 s to build),
        // the last among them.
        const int64_t n = knobs[1].size();
        for (int64_t k = 0; k < 6; ++k) {
            const int64_t ib = (n - 1) - k * (n - 1) / 5;
            OpRun r = run({{"reg_block", ib}, {"tile_ic", ib % knobs[0].size()}}, nullptr);
            CHECK_CLOSE(r, want);
        }
    }

    // ConvTranspose by phases, scheduled: strides 1, 2 and 3, kernels the
    // stride does not divide (zero taps), asymmetric pads, output padding, a
    // negative end pad (a larger output, as output_shape can ask), output
    // channels not a multiple of 8, a 1x1 input; weights packed by the
    // packer or a stage; the bias and a fused Relu.
    void convTransposeScheduled_data() {
        QTest::addColumn<Shape>("xs");
        QTest::addColumn<Shape>("ws");
        QTest::addColumn<Shape>("strides");
        QTest::addColumn<Shape>("pads");
        QTest::addColumn<Shape>("outPad");
        QTest::addColumn<bool>("withPacker");
        QTest::addColumn<int64_t>("dataBlock");
        QTest::addColumn<int64_t>("outBlock");
        for (int p = 0; p < 2; ++p) {
            const bool packed = p == 1;
            auto row = [&](const char* name) -> QTestData& {
                return QTest::newRow((std::string(name) + (packed ? "_packer" : "_stage")).c_str());
            };
            row("s1_pad1") << Shape{1, 5, 4, 4} << Shape{5, 16, 3, 3} << Shape{1, 1} << Shape{1, 1, 1, 1}
                           << Shape{0, 0} << packed << int64_t(0) << int64_t(0);
            row("s2_k4_dcgan") << Shape{1, 8, 4, 4} << Shape{8, 16, 4, 4} << Shape{2, 2} << Shape{1, 1, 1, 1}
                               << Shape{0, 0} << packed << int64_t(0) << int64_t(0);
            row("s3_s2_k5_outpad") << Shape{2, 6, 3, 5} << Shape{6, 8, 5, 3} << Shape{3, 2} << Shape{0, 1, 2, 0}
                                   << Shape{2, 1} << packed << int64_t(0) << int64_t(0);
            row("s2_oc3") << Shape{1, 4, 5, 5} << Shape{4, 3, 3, 3} << Shape{2, 2} << Shape{1, 1, 1, 1}
                          << Shape{1, 1} << packed << int64_t(0) << int64_t(0);
            row("s1_1x1_input") << Shape{1, 20, 1, 1} << Shape{20, 32, 4, 4} << Shape{1, 1} << Shape{0, 0, 0, 0}
                                << Shape{0, 0} << packed << int64_t(0) << int64_t(0);
            // Stored in channel blocks (alter-layout): data in 8-blocks read
            // in its own blocks or regrouped, output in 8- or 16-blocks.
            row("blocked_in_out_8") << Shape{1, 16, 4, 4} << Shape{16, 16, 4, 4} << Shape{2, 2} << Shape{1, 1, 1, 1}
                                    << Shape{0, 0} << packed << int64_t(8) << int64_t(8);
            row("blocked_in_regrouped_out_16") << Shape{1, 24, 3, 5} << Shape{24, 32, 3, 3} << Shape{2, 2}
                                               << Shape{0, 1, 1, 0} << Shape{1, 0} << packed << int64_t(8)
                                               << int64_t(16);
            row("blocked_in_plain_out_oc3") << Shape{1, 16, 6, 6} << Shape{16, 3, 4, 4} << Shape{2, 2}
                                            << Shape{1, 1, 1, 1} << Shape{0, 0} << packed << int64_t(8) << int64_t(0);
            row("s2_negative_end") << Shape{1, 3, 3, 4} << Shape{3, 8, 3, 2} << Shape{2, 2} << Shape{0, 1, -1, -2}
                                   << Shape{0, 0} << packed << int64_t(0) << int64_t(0);
        }
    }
    void convTransposeScheduled() {
        QFETCH(Shape, xs);
        QFETCH(Shape, ws);
        QFETCH(Shape, strides);
        QFETCH(Shape, pads);
        QFETCH(Shape, outPad);
        QFETCH(bool, withPacker);
        QFETCH(int64_t, dataBlock);
        QFETCH(int64_t, outBlock);
        NDArray x = randomArray(xs, 64), w = randomArray(ws, 65), b = randomArray({ws[1]}, 66);
        Shape outShape{xs[0], ws[1], 0, 0};
        for (size_t d = 0; d < 2; ++d)
            outShape[d + 2] = strides[d] * (xs[d + 2] - 1) + outPad[d] + ws[d + 2] - pads[d] - pads[d + 2];
        NDArray want = convTransposeRef(x, w, &b, 1, {strides, {1, 1}, {pads[0], pads[1]}}, outShape);
        for (int64_t i = 0; i < want.numElements(); ++i)
            want.data<float>()[i] = std::max(want.data<float>()[i], 0.0f);
        NDArray xStored = dataBlock ? toBlocks(x, dataBlock) : x;
        Tensors args = placeholders({xStored, w, b});
        topi::nn::ConvTransposeParams p{.strides = strides, .padding = pads, .outputPadding = outPad};
        const topi::nn::ConvLayouts layouts{dataBlock ? "NCHW" + std::to_string(dataBlock) + "c" : "",
                                            outBlock ? "NCHW" + std::to_string(outBlock) + "c" : ""};
        QVERIFY(topi::nn::convTransposeNCHWcApplies(args[0], args[1], p, layouts));
        TestPacker packer;
        packer.know(args[1], w);
        OpRun r;
        try {
            te::Tensor ct = topi::nn::convTransposeNCHWc(args[0], args[1], p, args[2], "ct",
                                                         withPacker ? &packer : nullptr, layouts);
            QCOMPARE(ct.ndim(), outBlock ? 5 : 4);
            te::Tensor relu = te::compute(ct->shape, [&](const std::vector<tir::Var>& i) {
                return tir::max(ct(topi::exprs(i)), topi::constant(DataType::float32(), 0.0));
            }, "relu", topi::tag::kElemWise);
            std::vector<NDArray> buffers{xStored, w, b};
            args.insert(args.end(), packer.args.begin(), packer.args.end());
            buffers.insert(buffers.end(), packer.buffers.begin(), packer.buffers.end());
            runTensors(r, args, buffers, {relu}, [&](const std::vector<te::Operation>&) {
                return topi::scheduleFused({relu});
            });
        } catch (const std::exception& e) {
            r.error = e.what();
        }
        if (outBlock && r.error.empty()) r.outputs[0] = fromBlocks(r.outputs[0]);
        CHECK_CLOSE(r, want);
        QVERIFY(isReduction(stageTagged(r, topi::tag::kConvTransposeNCHWc)));
        QCOMPARE(packer.args.size(), size_t(withPacker ? 1 : 0));
    }

    // Grouped or dilated transposed convolutions keep the general compute
    // (checked in convTransposeGroupsStridesDilationsPads); so does ONNX's
    // node through its strategy.
    void convTransposeBlockedAppliesTo() {
        Tensors args = placeholders({randomArray({1, 4, 3, 3}, 67), randomArray({4, 2, 3, 3}, 68)});
        QVERIFY(topi::nn::convTransposeNCHWcApplies(args[0], args[1], {.strides = {2, 2}}));
        QVERIFY(!topi::nn::convTransposeNCHWcApplies(args[0], args[1], {.groups = 2}));
        QVERIFY(!topi::nn::convTransposeNCHWcApplies(args[0], args[1], {.dilation = {2, 1}}));
        auto dilated = runOp("ConvTranspose", {randomArray({1, 4, 3, 3}, 67), randomArray({4, 2, 3, 3}, 68)},
                             attrs({{"dilations", Shape{2, 1}}}));
        QVERIFY2(dilated.error.empty(), dilated.error.c_str());
        QVERIFY(!stageTagged(dilated, topi::tag::kConvTransposeNCHWc));
        auto plain = runOp("ConvTranspose", {randomArray({1, 4, 3, 3}, 67), randomArray({4, 2, 3, 3}, 68)},
                           attrs({{"strides", Shape{2, 2}}}));
        QVERIFY2(plain.error.empty(), plain.error.c_str());
        QVERIFY(stageTagged(plain, topi::tag::kConvTransposeNCHWc));
    }
};

QTEST_GUILESS_MAIN(TestTopiNn)
#include "tst_topi_nn.moc"
