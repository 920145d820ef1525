// inline-constant-if: an If on a constant condition becomes its taken branch
// (nodes with fresh ids, constants renamed, outer reads mapped to the If's
// inputs); an If on a computed condition stays; in the default pipeline it
// runs after fold-constant, which makes a shape test's condition constant.
// End to end (an If on a shape compiled statically): tests/driver/tst_controlflow.cpp.
#include "graph/Graph.h"
#include "graph/passes/GraphPassRegistry.h"
#include "graph/passes/GraphPipeline.h"
#include "graph/passes/InferShapes.h"
#include "graph/passes/InlineConstantIf.h"

#include <QtTest>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

using namespace tessel;
using namespace tessel::graph;

namespace {

/// A branch reading the outer x: `op`(x) + a constant `bias` of 1s.
Subgraph branch(const std::string& attr, const std::string& op, const TensorType& t) {
    auto b = std::make_shared<Graph>(attr);
    Value x = b->addInput("x", t);
    Value bias = b->addConstant(
        "bias", Constant::fromFloats(t.shape, std::vector<double>(size_t(t.numElements()), 1.0)));
    b->setOutputs({b->addOp("Add", {b->addOp(op, {x}), bias})});
    *b = inferShapes(*b);
    return {attr, b, {}};
}

/// y = If(cond){then: Relu(x) + 1, else: Neg(x) + 1} * x, cond a constant or an input.
Graph model(std::optional<bool> constant) {
    Graph g("m");
    const TensorType t = *TensorType::parse("float32[2, 3]");
    Value x = g.addInput("x", t);
    Value cond = constant ? g.addConstant("cond", Constant::fromInts({}, {*constant ? 1 : 0},
                                                                     DataType::boolean()))
                          : g.addInput("cond", *TensorType::parse("bool[]"));
    Subgraph then = branch("then_branch", "Relu", t), other = branch("else_branch", "Neg", t);
    then.outer = {x};
    other.outer = {x};
    Ref<Node> n =
        Node::makeControlFlow(g.newId(), "If", {cond, x, x}, {}, {then, other}, "choose", {"b"});
    g.append(n);
    g.setOutputs({g.addOp("Mul", {n->output(), x})});
    return inferShapes(g);
}

std::vector<std::string> ops(const Graph& g) {
    std::vector<std::string> out;
    for (const auto& n : g.nodes())
        out.push_back(n->op);
    return out;
}

} // namespace

class TestInlineConstantIf : public QObject {
    Q_OBJECT
private slots:
    void takenBranchReplacesTheIf() {
        for (bool c : {true, false}) {
            const Graph g = model(c);
            QCOMPARE(g.nodes()[0]->outputTypes[0].str(), std::string("float32[2, 3]"));
            const Graph out = inferShapes(inlineConstantIf(g));
            QCOMPARE(ops(out), (std::vector<std::string>{c ? "Relu" : "Neg", "Add", "Mul"}));
            // The branch read the outer x: now the graph's x.
            QVERIFY(out.nodes()[0]->inputs[0] == out.findInput("x"));
            // Its constant came along, renamed after the If; the condition is gone.
            QCOMPARE(out.constants().size(), size_t(1));
            QCOMPARE(out.constants()[0]->name, std::string("choose/bias"));
            // Fresh ids, past every id of the graph.
            for (size_t i = 0; i < 2; ++i)
                for (const auto& n : g.nodes())
                    QVERIFY(out.nodes()[i]->id != n->id);
            QVERIFY(out.outputs()[0].producer() == out.nodes()[2].get());
            QCOMPARE(out.outputs()[0].type().str(), std::string("float32[2, 3]"));
            out.verify();
        }
    }

    void computedConditionStays() {
        const Graph g = model(std::nullopt);
        const Graph out = inlineConstantIf(g);
        QCOMPARE(ops(out), (std::vector<std::string>{"If", "Mul"}));
        QVERIFY(out.nodes()[0].sameAs(g.nodes()[0]));
    }

    void runsAfterFoldConstantInThePipeline() {
        const auto p = defaultGraphPipeline();
        auto at = [&](const std::string& name) {
            return std::find(p.begin(), p.end(), name) - p.begin();
        };
        QVERIFY(at("inline-constant-if") < long(p.size()));
        QVERIFY(at("fold-constant") < at("inline-constant-if"));
        QVERIFY(at("inline-constant-if") < at("fuse-ops"));
        const GraphPassInfo* info = findGraphPass("inline-constant-if");
        QVERIFY(info && !info->summary.empty() && info->description.size() > 100);
        QCOMPARE(ops(info->run(model(true), {})), (std::vector<std::string>{"Relu", "Add", "Mul"}));
    }
};

QTEST_GUILESS_MAIN(TestInlineConstantIf)
#include "tst_gpass_inline_constant_if.moc"
