/// \file
/// Tests of the ONNX importer on ONNX's own test models and on models built
/// byte by byte: graph structure, constants, inferred types against the
/// tests' output tensors, input shape binding, and the error for each kind
/// of bad input.
#include "OnnxBytes.h"

#include "frontend/OnnxImporter.h"
#include "frontend/TensorProto.h"
#include "graph/OpRegistry.h"
#include "graph/Unsupported.h"
#include "graph/passes/GraphPassManager.h"
#include "graph/passes/GraphPipeline.h"
#include "ir/Diagnostic.h"
#include "ir/Half.h"

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>

using namespace tessel;
using namespace tessel::frontend;
namespace ob = onnxbytes;

namespace {

const std::string kData = "/usr/share/libonnx-testdata/data/";

/// The message of the CompileError `f` throws ("" when it throws none).
template <class F> std::string errorOf(F&& f) {
    try {
        f();
    } catch (const CompileError& e) {
        return e.what();
    }
    return "";
}

std::string writeTemp(const std::string& name, const std::string& bytes) {
    const std::string path = std::string(TESSEL_BINARY_DIR) + "/tst_onnximporter_" + name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

/// A model `y = Relu(x)` with x: float32[dims] (negative dims symbolic).
std::string reluModel(const std::vector<int64_t>& dims, int64_t opset = 13,
                      const std::string& domain = {}) {
    return ob::model(ob::graph({ob::node("Relu", {"x"}, {"y"}, "relu")},
                               {ob::valueInfo("x", ob::kFloat, dims)},
                               {ob::valueInfo("y", ob::kFloat, dims)}),
                     opset, domain);
}

int countOps(const graph::Graph& g, const std::string& op) {
    int n = 0;
    for (const auto& node : g.nodes())
        n += node->op == op ? 1 : 0;
    return n;
}

} // namespace

class TestOnnxImporter : public QObject {
    Q_OBJECT

private slots:
    void realModelsMatchTestData_data();
    void realModelsMatchTestData();
    void reluStructure();
    void convWithInitializers();
    void gemmNoBias();
    void oldSoftmaxIsFlattened();
    void constantNodesBecomeConstants();
    void legacyBroadcastAtOpset6();
    void parseBinding();
    void inputShapeBinding();
    void inputShapeBindingErrors();
    void malformedFiles();
    void unsupportedContent();
    void opaqueNodesKeepTheModel();
    void subgraphsAreGraphs();
    void allUnsupportedInOneError();
    void float16ModelComputesInFloat32();
    void everyTestModelImports();
    void fuzzFindingsFailCleanly_data();
    void fuzzFindingsFailCleanly();
};

void TestOnnxImporter::realModelsMatchTestData_data() {
    QTest::addColumn<QString>("dir");
    for (const char* d :
         {"node/test_relu", "node/test_conv_with_strides_padding", "node/test_gemm_default_no_bias",
          "node/test_softmax_axis_0", "node/test_softmax_default_axis", "node/test_flatten_axis0",
          "node/test_maxpool_2d_pads", "node/test_batchnorm_example", "node/test_reduce_mean_default_axes_keepdims_example",
          "pytorch-converted/test_Conv2d", "pytorch-converted/test_BatchNorm2d_eval",
          "pytorch-converted/test_Linear", "simple/test_single_relu_model"})
        QTest::newRow(d) << QString(d);
}

void TestOnnxImporter::realModelsMatchTestData() {
    QFETCH(QString, dir);
    const std::string base = kData + dir.toStdString();
    if (!std::filesystem::exists(base + "/model.onnx")) QSKIP("ONNX test data not installed");
    graph::Graph g;
    try {
        g = importOnnx(base + "/model.onnx");
    } catch (const CompileError& e) {
        QFAIL(e.what());
    }
    const std::string set = base + "/test_data_set_0/";
    for (size_t i = 0; i < g.inputs().size(); ++i) {
        NamedTensor t = readTensorProto(set + "input_" + std::to_string(i) + ".pb");
        QCOMPARE(g.inputs()[i]->outputTypes[0].str(), t.value->type().str());
    }
    QVERIFY(!g.outputs().empty());
    for (size_t i = 0; i < g.outputs().size(); ++i) {
        NamedTensor t = readTensorProto(set + "output_" + std::to_string(i) + ".pb");
        QCOMPARE(g.outputs()[i].type().str(), t.value->type().str());
    }
}

void TestOnnxImporter::reluStructure() {
    graph::Graph g = importOnnx(kData + "node/test_relu/model.onnx");
    QCOMPARE(g.inputs().size(), size_t(1));
    QCOMPARE(g.constants().size(), size_t(0));
    QCOMPARE(g.nodes().size(), size_t(1));
    QCOMPARE(g.nodes()[0]->op, std::string("Relu"));
    QCOMPARE(g.nodes()[0]->inputs[0], g.findInput("x"));
    QCOMPARE(g.outputs()[0].name(), std::string("y"));
}

void TestOnnxImporter::convWithInitializers() {
    // pytorch-converted/test_Conv2d: the weights are initializers, so the only
    // graph input is the data.
    graph::Graph g = importOnnx(kData + "pytorch-converted/test_Conv2d/model.onnx");
    QCOMPARE(g.inputs().size(), size_t(1));
    QCOMPARE(countOps(g, "Conv"), 1);
    QVERIFY(g.constants().size() >= 1);
    const graph::Node* conv = g.nodes()[0].get();
    QCOMPARE(conv->op, std::string("Conv"));
    QVERIFY(conv->inputs[1].isConstant());
    QCOMPARE(conv->inputs[1].type().rank(), 4);
    QCOMPARE(conv->inputs[1].type().str(), conv->inputs[1].constant()->type().str());

    graph::Graph s = importOnnx(kData + "node/test_conv_with_strides_padding/model.onnx");
    QCOMPARE(countOps(s, "Conv"), 1);
    QCOMPARE(s.nodes()[0]->attrs.getInts("strides", {}), (std::vector<int64_t>{2, 2}));
    QCOMPARE(s.nodes()[0]->attrs.getInts("pads", {}), (std::vector<int64_t>{1, 1, 1, 1}));
}

void TestOnnxImporter::gemmNoBias() {
    graph::Graph g = importOnnx(kData + "node/test_gemm_default_no_bias/model.onnx");
    QCOMPARE(g.nodes().size(), size_t(1));
    QCOMPARE(g.nodes()[0]->op, std::string("Gemm"));
    QCOMPARE(g.nodes()[0]->inputs.size(), size_t(2));
}

void TestOnnxImporter::oldSoftmaxIsFlattened() {
    // Opset 11 Softmax with axis 1 on a rank-3 input normalises over axes 1
    // and 2 together: Flatten -> Softmax(axis 1) -> Reshape back.
    const std::string bytes = ob::model(
        ob::graph({ob::node("Softmax", {"x"}, {"y"}, "sm")},
                  {ob::valueInfo("x", ob::kFloat, {2, 3, 4})},
                  {ob::valueInfo("y", ob::kFloat, {2, 3, 4})}),
        11);
    graph::Graph g = importOnnxBytes(bytes);
    QCOMPARE(g.nodes().size(), size_t(3));
    QCOMPARE(g.nodes()[0]->op, std::string("Flatten"));
    QCOMPARE(g.nodes()[1]->op, std::string("Softmax"));
    QCOMPARE(g.nodes()[1]->outputTypes[0].str(), std::string("float32[2, 12]"));
    QCOMPARE(g.nodes()[2]->op, std::string("Reshape"));
    QCOMPARE(g.outputs()[0].type().str(), std::string("float32[2, 3, 4]"));

    // Over the last axis the old and new semantics agree: one node.
    const std::string last = ob::model(
        ob::graph({ob::node("Softmax", {"x"}, {"y"}, "sm", {ob::intAttr("axis", 2)})},
                  {ob::valueInfo("x", ob::kFloat, {2, 3, 4})},
                  {ob::valueInfo("y", ob::kFloat, {2, 3, 4})}),
        11);
    graph::Graph h = importOnnxBytes(last);
    QCOMPARE(h.nodes().size(), size_t(1));
    QCOMPARE(h.nodes()[0]->attrs.getInt("axis", -1), int64_t(2));

    // Two unknown dimensions: the flattened form cannot be reshaped back.
    const std::string dynamic = ob::model(
        ob::graph({ob::node("Softmax", {"x"}, {"y"}, "sm")},
                  {ob::valueInfo("x", ob::kFloat, {-1, 3, -1})},
                  {ob::valueInfo("y", ob::kFloat, {-1, 3, -1})}),
        11);
    QCOMPARE(errorOf([&] { importOnnxBytes(dynamic); }),
             std::string("model: node 'sm' (Softmax, opset 11): Softmax over the flattened axes "
                         "1..2 of float32[?, 3, ?] (semantics before opset 13) is not supported "
                         "with more than one unknown dimension"));
}

void TestOnnxImporter::constantNodesBecomeConstants() {
    // Reshape's shape from a Constant node: a graph constant, so inference
    // can read it.
    ob::Msg shapeTensor = ob::tensorRaw("", ob::kInt64, {2}, [] {
        int64_t v[2] = {4, 6};
        return std::string(reinterpret_cast<const char*>(v), sizeof(v));
    }());
    ob::Msg valueAttr;
    valueAttr.bytes(1, "value").msg(5, shapeTensor).varint(20, 4);
    const std::string bytes = ob::model(
        ob::graph({ob::node("Constant", {}, {"shape"}, "c", {valueAttr}),
                   ob::node("Reshape", {"x", "shape"}, {"y"}, "r")},
                  {ob::valueInfo("x", ob::kFloat, {2, 3, 4})},
                  {ob::valueInfo("y", ob::kFloat, {4, 6})}),
        13);
    graph::Graph g = importOnnxBytes(bytes);
    QCOMPARE(g.constants().size(), size_t(1));
    QCOMPARE(g.constants()[0]->name, std::string("shape"));
    QCOMPARE(g.constants()[0]->constant->toInts(), (std::vector<int64_t>{4, 6}));
    QCOMPARE(g.nodes().size(), size_t(1));
    QCOMPARE(g.outputs()[0].type().str(), std::string("float32[4, 6]"));
}

void TestOnnxImporter::legacyBroadcastAtOpset6() {
    // Opset 6: Add(x[2, 3, 4], b[3]) with broadcast=1, axis=1 aligns b with
    // axis 1, so b is reshaped to [3, 1] for numpy broadcasting.
    ob::Msg axis = ob::intAttr("axis", 1);
    ob::Msg broadcast = ob::intAttr("broadcast", 1);
    const std::string bytes = ob::model(
        ob::graph({ob::node("Add", {"x", "b"}, {"y"}, "add", {broadcast, axis})},
                  {ob::valueInfo("x", ob::kFloat, {2, 3, 4})},
                  {ob::valueInfo("y", ob::kFloat, {2, 3, 4})},
                  {ob::tensorRaw("b", ob::kFloat, {3}, std::string(12, '\0'))}),
        6);
    graph::Graph g = importOnnxBytes(bytes);
    QCOMPARE(g.nodes().size(), size_t(2));
    QCOMPARE(g.nodes()[0]->op, std::string("Reshape"));
    QCOMPARE(g.nodes()[0]->outputTypes[0].str(), std::string("float32[3, 1]"));
    QCOMPARE(g.nodes()[1]->op, std::string("Add"));
    QVERIFY(!g.nodes()[1]->attrs.has("axis"));
    QVERIFY(!g.nodes()[1]->attrs.has("broadcast"));
    QCOMPARE(g.outputs()[0].type().str(), std::string("float32[2, 3, 4]"));
}

void TestOnnxImporter::parseBinding() {
    auto b = parseInputShapeBinding("x:1,3,224,224");
    QCOMPARE(b.first, std::string("x"));
    QCOMPARE(b.second, (std::vector<int64_t>{1, 3, 224, 224}));
    b = parseInputShapeBinding("input:0:2,?, -1");
    QCOMPARE(b.first, std::string("input:0"));
    QCOMPARE(b.second, (std::vector<int64_t>{2, -1, -1}));
    b = parseInputShapeBinding("s:");
    QCOMPARE(b.second, std::vector<int64_t>{});
    QCOMPARE(errorOf([] { parseInputShapeBinding("x"); }),
             std::string("invalid input shape 'x': no ':' between the name and the dimensions "
                         "(expected NAME:D0,D1,..., e.g. x:1,3,224,224)"));
    QCOMPARE(errorOf([] { parseInputShapeBinding("x:1,a"); }),
             std::string("invalid input shape 'x:1,a': 'a' is not a dimension "
                         "(expected NAME:D0,D1,..., e.g. x:1,3,224,224)"));
    QCOMPARE(errorOf([] { parseInputShapeBinding(":1"); }),
             std::string("invalid input shape ':1': the input name is empty "
                         "(expected NAME:D0,D1,..., e.g. x:1,3,224,224)"));
    QCOMPARE(errorOf([] { parseInputShapeBinding("x:1,,2"); }),
             std::string("invalid input shape 'x:1,,2': '' is not a dimension "
                         "(expected NAME:D0,D1,..., e.g. x:1,3,224,224)"));
}

void TestOnnxImporter::inputShapeBinding() {
    const std::string bytes = reluModel({-1, 3, 4, 4});
    graph::Graph g = importOnnxBytes(bytes);
    QCOMPARE(g.inputs()[0]->outputTypes[0].str(), std::string("float32[?, 3, 4, 4]"));
    QCOMPARE(g.outputs()[0].type().str(), std::string("float32[?, 3, 4, 4]"));

    ImportOptions o;
    o.inputShapes["x"] = {2, 3, 4, 4};
    g = importOnnxBytes(bytes, o);
    QCOMPARE(g.inputs()[0]->outputTypes[0].str(), std::string("float32[2, 3, 4, 4]"));
    QCOMPARE(g.outputs()[0].type().str(), std::string("float32[2, 3, 4, 4]"));

    // -1 in a binding keeps the model's dimension.
    o.inputShapes["x"] = {5, -1, 4, 4};
    g = importOnnxBytes(bytes, o);
    QCOMPARE(g.outputs()[0].type().str(), std::string("float32[5, 3, 4, 4]"));

    // An input without any shape needs a binding, which then gives the rank.
    const std::string noShape = ob::model(
        ob::graph({ob::node("Relu", {"x"}, {"y"}, "relu")},
                  {ob::valueInfo("x", ob::kFloat, {}, false)}, {ob::valueInfo("y", ob::kFloat, {}, false)}),
        13);
    QCOMPARE(errorOf([&] { importOnnxBytes(noShape); }),
             std::string("model: input 'x' has no shape in the model; give one (x:D0,D1,...)"));
    o.inputShapes["x"] = {7, 2};
    g = importOnnxBytes(noShape, o);
    QCOMPARE(g.outputs()[0].type().str(), std::string("float32[7, 2]"));
}

void TestOnnxImporter::inputShapeBindingErrors() {
    const std::string bytes = reluModel({-1, 3, 4, 4});
    ImportOptions o;
    o.modelName = "net.onnx";
    o.inputShapes["images"] = {1, 3, 4, 4};
    QCOMPARE(errorOf([&] { importOnnxBytes(bytes, o); }),
             std::string("net.onnx: an input shape is given for 'images', which is not a graph "
                         "input (inputs: x)"));
    o.inputShapes.clear();
    o.inputShapes["x"] = {1, 3, 4};
    QCOMPARE(errorOf([&] { importOnnxBytes(bytes, o); }),
             std::string("net.onnx: input 'x' has rank 4 (float32[?, 3, 4, 4]), but the input "
                         "shape [1, 3, 4] has 3"));
    o.inputShapes["x"] = {1, 5, 4, 4};
    QCOMPARE(errorOf([&] { importOnnxBytes(bytes, o); }),
             std::string("net.onnx: input 'x' is float32[?, 3, 4, 4], but the input shape "
                         "[1, 5, 4, 4] gives 5 for dimension 1"));
    // Past 2^53 elements (graph/Graph.h, kMaxTensorElements), declared or bound.
    o.inputShapes["x"] = {int64_t(1) << 50, 3, 4, 4};
    QCOMPARE(errorOf([&] { importOnnxBytes(bytes, o); }),
             std::string("net.onnx: input 'x' is float32[1125899906842624, 3, 4, 4]: more than "
                         "2^53 elements"));
    QCOMPARE(errorOf([&] { importOnnxBytes(reluModel({int64_t(1) << 40, 1 << 20})); }),
             std::string("model: input 'x' is float32[1099511627776, 1048576]: more than 2^53 "
                         "elements"));
    // A shape that does not check downstream names the node.
    const std::string add = ob::model(
        ob::graph({ob::node("Add", {"a", "b"}, {"y"}, "add1")},
                  {ob::valueInfo("a", ob::kFloat, {-1, 4}), ob::valueInfo("b", ob::kFloat, {3})},
                  {ob::valueInfo("y", ob::kFloat, {-1, 4})}),
        13);
    const std::string msg = errorOf([&] { importOnnxBytes(add, o); });
    QVERIFY2(msg.rfind("net.onnx: an input shape is given", 0) == 0, msg.c_str());
    o.inputShapes.clear();
    const std::string addMsg = errorOf([&] { importOnnxBytes(add, o); });
    QVERIFY2(addMsg.rfind("net.onnx: node 'add1' (Add, opset 13): ", 0) == 0, addMsg.c_str());
}

void TestOnnxImporter::malformedFiles() {
    QCOMPARE(errorOf([] { importOnnx("/nonexistent/model.onnx"); }),
             std::string("/nonexistent/model.onnx: cannot read the file"));
    const std::string empty = writeTemp("empty.onnx", "");
    QCOMPARE(errorOf([&] { importOnnx(empty); }),
             empty + ": the file is empty (not an ONNX model)");

    std::mt19937 rng(1234);
    std::string noise(4096, '\0');
    for (char& c : noise)
        c = static_cast<char>(rng() & 0xff);
    const std::string random = writeTemp("random.onnx", noise);
    QCOMPARE(errorOf([&] { importOnnx(random); }),
             random + ": not a valid ONNX model (malformed or truncated protobuf data)");

    const std::string real = readAll(kData + "pytorch-converted/test_Conv2d/model.onnx");
    QVERIFY(real.size() > 100);
    const std::string truncated = writeTemp("truncated.onnx", real.substr(0, real.size() / 2));
    QCOMPARE(errorOf([&] { importOnnx(truncated); }),
             truncated + ": not a valid ONNX model (malformed or truncated protobuf data)");

    // Valid protobuf, but not a model.
    ob::Msg notModel;
    notModel.varint(1, 8);
    QCOMPARE(errorOf([&] { importOnnxBytes(notModel.str()); }),
             std::string("model: not an ONNX model: it has no graph"));
}

void TestOnnxImporter::unsupportedContent() {
    const std::string unknown = ob::model(
        ob::graph({ob::node("Relu", {"x"}, {"t"}, "relu"), ob::node("FooBar", {"t"}, {"y"}, "foo")},
                  {ob::valueInfo("x", ob::kFloat, {2})}, {ob::valueInfo("y", ob::kFloat, {2})}),
        13);
    QCOMPARE(errorOf([&] { importOnnxBytes(unknown); }),
             std::string("model: node 'foo' (FooBar, opset 13): operator 'FooBar' is not "
                         "supported"));
    // Unnamed nodes are named by position and output.
    const std::string unnamed = ob::model(
        ob::graph({ob::node("FooBar", {"x"}, {"y"}, "")}, {ob::valueInfo("x", ob::kFloat, {2})},
                  {ob::valueInfo("y", ob::kFloat, {2})}),
        12);
    QCOMPARE(errorOf([&] { importOnnxBytes(unnamed); }),
             std::string("model: node #0 (FooBar, opset 12, output 'y'): operator 'FooBar' is "
                         "not supported"));

    QCOMPARE(errorOf([] { importOnnxBytes(reluModel({2}, 5)); }),
             std::string("model: opset 5 of the default ONNX domain is not supported (Tessel "
                         "reads opsets 6 to 17)"));
    QCOMPARE(errorOf([] { importOnnxBytes(reluModel({2}, 18)); }),
             std::string("model: opset 18 of the default ONNX domain is not supported (Tessel "
                         "reads opsets 6 to 17)"));
    for (int64_t opset = 6; opset <= 17; ++opset)
        QCOMPARE(importOnnxBytes(reluModel({2}, opset)).nodes().size(), size_t(1));
    QCOMPARE(errorOf([] { importOnnxBytes(reluModel({2}, 13, "ai.onnx.ml")); }),
             std::string("model: the model declares no opset of the default ONNX domain"));

    const std::string domain = ob::model(
        ob::graph({ob::node("Relu", {"x"}, {"y"}, "r", {}, "com.microsoft")},
                  {ob::valueInfo("x", ob::kFloat, {2})}, {ob::valueInfo("y", ob::kFloat, {2})}),
        13);
    QCOMPARE(errorOf([&] { importOnnxBytes(domain); }),
             std::string("model: node 'r' (com.microsoft.Relu): operator domain 'com.microsoft' "
                         "is not supported (only the default ONNX domain is)"));

    const ob::Msg body = ob::graph({}, {}, {});
    const std::string sub = ob::model(
        ob::graph({ob::node("If", {"c"}, {"y"}, "if1", {ob::graphAttr("then_branch", body)})},
                  {ob::valueInfo("c", 9, {})}, {ob::valueInfo("y", ob::kFloat, {2})}),
        13);
    // An If compiles (control flow), but not one without its else branch.
    QCOMPARE(errorOf([&] { importOnnxBytes(sub); }),
             std::string("model: node 'if1' (If, opset 13): subgraph 'else_branch' is missing"));

    const std::string half = ob::model(
        ob::graph({ob::node("Add", {"x", "w"}, {"y"}, "add")},
                  {ob::valueInfo("x", ob::kFloat, {2})}, {ob::valueInfo("y", ob::kFloat, {2})},
                  {ob::tensorRaw("w", ob::kFloat16, {2}, std::string(3, '\0'))}),
        13);
    QCOMPARE(errorOf([&] { importOnnxBytes(half); }),
             std::string("model: initializer 'w': raw_data holds 3 bytes, but 2 elements of "
                         "FLOAT16 need 4"));

    ob::Msg external = ob::tensorRaw("w", ob::kFloat, {2}, "");
    external.varint(14, 1);
    const std::string ext = ob::model(
        ob::graph({ob::node("Add", {"x", "w"}, {"y"}, "add")},
                  {ob::valueInfo("x", ob::kFloat, {2})}, {ob::valueInfo("y", ob::kFloat, {2})},
                  {external}),
        13);
    QCOMPARE(errorOf([&] { importOnnxBytes(ext); }),
             std::string("model: initializer 'w': external data is not supported (store the "
                         "weights inside the model)"));

    const std::string shortRaw = ob::model(
        ob::graph({ob::node("Add", {"x", "w"}, {"y"}, "add")},
                  {ob::valueInfo("x", ob::kFloat, {2})}, {ob::valueInfo("y", ob::kFloat, {2})},
                  {ob::tensorRaw("w", ob::kFloat, {2}, std::string(4, '\0'))}),
        13);
    QCOMPARE(errorOf([&] { importOnnxBytes(shortRaw); }),
             std::string("model: initializer 'w': raw_data holds 4 bytes, but 2 elements of "
                         "FLOAT need 8"));

    const std::string undefinedInput = ob::model(
        ob::graph({ob::node("Relu", {"z"}, {"y"}, "relu")}, {ob::valueInfo("x", ob::kFloat, {2})},
                  {ob::valueInfo("y", ob::kFloat, {2})}),
        13);
    QCOMPARE(errorOf([&] { importOnnxBytes(undefinedInput); }),
             std::string("model: node 'relu' (Relu, opset 13): input 'z' is not defined before "
                         "the node (not a graph input, an initializer or an earlier node's "
                         "output)"));

    // The model's value_info disagrees with inference.
    const std::string wrongType = ob::model(
        ob::graph({ob::node("Relu", {"x"}, {"y"}, "relu")}, {ob::valueInfo("x", ob::kFloat, {2})},
                  {ob::valueInfo("y", ob::kFloat, {3})}),
        13);
    QCOMPARE(errorOf([&] { importOnnxBytes(wrongType); }),
             std::string("model: node 'relu' (Relu, opset 13): output 'y' is inferred as "
                         "float32[2], but the model gives float32[3]"));
}

namespace {

const std::string kModels = std::string(TESSEL_SOURCE_DIR) + "/tests/frontend/models/";

graph::Graph importShown(const std::string& path) {
    ImportOptions o;
    o.allowUnsupported = true;
    return importOnnx(path, o);
}

const graph::Node* byName(const graph::Graph& g, const std::string& name) {
    for (const auto& n : g.nodes())
        if (n->name == name) return n.get();
    return nullptr;
}

} // namespace

void TestOnnxImporter::opaqueNodesKeepTheModel() {
    const graph::Graph g = importShown(kModels + "dynquant.onnx");
    const auto& ops = graph::defaultOpRegistry();
    // Every node is there, in the model's order, with its operator.
    std::vector<std::string> names;
    for (const auto& n : g.nodes())
        names.push_back(n->name);
    QCOMPARE(names, (std::vector<std::string>{"relu", "quantize", "matmul_int", "to_float",
                                              "rescale", "custom"}));
    // A node is opaque exactly when the registry lacks its operator (or its
    // domain is not ONNX's): the other helper may add these operators.
    for (const char* name : {"quantize", "matmul_int"}) {
        const graph::Node* n = byName(g, name);
        QCOMPARE(n->opaque(), ops.find(n->op) == nullptr);
        if (n->opaque())
            QCOMPARE(n->unsupported, "operator '" + n->op + "' is not supported");
    }
    QVERIFY(!byName(g, "relu")->opaque());
    // ONNX's inference types what the registry cannot: the quantized tensor
    // (also in the model's value_info), the scale, the integer product.
    const graph::Node* q = byName(g, "quantize");
    QCOMPARE(q->numOutputs(), 3);
    QCOMPARE(q->outputTypes[0].str(), std::string("uint8[2, 4]"));
    QCOMPARE(q->outputTypes[1].str(), std::string("float32[]"));
    QCOMPARE(byName(g, "matmul_int")->outputTypes[0].str(), std::string("int32[2, 3]"));
    // The custom-domain node keeps domain and attributes (STRINGS as text).
    const graph::Node* c = byName(g, "custom");
    QVERIFY(c->opaque());
    QCOMPARE(c->domain, std::string("com.example"));
    QCOMPARE(c->attrs.getFloat("factor", 0), 0.5);
    QCOMPARE(c->attrs.getString("mode", ""), std::string("fast"));
    QCOMPARE(c->attrs.getString("tags", ""), std::string("[a, b]"));
    QCOMPARE(c->unsupported,
             std::string("operator domain 'com.example' is not supported (only the default ONNX "
                         "domain is)"));
    // Its input is the Mul's output: the edges are kept.
    QCOMPARE(c->inputs[0].producer(), byName(g, "rescale"));
    QVERIFY(g.hasUnsupported());
}

void TestOnnxImporter::subgraphsAreGraphs() {
    const graph::Graph g = importShown(kModels + "if.onnx");
    const graph::Node* n = byName(g, "choose");
    // An If compiles (driver/ControlFlowProgram.h): not opaque; what its
    // else branch holds is.
    QVERIFY(n && !n->opaque());
    QCOMPARE(n->subgraphs.size(), size_t(2));
    // Its inputs: the condition, then each branch's outer values (x, x).
    QCOMPARE(n->numOwnInputs(), 1);
    QCOMPARE(n->inputs.size(), size_t(3));
    QVERIFY(n->inputs[1] == g.findInput("x") && n->inputs[2] == g.findInput("x"));
    std::map<std::string, const graph::Graph*> sub;
    for (const auto& s : n->subgraphs)
        sub[s.attr] = s.graph.get();
    QVERIFY(sub.count("then_branch") && sub.count("else_branch"));
    // The then branch reads the outer x: an input of the subgraph.
    const graph::Graph& then = *sub["then_branch"];
    QCOMPARE(then.inputs().size(), size_t(1));
    QCOMPARE(then.inputs()[0]->name, std::string("x"));
    QCOMPARE(then.inputs()[0]->outputTypes[0].str(), std::string("float32[2]"));
    for (const auto& s : n->subgraphs) { // both read the outer x, the graph input
        QCOMPARE(s.outer.size(), size_t(1));
        QVERIFY(s.outer[0] == g.findInput("x"));
    }
    QCOMPARE(then.nodes().size(), size_t(1));
    QCOMPARE(then.nodes()[0]->op, std::string("Relu"));
    QVERIFY(!then.nodes()[0]->opaque());
    QCOMPARE(then.outputs()[0].producer(), then.nodes()[0].get());
    const graph::Graph& other = *sub["else_branch"];
    QCOMPARE(other.nodes().size(), size_t(2));
    QVERIFY(other.nodes()[1]->opaque());
    QCOMPARE(other.nodes()[1]->name, std::string("else_custom"));
    // ONNX's inference gives the If's output type; the Add after it is typed.
    QCOMPARE(n->outputTypes[0].str(), std::string("float32[2]"));
    QCOMPARE(byName(g, "add")->outputTypes[0].str(), std::string("float32[2]"));

    // ONNX's own If, Loop and Scan tests.
    for (const char* t : {"test_if", "test_loop11", "test_scan9_sum"}) {
        const std::string path = kData + "node/" + t + "/model.onnx";
        if (!std::filesystem::exists(path)) QSKIP("ONNX test data not installed");
        const graph::Graph m = importShown(path);
        QCOMPARE(m.nodes().size(), size_t(1));
        QVERIFY(!m.nodes()[0]->subgraphs.empty());
        for (const auto& s : m.nodes()[0]->subgraphs)
            QVERIFY(s.graph && !s.graph->outputs().empty());
    }
}

void TestOnnxImporter::allUnsupportedInOneError() {
    // Without allowUnsupported the import fails naming every construct.
    const std::string msg = errorOf([] { importOnnx(kModels + "if.onnx"); });
    const std::string model = kModels + "if.onnx";
    // The If itself compiles (control flow); the custom operator in its else branch does not.
    QCOMPARE(msg, model + ": node 'choose' (If) / else_branch / node 'else_custom' "
                          "(com.example.Wobble): operator domain 'com.example' is not supported "
                          "(only the default ONNX domain is)");
    const std::string dq = errorOf([] { importOnnx(kModels + "dynquant.onnx"); });
    QVERIFY2(dq.find("node 'custom' (com.example.FancyScale): operator domain 'com.example'") !=
                 std::string::npos,
             dq.c_str());
    const auto& ops = graph::defaultOpRegistry();
    for (const char* op : {"DynamicQuantizeLinear", "MatMulInteger"})
        QCOMPARE(dq.find("operator '" + std::string(op) + "' is not supported") != std::string::npos,
                 ops.find(op) == nullptr);
}

void TestOnnxImporter::float16ModelComputesInFloat32() {
    const graph::Graph g = importOnnx(kModels + "fp16.onnx");
    QVERIFY(!g.hasUnsupported());
    QCOMPARE(g.inputs()[0]->outputTypes[0].str(), std::string("float32[2, 3]"));
    QCOMPARE(g.outputs()[0].type().str(), std::string("float32[2, 3]"));
    // The model's types are kept for the run to give outputs back in.
    QCOMPARE(g.storedTypes(), (std::map<std::string, std::string>{{"bias", "float16"},
                                                                  {"scale", "float16"},
                                                                  {"x", "float16"},
                                                                  {"y", "float16"}}));
    // Weights are the float16 values, exactly, as float32.
    const graph::Node* scale = nullptr;
    for (const auto& c : g.constants())
        if (c->name == "scale") scale = c.get();
    QVERIFY(scale);
    QCOMPARE(scale->constant->dtype, DataType::float32());
    for (double v : scale->constant->toDoubles())
        QCOMPARE(double(halfToFloat(floatToHalf(float(v)))), v);
    // Cast to float16 is a cast to float32.
    const std::string cast = ob::model(
        ob::graph({ob::node("Cast", {"x"}, {"y"}, "c", {ob::intAttr("to", ob::kFloat16)})},
                  {ob::valueInfo("x", ob::kFloat, {2})}, {ob::valueInfo("y", ob::kFloat16, {2})}),
        13);
    const graph::Graph c = importOnnxBytes(cast);
    QCOMPARE(c.nodes()[0]->attrs.getInt("to", 0), int64_t(1));
    QCOMPARE(c.outputs()[0].type().str(), std::string("float32[2]"));
}

void TestOnnxImporter::everyTestModelImports() {
    // Every model of ONNX's backend test data (which the checker accepts)
    // imports into a graph when unsupported constructs are allowed; the
    // ones that do not compile list at least one construct.
    if (!std::filesystem::exists(kData)) QSKIP("ONNX test data not installed");
    int models = 0, opaque = 0;
    for (const char* folder : {"node", "pytorch-converted", "pytorch-operator", "simple"}) {
        for (const auto& e : std::filesystem::directory_iterator(kData + folder)) {
            const auto path = e.path() / "model.onnx";
            if (!std::filesystem::exists(path)) continue;
            ++models;
            graph::Graph g;
            try {
                g = importShown(path.string());
            } catch (const CompileError& err) {
                QFAIL(err.what());
            }
            QVERIFY(!g.outputs().empty());
            opaque += g.hasUnsupported() ? 1 : 0;
        }
    }
    qInfo("%d models imported, %d with unsupported constructs", models, opaque);
    QVERIFY(models > 1000);
}

namespace {

/// Raw little-endian int64 data for a TensorProto.
std::string int64Raw(const std::vector<int64_t>& values) {
    std::string raw(values.size() * 8, '\0');
    std::memcpy(raw.data(), values.data(), raw.size());
    return raw;
}

/// ONNX's test model of Scan at opset 9 (a running sum over x's rows), with
/// `attrs` as the Scan node's attributes next to its body.
std::string scanSumModel(const std::vector<ob::Msg>& attrs) {
    const ob::Msg body = ob::graph(
        {ob::node("Add", {"sum_in", "next"}, {"sum_out"}, "add"),
         ob::node("Identity", {"sum_out"}, {"scan_out"}, "id")},
        {ob::valueInfo("sum_in", ob::kFloat, {2}), ob::valueInfo("next", ob::kFloat, {2})},
        {ob::valueInfo("sum_out", ob::kFloat, {2}), ob::valueInfo("scan_out", ob::kFloat, {2})});
    std::vector<ob::Msg> all = {ob::graphAttr("body", body)};
    all.insert(all.end(), attrs.begin(), attrs.end());
    return ob::model(
        ob::graph(
            {ob::node("Scan", {"initial", "x"}, {"y", "z"}, "scan", all)},
            {ob::valueInfo("initial", ob::kFloat, {2}), ob::valueInfo("x", ob::kFloat, {3, 2})},
            {ob::valueInfo("y", ob::kFloat, {2}), ob::valueInfo("z", ob::kFloat, {3, 2})}),
        9);
}

} // namespace

void TestOnnxImporter::fuzzFindingsFailCleanly_data() {
    // What tests/fuzz/fuzz_onnx_import found (docs/compiler-spine.md, "Fuzzing
    // the front ends"), each as the smallest model that shows it: compiling
    // it (the import, then the default graph pipeline) fails with `error`;
    // showing it (ONNX's inference runs) gives a graph that lists the
    // construct for the same reason or, when not `shown`, fails the same way.
    QTest::addColumn<QByteArray>("model");
    QTest::addColumn<QString>("error");
    QTest::addColumn<bool>("shown");

    // ONNX's own inference of Scan reads num_scan_inputs through a null
    // pointer when the node lacks it: such a node is hidden from it.
    const std::string scan = scanSumModel({ob::intAttr("num_s0an_inputs", 1)});
    QTest::newRow("scan without num_scan_inputs")
        << QByteArray::fromStdString(scan) << "num_scan_inputs must be between 1 and the 2 inputs"
        << true;

    // A Reshape target whose dimensions multiply past int64.
    const std::string reshape =
        ob::model(ob::graph({ob::node("Reshape", {"x", "shape"}, {"y"}, "reshape")},
                            {ob::valueInfo("x", ob::kFloat, {1, 9, 4, 4})},
                            {ob::valueInfo("y", ob::kFloat, {})},
                            {ob::tensorRaw("shape", ob::kInt64, {6},
                                           int64Raw({5633, 9, 17732923532771505, 3, 4, 4}))}),
                  13);
    QTest::newRow("reshape target past int64")
        << QByteArray::fromStdString(reshape)
        << "cannot reshape float32[1, 9, 4, 4] (144 elements) to "
           "[5633, 9, 17732923532771505, 3, 4, 4] (more than 2^63 elements)"
        << true;

    // Shape arithmetic on the model's numbers, past int64 (signed overflow):
    // products and sums saturate, and the output is too large.
    const std::string tile = ob::model(
        ob::graph({ob::node("Tile", {"x", "repeats"}, {"y"}, "tile")},
                  {ob::valueInfo("x", ob::kFloat, {8, 2})}, {ob::valueInfo("y", ob::kFloat, {})},
                  {ob::tensorRaw("repeats", ob::kInt64, {2}, int64Raw({1973141820124692484, 1}))}),
        13);
    QTest::newRow("tile repeats past int64")
        << QByteArray::fromStdString(tile)
        << "the output float32[9223372036854775807, 2] would have more than 2^53 elements" << true;
    const std::string pad = ob::model(
        ob::graph({ob::node("Pad", {"x", "pads"}, {"y"}, "pad")},
                  {ob::valueInfo("x", ob::kFloat, {8})}, {ob::valueInfo("y", ob::kFloat, {})},
                  {ob::tensorRaw("pads", ob::kInt64, {2}, int64Raw({INT64_MAX, INT64_MAX}))}),
        13);
    QTest::newRow("pads past int64")
        << QByteArray::fromStdString(pad)
        << "the output float32[9223372036854775807] would have more than 2^53 elements" << true;
    const std::string conv =
        ob::model(ob::graph({ob::node("Conv", {"x", "w"}, {"y"}, "conv",
                                      {ob::intsAttr("dilations", {INT64_MAX / 2})})},
                            {ob::valueInfo("x", ob::kFloat, {1, 1, 8}),
                             ob::valueInfo("w", ob::kFloat, {1, 1, 3})},
                            {ob::valueInfo("y", ob::kFloat, {})}),
                  13);
    QTest::newRow("conv dilation past int64")
        << QByteArray::fromStdString(conv)
        << "the window (9223372036854775807 with dilation) is larger than the padded input (8)"
        << true;
    const std::string deconv =
        ob::model(ob::graph({ob::node("ConvTranspose", {"x", "w"}, {"y"}, "deconv",
                                      {ob::intsAttr("strides", {INT64_MAX / 2})})},
                            {ob::valueInfo("x", ob::kFloat, {1, 1, 8}),
                             ob::valueInfo("w", ob::kFloat, {1, 1, 3})},
                            {ob::valueInfo("y", ob::kFloat, {})}),
                  13);
    QTest::newRow("conv-transpose strides past int64")
        << QByteArray::fromStdString(deconv)
        << "the output float32[1, 1, 9223372036854775807] would have more than 2^53 elements"
        << true;
    const std::string d2s =
        ob::model(ob::graph({ob::node("DepthToSpace", {"x"}, {"y"}, "d2s",
                                      {ob::intAttr("blocksize", int64_t(1) << 40)})},
                            {ob::valueInfo("x", ob::kFloat, {1, 4, 2, 2})},
                            {ob::valueInfo("y", ob::kFloat, {})}),
                  13);
    QTest::newRow("depth-to-space blocksize past int64")
        << QByteArray::fromStdString(d2s)
        << "4 channels do not divide into blocks of 9223372036854775807" << true;

    // ONNX's inference of Gemm at opset 6 reads B's second dimension
    // whatever B's rank: it sees only what Tessel's registry did not check.
    const std::string gemm = ob::model(
        ob::graph({ob::node("Gemm", {"a", "b", "c"}, {"y"}, "gemm")},
                  {ob::valueInfo("a", ob::kFloat, {2, 3}), ob::valueInfo("b", ob::kFloat, {4}),
                   ob::valueInfo("c", ob::kFloat, {4})},
                  {ob::valueInfo("y", ob::kFloat, {2, 4})}),
        6);
    QTest::newRow("gemm at opset 6 with a 1-d B")
        << QByteArray::fromStdString(gemm)
        << "A float32[2, 3] and B float32[4] must both have rank 2" << true;

    // Two graph inputs of one name (the fuzzer's B of that Gemm, declared
    // twice) corrupt the memory of ONNX's inference: it does not run on
    // names that are not single assignments.
    const std::string twice = ob::model(
        ob::graph({ob::node("Gemm", {"a", "b", "c"}, {"y"}, "gemm")},
                  {ob::valueInfo("a", ob::kFloat, {2, 3}), ob::valueInfo("b", ob::kFloat, {3, 4}),
                   ob::valueInfo("b", ob::kFloat, {4}), ob::valueInfo("c", ob::kFloat, {4})},
                  {ob::valueInfo("y", ob::kFloat, {2, 4})}),
        6);
    QTest::newRow("an input declared twice")
        << QByteArray::fromStdString(twice) << "model: input 'b' is declared twice" << false;
}

void TestOnnxImporter::fuzzFindingsFailCleanly() {
    QFETCH(QByteArray, model);
    QFETCH(QString, error);
    QFETCH(bool, shown);
    const std::string bytes = model.toStdString();

    ImportOptions showing;
    showing.allowUnsupported = true;
    graph::Graph g;
    try {
        g = importOnnxBytes(bytes, showing);
    } catch (const CompileError& e) {
        if (shown) QFAIL(e.what());
        QVERIFY2(std::string(e.what()).find(error.toStdString()) != std::string::npos, e.what());
    }

    const std::string message = errorOf([&] {
        graph::Graph imported = importOnnxBytes(bytes);
        graph::GraphPassManager pm;
        pm.run(imported, graph::defaultGraphPipeline(8));
    });
    if (message.find(error.toStdString()) == std::string::npos) QFAIL(message.c_str());
    if (!shown) return;
    // The shown graph lists the same construct with the same reason.
    QVERIFY(!g.outputs().empty());
    const std::string listed = graph::describeUnsupported(graph::unsupportedConstructs(g));
    QVERIFY2(listed.find(error.toStdString()) != std::string::npos, listed.c_str());
}

QTEST_APPLESS_MAIN(TestOnnxImporter)
#include "tst_onnximporter.moc"
