// The operator strategy registry (lower/StrategyRegistry.h): records ordered by
// priority and filtered by target kind, duplicates refused, the built-in
// records of the convolutions side by side; a record added at run time to a
// driver::Context is chosen for the workloads its condition accepts (and only
// those) by a compile made with that context; two tunable records that apply
// make the anchor's "strategy" knob, whose configuration picks the compute;
// Properties' reason says why.
#include "driver/Context.h"
#include "driver/ModelCompiler.h"
#include "graph/passes/InferShapes.h"
#include "ir/Diagnostic.h"
#include "lower/LowerGroup.h"
#include "lower/StrategyRegistry.h"
#include "topi/Elementwise.h"
#include "topi/Nn.h"
#include "topi/TopiUtil.h"

#include <QtTest>

using namespace tessel;

namespace {

/// conv (constant weights, 16 output channels) -> relu, on `channels` input channels.
graph::Graph convRelu(int64_t channels) {
    graph::Graph g("g");
    auto x = g.addInput("x", graph::TensorType(DataType::float32(), {1, channels, 8, 8}));
    std::vector<double> w(size_t(16 * channels * 9));
    for (size_t i = 0; i < w.size(); ++i) w[i] = 0.01 * double(int(i % 5) - 2);
    auto wc = g.addConstant("w", graph::Constant::fromFloats({16, channels, 3, 3}, w));
    graph::Attributes a;
    a.set("pads", std::vector<int64_t>{1, 1, 1, 1});
    g.setOutputs({g.addOp("Relu", {g.addOp("Conv", {x, wc}, a, "conv")}, {}, "relu")});
    return g;
}

/// A convolution computed as the generic one, then doubled: a compute whose
/// result tells which record ran.
std::vector<te::Tensor> doubledConv(const lower::OpContext& c) {
    topi::nn::ConvParams p{{1, 1}, {1, 1, 1, 1}, {1, 1}, 1};
    auto y = topi::nn::conv(c.input(0), c.input(1), p, {}, c.name() + "_plain");
    return {topi::add(y, y, c.name())};
}

lower::OpStrategy record(std::string name, int priority, bool tunable, lower::StrategyCondition when) {
    return {.op = "Conv",
            .compute = "test::doubledConv",
            .apply = doubledConv,
            .name = std::move(name),
            .priority = priority,
            .when = std::move(when),
            .condition = "eight input channels",
            .tunable = tunable};
}

/// Runs `m` on an input of ones; the output's first element.
float firstOutput(const driver::CompiledModel& m, int64_t channels) {
    auto exec = m.makeExecutor();
    runtime::NDArray x = runtime::NDArray::empty({1, channels, 8, 8}, DataType::float32());
    // All -1: channel 0's sum is positive with these weights (relu keeps it).
    for (int64_t i = 0; i < x.numElements(); ++i) x.data<float>()[i] = -1.0f;
    exec->setInput(0, x);
    exec->run();
    // An interior pixel of channel 0 (all nine taps inside).
    return exec->output(0).data<float>()[9];
}

const driver::FusedFunction& convFunction(const driver::CompiledModel& m) {
    for (auto& f : m.functions)
        if (f.name.find("conv") != std::string::npos) return f;
    throw std::runtime_error("no conv function");
}

} // namespace

class TestStrategyRegistry : public QObject {
    Q_OBJECT
private slots:
    void orderFilterAndDuplicates() {
        lower::StrategyRegistry r;
        auto noop = [](const lower::OpContext&) { return std::vector<te::Tensor>{}; };
        r.add({.op = "X", .compute = "a", .apply = noop, .name = "low", .priority = 1});
        r.add({.op = "X", .compute = "b", .apply = noop, .name = "high", .priority = 5});
        r.add({.op = "X", .compute = "c", .apply = noop, .name = "gpu", .priority = 9, .targets = {TargetKind::CUDA}});
        r.add({.op = "X", .compute = "d", .apply = noop, .name = "also_low", .priority = 1});
        auto cpu = r.forOp("X", TargetKind::LLVM);
        QCOMPARE(int(cpu.size()), 3);
        QCOMPARE(cpu[0]->id(), std::string("high"));
        QCOMPARE(cpu[1]->id(), std::string("low")); // registration order among equals
        QCOMPARE(cpu[2]->id(), std::string("also_low"));
        auto gpu = r.forOp("X", TargetKind::CUDA);
        QCOMPARE(gpu.front()->id(), std::string("gpu"));
        QVERIFY(r.find("X", "gpu"));
        QVERIFY(!r.find("Y", "gpu"));
        QVERIFY_THROWS_EXCEPTION(CompileError, r.add({.op = "X", .compute = "e", .apply = noop, .name = "low"}));
        QVERIFY_THROWS_EXCEPTION(CompileError, r.add({.op = "X", .compute = "e"}));
        QVERIFY_THROWS_EXCEPTION(CompileError, r.add({.op = "", .compute = "e", .apply = noop}));
    }

    // Direct, Winograd, blocked depthwise and the general convolution side by
    // side, by priority; the tunable ones are the two a 3x3 stride-1 layer may take.
    void builtinConvolutionRecords() {
        const auto& r = lower::defaultStrategies();
        std::vector<std::string> ids;
        for (auto* s : r.forOp("Conv")) ids.push_back(s->id());
        QCOMPARE(ids, (std::vector<std::string>{"depthwise_nchwc", "conv2d_nchwc", "conv2d_winograd", "conv_generic"}));
        QVERIFY(r.find("Conv", "conv2d_nchwc")->tunable && r.find("Conv", "conv2d_winograd")->tunable);
        QVERIFY(!r.find("Conv", "conv_generic")->when); // takes whatever the others leave
        for (auto& rec : r) {
            QVERIFY2(!rec.compute.empty() && rec.apply, rec.op.c_str());
            if (rec.when) QVERIFY2(!rec.condition.empty(), (rec.op + " " + rec.id()).c_str());
        }
    }

    // A record added at run time, with a higher priority than every built-in
    // one, computes the workloads its condition accepts; the built-in context
    // and other workloads are untouched.
    void runtimeRecordIsChosenForItsWorkload() {
        driver::Context ctx = driver::Context::withBuiltins();
        ctx.strategies.add(record("doubled", 100, false,
                                  [](const lower::OpContext& c) { return c.inputType(0).shape[1] == 8; }));
        driver::CompileOptions o;
        o.request.context = &ctx;
        auto mine = driver::compileGraph(convRelu(8), o);
        QCOMPARE(convFunction(mine).strategy, std::string("doubled"));
        QVERIFY2(convFunction(mine).strategyReason.find("eight input channels") != std::string::npos,
                 convFunction(mine).strategyReason.c_str());

        auto builtin = driver::compileGraph(convRelu(8));
        QCOMPARE(convFunction(builtin).strategy, std::string("conv2d_nchwc"));
        // relu(2 conv) = 2 relu(conv).
        const float a = firstOutput(mine, 8), b = firstOutput(builtin, 8);
        QVERIFY2(std::abs(a - 2 * b) < 1e-5f && b != 0, qPrintable(QString("%1 vs %2").arg(a).arg(b)));

        // Another workload (4 input channels) is not the record's.
        auto other = driver::compileGraph(convRelu(4), o);
        QCOMPARE(convFunction(other).strategy, std::string("conv2d_nchwc"));
    }

    // Two tunable records apply: the anchor gets the knob "strategy" over
    // them, the default the higher priority; a configuration picks the other.
    void strategyIsAKnob() {
        driver::Context ctx = driver::Context::withBuiltins();
        ctx.strategies.add(record("doubled", 5, true, [](const lower::OpContext&) { return true; }));
        driver::CompileOptions o;
        o.request.context = &ctx;
        graph::Graph g = convRelu(8);
        auto m = driver::compileGraph(g, o);
        const auto& f = convFunction(m);
        QCOMPARE(f.strategy, std::string("conv2d_nchwc"));
        const te::Knob* knob = nullptr;
        for (auto& k : f.knobs)
            if (k.name == "strategy") knob = &k;
        QVERIFY(knob);
        // The 3x3 layer also takes Winograd: three tunable records, the default first.
        QCOMPARE(int(knob->choices.size()), 3);
        QCOMPARE(knob->choices[0].asString(), std::string("conv2d_nchwc"));
        int64_t doubled = -1;
        for (int64_t i = 0; i < knob->size(); ++i)
            if (knob->choices[size_t(i)].asString() == "doubled") doubled = i;
        QVERIFY(doubled > 0);
        QVERIFY2(f.strategyReason.find("the tuner may choose another") != std::string::npos, f.strategyReason.c_str());

        o.configs[f.workload] = {{"strategy", doubled}};
        auto tuned = driver::compileGraph(g, o);
        QCOMPARE(convFunction(tuned).strategy, std::string("doubled"));
        QVERIFY(convFunction(tuned).tuned);
        QVERIFY2(convFunction(tuned).strategyReason.find("chosen by the configuration") != std::string::npos,
                 convFunction(tuned).strategyReason.c_str());
        const float a = firstOutput(tuned, 8), b = firstOutput(m, 8);
        QVERIFY2(std::abs(a - 2 * b) < 1e-5f && b != 0, qPrintable(QString("%1 vs %2").arg(a).arg(b)));
    }

    // The workload key names the versions of the anchor's named records: a
    // configuration keyed for another version (a record tuned for an older
    // kernel) no longer applies; the function keeps its default schedule.
    void recordsFollowTheKernelsVersion() {
        const auto& builtin = lower::defaultStrategies();
        QCOMPARE(builtin.versionTag("Conv"),
                 std::string("depthwise_nchwc.v1 conv2d_nchwc.v2 conv2d_winograd.v1 conv_generic.v1"));
        QCOMPARE(builtin.versionTag("Gemm"), std::string("dense_packed.v2 gemm_transposed_b.v1 gemm_generic.v1"));
        QCOMPARE(builtin.versionTag("Relu"), std::string());
        graph::Graph g = convRelu(8);
        auto m = driver::compileGraph(g);
        const std::string key = convFunction(m).workload;
        QVERIFY2(key.find(" [depthwise_nchwc.v1 conv2d_nchwc.v2 conv2d_winograd.v1 conv_generic.v1] @ llvm") != std::string::npos, key.c_str());

        // The same kernel one version on: another key, and the configuration
        // made for the old one is not used.
        driver::Context ctx = driver::Context::withBuiltins();
        ctx.strategies = lower::StrategyRegistry();
        for (const lower::OpStrategy& r : builtin) {
            lower::OpStrategy copy = r;
            if (copy.id() == "conv2d_nchwc") copy.version = 3;
            ctx.strategies.add(std::move(copy));
        }
        driver::CompileOptions o;
        o.request.context = &ctx;
        o.configs[key] = {{"strategy", 1}};
        auto newer = driver::compileGraph(g, o);
        QVERIFY(convFunction(newer).workload != key);
        QVERIFY2(convFunction(newer).workload.find(" conv2d_nchwc.v3 ") != std::string::npos,
                 convFunction(newer).workload.c_str());
        QVERIFY(!convFunction(newer).tuned);
        QCOMPARE(convFunction(newer).strategy, std::string("conv2d_nchwc"));
        // Keyed for the version it was made for, it applies.
        o.request.context = nullptr;
        auto same = driver::compileGraph(g, o);
        QVERIFY(convFunction(same).tuned);
        QCOMPARE(convFunction(same).strategy, std::string("conv2d_winograd"));
    }
};

QTEST_APPLESS_MAIN(TestStrategyRegistry)
#include "tst_strategyregistry.moc"
