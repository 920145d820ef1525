// core/lower beyond storage: the strategies (specialised before general, every
// record naming a registered operator and its topi compute, topi's errors
// prefixed with the node), lowerGroup on a fused graph (arguments and their
// plan tensors, weights packed into constant arguments once, literals for
// single-element constants), and the lowering steps a traced model compile
// records for the stage view ("lower-fused-groups", "plan-storage").
#include "driver/ModelCompiler.h"
#include "graph/OpRegistry.h"
#include "graph/passes/InferShapes.h"
#include "lower/LowerGroup.h"
#include "lower/LoweringSteps.h"
#include "lower/StrategyRegistry.h"
#include "ir/Diagnostic.h"
#include "topi/TopiUtil.h"

#include <QtTest>

#include <set>

using namespace tessel;

namespace {

std::vector<double> ramp(size_t n, double scale) {
    std::vector<double> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = scale * double(int(i % 7) - 3);
    return v;
}

/// conv (16 output channels, constant weights: the blocked path) -> relu ->
/// global average pool -> flatten -> gemm (constant B: the packed path) * 0.5.
graph::Graph smallNet() {
    graph::Graph g("small");
    auto x = g.addInput("x", *graph::TensorType::parse("float32[1, 8, 10, 10]"));
    auto w = g.addConstant("w", graph::Constant::fromFloats({16, 8, 3, 3}, ramp(16 * 8 * 9, 0.01)));
    auto b = g.addConstant("b", graph::Constant::fromFloats({16}, ramp(16, 0.1)));
    auto fw = g.addConstant("fw", graph::Constant::fromFloats({16, 10}, ramp(160, 0.02)));
    auto half = g.addConstant("half", graph::Constant::fromFloats({}, {0.5}));
    graph::Attributes pads;
    pads.set("pads", std::vector<int64_t>{1, 1, 1, 1});
    auto y = g.addOp("Relu", {g.addOp("Conv", {x, w, b}, pads, "conv")}, {}, "relu");
    auto p = g.addOp("Flatten", {g.addOp("GlobalAveragePool", {y}, {}, "gap")}, {}, "flat");
    auto fc = g.addOp("Gemm", {p, fw}, {}, "fc");
    g.setOutputs({g.addOp("Mul", {fc, half}, {}, "scale")});
    return g;
}

} // namespace

class TestLowering : public QObject {
    Q_OBJECT
private slots:
    void strategiesNameRegisteredOperatorsAndComputes() {
        std::set<std::string> ops;
        for (auto& s : lower::defaultStrategies()) {
            QVERIFY2(graph::findOp(s.op), s.op.c_str());
            QVERIFY2(s.compute.starts_with("topi::"), s.op.c_str());
            QVERIFY(s.apply);
            ops.insert(s.op);
        }
        QVERIFY(ops.size() > 80);
        // Specialised before general: the highest-priority Conv and Gemm records
        // are the blocked depthwise and packed paths; the general ones come last.
        QCOMPARE(lower::findStrategy("Conv")->compute, std::string("topi::nn::depthwiseConv2dNCHWc"));
        QCOMPARE(lower::defaultStrategies().forOp("Conv").back()->compute, std::string("topi::nn::conv"));
        QCOMPARE(lower::findStrategy("Gemm")->compute, std::string("topi::nn::densePacked"));
        QCOMPARE(lower::findStrategy("Relu")->compute, std::string("topi::relu"));
        QVERIFY(!lower::findStrategy("FooBar"));
    }

    // A CompileError of a topi compute (which knows no graph) reaches the user
    // naming the node; the adapter's own errors name it once.
    void computeErrorsNameTheNode() {
        graph::Graph g("g");
        auto x = g.addInput("x", *graph::TensorType::parse("float32[1, 8, 2, 2]"));
        graph::Attributes a;
        a.set("blocksize", int64_t(2));
        a.set("mode", std::string("XYZ"));
        g.setOutputs({g.addOp("DepthToSpace", {x}, a, "d2s")});
        g = graph::inferShapes(g);
        std::vector<te::Tensor> ins{te::placeholder({topi::intImm(1), topi::intImm(8), topi::intImm(2), topi::intImm(2)},
                                                    DataType::float32(), "x")};
        try {
            lower::computeNode(lower::OpContext(*g.nodes()[0], ins, {nullptr}));
            QFAIL("no error");
        } catch (const CompileError& e) {
            QCOMPARE(std::string(e.what()), std::string("node 'd2s' (DepthToSpace): mode 'XYZ' is not supported (DCR or CRD)"));
        }
    }

    // lowerGroup on the fused small net: each function's arguments are the
    // placeholders its outputs read, then its outputs, each with its plan
    // tensor; the conv and gemm weights are packed once into new constant
    // arguments; the single-element constant 0.5 is a literal, no argument.
    void lowerGroupsOfAFusedGraph() {
        graph::Graph g = graph::inferShapes(smallNet());
        auto fusion = graph::planFusion(g);
        lower::StoragePlanner planner(g);
        std::vector<lower::GroupFunction> fns;
        for (auto& group : fusion.groups) {
            auto f = lower::lowerGroup(g, group, planner);
            if (!f.empty()) fns.push_back(std::move(f));
        }
        QVERIFY(fns.size() >= 2);
        runtime::NDArray weights = planner.finish();
        const auto& plan = planner.plan();
        QCOMPARE(plan.steps.size(), fns.size());
        std::set<std::string> computes, argNames;
        for (size_t i = 0; i < fns.size(); ++i) {
            const auto& f = fns[i];
            QCOMPARE(plan.steps[i].function, f.name);
            QCOMPARE(plan.steps[i].args, f.planArgs);
            QCOMPARE(f.args.size(), f.planArgs.size());
            QVERIFY(f.schedule.defined());
            for (size_t a = 0; a < f.args.size(); ++a) {
                const auto& t = plan.tensors[size_t(f.planArgs[a])];
                QCOMPARE(t.dtype, f.args[a]->dtype);
                QCOMPARE(t.shape, topi::staticShape(f.args[a]));
                argNames.insert(f.args[a].name());
            }
            for (auto& c : f.computes)
                computes.insert(c);
            QVERIFY(lower::describeFunction(f).find("function " + f.name) == 0);
        }
        QVERIFY(computes.count("node 'conv' (Conv): topi::nn::conv2dNCHWc"));
        QVERIFY(computes.count("node 'fc' (Gemm): topi::nn::densePacked"));
        QVERIFY(computes.count("node 'scale' (Mul): topi::multiply"));
        // Packed weights are constant plan tensors in the blocked layouts; the
        // original weights are no argument of any function.
        QVERIFY(argNames.count("conv_wpack"));
        QVERIFY(argNames.count("fc_bpack"));
        QVERIFY(!argNames.count("w"));
        QVERIFY(!argNames.count("fw"));
        QVERIFY(!argNames.count("half"));
        std::map<std::string, std::vector<int64_t>> constants;
        for (auto& t : plan.tensors)
            if (t.kind == runtime::PlanTensor::Kind::Constant) constants[t.name] = t.shape;
        QCOMPARE(constants["conv_wpack"], (std::vector<int64_t>{1, 1, 3, 3, 8, 16}));
        QCOMPARE(constants["fc_bpack"], (std::vector<int64_t>{1, 16, 16}));
        QVERIFY(!constants.count("w"));
        QVERIFY(plan.weightsBytes >= int64_t((16 * 8 * 9 + 16 * 16 + 16) * 4));

        // Without a schedule (an edited function brings its own), the same TE.
        lower::StoragePlanner again(g);
        auto bare = lower::lowerGroup(g, fusion.groups[0], again, {.schedule = false});
        QVERIFY(!bare.schedule.defined());
        QCOMPARE(bare.name, fusion.groups[0].name);
    }

    // A traced compile records the lowering steps after the graph passes, each
    // with its text and time; without trace it records none.
    void tracedCompileRecordsTheLoweringSteps() {
        driver::CompileOptions o;
        o.trace = true;
        auto m = driver::compileGraph(smallNet(), o);
        QCOMPARE(m.lowerStages.size(), size_t(2));
        QCOMPARE(m.lowerStages[0].pass, std::string(lower::kLowerFusedGroups));
        QCOMPARE(m.lowerStages[1].pass, std::string(lower::kPlanStorage));
        for (auto& s : m.lowerStages) {
            QVERIFY2(!s.text.text.empty(), s.pass.c_str());
            QVERIFY(s.level == StageLevel::Lower);
            QVERIFY(s.changed);
            QVERIFY(s.seconds >= 0);
            auto* info = lower::findLoweringStep(s.pass);
            QVERIFY(info);
            QVERIFY(!info->summary.empty() && !info->description.empty());
        }
        const std::string& groups = m.lowerStages[0].text.text;
        const std::string& storage = m.lowerStages[1].text.text;
        for (auto& f : m.functions) {
            QVERIFY2(groups.find("function " + f.name + " (group ") != std::string::npos, f.name.c_str());
            QVERIFY2(storage.find(": " + f.name + "(") != std::string::npos, f.name.c_str());
            // The TE script of the function, indented under it.
            const std::string firstLine = f.script.substr(0, f.script.find('\n'));
            QVERIFY2(groups.find("    " + firstLine + "\n") != std::string::npos, firstLine.c_str());
        }
        QVERIFY(groups.find("node 'conv' (Conv): topi::nn::conv2dNCHWc") != std::string::npos);
        // 16 output channels in one block with AVX-512, two of 8 with AVX2.
        const int64_t lanes = m.target.vectorLanes(DataType::float32());
        const int64_t block = lanes >= 16 ? 16 : lanes;
        const std::string convStage = "conv_conv: float32[1, " + std::to_string(16 / block) + ", 10, 10, " +
                                      std::to_string(block) + "], conv2d_nchwc, reduces 4 axes";
        QVERIFY2(groups.find(convStage) != std::string::npos, groups.c_str());
        QVERIFY(storage.find(std::to_string(m.plan.steps.size()) + " steps, ") != std::string::npos);
        QCOMPARE(storage, lower::printStoragePlan(m.plan));

        o.trace = false;
        auto plain = driver::compileGraph(smallNet(), o);
        QVERIFY(plain.lowerStages.empty());
        QCOMPARE(plain.plan.toJson(), m.plan.toJson());
    }

    void loweringStepsAreDocumented() {
        const auto& steps = lower::loweringSteps();
        QCOMPARE(steps.size(), size_t(2));
        QCOMPARE(steps[0].name, std::string(lower::kLowerFusedGroups));
        QCOMPARE(steps[1].name, std::string(lower::kPlanStorage));
        QVERIFY(!lower::findLoweringStep("fold-constant"));
    }
};

QTEST_GUILESS_MAIN(TestLowering)
#include "tst_lowering.moc"
