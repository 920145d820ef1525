// Registries as objects: a pass added to a driver::Context at run time can be
// named in pipelines, is listed with the context's passes, and shows up in the
// stage snapshots of a compile made with that context; an operator added to a
// context is imported from an ONNX model, shape-inferred, constant-folded and
// fused with that context's graph passes; the built-in context stays as it
// was. The crash reproducer and the no-result check work at both levels
// (graph and TIR), through the one pass manager.

#include "driver/Context.h"
#include "driver/FunctionArtifacts.h"
#include "driver/ModelCompiler.h"
#include "driver/ModelDriver.h"
#include "frontend/OnnxBytes.h"
#include "frontend/OnnxImporter.h"
#include "graph/GraphPrinter.h"
#include "graph/OpRegistry.h"
#include "graph/passes/GraphPassManager.h"
#include "graph/passes/GraphPipeline.h"
#include "ir/Diagnostic.h"
#include "tir/IRMutator.h"
#include "tir/passes/PassManager.h"
#include "runtime/NDArray.h"
#include "tir/passes/Pipeline.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>

using namespace tessel;

namespace {

graph::Graph smallModel() {
    graph::Graph g("small");
    auto x = g.addInput("x", *graph::TensorType::parse("float32[1, 8, 4, 4]"));
    auto y = g.addOp("Relu", {g.addOp("Add", {x, x}, {}, "add")}, {}, "relu");
    g.setOutputs({g.addOp("Identity", {y}, {}, "id")});
    return g;
}

/// A graph pass of the test's own: prefixes the graph's name with "renamed_".
graph::GraphPassInfo renamePass() {
    return {"rename-graph",
            "Prefix the graph's name with renamed_.",
            "A pass a plugin could add: it changes the name only, so what it did shows in the printed graph.",
            {},
            [](const graph::Graph& g, const PassOptionValues&) {
                graph::Graph out = g;
                out.setName("renamed_" + g.name());
                return out;
            }};
}

/// A TIR pass of the test's own: renames the function (visible in the printed TIR).
tir::PassInfo tagPass() {
    return {"tag-function",
            "Append _tagged to the function's name.",
            "A pass a plugin could add.",
            {},
            [](const tir::PrimFunc& f, const PassOptionValues&) {
                return tir::PrimFunc::make(f->name + "_tagged", f->params, f->body);
            }};
}

const char* kScript = R"(N = 64
A = te.placeholder((N,), name="A")
B = te.compute((N,), lambda i: A[i] * 2.0, name="B")
s = te.create_schedule(B.op)
f = tvm.build(s, [A, B], name="double")
)";

/// "Twice": y = 2 * x, element-wise, an operator a plugin might add (with
/// shape inference and a constant evaluator, no kernel compute).
graph::OpInfo twiceOp() {
    graph::OpInfo info;
    info.name = "Twice";
    info.doc = "y = 2 * x, element by element.";
    info.pattern = graph::OpPattern::ElementWise;
    info.infer = [](const graph::InferContext& ctx) {
        if (!ctx.input(0).dtype.isFloat()) ctx.fail("x must be a float tensor, got " + ctx.input(0).str());
        return std::vector<graph::TensorType>{ctx.input(0)};
    };
    info.evaluate = [](const graph::EvalContext& e) -> graph::EvalResult {
        std::vector<double> v = e.input(0).toDoubles();
        for (auto& x : v) x *= 2;
        return std::vector<Ref<graph::Constant>>{graph::Constant::fromFloats(e.output().shape, v, e.output().dtype)};
    };
    return info;
}

/// An ONNX model (opset 13): y = x + Twice(w), x float32[1, 4] and w the
/// initializer [1, 2, 3, 4]. The Twice node reads constants only, so
/// fold-constant removes it and the compiled model is one Add.
std::string twiceModel() {
    namespace ob = onnxbytes;
    const float w[4] = {1, 2, 3, 4};
    const std::string raw(reinterpret_cast<const char*>(w), sizeof(w));
    return ob::model(ob::graph({ob::node("Twice", {"w"}, {"w2"}, "twice"), ob::node("Add", {"x", "w2"}, {"y"}, "add")},
                               {ob::valueInfo("x", ob::kFloat, {1, 4})}, {ob::valueInfo("y", ob::kFloat, {1, 4})},
                               {ob::tensorRaw("w", ob::kFloat, {4}, raw)}),
                     13);
}

/// The operator node called `op` of `g`, or null.
Ref<graph::Node> nodeOf(const graph::Graph& g, const std::string& op) {
    for (auto& n : g.nodes())
        if (n->op == op) return n;
    return {};
}

std::string readAll(const QString& path) {
    std::ifstream in(path.toStdString());
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace

class TestContext : public QObject {
    Q_OBJECT
private slots:
    void builtinContextHasTheBuiltinPasses() {
        const driver::Context& c = driver::Context::builtin();
        QCOMPARE(c.graphPasses.size(), graph::builtinGraphPasses().size());
        QCOMPARE(c.tirPasses.size(), tir::builtinTirPasses().size());
        for (auto& name : graph::defaultGraphPipeline()) QVERIFY2(c.graphPasses.find(name), name.c_str());
        for (auto& name : tir::defaultTirPipeline()) QVERIFY2(c.tirPasses.find(name), name.c_str());
        QVERIFY(driver::Context().tirPasses.size() == 0);
        // The operators: every built-in one, in the default registry's order.
        QCOMPARE(c.ops.size(), graph::graphOps().size());
        auto op = c.ops.begin();
        for (const graph::OpInfo& info : graph::graphOps()) QCOMPARE((op++)->name, info.name);
        QVERIFY(driver::Context().ops.empty());
    }

    void anOperatorAddedAtRunTimeIsImportedInferredAndFolded() {
        driver::Context ctx = driver::Context::withBuiltins();
        ctx.ops.add(twiceOp()); // after the graph passes were registered: they see it all the same
        QVERIFY(!driver::Context::builtin().ops.find("Twice"));
        QVERIFY(!graph::findOp("Twice"));

        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("twice.onnx")).toStdString();
        {
            std::ofstream out(path, std::ios::binary);
            out << twiceModel();
        }
        driver::CompileOptions o;
        o.request.context = &ctx;
        o.trace = true;
        driver::CompiledModel m = driver::compileModel(path, {}, o);

        // Imported with the context's operators and typed by Twice's inference.
        QVERIFY(!m.graphStages.empty());
        QCOMPARE(m.graphStages.front().pass, std::string("import"));
        auto imported = nodeOf(*m.graphStages.front().irAs<graph::Graph>(), "Twice");
        QVERIFY(imported);
        QCOMPARE(imported->outputTypes[0].str(), std::string("float32[4]"));
        // infer-shapes keeps it (typed); fold-constant computes it with its evaluator.
        const graph::Graph* shapes = nullptr;
        const graph::Graph* folded = nullptr;
        for (auto& s : m.graphStages) {
            if (s.pass == "infer-shapes") shapes = s.irAs<graph::Graph>();
            if (s.pass == "fold-constant") folded = s.irAs<graph::Graph>();
        }
        QVERIFY(shapes && folded);
        QVERIFY(nodeOf(*shapes, "Twice"));
        QCOMPARE(nodeOf(*shapes, "Twice")->outputTypes[0].str(), std::string("float32[4]"));
        QVERIFY(!nodeOf(*folded, "Twice"));
        QVERIFY(!nodeOf(m.graph, "Twice"));
        auto add = nodeOf(m.graph, "Add");
        QVERIFY(add);
        QVERIFY(add->inputs[1].isConstant());
        QCOMPARE(add->inputs[1].constant()->toDoubles(), (std::vector<double>{2, 4, 6, 8}));

        // The compiled model computes x + 2 * w.
        auto exec = m.makeExecutor();
        runtime::NDArray x = runtime::NDArray::empty({1, 4}, DataType::float32());
        for (int i = 0; i < 4; ++i) x.data<float>()[i] = 10.0f * float(i + 1);
        exec->setInput(0, x);
        exec->run();
        const runtime::NDArray y = exec->output(0);
        QCOMPARE(std::vector<float>(y.data<float>(), y.data<float>() + 4), (std::vector<float>{12, 24, 36, 48}));

        // The graph trace of the IDE takes the context too.
        driver::ModelTrace trace = driver::optimizeModel(path, {}, &ctx);
        QVERIFY(nodeOf(trace.imported, "Twice"));
        QVERIFY(!nodeOf(trace.optimized, "Twice"));

        // The built-in context does not know the operator: the importer says so.
        driver::CompileOptions plain = o;
        plain.request.context = nullptr;
        try {
            driver::compileModel(path, {}, plain);
            QFAIL("the built-in context knows no Twice");
        } catch (const CompileError& e) {
            QVERIFY2(std::string(e.what()).find("node 'twice' (Twice, opset 13): operator 'Twice' is not supported") !=
                         std::string::npos,
                     e.what());
        }
        QVERIFY_THROWS_EXCEPTION(CompileError, driver::optimizeModel(path, {}));
        // An importer given the registry directly reads it as well.
        frontend::ImportOptions io;
        io.ops = &ctx.ops;
        QVERIFY(nodeOf(frontend::importOnnxBytes(twiceModel(), io), "Twice"));
    }

    void fuseOpsTakesTheContextsOperatorPatterns() {
        driver::Context ctx = driver::Context::withBuiltins();
        ctx.ops.add(twiceOp());
        graph::Graph g("fuse");
        auto x = g.addInput("x", *graph::TensorType::parse("float32[2, 8]"));
        auto r = g.addOp("Relu", {x}, {}, "relu");
        g.setOutputs({g.addOp("Twice", {r}, {}, "twice")});

        graph::GraphPassManager pm(ctx.graphPasses);
        const graph::Graph fused = pm.run(g, {"infer-shapes", "fuse-ops"});
        // Twice is element-wise in the context: it fuses after the Relu.
        auto twice = nodeOf(fused, "Twice");
        QVERIFY(twice);
        QCOMPARE(twice->outputTypes[0].str(), std::string("float32[2, 8]"));
        QCOMPARE(twice->attrs.getString("fuse.function", ""), std::string("fused_relu_twice"));
        QCOMPARE(nodeOf(fused, "Relu")->attrs.getString("fuse.function", ""), std::string("fused_relu_twice"));

        // The built-in passes know no Twice: inference names the node.
        graph::GraphPassManager builtin(driver::Context::builtin().graphPasses);
        try {
            builtin.run(g, {"infer-shapes"});
            QFAIL("the built-in passes inferred Twice");
        } catch (const CompileError& e) {
            QVERIFY2(std::string(e.what()).find("node 'twice' (Twice): unknown operator 'Twice'") != std::string::npos,
                     e.what());
        }
    }

    void aGraphPassAddedAtRunTime() {
        driver::Context ctx = driver::Context::withBuiltins();
        ctx.graphPasses.add(renamePass());
        QVERIFY(ctx.graphPasses.names().find("rename-graph") != std::string::npos); // the listing
        QVERIFY(!driver::Context::builtin().graphPasses.find("rename-graph"));      // the built-in is untouched

        driver::CompileOptions o;
        o.request.context = &ctx;
        o.trace = true;
        o.graphPipeline = graph::defaultGraphPipeline();
        o.graphPipeline.insert(o.graphPipeline.begin() + 1, "rename-graph");
        driver::CompiledModel m = driver::compileGraph(smallModel(), o);
        const StageSnapshot* renamed = nullptr;
        for (auto& s : m.graphStages)
            if (s.pass == "rename-graph") renamed = &s;
        QVERIFY(renamed);
        QVERIFY(renamed->changed);
        QVERIFY(renamed->text.text.find("graph renamed_small(") != std::string::npos);
        QCOMPARE(renamed->irAs<graph::Graph>()->name(), std::string("renamed_small"));
        QCOMPARE(m.graph.name(), std::string("renamed_small"));

        // Without the context the name is unknown, with the known passes listed.
        driver::CompileOptions plain = o;
        plain.request.context = nullptr;
        try {
            driver::compileGraph(smallModel(), plain);
            QFAIL("the built-in context knows no rename-graph");
        } catch (const CompileError& e) {
            QVERIFY2(std::string(e.what()).find("unknown graph pass 'rename-graph'") != std::string::npos, e.what());
        }
    }

    void aTirPassAddedAtRunTime() {
        driver::Context ctx = driver::Context::withBuiltins();
        ctx.tirPasses.add(tagPass());
        auto results = driver::lowerScript(kScript, [&] {
            driver::ScriptOptions so;
            so.lower.snapshots = true;
            so.lower.passes = &ctx.tirPasses;
            so.lower.pipeline = tir::defaultTirPipeline();
            so.lower.pipeline.push_back("tag-function");
            return so;
        }());
        QCOMPARE(results.size(), size_t(1));
        const auto& snaps = results[0].snapshots;
        QCOMPARE(snaps.back().pass, std::string("tag-function"));
        QVERIFY(snaps.back().changed);
        QVERIFY(snaps.back().level == StageLevel::TIR);
        QVERIFY(snaps.back().text.text.find("double_tagged") != std::string::npos);
        QVERIFY(snaps.back().irAs<tir::PrimFunc>());
        QCOMPARE(results[0].lowered->name, std::string("double_tagged"));
    }

    void registriesRefuseDuplicatesAndNamelessPasses() {
        driver::Context ctx = driver::Context::withBuiltins();
        QVERIFY_THROWS_EXCEPTION(CompileError, ctx.tirPasses.add(*tir::findTirPass("simplify")));
        tir::PassInfo nameless = tagPass();
        nameless.name.clear();
        QVERIFY_THROWS_EXCEPTION(CompileError, ctx.tirPasses.add(nameless));
        tir::PassInfo noRun = tagPass();
        noRun.run = nullptr;
        QVERIFY_THROWS_EXCEPTION(CompileError, ctx.tirPasses.add(noRun));
    }

    void crashReproducerAtTheGraphLevel() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("graph-crash.txt"));
        graph::GraphPassRegistry registry("graph pass");
        graph::registerGraphPasses(registry);
        registry.add({"explode", "Always fails.", "For the test.", {},
                      [](const graph::Graph&, const PassOptionValues&) -> graph::Graph {
                          throw CompileError("the explode pass exploded");
                      }});
        graph::GraphPassManager pm(registry);
        auto repro = std::make_shared<graph::GraphCrashReproducerInstrument>(path.toStdString());
        pm.addInstrument(repro);
        graph::Graph g = smallModel();
        QVERIFY_THROWS_EXCEPTION(CompileError, pm.run(g, {"infer-shapes", "explode", "dead-code-elimination"}));
        QVERIFY(repro->written());
        const std::string text = readAll(path);
        QVERIFY2(text.find("# Tessel graph crash reproducer") == 0, text.c_str());
        QVERIFY(text.find("# failed pass: explode") != std::string::npos);
        QVERIFY(text.find("the explode pass exploded") != std::string::npos);
        QVERIFY(text.find("# reproduce: run explode,dead-code-elimination") != std::string::npos);
        // The failed pass's input: the graph after infer-shapes.
        graph::GraphPassManager shapes;
        QVERIFY(text.find(graph::printGraph(shapes.run(g, {"infer-shapes"})).text) != std::string::npos);
    }

    void aPassThatReturnsNoResultFailsAtBothLevels() {
        graph::GraphPassRegistry graphs("graph pass");
        graphs.add({"drop-all", "Returns an empty graph.", "For the test.", {},
                    [](const graph::Graph&, const PassOptionValues&) { return graph::Graph("empty"); }});
        graph::GraphPassManager gpm(graphs);
        try {
            gpm.run(smallModel(), {"drop-all"});
            QFAIL("a graph without outputs is no result");
        } catch (const CompileError& e) {
            QVERIFY2(std::string(e.what()).find("graph pass drop-all returned no result") != std::string::npos, e.what());
        }
        tir::PassRegistry tirs("TIR pass");
        tirs.add({"lose-it", "Returns nothing.", "For the test.", {},
                  [](const tir::PrimFunc&, const PassOptionValues&) { return tir::PrimFunc(); }});
        auto lowered = driver::lowerScript(kScript, {});
        tir::PassManager tpm(tirs);
        try {
            tpm.run(lowered[0].lowered, {"lose-it"});
            QFAIL("an undefined function is no result");
        } catch (const CompileError& e) {
            QVERIFY2(std::string(e.what()).find("TIR pass lose-it returned no result") != std::string::npos, e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestContext)
#include "tst_context.moc"
