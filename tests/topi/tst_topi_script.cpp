// The `topi` module of TE scripts (topi/script/ScriptModule.h): each function
// with TVM's keywords builds exactly the compute the C++ call with the typed
// parameter struct builds (same TIR), bad arguments are located errors that
// name the function, the documented table is the module, and the stages a
// call makes link back to its line.
#include "driver/TeDriver.h"
#include "ir/Diagnostic.h"
#include "te/script/Script.h"
#include "tir/IRPrinter.h"
#include "topi/Topi.h"
#include "topi/script/ScriptModule.h"

#include <QtTest>

#include <fstream>
#include <functional>
#include <set>
#include <sstream>

using namespace tessel;
using te::Tensor;
using Tensors = std::vector<Tensor>;

namespace {

struct Decl {
    std::string name;
    std::vector<int64_t> shape;
    DataType dtype = DataType::float32();
};

std::string declText(const std::vector<Decl>& decls) {
    std::string s;
    for (auto& d : decls) {
        s += d.name + " = te.placeholder((";
        for (size_t i = 0; i < d.shape.size(); ++i)
            s += (i ? ", " : "") + std::to_string(d.shape[i]);
        s += d.shape.size() == 1 ? ",)" : ")";
        s += ", dtype=\"" + d.dtype.str() + "\", name=\"" + d.name + "\")\n";
    }
    return s;
}

/// The TIR of `outs` with every stage at root: what the compute is, whatever schedules it.
std::string naiveTir(const Tensors& placeholders, const Tensors& outs) {
    std::vector<te::Operation> ops;
    for (auto& t : outs)
        ops.push_back(t->op);
    Tensors args = placeholders;
    args.insert(args.end(), outs.begin(), outs.end());
    return tir::toString(driver::lowerSchedule(te::createSchedule(ops), args, "k").lowered);
}

te::script::ScriptResult runTopi(const std::string& src) {
    return driver::runScript(src, te::script::ScriptOptions{});
}

/// The error of a script that must fail.
Diagnostic failure(const std::string& src) {
    try {
        runTopi(src);
    } catch (const CompileError& e) {
        return e.diagnostic();
    }
    return Diagnostic{Diagnostic::Severity::Note, "(no error)", {}};
}

Tensor lit(double v, const char* name) {
    return topi::literalTensor({}, tir::makeConst(DataType::float32(), v), name);
}

struct Case {
    const char* label;
    std::vector<Decl> decls;
    std::string expr; ///< assigned to y: a Tensor or a tuple of them
    std::function<Tensors(const Tensors&)> cpp;
};

std::vector<Case> cases() {
    using namespace topi;
    using nn::PoolType;
    std::vector<Case> c;
    c.push_back(
        {"conv2d, every keyword",
         {{"x", {1, 4, 9, 9}}, {"w", {8, 2, 3, 3}}, {"b", {8}}},
         "topi.nn.conv2d(x, w, strides=(2, 1), padding=(1, 0, 1, 2), dilation=1, groups=2, bias=b)",
         [](const Tensors& p) {
             return Tensors{nn::conv2d(
                 p[0], p[1],
                 {.strides = {2, 1}, .padding = {1, 0, 1, 2}, .dilation = {1}, .groups = 2}, p[2],
                 "conv2d")};
         }});
    c.push_back({"conv2d, positional",
                 {{"x", {1, 4, 9, 9}}, {"w", {8, 4, 3, 3}}},
                 "topi.nn.conv2d(x, w, 2, 1, 2)",
                 [](const Tensors& p) {
                     return Tensors{nn::conv2d(p[0], p[1],
                                               {.strides = {2}, .padding = {1}, .dilation = {2}},
                                               {}, "conv2d")};
                 }});
    c.push_back({"conv 1-d, TVM's aliases",
                 {{"x", {1, 4, 10}}, {"w", {6, 4, 3}}},
                 "topi.nn.conv(input=x, filter=w, stride=2, padding=1, name=\"c1\")",
                 [](const Tensors& p) {
                     return Tensors{
                         nn::conv(p[0], p[1], {.strides = {2}, .padding = {1}}, {}, "c1")};
                 }});
    c.push_back({"depthwise_conv2d with a multiplier",
                 {{"x", {1, 4, 8, 8}}, {"k", {4, 2, 3, 3}}},
                 "topi.nn.depthwise_conv2d(x, k, padding=1)",
                 [](const Tensors& p) {
                     Tensor k = transform::reshape(p[1], {8, 1, 3, 3}, "depthwise_conv2d_kernel");
                     return Tensors{nn::conv2d(p[0], k, {.padding = {1}, .groups = 4}, {},
                                               "depthwise_conv2d")};
                 }});
    c.push_back({"conv2d_transpose",
                 {{"x", {1, 4, 5, 5}}, {"w", {4, 3, 3, 3}}},
                 "topi.nn.conv2d_transpose(x, w, strides=2, padding=1, output_padding=1)",
                 [](const Tensors& p) {
                     return Tensors{nn::convTranspose(
                         p[0], p[1], {.strides = {2}, .padding = {1}, .outputPadding = {1}}, {},
                         "conv2d_transpose")};
                 }});
    c.push_back({"dense with a bias",
                 {{"d", {4, 16}}, {"w", {8, 16}}, {"b", {8}}},
                 "topi.nn.dense(d, w, b)",
                 [](const Tensors& p) { return Tensors{nn::dense(p[0], p[1], p[2], "dense")}; }});
    c.push_back({"matmul, batched",
                 {{"a", {2, 3, 4, 5}}, {"b", {5, 6}}},
                 "topi.nn.matmul(a, b)",
                 [](const Tensors& p) { return Tensors{nn::matmul(p[0], p[1], "matmul")}; }});
    c.push_back({"gemm",
                 {{"a", {4, 5}}, {"b", {6, 5}}, {"c", {6}}},
                 "topi.nn.gemm(a, b, c, alpha=0.5, beta=2, trans_b=True)",
                 [](const Tensors& p) {
                     return Tensors{nn::gemm(p[0], p[1], p[2],
                                             {.transB = true, .alpha = 0.5, .beta = 2}, "gemm")};
                 }});
    c.push_back(
        {"pool2d avg, ceil mode, pads counted",
         {{"x", {1, 3, 10, 10}}},
         "topi.nn.pool2d(x, kernel=(3, 2), stride=2, padding=1, pool_type=\"avg\", ceil_mode=True, "
         "count_include_pad=True)",
         [](const Tensors& p) {
             return Tensors{nn::pool2d(p[0], PoolType::Avg,
                                       {.kernel = {3, 2},
                                        .strides = {2},
                                        .padding = {1},
                                        .ceilMode = true,
                                        .countIncludePad = true},
                                       "pool2d")};
         }});
    c.push_back({"pool2d max, dilated",
                 {{"x", {1, 3, 10, 10}}},
                 "topi.nn.pool2d(x, 3, 1, 2)",
                 [](const Tensors& p) {
                     return Tensors{nn::pool2d(p[0], PoolType::Max,
                                               {.kernel = {3}, .strides = {1}, .dilation = {2}},
                                               "pool2d")};
                 }});
    c.push_back({"global_pool avg",
                 {{"x", {2, 3, 5, 7}}},
                 "topi.nn.global_pool(x, \"avg\")",
                 [](const Tensors& p) {
                     return Tensors{nn::globalPool(p[0], PoolType::Avg, "global_pool")};
                 }});
    c.push_back({"batch_norm",
                 {{"x", {1, 3, 4, 4}}, {"g", {3}}, {"be", {3}}, {"m", {3}}, {"v", {3}}},
                 "topi.nn.batch_norm(x, g, be, m, v, epsilon=0.001)",
                 [](const Tensors& p) {
                     return Tensors{
                         nn::batchNorm(p[0], p[1], p[2], p[3], p[4], 0.001, "batch_norm")};
                 }});
    c.push_back({"softmax and log_softmax",
                 {{"x", {2, 5, 3}}},
                 "(topi.nn.softmax(x, axis=1), topi.nn.log_softmax(x))",
                 [](const Tensors& p) {
                     return Tensors{nn::softmax(p[0], 1, "softmax"),
                                    nn::logSoftmax(p[0], -1, "log_softmax")};
                 }});
    c.push_back({"layer_norm over TVM's axes",
                 {{"x", {2, 5, 3}}, {"g", {5, 3}}, {"b", {3}}},
                 "topi.nn.layer_norm(x, g, b, axis=(-2, -1), epsilon=0.01)",
                 [](const Tensors& p) {
                     return Tensors{
                         nn::layerNorm(p[0], p[1], p[2], {.axis = 1, .epsilon = 0.01}, "layer_norm")
                             .output};
                 }});
    c.push_back({"reductions",
                 {{"x", {2, 5, 3}}},
                 "(topi.sum(x, axis=1, keepdims=True), topi.mean(x), topi.max(x, axis=(0, -1)), "
                 "topi.min(x, axis=()))",
                 [](const Tensors& p) {
                     return Tensors{
                         reduce(p[0], ReduceOp::Sum, {.axes = {1}, .keepDims = true}, "sum"),
                         reduce(p[0], ReduceOp::Mean, {.axes = {}, .keepDims = false}, "mean"),
                         reduce(p[0], ReduceOp::Max, {.axes = {0, 2}, .keepDims = false}, "max"),
                         reduce(p[0], ReduceOp::Min,
                                {.axes = {}, .keepDims = false, .noopWithEmptyAxes = true}, "min")};
                 }});
    c.push_back(
        {"element-wise with numbers",
         {{"x", {4, 6}}, {"z", {6}}},
         "topi.nn.relu(topi.clip(topi.subtract(topi.multiply(2, x), z), 0.0, 6), name=\"out\")",
         [](const Tensors& p) {
             Tensor m = multiply(lit(2, "multiply_literal"), p[0], "multiply");
             return Tensors{relu(clip(subtract(m, p[1], "subtract"), 0.0, 6.0, "clip"), "out")};
         }});
    c.push_back(
        {"activations and where",
         {{"x", {4, 6}}, {"s", {6}}},
         "topi.where(topi.greater(x, 0.5), topi.nn.leaky_relu(x, alpha=0.2), topi.nn.prelu(x, s))",
         [](const Tensors& p) {
             return Tensors{where(greater(p[0], lit(0.5, "greater_literal"), "greater"),
                                  leakyRelu(p[0], 0.2, "leaky_relu"), prelu(p[0], p[1], "prelu"),
                                  "where")};
         }});
    c.push_back(
        {"cast, maximum, sigmoid",
         {{"x", {4, 6}}, {"i", {4, 6}, DataType::int32()}},
         "topi.maximum(topi.sigmoid(x), topi.cast(i, \"float32\"))",
         [](const Tensors& p) {
             return Tensors{maximum(
                 {sigmoid(p[0], "sigmoid"), cast(p[1], DataType::float32(), "cast")}, "maximum")};
         }});
    c.push_back({"more activations",
                 {{"x", {4, 6}}},
                 "(topi.nn.elu(x, 0.5), topi.nn.selu(x), topi.nn.softplus(x), "
                 "topi.nn.hard_sigmoid(x, beta=0.25), "
                 "topi.nn.hard_swish(x), topi.exp(x, name=\"e\"))",
                 [](const Tensors& p) {
                     return Tensors{
                         elu(p[0], 0.5, "elu"),
                         selu(p[0], 1.67326319217681884765625, 1.05070102214813232421875, "selu"),
                         softplus(p[0], "softplus"),
                         hardSigmoid(p[0], 0.2, 0.25, "hard_sigmoid"),
                         hardSwish(p[0], "hard_swish"),
                         exp(p[0], "e")};
                 }});
    c.push_back({"instance_norm, depth_to_space, space_to_depth",
                 {{"x", {1, 8, 4, 4}}, {"g", {8}}, {"b", {8}}},
                 "(topi.nn.instance_norm(x, g, b), topi.nn.depth_to_space(x, 2, mode=\"CRD\"), "
                 "topi.nn.space_to_depth(x, 2))",
                 [](const Tensors& p) {
                     return Tensors{nn::instanceNorm(p[0], p[1], p[2], 1e-5, "instance_norm"),
                                    transform::depthToSpace(p[0], 2, "CRD", "depth_to_space"),
                                    transform::spaceToDepth(p[0], 2, "space_to_depth")};
                 }});
    c.push_back({"the model compiler's blocked convolution and packed dense layer",
                 {{"x", {1, 16, 8, 8}}, {"w", {32, 16, 3, 3}}, {"d", {3, 16}}, {"v", {32, 16}}},
                 "(topi.nn.conv2d_nchwc(x, w, padding=1), topi.nn.dense_packed(d, v))",
                 [](const Tensors& p) {
                     return Tensors{
                         nn::conv2dNCHWc(p[0], p[1], {.padding = {1}}, {}, "conv2d_nchwc"),
                         nn::densePacked(p[2], p[3], {}, {.transB = true}, "dense_packed")};
                 }});
    c.push_back(
        {"reshape, transpose, concatenate",
         {{"x", {2, 3, 4}}, {"y2", {2, 6, 2}}},
         "topi.concatenate([topi.reshape(x, (2, -1, 2)), topi.transpose(y2, (0, 1, 2))], axis=1)",
         [](const Tensors& p) {
             return Tensors{
                 transform::concatenate({transform::reshape(p[0], {2, -1, 2}, "reshape"),
                                         transform::transpose(p[1], {0, 1, 2}, "transpose")},
                                        1, "concatenate")};
         }});
    c.push_back({"split at indices",
                 {{"x", {2, 10}}},
                 "topi.split(x, [3, 7], axis=1)",
                 [](const Tensors& p) {
                     return transform::split(p[0], {3, 4, 3}, 1, "split");
                 }});
    c.push_back({"split into sections", {{"x", {6, 4}}}, "topi.split(x, 3)", [](const Tensors& p) {
                     return transform::split(p[0], {2, 2, 2}, 0, "split");
                 }});
    c.push_back(
        {"strided_slice, take",
         {{"x", {5, 8}}},
         "(topi.strided_slice(x, [1, 7], [4, 0], strides=[1, -2]), topi.take(x, 2, axis=1))",
         [](const Tensors& p) {
             Tensor idx = literalTensor({}, tir::makeConst(DataType::int64(), 2), "take_index");
             return Tensors{
                 transform::stridedSlice(p[0], {.starts = {1, 7}, .ends = {4, 0}, .steps = {1, -2}},
                                         "strided_slice"),
                 transform::gather(p[0], idx, 1, "take")};
         }});
    c.push_back({"pad, expand_dims, squeeze, flatten",
                 {{"x", {1, 3, 4}}},
                 "topi.nn.flatten(topi.expand_dims(topi.squeeze(topi.nn.pad(x, (0, 1, 2), (0, 1, "
                 "1), pad_mode=\"reflect\")), 0))",
                 [](const Tensors& p) {
                     Tensor padded = transform::pad(
                         p[0], {.before = {0, 1, 2}, .after = {0, 1, 1}, .mode = "reflect"}, {},
                         "pad");
                     Tensor sq = transform::reshape(padded, {5, 7}, "squeeze");
                     Tensor ex = transform::reshape(sq, {1, 5, 7}, "expand_dims");
                     return Tensors{transform::reshape(ex, {1, 35}, "flatten")};
                 }});
    c.push_back({"full, tile, broadcast_to",
                 {{"x", {1, 3}}},
                 "topi.add(topi.tile(x, (2, 1)), topi.add(topi.full((2, 3), \"float32\", 1.5), "
                 "topi.broadcast_to(x, (2, 3))))",
                 [](const Tensors& p) {
                     Tensor t = transform::tile(p[0], {2, 1}, "tile");
                     Tensor f = transform::full({2, 3}, DataType::float32(), 1.5, "full");
                     return Tensors{
                         add(t, add(f, transform::broadcastTo(p[0], {2, 3}, "broadcast_to"), "add"),
                             "add")};
                 }});
    return c;
}

/// Where `needle` starts in `src` (1-based line and column).
SourceLoc locate(const std::string& src, const std::string& needle) {
    size_t at = src.find(needle);
    if (at == std::string::npos) return {};
    int line = 1, col = 1;
    for (size_t i = 0; i < at; ++i) {
        if (src[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return {line, col};
}

} // namespace

class TestTopiScript : public QObject {
    Q_OBJECT
private slots:
    void keywordsMapOntoTheParameterStructs_data() {
        QTest::addColumn<int>("index");
        auto all = cases();
        for (size_t i = 0; i < all.size(); ++i)
            QTest::newRow(all[i].label) << int(i);
    }
    void keywordsMapOntoTheParameterStructs() {
        QFETCH(int, index);
        const Case c = cases()[size_t(index)];
        const std::string src = declText(c.decls) + "y = " + c.expr + "\n";
        te::script::ScriptResult r;
        try {
            r = runTopi(src);
        } catch (const CompileError& e) {
            QFAIL(qPrintable(QString::fromStdString(e.diagnostic().str() + "\n" + src)));
        }
        Tensors outs;
        const te::script::Value* y = r.global("y");
        QVERIFY(y);
        if (y->isSequence()) {
            for (auto& v : y->items())
                outs.push_back(v.asTensor());
        } else {
            outs.push_back(y->asTensor());
        }
        Tensors placeholders;
        for (auto& d : c.decls) {
            std::vector<te::Expr> shape;
            for (int64_t e : d.shape)
                shape.push_back(tir::makeConst(DataType::int32(), e));
            placeholders.push_back(te::placeholder(shape, d.dtype, d.name));
        }
        const std::string want = naiveTir(placeholders, c.cpp(placeholders));
        QCOMPARE(QString::fromStdString(naiveTir(r.placeholders, outs)),
                 QString::fromStdString(want));
    }

    void badArgumentsAreLocatedErrors_data() {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>(
            "at"); // where the error points (first occurrence; a call: its name)
        QTest::addColumn<QString>("message"); // contained in the message
        const QString x = "x = te.placeholder((1, 4, 9, 9), name=\"x\")\nw = te.placeholder((8, 4, "
                          "3, 3), name=\"w\")\n";
        QTest::newRow("wrong keyword") << x + "y = topi.nn.conv2d(x, w, paddin=1)\n"
                                       << "paddin"
                                       << "topi.nn.conv2d() got an unexpected keyword argument "
                                          "'paddin'; did you mean 'padding'?";
        QTest::newRow("stride of 0") << x + "y = topi.nn.conv2d(x, w, strides=(2, 0))\n"
                                     << "strides"
                                     << "topi.nn.conv2d(): 'strides' must be at least 1, not 0";
        QTest::newRow("mismatched channels") << "x = te.placeholder((1, 4, 9, 9), name=\"x\")\nw = "
                                                "te.placeholder((8, 3, 3, 3), name=\"w\")\n"
                                                "y = topi.nn.conv2d(x, w)\n"
                                             << "w)"
                                             << "topi.nn.conv2d(): the kernel 'w' (float32[8, 3, "
                                                "3, 3]) takes 3 input channels per group, but 'x' "
                                                "(float32[1, 4, 9, 9]) has 4 channels in 1 group";
        QTest::newRow("groups") << x + "y = topi.nn.conv2d(x, w, groups=3)\n"
                                << "groups"
                                << "'groups' (3) does not divide the 4 channels of 'x'";
        QTest::newRow("padding count")
            << x + "y = topi.nn.conv2d(x, w, padding=(1, 2, 3))\n"
            << "padding"
            << "'padding' has 3 values for 2 spatial axes (give 1, 2 or 4";
        QTest::newRow("negative padding") << x + "y = topi.nn.conv2d(x, w, padding=-1)\n"
                                          << "padding"
                                          << "'padding' must not be negative, not -1";
        QTest::newRow("bias")
            << x + "b = te.placeholder((4,), name=\"b\")\ny = topi.nn.conv2d(x, w, bias=b)\n"
            << "bias="
            << "'bias' must be 1-d with one value per output channel (8), not 'b' (float32[4])";
        QTest::newRow("window larger than the input")
            << "x = te.placeholder((1, 4, 2, 2), name=\"x\")\nw = te.placeholder((8, 4, 3, 3), "
               "name=\"w\")\n"
               "y = topi.nn.conv2d(x, w)\n"
            << "conv2d("
            << "topi.nn.conv2d(): the window (3 with dilation) is larger than the padded input (2)";
        QTest::newRow("pool type")
            << x + "y = topi.nn.pool2d(x, 2, pool_type=\"mean\")\n"
            << "pool_type"
            << "topi.nn.pool2d(): 'pool_type' must be \"max\" or \"avg\", not \"mean\"";
        QTest::newRow("pool kernel") << x + "y = topi.nn.pool2d(x, (2, 2, 2))\n"
                                     << "(2, 2, 2)"
                                     << "'kernel' has 3 values for 2 spatial axes";
        QTest::newRow("missing argument") << x + "y = topi.nn.pool2d(x)\n"
                                          << "pool2d("
                                          << "topi.nn.pool2d() missing required argument 'kernel'";
        QTest::newRow("dense inner dimension")
            << "d = te.placeholder((4, 16), name=\"d\")\nv = te.placeholder((8, 15), "
               "name=\"v\")\ny = topi.nn.dense(d, v)\n"
            << "v)"
            << "topi.nn.dense(): the weight 'v' (float32[8, 15]) takes 15 inputs per row, but 'd' "
               "(float32[4, 16]) has 16";
        QTest::newRow("matmul inner dimension")
            << "a = te.placeholder((4, 16), name=\"a\")\nb = te.placeholder((15, 8), "
               "name=\"b\")\ny = topi.nn.matmul(a, b)\n"
            << "b)"
            << "the inner dimensions differ";
        QTest::newRow("reduction axis") << x + "y = topi.sum(x, axis=4)\n"
                                        << "axis"
                                        << "topi.sum(): axis 4 is out of range for 'x' of rank 4";
        QTest::newRow("reshape")
            << x + "y = topi.reshape(x, (5, -1))\n"
            << "(5, -1)"
            << "topi.reshape(): cannot reshape 'x' [1, 4, 9, 9] (324 elements) to [5, -1]";
        QTest::newRow("dtypes")
            << x + "i = te.placeholder((9,), dtype=\"int32\", name=\"i\")\ny = topi.add(x, i)\n"
            << "i)"
            << "topi.add(): the operands' dtypes differ (float32 and int32)";
        QTest::newRow("where's condition") << x + "y = topi.where(x, x, 0.0)\n"
                                           << "x, x"
                                           << "topi.where(): 'condition' must be a bool tensor "
                                              "(such as topi.greater's), not float32";
        QTest::newRow("logical operands") << x + "y = topi.logical_and(1, x)\n"
                                          << "x)"
                                          << "topi.logical_and(): 'rhs' must be a bool tensor";
        QTest::newRow("not a tensor") << x + "y = topi.nn.relu(3)\n"
                                      << "3)"
                                      << "topi.nn.relu(): argument 'x' must be a Tensor, not int";
        QTest::newRow("symbolic shape")
            << "n = te.var(\"n\")\nz = te.placeholder((n, 4), name=\"z\")\ny = topi.nn.relu(z)\n"
            << "z)"
            << "tensor 'z' has a symbolic extent in dimension 0";
        QTest::newRow("schedule a placeholder") << x + "s = topi.schedule_default([x])\n"
                                                << "[x]"
                                                << "topi.schedule_default(): 'x' is a placeholder";
        QTest::newRow("vector lanes")
            << x + "y = topi.nn.relu(x)\ns = topi.schedule_default(y, vector_lanes=0)\n"
            << "vector_lanes"
            << "'vector_lanes' must be in [1, 64], not 0";
    }
    void badArgumentsAreLocatedErrors() {
        QFETCH(QString, script);
        QFETCH(QString, at);
        QFETCH(QString, message);
        const std::string src = script.toStdString();
        Diagnostic d = failure(src);
        QVERIFY2(QString::fromStdString(d.message).contains(message), d.message.c_str());
        // The error is on the last line, where `at` first occurs on it.
        const size_t lastLine = src.rfind('\n', src.size() - 2) + 1;
        SourceLoc want = locate(src.substr(lastLine), at.toStdString());
        QVERIFY(want.known());
        want.line += int(std::count(src.begin(), src.begin() + long(lastLine), '\n'));
        QCOMPARE(d.loc.line, want.line);
        QCOMPARE(d.loc.column, want.column);
    }

    // The documented table is the module: every entry is a function of it,
    // every function of it has an entry, and docs/compiler-spine.md lists them.
    void tableIsTheModule() {
        const auto& table = topi::script::scriptFunctions();
        QVERIFY(table.size() > 60);
        std::set<std::string> names;
        for (auto& f : table) {
            QVERIFY2(names.insert(f.name).second, f.name.c_str());
            QVERIFY2(!f.summary.empty() && !f.params.empty(), f.name.c_str());
        }
        auto r = runTopi("t = topi\nfrom tvm import topi as tv\n");
        QVERIFY(r.global("tv")->asModule().find("nn"));
        std::set<std::string> found;
        std::function<void(const te::script::ModuleObject&, const std::string&)> walk =
            [&](const te::script::ModuleObject& m, const std::string& path) {
                for (auto& [n, v] : m.members) {
                    if (v->is(te::script::Value::Kind::Module))
                        walk(v->asModule(), path + "." + n);
                    else if (v->is(te::script::Value::Kind::Function))
                        found.insert(path + "." + n);
                }
            };
        walk(r.global("t")->asModule(), "topi");
        std::string diff;
        for (auto& n : found)
            if (!names.count(n)) diff += " module-only:" + n;
        for (auto& n : names)
            if (!found.count(n)) diff += " table-only:" + n;
        QVERIFY2(diff.empty(), diff.c_str());

        std::ifstream in(std::string(TESSEL_SOURCE_DIR) + "/docs/compiler-spine.md");
        std::stringstream docs;
        docs << in.rdbuf();
        for (auto& f : table) {
            const std::string leaf = f.name.substr(f.name.rfind('.') + 1);
            QVERIFY2(docs.str().find(leaf) != std::string::npos,
                     ("docs/compiler-spine.md does not mention " + f.name).c_str());
        }
        // The signature shows the defaults the bindings apply.
        for (auto& f : table)
            if (f.name == "topi.nn.conv2d")
                QCOMPARE(f.params, std::string("data, kernel, strides=1, padding=0, dilation=1, "
                                               "groups=1, bias=None, name=\"conv2d\""));
    }

    // The stages a call makes link to its line; the loops schedule_default
    // made link to its line (te::ScriptLineTable, as the code view shows).
    void stagesLinkToTheCall() {
        const std::string src = "x = te.placeholder((1, 16, 32, 32), name=\"x\")\n"
                                "w = te.placeholder((32, 16, 3, 3), name=\"w\")\n"
                                "c = topi.nn.conv2d(x, w, padding=1)\n"
                                "y = topi.nn.relu(c)\n"
                                "s = topi.schedule_default(y)\n";
        driver::ScriptOptions so;
        auto fs = driver::lowerScript(src, so);
        QCOMPARE(fs.size(), size_t(1));
        const auto& f = fs[0];
        QCOMPARE(f.args.size(), size_t(3));
        QCOMPARE(f.args[2].name(), std::string("relu"));
        const te::Schedule& s = f.schedule;
        auto lines = [&](const te::Tensor& t) {
            std::set<int> out;
            for (auto& l : s[t].data().sources.stage)
                out.insert(l.line);
            return out;
        };
        const Tensor relu = f.args[2];
        Tensor conv;
        for (auto& t : relu->op->inputTensors())
            if (t->op->name == "conv2d") conv = t;
        QVERIFY(conv.defined());
        QVERIFY(lines(relu).count(4));
        QVERIFY(lines(conv).count(3));
        // Both were scheduled (parallel outer loops) by line 5.
        QVERIFY(lines(relu).count(5));
        QVERIFY(lines(conv).count(5));
        QVERIFY(!f.scriptLines.empty());
        QVERIFY(!f.scriptLines.tirLinesOf(3).empty());
        QVERIFY(!f.scriptLines.tirLinesOf(4).empty());
        QVERIFY(!f.scriptLines.tirLinesOf(5).empty());
    }
};

QTEST_APPLESS_MAIN(TestTopiScript)
#include "tst_topi_script.moc"
