// fold-constant: the evaluator operator by operator (expected values worked out by hand with
// numpy's and ONNX's rules), and the pass on shape sub-graphs, names, ids and options.
#include "graph/ConstantEval.h"
#include "graph/Graph.h"
#include "graph/GraphPrinter.h"
#include "graph/OpRegistry.h"
#include "graph/passes/FoldConstant.h"
#include "graph/passes/GraphPassRegistry.h"
#include "graph/passes/GraphPipeline.h"
#include "graph/passes/InferShapes.h"
#include "ir/Diagnostic.h"

#include "GraphTestUtil.h"

#include <QtTest>

#include <algorithm>

#include <string>
#include <vector>

using namespace tessel;
using namespace tessel::graph;
using namespace tessel::graph::test;

namespace {

/// `int64[2] = [1, -1]`: a constant's type and values.
std::string show(const Constant& c) {
    const AttrValue v = c.dtype.isFloat() ? AttrValue(c.toDoubles()) : AttrValue(c.toInts());
    return c.type().str() + " = " + attrValueStr(v);
}

/// The printed graph with constant values.
std::string full(const Graph& g) {
    return printGraph(g).text;
}

Attributes attrs(std::initializer_list<std::pair<std::string, AttrValue>> list) {
    Attributes a;
    for (const auto& [k, v] : list)
        a.set(k, v);
    return a;
}

} // namespace

class TestFoldConstant : public QObject {
    Q_OBJECT
private slots:
    void evaluates_data();
    void evaluates();
    void shapeSubgraphFolds();
    void foldingCascadesThroughRetypedNodes();
    void nonStaticShapeStays();
    void namesIdsAndOutputs();
    void optionsAndRecord();
    void foldOnlyFoldsWhateverItsSize();
    void errorsNameTheNode();
    void defaultPipeline();
};

void TestFoldConstant::evaluates_data() {
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("inputs");
    QTest::addColumn<QString>("attrs");
    QTest::addColumn<QString>("expected"); // "TYPE = [values]", "not folded" or "error: ..."
    auto row = [](const char* tag, const char* op, const char* inputs, const char* attrs,
                  const char* expected) {
        QTest::newRow(tag) << QString(op) << QString(inputs) << QString(attrs) << QString(expected);
    };

    // Integer arithmetic is exact and wraps; division truncates toward zero.
    row("add int64 wraps", "Add", "const int64[3]=7,-7,9223372036854775807;const int64[1]=2", "",
        "int64[3] = [9, -5, -9223372036854775807]");
    row("sub int32 broadcast", "Sub", "const int32[2,1]=10,20;const int32[3]=1,2,3", "",
        "int32[2, 3] = [9, 8, 7, 19, 18, 17]");
    row("mul int64", "Mul", "const int64[2]=3,-4;const int64[]=-5", "", "int64[2] = [-15, 20]");
    row("div int64 truncates", "Div", "const int64[4]=7,-7,7,-7;const int64[4]=2,2,-2,-2", "",
        "int64[4] = [3, -3, -3, 3]");
    row("div int8 min by -1 wraps", "Div", "const int8[1]=-128;const int8[1]=-1", "",
        "int8[1] = [-128]");
    row("div int by zero", "Div", "const int64[2]=1,2;const int64[]=0", "",
        "error: node 'n' (Div): integer division by zero");
    // float32 results are rounded to float: 2^24 + 1 is not a float32.
    row("add float32 rounds", "Add", "const float32[1]=16777216;const float32[1]=1", "",
        "float32[1] = [16777216.0]");
    row("add float64 exact", "Add", "const float64[1]=16777216;const float64[1]=1", "",
        "float64[1] = [16777217.0]");
    row("div float32", "Div", "const float32[2]=1,2;const float32[]=3", "",
        "float32[2] = [0.333333343, 0.666666687]");
    row("max variadic", "Max", "const int64[3]=1,5,3;const int64[3]=4,2,6;const int64[1]=5", "",
        "int64[3] = [5, 5, 6]");
    row("min broadcast", "Min", "const float32[2,1]=1,4;const float32[2]=2,3", "",
        "float32[2, 2] = [1.0, 1.0, 2.0, 3.0]");
    row("sum", "Sum", "const float32[2]=1,2;const float32[2]=3,4;const float32[]=0.5", "",
        "float32[2] = [4.5, 6.5]");
    row("mean", "Mean", "const float64[2]=1,2;const float64[2]=2,5", "", "float64[2] = [1.5, 3.5]");
    // DequantizeLinear: (x - zero_point) * scale, per tensor or along an axis.
    row("dequantize uint8 per tensor", "DequantizeLinear", "const uint8[4]=0,128,255,130;const float32[]=0.5;const uint8[]=128",
        "", "float32[4] = [-64.0, 0.0, 63.5, 1.0]");
    row("dequantize int8 per axis 0", "DequantizeLinear",
        "const int8[2,3]=-128,0,127,1,-1,2;const float32[2]=0.25,2;const int8[2]=0,1", "axis=0",
        "float32[2, 3] = [-32.0, 0.0, 31.75, 0.0, -4.0, 2.0]");
    row("dequantize int8 default axis 1", "DequantizeLinear", "const int8[1,2,2]=4,-4,4,-4;const float32[2]=0.5,0.25", "",
        "float32[1, 2, 2] = [2.0, -2.0, 1.0, -1.0]");
    row("dequantize int32 no zero point", "DequantizeLinear", "const int32[2]=-1000000,3;const float32[]=0.125", "",
        "float32[2] = [-125000.0, 0.375]");
    // Issue 20's operators that fold (values worked out by hand with ONNX's rules).
    row("mod int sign of divisor", "Mod", "const int32[4]=-7,7,-7,7;const int32[4]=3,-3,-3,3", "",
        "int32[4] = [2, -2, -1, 1]");
    row("mod int fmod", "Mod", "const int32[4]=-7,7,-7,7;const int32[4]=3,-3,-3,3", "fmod=1",
        "int32[4] = [-1, 1, -1, 1]");
    row("mod by zero", "Mod", "const int64[1]=5;const int64[1]=0", "",
        "error: node 'n' (Mod): integer modulo by zero");
    row("gather elements", "GatherElements", "const int64[2,2]=1,2,3,4;const int64[2,2]=0,0,1,0", "axis=1",
        "int64[2, 2] = [1, 1, 4, 3]");
    row("gather elements out of range", "GatherElements", "const int64[2]=1,2;const int64[1]=2", "",
        "error: node 'n' (GatherElements): index 2 is out of range for axis of size 2");
    row("gathernd rows", "GatherND", "const int64[2,2]=1,2,3,4;const int64[2,1]=1,-2", "",
        "int64[2, 2] = [3, 4, 1, 2]");
    row("gathernd batch", "GatherND", "const int64[2,2]=1,2,3,4;const int64[2,1]=1,0", "batch_dims=1",
        "int64[2] = [2, 3]");
    row("scatternd shape update", "ScatterND", "const int64[4]=1,3,224,224;const int64[1,1]=0;const int64[1]=8", "",
        "int64[4] = [8, 3, 224, 224]");
    row("scatternd add duplicates", "ScatterND", "const int64[3]=1,1,1;const int64[2,1]=2,2;const int64[2]=5,6",
        "reduction=\"add\"", "int64[3] = [1, 1, 12]");
    row("scatternd slices", "ScatterND", "const int64[2,2]=0,0,0,0;const int64[1,1]=1;const int64[1,2]=7,8", "",
        "int64[2, 2] = [0, 0, 7, 8]");
    row("scatter elements mul", "ScatterElements", "const int64[2,2]=1,2,3,4;const int64[2,1]=1,1;const int64[2,1]=10,10",
        "axis=1;reduction=\"mul\"", "int64[2, 2] = [1, 20, 3, 40]");
    row("trilu lower k", "Trilu", "const int64[2,3]=1,2,3,4,5,6;const int64[]=-1", "upper=0",
        "int64[2, 3] = [0, 0, 0, 4, 0, 0]");
    row("trilu upper", "Trilu", "const int64[2,3]=1,2,3,4,5,6", "", "int64[2, 3] = [1, 2, 3, 0, 5, 6]");
    row("argmax last index", "ArgMax", "const int64[2,3]=5,1,5,0,2,2", "axis=1;select_last_index=1",
        "int64[2, 1] = [2, 2]");
    row("argmin first index", "ArgMin", "const float32[2,3]=5,1,5,0,2,0", "axis=1;keepdims=0", "int64[2] = [1, 0]");
    row("cumsum reverse exclusive", "CumSum", "const int64[4]=1,2,3,4;const int32[]=0", "exclusive=1;reverse=1",
        "int64[4] = [9, 7, 4, 0]");
    row("castlike", "CastLike", "const float32[2]=1.5,-2.5;const int32[1]=0", "", "int32[2] = [1, -2]");
    row("neg", "Neg", "const int64[2]=3,-2", "", "int64[2] = [-3, 2]");
    row("abs", "Abs", "const int32[3]=-3,0,4", "", "int32[3] = [3, 0, 4]");
    row("sqrt float32", "Sqrt", "const float32[2]=2,9", "", "float32[2] = [1.41421354, 3.0]");
    row("relu int", "Relu", "const int64[3]=-1,0,5", "", "int64[3] = [0, 0, 5]");
    row("reciprocal", "Reciprocal", "const float32[2]=4,3", "", "float32[2] = [0.25, 0.333333343]");
    row("floor", "Floor", "const float32[2]=-1.5,2.5", "", "float32[2] = [-2.0, 2.0]");
    row("ceil", "Ceil", "const float32[2]=-1.5,2.5", "", "float32[2] = [-1.0, 3.0]");
    row("round halves to even", "Round", "const float32[4]=0.5,1.5,2.5,-2.5", "",
        "float32[4] = [0.0, 2.0, 2.0, -2.0]");
    row("sign", "Sign", "const int32[3]=-3,0,7", "", "int32[3] = [-1, 0, 1]");

    // Comparisons and logic give bools (printed as 0 and 1).
    row("equal", "Equal", "const int64[3]=1,2,3;const int64[1]=2", "", "bool[3] = [0, 1, 0]");
    row("less", "Less", "const float32[3]=1,2,3;const float32[]=2", "", "bool[3] = [1, 0, 0]");
    row("greater broadcast", "Greater", "const int64[2,1]=1,3;const int64[2]=2,0", "",
        "bool[2, 2] = [0, 1, 1, 1]");
    row("lessorequal", "LessOrEqual", "const int32[3]=1,2,3;const int32[]=2", "",
        "bool[3] = [1, 1, 0]");
    row("greaterorequal", "GreaterOrEqual", "const int32[3]=1,2,3;const int32[]=2", "",
        "bool[3] = [0, 1, 1]");
    row("not", "Not", "const bool[2]=1,0", "", "bool[2] = [0, 1]");
    row("and", "And", "const bool[2,1]=1,0;const bool[2]=1,0", "", "bool[2, 2] = [1, 0, 0, 0]");
    row("or", "Or", "const bool[2]=1,0;const bool[2]=0,0", "", "bool[2] = [1, 0]");
    row("xor", "Xor", "const bool[4]=0,0,1,1;const bool[4]=0,1,0,1", "", "bool[4] = [0, 1, 1, 0]");
    row("where", "Where", "const bool[3]=1,0,1;const int64[3]=1,2,3;const int64[]=10", "",
        "int64[3] = [1, 10, 3]");

    // Generators.
    row("range negative delta", "Range", "const int64[]=10;const int64[]=1;const int64[]=-3", "",
        "int64[3] = [10, 7, 4]");
    row("range float", "Range", "const float32[]=0;const float32[]=1;const float32[]=0.25", "",
        "float32[4] = [0.0, 0.25, 0.5, 0.75]");
    row("range empty", "Range", "const int32[]=5;const int32[]=1;const int32[]=1", "",
        "int32[0] = []");
    row("constantofshape int32", "ConstantOfShape", "const int64[2]=2,2", "value=tensor int32[1]=7",
        "int32[2, 2] = [7, 7, 7, 7]");
    row("constantofshape default", "ConstantOfShape", "const int64[1]=3", "",
        "float32[3] = [0.0, 0.0, 0.0]");

    // Data movement.
    row("slice negative steps", "Slice",
        "const int64[2,5]=0,1,2,3,4,5,6,7,8,9;const int64[2]=-1,4;const int64[2]=-3,-6;const "
        "int64[2]=0,1;const int64[2]=-1,-2",
        "", "int64[2, 3] = [9, 7, 5, 4, 2, 0]");
    row("slice reverse to the start", "Slice",
        "const int64[4]=1,2,3,4;const int64[1]=-1;const int64[1]=-9223372036854775807;const "
        "int64[1]=0;const int64[1]=-1",
        "", "int64[4] = [4, 3, 2, 1]");
    row("slice clamped ends", "Slice",
        "const int64[5]=0,1,2,3,4;const int64[1]=-100;const int64[1]=100;const int64[1]=0;"
        "const int64[1]=2",
        "", "int64[3] = [0, 2, 4]");
    row("slice opset 1", "Slice", "const int64[2,3]=0,1,2,3,4,5", "starts=[1];ends=[3];axes=[1]",
        "int64[2, 2] = [1, 2, 4, 5]");
    row("gather negative index", "Gather", "const int64[4]=10,11,12,13;const int64[2]=-1,0", "",
        "int64[2] = [13, 10]");
    row("gather scalar index", "Gather", "const int64[4]=10,11,12,13;const int64[]=2", "",
        "int64[] = [12]");
    row("gather axis 1", "Gather", "const float32[2,3]=0,1,2,3,4,5;const int32[2]=2,0", "axis=1",
        "float32[2, 2] = [2.0, 0.0, 5.0, 3.0]");
    row("gather out of range", "Gather", "const int64[4]=1,2,3,4;const int64[1]=4", "",
        "error: node 'n' (Gather): index 4 is out of range for axis 0 of size 4");
    row("concat", "Concat", "const int64[1]=2;const int64[1]=-1", "axis=0", "int64[2] = [2, -1]");
    row("concat axis 1", "Concat", "const int64[2,1]=1,2;const int64[2,2]=3,4,5,6", "axis=-1",
        "int64[2, 3] = [1, 3, 4, 2, 5, 6]");
    row("transpose", "Transpose", "const int64[2,3]=0,1,2,3,4,5", "",
        "int64[3, 2] = [0, 3, 1, 4, 2, 5]");
    row("transpose perm", "Transpose", "const int64[2,1,3]=0,1,2,3,4,5", "perm=[2,0,1]",
        "int64[3, 2, 1] = [0, 3, 1, 4, 2, 5]");
    row("expand", "Expand", "const int64[3,1]=1,2,3;const int64[3]=2,1,2", "",
        "int64[2, 3, 2] = [1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3]");
    row("tile", "Tile", "const int64[1,2]=1,2;const int64[2]=2,2", "",
        "int64[2, 4] = [1, 2, 1, 2, 1, 2, 1, 2]");
    row("reshape", "Reshape", "const int64[6]=1,2,3,4,5,6;const int64[2]=2,-1", "",
        "int64[2, 3] = [1, 2, 3, 4, 5, 6]");
    row("flatten", "Flatten", "const int64[2,1,2]=1,2,3,4", "", "int64[2, 2] = [1, 2, 3, 4]");
    row("squeeze", "Squeeze", "const int64[1,2]=1,2", "", "int64[2] = [1, 2]");
    row("unsqueeze", "Unsqueeze", "const int64[]=7;const int64[1]=0", "", "int64[1] = [7]");
    row("identity", "Identity", "const bool[2]=1,0", "", "bool[2] = [1, 0]");
    row("shape start", "Shape", "const float32[2,3,4]", "start=1", "int64[2] = [3, 4]");
    row("size", "Size", "const float32[2,3,4]", "", "int64[] = [24]");

    // Cast truncates toward zero; to bool means != 0.
    row("cast float to int", "Cast", "const float32[3]=-2.7,2.7,0.5", "to=7",
        "int64[3] = [-2, 2, 0]");
    row("cast int to float32", "Cast", "const int64[1]=16777217", "to=1",
        "float32[1] = [16777216.0]");
    row("cast int to bool", "Cast", "const int64[3]=0,5,-1", "to=9", "bool[3] = [0, 1, 1]");
    row("cast int64 to int8 wraps", "Cast", "const int64[2]=200,-129", "to=3",
        "int8[2] = [-56, 127]");
    row("cast float out of range", "Cast", "const float32[1]=1e10", "to=6", "not folded");

    // Reductions.
    row("reduceprod", "ReduceProd", "const int64[2,3]=1,2,3,4,5,6", "axes=[1];keepdims=0",
        "int64[2] = [6, 120]");
    row("reducesum all", "ReduceSum", "const int64[2,3]=1,2,3,4,5,6", "", "int64[1, 1] = [21]");
    row("reducemax axes input", "ReduceMax", "const int32[2,2]=1,7,3,2;const int64[1]=0", "",
        "int32[1, 2] = [3, 7]");
    row("reducemin", "ReduceMin", "const float32[3]=2,-1,5", "keepdims=0", "float32[] = [-1.0]");

    // Operators the evaluator leaves alone.
    row("conv", "Conv", "const float32[1,1,2,2];const float32[1,1,1,1]", "", "not folded");
    row("exp", "Exp", "const float32[1]=0", "", "not folded");
}

void TestFoldConstant::evaluates() {
    QFETCH(QString, op);
    QFETCH(QString, inputs);
    QFETCH(QString, attrs);
    QFETCH(QString, expected);
    Graph g = oneNode(op.toStdString(), inputs.toStdString(), attrs.toStdString(), 1);
    const Node& n = *g.nodes()[0];
    std::vector<Ref<Constant>> constants;
    for (const auto& in : n.inputs)
        constants.push_back(in.constant());
    std::string got;
    try {
        auto result = evaluateConstant(n, constants);
        if (!result)
            got = "not folded";
        else
            got = show(*result->at(0));
    } catch (const CompileError& e) {
        got = std::string("error: ") + e.what();
    }
    QCOMPARE(QString::fromStdString(got), expected);
}

void TestFoldConstant::shapeSubgraphFolds() {
    // x.view(x.size(0), -1) as PyTorch exports it.
    Graph g("f");
    Value x = g.addInput("x", type("float32[2, 3, 4, 5]"));
    Value zero = g.addConstant("zero", Constant::fromInts({}, {0}));
    Value axes = g.addConstant("axes", Constant::fromInts({1}, {0}));
    Value minusOne = g.addConstant("minus_one", Constant::fromInts({1}, {-1}));
    Value shape = g.addOp("Shape", {x});
    Value batch = g.addOp("Gather", {shape, zero});
    Value unsq = g.addOp("Unsqueeze", {batch, axes});
    Value target = g.addOp("Concat", {unsq, minusOne}, attrs({{"axis", int64_t(0)}}));
    g.setOutputs({g.addOp("Reshape", {x, target}, {}, "flatten")});
    g = inferShapes(g);
    QCOMPARE(g.outputs()[0].type().str(), std::string("float32[?, ?]"));

    Graph f = foldConstant(g);
    f.verify();
    QCOMPARE(QString::fromStdString(full(f)),
             QString("graph f(%x: float32[2, 3, 4, 5]) {\n"
                     "  %7 = constant [2, -1] : int64[2]\n"
                     "  %8 = Reshape(%x, %7) : float32[2, 60]  # flatten\n"
                     "  return %8\n"
                     "}\n"));
    // The Concat's constant keeps its id; the Reshape is remade with its id and a static type.
    QCOMPARE(f.constants()[0]->id, int64_t(7));
    QCOMPARE(f.nodes()[0]->id, int64_t(8));
    QCOMPARE(f.constants()[0]->constant->toInts(), (std::vector<int64_t>{2, -1}));
    // A second run changes nothing.
    QCOMPARE(full(foldConstant(f)), full(f));
}

void TestFoldConstant::foldingCascadesThroughRetypedNodes() {
    // Reshape(x, Concat(...)) gets a static type while folding, so Shape of
    // its output folds in the same walk, and so does what computes with it.
    Graph g("c");
    Value x = g.addInput("x", type("float32[6]"));
    Value a = g.addConstant("a", Constant::fromInts({1}, {2}));
    Value b = g.addConstant("b", Constant::fromInts({1}, {3}));
    Value target = g.addOp("Concat", {a, b}, attrs({{"axis", int64_t(0)}}));
    Value r = g.addOp("Reshape", {x, target});
    Value s = g.addOp("Shape", {r});
    Value doubled = g.addOp("Mul", {s, g.addConstant("two", Constant::fromInts({}, {2}))});
    g.setOutputs({r, doubled});
    g = inferShapes(g);
    Graph f = foldConstant(g);
    f.verify();
    QCOMPARE(QString::fromStdString(full(f)), QString("graph c(%x: float32[6]) {\n"
                                                      "  %3 = constant [2, 3] : int64[2]\n"
                                                      "  %7 = constant [4, 6] : int64[2]\n"
                                                      "  %4 = Reshape(%x, %3) : float32[2, 3]\n"
                                                      "  return %4, %7\n"
                                                      "}\n"));
}

void TestFoldConstant::nonStaticShapeStays() {
    Graph g("d");
    Value x = g.addInput("x", type("float32[?, 3]"));
    Value idx = g.addConstant("one", Constant::fromInts({}, {1}));
    Value s = g.addOp("Shape", {x});
    g.setOutputs({g.addOp("Gather", {s, idx}), g.addOp("Size", {x})});
    g = inferShapes(g);
    Graph f = foldConstant(g);
    QCOMPARE(QString::fromStdString(text(f)), QString::fromStdString(text(g)));
    QVERIFY(f.nodes()[0].sameAs(g.nodes()[0]));

    // Bound to a static shape, both fold (and the index constant goes).
    Graph h("d");
    Value y = h.addInput("x", type("float32[8, 3]"));
    Value hidx = h.addConstant("one", Constant::fromInts({}, {1}));
    h.setOutputs({h.addOp("Gather", {h.addOp("Shape", {y}), hidx}), h.addOp("Size", {y})});
    Graph hf = foldConstant(inferShapes(h));
    QCOMPARE(QString::fromStdString(full(hf)), QString("graph d(%x: float32[8, 3]) {\n"
                                                       "  %3 = constant [3] : int64[]\n"
                                                       "  %4 = constant [24] : int64[]\n"
                                                       "  return %3, %4\n"
                                                       "}\n"));
}

void TestFoldConstant::namesIdsAndOutputs() {
    // An importer's graph: named outputs; the folded constant takes the name
    // and the graph output keeps it.
    Graph g("n");
    Value x = g.addInput("x", type("float32[2]"));
    Value c = g.addConstant("c", Constant::fromFloats({2}, {1, 2}));
    g.append(Node::makeOp(g.newId(), "Neg", {c}, {}, 1, "neg", {}, {"minus_c"}));
    Value neg = g.nodes()[0]->output(0);
    g.append(Node::makeOp(g.newId(), "Add", {x, neg}, {}, 1, "add", {}, {"y"}));
    g.setOutputs({g.nodes()[1]->output(0), neg});
    g = inferShapes(g);
    Graph f = foldConstant(g);
    f.verify();
    QCOMPARE(QString::fromStdString(full(f)),
             QString("graph n(%x: float32[2]) {\n"
                     "  %minus_c = constant [-1.0, -2.0] : "
                     "float32[2]\n"
                     "  %3 = Add(%x, %minus_c) : float32[2]  # add\n"
                     "  return %3, %minus_c\n"
                     "}\n"));
    QCOMPARE(f.outputs()[1].name(), std::string("minus_c"));
    QCOMPARE(f.constants()[0]->id, int64_t(2));
    // A name already taken by an input or constant gets a suffix.
    Graph h("n");
    Value hx = h.addInput("x", type("float32[1]"));
    Value k = h.addConstant("k", Constant::fromFloats({1}, {3}));
    h.append(Node::makeOp(h.newId(), "Neg", {k}, {}, 1, "", {}, {"x"}));
    h.setOutputs({h.addOp("Add", {hx, h.nodes()[0]->output(0)})});
    Graph hf = foldConstant(inferShapes(h));
    hf.verify();
    QCOMPARE(hf.constants()[0]->name, std::string("x_2"));
}

void TestFoldConstant::optionsAndRecord() {
    const GraphPassInfo* p = findGraphPass("fold-constant");
    QVERIFY(p);
    QVERIFY(p->findOption("max-elements"));
    QCOMPARE(p->findOption("max-elements")->defaultValue, std::string("4194304"));
    Graph g("o");
    Value x = g.addInput("x", type("float32[4, 3]"));
    Value shape = g.addConstant("shape", Constant::fromInts({1}, {4096}));
    g.setOutputs({g.addOp("ConstantOfShape", {shape}), g.addOp("Shape", {x})});
    g = inferShapes(g);
    Graph small = p->run(g, {{"max-elements", "100"}});
    QCOMPARE(small.nodes().size(), size_t(1)); // the 4096 elements stay a ConstantOfShape
    QCOMPARE(small.nodes()[0]->op, std::string("ConstantOfShape"));
    Graph noShapes = p->run(g, {{"fold-shapes", "false"}});
    QCOMPARE(noShapes.nodes().size(), size_t(1));
    QCOMPARE(noShapes.nodes()[0]->op, std::string("Shape"));
    QCOMPARE(p->run(g, {}).nodes().size(), size_t(0));
    QVERIFY_THROWS_EXCEPTION(CompileError, p->run(g, {{"max-elements", "-1"}}));
    QVERIFY_THROWS_EXCEPTION(CompileError, p->run(g, {{"max-elements", "lots"}}));
}

void TestFoldConstant::foldOnlyFoldsWhateverItsSize() {
    // Constant is fold-only (no kernel computes it): it folds past max-elements,
    // while a ConstantOfShape of the same size stays for its kernel.
    Graph g("c");
    Attributes values;
    values.set("value_ints", std::vector<int64_t>(300, 7));
    Value shape = g.addConstant("shape", Constant::fromInts({1}, {300}));
    g.setOutputs({g.addOp("Constant", {}, values, "c"), g.addOp("ConstantOfShape", {shape})});
    QVERIFY(findOp("Constant")->foldOnly);
    FoldConstantOptions o;
    o.maxElements = 100;
    Graph f = foldConstant(inferShapes(g), o);
    QCOMPARE(f.nodes().size(), size_t(1));
    QCOMPARE(f.nodes()[0]->op, std::string("ConstantOfShape"));
    QCOMPARE(f.outputs()[0].constant()->toInts(), std::vector<int64_t>(300, 7));
}

void TestFoldConstant::errorsNameTheNode() {
    Graph g("e");
    Value data = g.addConstant("data", Constant::fromInts({3}, {1, 2, 3}));
    Value idx = g.addConstant("idx", Constant::fromInts({1}, {-4}));
    g.setOutputs({g.addOp("Gather", {data, idx}, {}, "pick")});
    try {
        foldConstant(inferShapes(g));
        QFAIL("expected a CompileError");
    } catch (const CompileError& e) {
        QCOMPARE(
            std::string(e.what()),
            std::string("node 'pick' (Gather): index -4 is out of range for axis 0 of size 3"));
    }
}

void TestFoldConstant::defaultPipeline() {
    const auto pipeline = defaultGraphPipeline();
    QVERIFY(pipeline.size() >= 2);
    QCOMPARE(pipeline[0], std::string("infer-shapes"));
    // Right after the passes that rewrite operators into others (whose weights it
    // prepares): the expand- ones and canonicalize-qdq.
    auto first = std::find(pipeline.begin(), pipeline.end(), std::string("fold-constant"));
    QVERIFY(first != pipeline.end());
    for (auto it = pipeline.begin() + 1; it != first; ++it)
        QVERIFY2(it->rfind("expand-", 0) == 0 || *it == "canonicalize-qdq", it->c_str());
}

QTEST_APPLESS_MAIN(TestFoldConstant)
#include "tst_gpass_fold_constant.moc"
