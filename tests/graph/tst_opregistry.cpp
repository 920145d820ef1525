// The operator registry as an object: what every record must carry, refused
// registrations, operators added at run time and used through inference and
// constant evaluation, and the records' evaluators (the graph/ops families).
#include "graph/ConstantEval.h"
#include "graph/Graph.h"
#include "graph/OpRegistry.h"
#include "ir/Diagnostic.h"

#include "GraphTestUtil.h"

#include <QtTest>

#include <set>
#include <string>
#include <vector>

using namespace tessel;
using namespace tessel::graph;
using namespace tessel::graph::test;

namespace {

/// "Twice": y = 2 * x, an operator a plugin might add.
OpInfo twiceOp() {
    OpInfo info;
    info.name = "Twice";
    info.doc = "2 * x";
    info.pattern = OpPattern::ElementWise;
    info.infer = [](const InferContext& ctx) {
        if (!ctx.input(0).dtype.isInt()) ctx.fail("x must be an integer tensor");
        return std::vector<TensorType>{ctx.input(0)};
    };
    info.evaluate = [](const EvalContext& e) -> EvalResult {
        std::vector<int64_t> v = e.input(0).toInts();
        for (auto& x : v)
            x *= 2;
        return std::vector<Ref<Constant>>{
            Constant::fromInts(e.output().shape, v, e.output().dtype)};
    };
    return info;
}

/// The message of the CompileError `f` throws ("" when it throws none).
template <class F> std::string errorOf(F&& f) {
    try {
        f();
    } catch (const CompileError& e) {
        return e.what();
    }
    return "";
}

} // namespace

class TestOpRegistry : public QObject {
    Q_OBJECT
private slots:
    void everyRecordIsComplete();
    void evaluatorsAndFoldOnly();
    void duplicateAndIncompleteRecordsAreRefused();
    void orderAndStablePointers();
    void runtimeOperatorInfersAndEvaluates();
    void evaluatesFromTypes();
};

void TestOpRegistry::everyRecordIsComplete() {
    QVERIFY(graphOps().size() >= 80);
    std::set<std::string> names;
    for (const OpInfo& op : graphOps()) {
        const char* n = op.name.c_str();
        QVERIFY2(!op.name.empty(), "an operator without a name");
        QVERIFY2(names.insert(op.name).second, n);
        QVERIFY2(!op.doc.empty(), n);
        QVERIFY2(std::string(opPatternName(op.pattern)) != "?", n);
        QVERIFY2(op.infer != nullptr, n);
        if (op.foldOnly) QVERIFY2(op.evaluate != nullptr, n);
        QCOMPARE(defaultOpRegistry().find(op.name), &op);
    }
}

void TestOpRegistry::evaluatorsAndFoldOnly() {
    // What ConstantEval.h promises, record by record.
    const std::set<std::string> evaluated{"Constant",    "Identity",
                                          "Shape",       "Size",
                                          "Gather",      "Concat",
                                          "LayoutTransform",
                                          "Cast",        "Reshape",
                                          "Flatten",     "Squeeze",
                                          "Unsqueeze",   "Transpose",
                                          "Slice",       "Expand",
                                          "Tile",        "Where",
                                          "Range",       "ConstantOfShape",
                                          "Add",         "Sub",
                                          "Mul",         "Div",
                                          "Min",         "Max",
                                          "Sum",         "Mean",
                                          "Neg",         "Abs",
                                          "Sqrt",        "Relu",
                                          "Reciprocal",  "Floor",
                                          "Ceil",        "Round",
                                          "Sign",        "Equal",
                                          "Less",        "Greater",
                                          "LessOrEqual", "GreaterOrEqual",
                                          "Not",         "And",
                                          "Or",          "Xor",
                                          "ReduceSum",   "ReduceProd",
                                          "ReduceMin",   "ReduceMax",
                                          "Mod",         "CastLike",
                                          "GatherElements", "GatherND",
                                          "ScatterElements", "Scatter",
                                          "ScatterND",   "Trilu",
                                          "ArgMax",      "ArgMin",
                                          "CumSum",      "DequantizeLinear"};
    std::set<std::string> got, fromTypes, foldOnly;
    for (const OpInfo& op : graphOps()) {
        if (op.evaluate) got.insert(op.name);
        if (op.evaluateFromTypes) fromTypes.insert(op.name);
        if (op.foldOnly) foldOnly.insert(op.name);
    }
    QCOMPARE(got, evaluated);
    QCOMPARE(fromTypes, (std::set<std::string>{"Shape", "Size"}));
    // Constant has no kernel compute (tests/topi/tst_op_coverage checks that
    // every other operator has one).
    QCOMPARE(foldOnly, (std::set<std::string>{"Constant"}));
}

void TestOpRegistry::duplicateAndIncompleteRecordsAreRefused() {
    OpRegistry r;
    registerGraphOps(r);
    const size_t n = r.size();
    QCOMPARE(n, graphOps().size());
    OpInfo add = *r.find("Add");
    QCOMPARE(errorOf([&] { r.add(add); }),
             std::string("cannot register operator 'Add': an operator of that name is already "
                         "registered"));
    // Registering the built-in operators twice fails on the first one.
    QVERIFY(errorOf([&] { registerGraphOps(r); }).find("already registered") != std::string::npos);

    OpInfo noInfer = twiceOp();
    noInfer.infer = nullptr;
    QCOMPARE(errorOf([&] { r.add(noInfer); }),
             std::string("cannot register operator 'Twice': it has no inference function"));
    OpInfo noDoc = twiceOp();
    noDoc.doc.clear();
    QCOMPARE(errorOf([&] { r.add(noDoc); }),
             std::string("cannot register operator 'Twice': it has no doc line"));
    OpInfo foldOnly = twiceOp();
    foldOnly.foldOnly = true;
    foldOnly.evaluate = nullptr;
    QCOMPARE(errorOf([&] { r.add(foldOnly); }),
             std::string("cannot register operator 'Twice': it is fold-only but has no evaluator"));
    OpInfo noName = twiceOp();
    noName.name.clear();
    QCOMPARE(errorOf([&] { r.add(noName); }),
             std::string("cannot register an operator without a name"));
    QCOMPARE(r.size(), n); // nothing was added by the refused records
    QVERIFY(!r.find("Twice"));
}

void TestOpRegistry::orderAndStablePointers() {
    // A fresh registry lists the built-in operators in the default's order.
    OpRegistry r;
    registerGraphOps(r);
    std::vector<std::string> fresh, builtIn;
    for (const OpInfo& op : r)
        fresh.push_back(op.name);
    for (const OpInfo& op : graphOps())
        builtIn.push_back(op.name);
    QCOMPARE(fresh, builtIn);
    QVERIFY(!r.empty());

    // Records added later come last, and earlier pointers stay valid.
    const OpInfo* conv = r.find("Conv");
    const OpInfo& twice = r.add(twiceOp());
    for (int i = 0; i < 200; ++i) {
        OpInfo filler = twiceOp();
        filler.name = "Filler" + std::to_string(i);
        r.add(std::move(filler));
    }
    QCOMPARE(r.find("Conv"), conv);
    QCOMPARE(conv->name, std::string("Conv"));
    QCOMPARE(r.find("Twice"), &twice);
    QCOMPARE(std::prev(r.end(), 201)->name, std::string("Twice"));
    QCOMPARE(std::prev(r.end())->name, std::string("Filler199"));

    // Moving a registry keeps its records where they are.
    OpRegistry moved = std::move(r);
    QCOMPARE(moved.find("Conv"), conv);
    QCOMPARE(moved.find("Twice"), &twice);
}

void TestOpRegistry::runtimeOperatorInfersAndEvaluates() {
    OpRegistry r;
    registerGraphOps(r);
    r.add(twiceOp());

    Graph g("t");
    Value x = g.addConstant("x", Constant::fromInts({3}, {1, -2, 40}, DataType::int32()));
    Ref<Node> node = Node::makeOp(g.newId(), "Twice", {x}, {}, 1, "t");

    // Inference through the registry that has the operator ...
    const std::vector<TensorType> types = r.inferOutputTypes(*node, {x});
    QCOMPARE(types.size(), size_t(1));
    QCOMPARE(types[0].str(), std::string("int32[3]"));
    // ... and its checks and the registry's count checks name the node.
    Value f = g.addConstant("f", Constant::fromFloats({2}, {1.0, 2.0}));
    QCOMPARE(errorOf([&] { r.inferOutputTypes(*node, {f}); }),
             std::string("node 't' (Twice): x must be an integer tensor"));
    QCOMPARE(errorOf([&] {
                 r.inferOutputTypes(*node, {x, x});
             }),
             std::string("node 't' (Twice): expects 1 input, got 2"));
    // The built-in operators still infer through it.
    Ref<Node> add = Node::makeOp(g.newId(), "Add", {x, x}, {}, 1, "a");
    QCOMPARE(r.inferOutputTypes(*add, {x, x})[0].str(), std::string("int32[3]"));
    // The default registry does not know the operator.
    QCOMPARE(errorOf([&] { inferOutputTypes(*node, {x}); }),
             std::string("node 't' (Twice): unknown operator 'Twice'"));
    QVERIFY(!findOp("Twice"));

    // Constant evaluation dispatches through the record.
    auto out = evaluateConstant(r, *node, {x.constant()});
    QVERIFY(out.has_value());
    QCOMPARE(out->size(), size_t(1));
    QCOMPARE((*out)[0]->type().str(), std::string("int32[3]"));
    QCOMPARE((*out)[0]->toInts(), (std::vector<int64_t>{2, -4, 80}));
    QVERIFY(!evaluateConstant(*node, {x.constant()}).has_value());
    // An operator without an evaluator is left alone.
    Ref<Node> exp = Node::makeOp(g.newId(), "Exp", {f}, {}, 1, "e");
    QVERIFY(!evaluateConstant(r, *exp, {f.constant()}).has_value());
}

void TestOpRegistry::evaluatesFromTypes() {
    Graph g("s");
    Value x = g.addInput("x", type("float32[2, 3, 5]"));
    Value dyn = g.addInput("d", type("float32[?, 3]"));
    Attributes tail;
    tail.set("start", int64_t(1));
    Ref<Node> shape = Node::makeOp(g.newId(), "Shape", {x}, tail, 1, "shape");
    auto s = evaluateFromTypes(*shape, {x});
    QVERIFY(s.has_value());
    QCOMPARE((*s)[0]->toInts(), (std::vector<int64_t>{3, 5}));
    Ref<Node> size = Node::makeOp(g.newId(), "Size", {x}, {}, 1, "size");
    QCOMPARE((*evaluateFromTypes(*size, {x}))[0]->toInts(), (std::vector<int64_t>{30}));
    QCOMPARE((*evaluateFromTypes(*size, {x}))[0]->type().str(), std::string("int64[]"));
    // Not static, not such an operator, or the wrong input count: nothing.
    QVERIFY(!evaluateFromTypes(*size, {dyn}).has_value());
    QVERIFY(!evaluateFromTypes(*size, {x, x}).has_value());
    Ref<Node> relu = Node::makeOp(g.newId(), "Relu", {x}, {}, 1, "relu");
    QVERIFY(!evaluateFromTypes(*relu, {x}).has_value());
    // The same record evaluates when the input is a constant.
    Value c = g.addConstant("c", Constant::zeros(DataType::int8(), {4, 1}));
    Ref<Node> shapeOfC = Node::makeOp(g.newId(), "Shape", {c}, {}, 1, "sc");
    QCOMPARE((*evaluateConstant(*shapeOfC, {c.constant()}))[0]->toInts(),
             (std::vector<int64_t>{4, 1}));
}

QTEST_GUILESS_MAIN(TestOpRegistry)
#include "tst_opregistry.moc"
