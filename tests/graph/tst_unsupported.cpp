// Opaque nodes, subgraphs and the list of what cannot compile
// (graph/Unsupported.h), with how the printer shows them.
#include "graph/Graph.h"
#include "graph/GraphPrinter.h"
#include "graph/Unsupported.h"
#include "ir/Diagnostic.h"

#include <QtTest>

#include <memory>
#include <string>

using namespace tessel;
using namespace tessel::graph;

namespace {

/// x -> Relu -> com.acme.Frob (opaque) -> Loop (opaque, a body with one
/// opaque node) -> output; plus an input of a type Tessel cannot hold.
Graph sample() {
    auto body = std::make_shared<Graph>("body");
    Value bi = body->addInput("i", *TensorType::parse("float32[4]"));
    Ref<Node> inner = Node::makeOpaque(body->newId(), "Gizmo", "", {bi}, {}, {},
                                       "operator 'Gizmo' is not supported", "gizmo",
                                       {*TensorType::parse("float32[4]")}, {"o"});
    body->append(inner);
    body->setOutputs({inner->output(0)});

    Graph g("main");
    Value x = g.addInput("x", *TensorType::parse("float32[4]"));
    g.addInputNode(Node::makeUnsupportedInput(g.newId(), "seq", "the input is not a tensor"));
    Value r = g.addOp("Relu", {x}, {}, "relu");
    Attributes a;
    a.set("level", int64_t(3));
    Ref<Node> frob = Node::makeOpaque(g.newId(), "Frob", "com.acme", {r}, a, {},
                                      "operator domain 'com.acme' is not supported", "frob",
                                      {TensorType()}, {"f"});
    g.append(frob);
    Ref<Node> loop = Node::makeOpaque(g.newId(), "Loop", "", {frob->output(0)}, {},
                                      {{"body", body}}, "operator 'Loop' is not supported", "",
                                      {*TensorType::parse("float32[4]")}, {"y"});
    g.append(loop);
    g.setOutputs({loop->output(0)});
    return g;
}

} // namespace

class TestUnsupported : public QObject {
    Q_OBJECT
private slots:
    void listsEveryConstruct() {
        const Graph g = sample();
        QVERIFY(g.hasUnsupported());
        const auto list = unsupportedConstructs(g);
        QCOMPARE(list.size(), size_t(4));
        QCOMPARE(list[0].str(), std::string("input 'seq': the input is not a tensor"));
        QCOMPARE(list[1].str(), std::string("node 'frob' (com.acme.Frob): operator domain "
                                            "'com.acme' is not supported"));
        QCOMPARE(list[1].domain, std::string("com.acme"));
        QCOMPARE(list[2].str(), std::string("node %4 (Loop): operator 'Loop' is not supported"));
        QCOMPARE(list[3].str(), std::string("node %4 (Loop) / body / node 'gizmo' (Gizmo): "
                                            "operator 'Gizmo' is not supported"));
        // A node inside a subgraph points at the top-level node holding it.
        QCOMPARE(list[3].nodeId, list[2].nodeId);
        QCOMPARE(describeUnsupported(list).substr(0, 35),
                 std::string("4 constructs cannot be compiled:\n  "));
        QCOMPARE(describeUnsupported({list[1]}), list[1].str());

        Graph fine("fine");
        Value x = fine.addInput("x", *TensorType::parse("float32[4]"));
        fine.setOutputs({fine.addOp("Relu", {x})});
        QVERIFY(!fine.hasUnsupported());
        QVERIFY(unsupportedConstructs(fine).empty());
    }

    void passesKeepWhatMakesANodeOpaque() {
        const Graph g = sample();
        const Node& loop = *g.nodes()[2];
        Ref<Node> copy = loop.withOutputTypes({*TensorType::parse("float32[4]")});
        QVERIFY(copy->opaque());
        QCOMPARE(copy->unsupported, loop.unsupported);
        QCOMPARE(copy->subgraphs.size(), size_t(1));
        QCOMPARE(g.nodes()[1]->withInputs(g.nodes()[1]->inputs)->domain, std::string("com.acme"));
        // verify() refuses an opaque node with its reason.
        try {
            g.verify();
            QFAIL("verify accepted an opaque node");
        } catch (const CompileError& e) {
            QCOMPARE(std::string(e.what()), std::string("input 'seq': the input is not a tensor"));
        }
    }

    void printed() {
        const Graph g = sample(); // the line table points into it
        const AnnotatedText t = printGraph(g);
        const std::string want =
            "graph main(%x: float32[4], %seq: ?) {\n"
            "  %2 = Relu(%x) : ?  # relu\n"
            "  %3 = com.acme.Frob(%2) {level=3} : ?  # frob; unsupported: operator domain "
            "'com.acme' is not supported\n"
            "  %4 = Loop(%3) : float32[4]  # unsupported: operator 'Loop' is not supported\n"
            "    body: graph body(%i: float32[4]) {\n"
            "      %1 = Gizmo(%i) : float32[4]  # gizmo; unsupported: operator 'Gizmo' is not "
            "supported\n"
            "      return %1\n"
            "    }\n"
            "  return %4\n"
            "}\n";
        QCOMPARE(t.text, want);
        // The subgraph's lines belong to the Loop node (the IDE selects it).
        const auto* loop = dynamic_cast<const Node*>(t.lineNode[3]);
        QVERIFY(loop);
        QCOMPARE(loop->op, std::string("Loop"));
        for (size_t i = 4; i <= 7; ++i)
            QCOMPARE(t.lineNode[i], t.lineNode[3]);
    }
};

QTEST_APPLESS_MAIN(TestUnsupported)
#include "tst_unsupported.moc"
