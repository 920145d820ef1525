// graph: building graphs, verify() errors, topological order, cloning and rebuilding, attributes.
#include "graph/Graph.h"
#include "graph/OpRegistry.h"
#include "ir/Check.h"
#include "ir/Diagnostic.h"

#include <QtTest>

#include <algorithm>
#include <functional>
#include <string>

using namespace tessel;
using namespace tessel::graph;

namespace {

/// The CompileError message `f` throws, or "" when it throws none.
std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const CompileError& e) {
        return e.what();
    }
    return {};
}

TensorType type(const char* text) {
    return *TensorType::parse(text);
}

Attributes attrs(std::initializer_list<Attributes::Entry> entries) {
    Attributes a;
    for (const auto& [k, v] : entries)
        a.set(k, v);
    return a;
}

} // namespace

class TestGraph : public QObject {
    Q_OBJECT
private slots:
    void tensorTypeTextRoundTrips() {
        QCOMPARE(type("float32[1, 3, 224, 224]").str(), std::string("float32[1, 3, 224, 224]"));
        QCOMPARE(type("float32[?,1000]").shape, (std::vector<int64_t>{-1, 1000}));
        QCOMPARE(type("int64[]").rank(), 0);
        QCOMPARE(type("int64[]").numElements(), int64_t(1));
        QCOMPARE(type("float32[?, 2]").numElements(), int64_t(-1));
        QVERIFY(!type("float32[?, 2]").isStatic());
        QVERIFY(!TensorType().known());
        QCOMPARE(TensorType().str(), std::string("?"));
        QVERIFY(!TensorType::parse("float32[1,"));
        QVERIFY(!TensorType::parse("floaty[1]"));
        QCOMPARE(dataTypeFromOnnx(1), std::optional<DataType>(DataType::float32()));
        QCOMPARE(dataTypeFromOnnx(7), std::optional<DataType>(DataType::int64()));
        QVERIFY(!dataTypeFromOnnx(8)); // strings
    }

    void constantsOwnTheirBuffers() {
        auto f = Constant::fromFloats({2, 2}, {1.5, -2, 3, 4});
        QCOMPARE(f->bytes.size(), size_t(16));
        QCOMPARE(f->toDoubles(), (std::vector<double>{1.5, -2, 3, 4}));
        QCOMPARE(f->toInts(), (std::vector<int64_t>{1, -2, 3, 4}));
        auto i = Constant::fromInts({3}, {0, -1, 7});
        QCOMPARE(i->type(), type("int64[3]"));
        QCOMPARE(i->toInts(), (std::vector<int64_t>{0, -1, 7}));
        auto i32 = Constant::fromInts({2}, {-5, 9}, DataType::int32());
        QCOMPARE(i32->bytes.size(), size_t(8));
        QCOMPARE(i32->toInts(), (std::vector<int64_t>{-5, 9}));
        QCOMPARE(Constant::zeros(DataType::float32(), {2, 3})->toDoubles(),
                 std::vector<double>(6, 0.0));
        QVERIFY_THROWS_EXCEPTION(InternalError,
                                 Constant::make(DataType::float32(), {2}, std::vector<uint8_t>(7)));
    }

    void buildingAGraph() {
        Graph g("mlp");
        Value x = g.addInput("x", type("float32[?, 4]"));
        Value w = g.addConstant("w", Constant::zeros(DataType::float32(), {4, 8}));
        Value y = g.addOp("MatMul", {x, w}, {}, "mm");
        Value r = g.addOp("Relu", {y});
        g.setOutputs({r});
        g.verify();

        QCOMPARE(g.inputs().size(), size_t(1));
        QCOMPARE(g.constants().size(), size_t(1));
        QCOMPARE(g.nodes().size(), size_t(2));
        QVERIFY(x.isInput());
        QVERIFY(w.isConstant());
        QVERIFY(w.constant().defined());
        QVERIFY(!y.isConstant());
        QCOMPARE(x.name(), std::string("x"));
        QCOMPARE(y.producer()->op, std::string("MatMul"));
        QCOMPARE(y.producer()->describe(), std::string("node 'mm' (MatMul)"));
        QCOMPARE(r.producer()->describe(), std::string("node %3 (Relu)"));
        QVERIFY(!y.type().known()); // until shape inference
        QCOMPARE(g.findInput("x"), x);
        QVERIFY(!g.findInput("nope").defined());
        QCOMPARE(g.findNode(r.producer()->id), r.producer());
        QCOMPARE(g.users(y).size(), size_t(1));
        QCOMPARE(g.users(y)[0], r.producer());

        // Ids are unique and increasing.
        QCOMPARE(x.producer()->id, int64_t(0));
        QCOMPARE(w.producer()->id, int64_t(1));
        QCOMPARE(y.producer()->id, int64_t(2));
        QCOMPARE(g.newId(), int64_t(4));

        // Multi-output nodes.
        Ref<Node> d = g.addNode("Dropout", {r}, {}, 2, "drop");
        QCOMPARE(d->numOutputs(), 2);
        QCOMPARE(d->output(1).index(), 1);
        QCOMPARE(d->outputs().size(), size_t(2));
        QVERIFY(d->output(0) != d->output(1));
    }

    void duplicateNamesAreErrors() {
        Graph g;
        g.addInput("x", type("float32[1]"));
        QCOMPARE(errorOf([&] { g.addConstant("x", Constant::zeros(DataType::float32(), {1})); }),
                 std::string("graph 'main': the name 'x' is used twice (inputs and constants need "
                             "unique names)"));
    }

    void verifyNamesTheNodeAndOperator() {
        {
            Graph g;
            Value x = g.addInput("x", type("float32[1, 3]"));
            g.setOutputs({g.addOp("Relu", {x, x}, {}, "act")});
            QCOMPARE(errorOf([&] { g.verify(); }),
                     std::string("node 'act' (Relu): expects 1 input, got 2"));
        }
        {
            Graph g;
            Value x = g.addInput("x", type("float32[1, 3, 8, 8]"));
            g.setOutputs({g.addOp("Conv", {x}, {}, "conv1")});
            QCOMPARE(errorOf([&] { g.verify(); }),
                     std::string("node 'conv1' (Conv): expects 2 to 3 inputs, got 1"));
        }
        {
            Graph g;
            Value x = g.addInput("x", type("float32[1]"));
            g.setOutputs({g.addOp("Frobnicate", {x}, {}, "f")});
            QCOMPARE(errorOf([&] { g.verify(); }),
                     std::string("node 'f' (Frobnicate): unknown operator 'Frobnicate'"));
        }
        {
            Graph g;
            Value x = g.addInput("x", type("float32[1, 3, 8, 8]"));
            Value w = g.addConstant("w", Constant::zeros(DataType::float32(), {3, 3, 1, 1}));
            g.setOutputs({g.addOp("Conv", {x, w}, attrs({{"strides", std::string("2")}}), "c")});
            QCOMPARE(
                errorOf([&] { g.verify(); }),
                std::string("node 'c' (Conv): attribute 'strides' is string \"2\", expected ints"));
        }
        {
            // A value from another graph.
            Graph other;
            Value y = other.addInput("y", type("float32[1]"));
            Graph g;
            Value x = g.addInput("x", type("float32[1]"));
            g.setOutputs({g.addOp("Add", {x, y}, {}, "sum")});
            QCOMPARE(errorOf([&] { g.verify(); }),
                     std::string("node 'sum' (Add): input 1 comes from input 'y', which is not "
                                 "defined before it in graph 'main'"));
        }
        {
            Graph g;
            Value x = g.addInput("x", type("float32[1]"));
            g.addOp("Relu", {x});
            QCOMPARE(errorOf([&] { g.verify(); }), std::string("graph 'main' has no outputs"));
        }
        {
            // Optional inputs may be absent, required ones may not.
            Graph g;
            Value x = g.addInput("x", type("float32[4]"));
            Value hi = g.addConstant("hi", Constant::fromFloats({}, {6}));
            g.setOutputs({g.addOp("Clip", {x, Value(), hi}, {}, "clip")});
            g.verify();
            g.setOutputs({g.addOp("Add", {x, Value()}, {}, "add")});
            QCOMPARE(errorOf([&] { g.verify(); }),
                     std::string("node 'add' (Add): required input 1 is absent"));
        }
    }

    void topologicalOrder() {
        // Nodes appended out of order (as a pass might) are sorted, stably.
        Graph g;
        Value x = g.addInput("x", type("float32[4]"));
        Ref<Node> a = Node::makeOp(g.newId(), "Relu", {x}, {}, 1, "a");
        Ref<Node> b = Node::makeOp(g.newId(), "Neg", {a->output()}, {}, 1, "b");
        Ref<Node> c = Node::makeOp(g.newId(), "Add", {b->output(), a->output()}, {}, 1, "c");
        Ref<Node> d = Node::makeOp(g.newId(), "Abs", {x}, {}, 1, "d");
        g.append(c);
        g.append(d);
        g.append(b);
        g.append(a);
        g.setOutputs({c->output(), d->output()});
        QVERIFY(!errorOf([&] { g.verify(); }).empty());
        g.sortTopologically();
        g.verify();
        std::vector<std::string> order;
        for (const auto& n : g.nodes())
            order.push_back(n->name);
        QCOMPARE(order, (std::vector<std::string>{"a", "b", "c", "d"}));
        // Already sorted: unchanged.
        g.sortTopologically();
        order.clear();
        for (const auto& n : g.nodes())
            order.push_back(n->name);
        QCOMPARE(order, (std::vector<std::string>{"a", "b", "c", "d"}));

        // A producer that is not in the graph at all.
        Graph h;
        Value y = h.addInput("y", type("float32[4]"));
        Ref<Node> lost = Node::makeOp(h.newId(), "Relu", {y}, {}, 1, "lost");
        h.append(Node::makeOp(h.newId(), "Neg", {lost->output()}, {}, 1, "n"));
        QCOMPARE(errorOf([&] { h.sortTopologically(); }),
                 std::string("node 'n' (Neg): input 0 comes from node 'lost' (Relu), which is not "
                             "in graph 'main'"));
    }

    void cloningIsIndependent() {
        Graph g;
        Value x = g.addInput("x", type("float32[4]"));
        Value r = g.addOp("Relu", {x}, {}, "r");
        g.setOutputs({r});
        Graph c = g.clone();
        c.setOutputs({c.addOp("Neg", {r}, {}, "n")});
        c.verify();
        QCOMPARE(g.nodes().size(), size_t(1));
        QCOMPARE(c.nodes().size(), size_t(2));
        QCOMPARE(g.outputs()[0], r);
        g.verify();
    }

    void rebuildRemapsUsers() {
        Graph g;
        Value x = g.addInput("x", type("float32[4]"));
        Value a = g.addOp("Relu", {x}, {}, "a");
        Value b = g.addOp("Neg", {a}, {}, "b");
        g.setOutputs({b});
        // Replace Relu by Abs (same id); Neg is remade to use it, unchanged itself.
        Graph h = g.rebuild([](const Node& n, std::vector<Value> inputs) -> Ref<Node> {
            if (n.op == "Relu") return Node::makeOp(n.id, "Abs", inputs, n.attrs, 1, n.name);
            return Ref<Node>(&n);
        });
        h.verify();
        QCOMPARE(h.nodes()[0]->op, std::string("Abs"));
        QCOMPARE(h.nodes()[0]->id, a.producer()->id);
        QCOMPARE(h.nodes()[1]->inputs[0].producer(), h.nodes()[0].get());
        QCOMPARE(h.outputs()[0].producer(), h.nodes()[1].get());
        QCOMPARE(h.nodes()[1]->id, b.producer()->id);
        // The original is untouched.
        QCOMPARE(g.nodes()[0]->op, std::string("Relu"));
        QCOMPARE(g.nodes()[1]->inputs[0], a);
        // Nothing changed: every node is shared.
        Graph same = g.rebuild([](const Node& n, std::vector<Value>) { return Ref<Node>(&n); });
        QVERIFY(same.nodes()[0].sameAs(g.nodes()[0]));
        QVERIFY(same.nodes()[1].sameAs(g.nodes()[1]));
    }

    void attributeGetters() {
        Attributes a;
        a.set("group", int64_t(2));
        a.set("alpha", 0.5);
        a.set("auto_pad", std::string("SAME_UPPER"));
        a.set("pads", std::vector<int64_t>{1, 1, 1, 1});
        a.set("scales", std::vector<double>{1.0, 2.5});
        a.set("value", Constant::fromFloats({1}, {3}));
        a.set("one", int64_t(1));

        QCOMPARE(a.getInt("group", 1), int64_t(2));
        QCOMPARE(a.getInt("absent", 7), int64_t(7));
        QCOMPARE(a.getFloat("alpha", 0), 0.5);
        QCOMPARE(a.getFloat("one", 0), 1.0); // an int is accepted as a float
        QCOMPARE(a.getString("auto_pad", "NOTSET"), std::string("SAME_UPPER"));
        QCOMPARE(a.getInts("pads", {}), (std::vector<int64_t>{1, 1, 1, 1}));
        QCOMPARE(a.getInts("strides", {1, 1}), (std::vector<int64_t>{1, 1}));
        QCOMPARE(a.getFloats("scales", {}), (std::vector<double>{1.0, 2.5}));
        QCOMPARE(a.getFloats("pads", {}), (std::vector<double>{1, 1, 1, 1}));
        QVERIFY(a.getTensor("value").defined());
        QVERIFY(!a.getTensor("absent").defined());

        QCOMPARE(errorOf([&] { a.getInt("alpha", 0); }),
                 std::string("attribute 'alpha' is float 0.5, expected int"));
        QCOMPARE(errorOf([&] { a.getString("group", ""); }),
                 std::string("attribute 'group' is int 2, expected string"));
        QCOMPARE(errorOf([&] { a.getInts("auto_pad", {}); }),
                 std::string("attribute 'auto_pad' is string \"SAME_UPPER\", expected ints"));
        QCOMPARE(errorOf([&] { a.getTensor("pads"); }),
                 std::string("attribute 'pads' is ints [1, 1, 1, 1], expected tensor"));

        // Insertion order is kept; set() replaces in place; erase().
        a.set("group", int64_t(4));
        QCOMPARE(a.entries()[0].first, std::string("group"));
        QCOMPARE(a.getInt("group", 1), int64_t(4));
        QVERIFY(a.erase("value"));
        QVERIFY(!a.erase("value"));
        QCOMPARE(a.str(),
                 std::string("{group=4, alpha=0.5, auto_pad=\"SAME_UPPER\", pads=[1, 1, 1, 1], "
                             "scales=[1.0, 2.5], one=1}"));

        Attributes b = a;
        QVERIFY(a == b);
        b.set("one", int64_t(2));
        QVERIFY(!(a == b));
    }

    void registryRecordsAreComplete() {
        for (const char* name : {"Conv",          "Gemm",        "MatMul",
                                 "Add",           "Sub",         "Mul",
                                 "Div",           "Pow",         "Min",
                                 "Max",           "Relu",        "Sigmoid",
                                 "Tanh",          "Exp",         "Log",
                                 "Sqrt",          "Neg",         "Abs",
                                 "Erf",           "LeakyRelu",   "Clip",
                                 "HardSigmoid",   "HardSwish",   "Identity",
                                 "Dropout",       "Cast",        "BatchNormalization",
                                 "MaxPool",       "AveragePool", "GlobalAveragePool",
                                 "GlobalMaxPool", "Softmax",     "LogSoftmax",
                                 "Reshape",       "Flatten",     "Transpose",
                                 "Concat",        "Squeeze",     "Unsqueeze",
                                 "ReduceMean",    "ReduceSum",   "ReduceMax",
                                 "ReduceMin",     "ReduceProd"})
            QVERIFY2(findOp(name), name);
        // Added for whole models.
        const std::string added =
            "ConvTranspose Split Slice Pad Resize Expand Tile Where ConstantOfShape Range "
            "Reciprocal Floor Ceil Round Sign Sin Cos Softplus Elu Selu PRelu Equal Less Greater "
            "LessOrEqual GreaterOrEqual Not And Or Xor Size Sum Mean LayerNormalization "
            "InstanceNormalization";
        for (size_t pos = 0, end = 0; pos < added.size(); pos = end + 1) {
            end = std::min(added.find(' ', pos), added.size());
            const std::string name = added.substr(pos, end - pos);
            QVERIFY2(findOp(name), name.c_str());
        }
        for (const auto& op : graphOps()) {
            QVERIFY2(!op.doc.empty(), op.name.c_str());
            QVERIFY2(op.infer != nullptr, op.name.c_str());
            QVERIFY2(op.minInputs >= 0 && (op.maxInputs < 0 || op.maxInputs >= op.minInputs),
                     op.name.c_str());
            QVERIFY2(op.minOutputs >= 1 && (op.maxOutputs < 0 || op.maxOutputs >= op.minOutputs),
                     op.name.c_str());
            for (const auto& a : op.attributes) {
                QVERIFY2(!a.doc.empty(), (op.name + "." + a.name).c_str());
                if (a.defaultValue)
                    QVERIFY2(attrKind(*a.defaultValue) == a.kind, (op.name + "." + a.name).c_str());
            }
            QCOMPARE(findOp(op.name), &op);
        }
        QCOMPARE(findOp("Conv")->pattern, OpPattern::OutEWiseFusable);
        QCOMPARE(findOp("Add")->pattern, OpPattern::Broadcast);
        QCOMPARE(findOp("Relu")->pattern, OpPattern::ElementWise);
        QCOMPARE(findOp("Reshape")->pattern, OpPattern::Injective);
        QCOMPARE(findOp("ReduceSum")->pattern, OpPattern::CommReduce);
        QCOMPARE(findOp("Softmax")->pattern, OpPattern::Opaque);
        QCOMPARE(findOp("ConvTranspose")->pattern, OpPattern::OutEWiseFusable);
        QCOMPARE(findOp("Equal")->pattern, OpPattern::Broadcast);
        QCOMPARE(findOp("Where")->pattern, OpPattern::Broadcast);
        QCOMPARE(findOp("Floor")->pattern, OpPattern::ElementWise);
        for (const char* name :
             {"Slice", "Pad", "Expand", "Tile", "Split", "Resize", "ConstantOfShape", "Range"})
            QCOMPARE(findOp(name)->pattern, OpPattern::Injective);
        QCOMPARE(findOp("LayerNormalization")->pattern, OpPattern::Opaque);
        QCOMPARE(findOp("InstanceNormalization")->pattern, OpPattern::Opaque);
        QCOMPARE(findOp("Split")->maxOutputs, -1);
        QCOMPARE(findOp("Split")->outputCountText(), std::string("at least 1 output"));
        // Split takes as many outputs as the node has.
        Graph g;
        Value x = g.addInput("x", TensorType(DataType::float32(), {10}));
        g.setOutputs(g.addNode("Split", {x}, {}, 5, "s")->outputs());
        g.verify();
        QCOMPARE(std::string(opPatternName(OpPattern::OutEWiseFusable)),
                 std::string("out-elementwise-fusable"));
        QCOMPARE(std::get<int64_t>(*findOp("Conv")->findAttr("group")->defaultValue), int64_t(1));
        QVERIFY(!findOp("Nope"));
    }
};

QTEST_APPLESS_MAIN(TestGraph)
#include "tst_graph.moc"
