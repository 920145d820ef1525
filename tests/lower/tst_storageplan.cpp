// The storage planner on its own: storage sharing on hand-made plans (reuse
// after the last read, never during it, best fit, growing the largest free
// storage), invariants on random plans (no two live intermediates share a
// storage, every storage holds its tenants), and the planner over a graph
// (tensor kinds, packed constants, the 64-byte aligned weights blob) with its
// text for the stage view.
#include "graph/Graph.h"
#include "lower/StoragePlan.h"

#include <QtTest>

#include <cstring>
#include <map>
#include <random>
#include <set>

using namespace tessel;
using runtime::ExecutorPlan;
using runtime::PlanTensor;

namespace {

/// A plan tensor of `kind` holding `floats` float32 elements.
int addTensor(ExecutorPlan& plan, PlanTensor::Kind kind, int64_t floats) {
    PlanTensor t;
    t.name = "t" + std::to_string(plan.tensors.size());
    t.dtype = DataType::float32();
    t.shape = {floats};
    t.kind = kind;
    plan.tensors.push_back(t);
    return int(plan.tensors.size()) - 1;
}

/// Each intermediate's lifetime: from the first step that writes it to the
/// last step that reads it.
std::map<int, std::pair<int, int>> lifetimes(const ExecutorPlan& plan, const std::vector<std::vector<int>>& writes) {
    std::map<int, std::pair<int, int>> life;
    for (size_t s = 0; s < writes.size(); ++s)
        for (int t : writes[s])
            if (!life.count(t)) life[t] = {int(s), int(s)};
    for (size_t s = 0; s < plan.steps.size(); ++s)
        for (int a : plan.steps[s].args)
            if (life.count(a)) life[a].second = std::max(life[a].second, int(s));
    return life;
}

/// The invariants of any storage assignment; an empty string when they hold.
std::string checkInvariants(const ExecutorPlan& plan, const std::vector<std::vector<int>>& writes) {
    for (size_t i = 0; i < plan.tensors.size(); ++i) {
        const auto& t = plan.tensors[i];
        if (t.kind == PlanTensor::Kind::Constant) continue;
        if (t.storage < 0 || t.storage >= int(plan.storages.size())) return t.name + " has no storage";
        if (plan.storages[size_t(t.storage)] < t.numBytes()) return t.name + " does not fit its storage";
        if (t.kind != PlanTensor::Kind::Intermediate)
            for (size_t j = 0; j < plan.tensors.size(); ++j)
                if (j != i && plan.tensors[j].kind != PlanTensor::Kind::Constant &&
                    plan.tensors[j].storage == t.storage)
                    return t.name + " (an input or output) shares its storage with " + plan.tensors[j].name;
    }
    auto life = lifetimes(plan, writes);
    for (auto& [a, la] : life)
        for (auto& [b, lb] : life)
            if (a < b && plan.tensors[size_t(a)].storage == plan.tensors[size_t(b)].storage &&
                la.first <= lb.second && lb.first <= la.second)
                return plan.tensors[size_t(a)].name + " and " + plan.tensors[size_t(b)].name +
                       " are live together in one storage";
    for (auto& step : plan.steps) {
        std::set<int> seen;
        for (int a : step.args)
            if (plan.tensors[size_t(a)].kind != PlanTensor::Kind::Constant &&
                !seen.insert(plan.tensors[size_t(a)].storage).second)
                return "step " + step.function + " gets two arguments in one storage";
    }
    return {};
}

} // namespace

class TestStoragePlan : public QObject {
    Q_OBJECT
private slots:
    // in -> a -> b -> c -> out: a's storage is free again after the step that
    // last reads it, so c takes it; b cannot (b is written by that step).
    void chainReusesAfterTheLastRead() {
        ExecutorPlan plan;
        int in = addTensor(plan, PlanTensor::Kind::Input, 16);
        int a = addTensor(plan, PlanTensor::Kind::Intermediate, 16);
        int b = addTensor(plan, PlanTensor::Kind::Intermediate, 16);
        int c = addTensor(plan, PlanTensor::Kind::Intermediate, 16);
        int out = addTensor(plan, PlanTensor::Kind::Output, 16);
        plan.steps = {{"f0", {in, a}}, {"f1", {a, b}}, {"f2", {b, c}}, {"f3", {c, out}}};
        std::vector<std::vector<int>> writes{{a}, {b}, {c}, {out}};
        lower::assignStorages(plan, writes);
        QCOMPARE(checkInvariants(plan, writes), std::string());
        QVERIFY(plan.tensors[size_t(a)].storage != plan.tensors[size_t(b)].storage);
        QCOMPARE(plan.tensors[size_t(c)].storage, plan.tensors[size_t(a)].storage);
        QCOMPARE(plan.storages.size(), size_t(4)); // in, out, and two for a, b, c
        QCOMPARE(plan.storageBytes(), int64_t(4 * 16 * 4));
    }

    // Two storages free (100 and 400 floats): a tensor of 200 takes the 400
    // one (the smallest that is large enough), one of 50 the 100 one; a later
    // tensor larger than every free storage grows the largest free one.
    void bestFitThenGrowTheLargest() {
        ExecutorPlan plan;
        int in = addTensor(plan, PlanTensor::Kind::Input, 8);
        int small = addTensor(plan, PlanTensor::Kind::Intermediate, 100);
        int large = addTensor(plan, PlanTensor::Kind::Intermediate, 400);
        int mid = addTensor(plan, PlanTensor::Kind::Intermediate, 200);
        int tiny = addTensor(plan, PlanTensor::Kind::Intermediate, 50);
        int huge = addTensor(plan, PlanTensor::Kind::Intermediate, 1000);
        int out = addTensor(plan, PlanTensor::Kind::Output, 8);
        plan.steps = {{"make", {in, small, large}},
                      {"use", {small, large, mid, tiny}},
                      {"grow", {mid, tiny, huge}},
                      {"end", {huge, out}}};
        std::vector<std::vector<int>> writes{{small, large}, {mid, tiny}, {huge}, {out}};
        lower::assignStorages(plan, writes);
        QCOMPARE(checkInvariants(plan, writes), std::string());
        // small and large are read for the last time by "use", so they are
        // only free after it: mid and tiny get new storages.
        QVERIFY(plan.tensors[size_t(mid)].storage != plan.tensors[size_t(large)].storage);
        // After "use", small's and large's storages are free: huge grows the larger.
        QCOMPARE(plan.tensors[size_t(huge)].storage, plan.tensors[size_t(large)].storage);
        QCOMPARE(plan.storages[size_t(plan.tensors[size_t(huge)].storage)], int64_t(1000 * 4));

        // Best fit proper: free storages of 100 and 400 floats, then 200 and 50 ask.
        ExecutorPlan p2;
        in = addTensor(p2, PlanTensor::Kind::Input, 8);
        small = addTensor(p2, PlanTensor::Kind::Intermediate, 100);
        large = addTensor(p2, PlanTensor::Kind::Intermediate, 400);
        mid = addTensor(p2, PlanTensor::Kind::Intermediate, 200);
        tiny = addTensor(p2, PlanTensor::Kind::Intermediate, 50);
        out = addTensor(p2, PlanTensor::Kind::Output, 8);
        p2.steps = {{"make", {in, small, large}}, {"read", {small, large}}, {"next", {mid, tiny}}, {"end", {mid, tiny, out}}};
        writes = {{small, large}, {}, {mid, tiny}, {out}};
        lower::assignStorages(p2, writes);
        QCOMPARE(checkInvariants(p2, writes), std::string());
        QCOMPARE(p2.tensors[size_t(mid)].storage, p2.tensors[size_t(large)].storage);
        QCOMPARE(p2.tensors[size_t(tiny)].storage, p2.tensors[size_t(small)].storage);
        QCOMPARE(p2.storages.size(), size_t(4));
    }

    // Random plans (each step reads a few earlier tensors and writes one or
    // two new ones): the invariants always hold, and sharing saves memory.
    void randomPlansKeepTheInvariants() {
        std::mt19937 rng(7);
        int64_t saved = 0;
        for (int trial = 0; trial < 200; ++trial) {
            ExecutorPlan plan;
            std::vector<int> live{addTensor(plan, PlanTensor::Kind::Input, 1 + rng() % 64)};
            std::vector<std::vector<int>> writes;
            const int steps = 2 + int(rng() % 12);
            for (int s = 0; s < steps; ++s) {
                runtime::PlanStep step{"f" + std::to_string(s), {}};
                std::set<int> reads;
                for (int k = 0, n = 1 + int(rng() % 3); k < n; ++k)
                    reads.insert(live[rng() % live.size()]);
                step.args.assign(reads.begin(), reads.end());
                std::vector<int> made;
                const bool last = s + 1 == steps;
                for (int k = 0, n = last ? 1 : 1 + int(rng() % 2); k < n; ++k) {
                    int t = addTensor(plan, last ? PlanTensor::Kind::Output : PlanTensor::Kind::Intermediate,
                                      1 + rng() % 256);
                    made.push_back(t);
                    step.args.push_back(t);
                    live.push_back(t);
                }
                plan.steps.push_back(step);
                writes.push_back(made);
            }
            lower::assignStorages(plan, writes);
            std::string why = checkInvariants(plan, writes);
            QVERIFY2(why.empty(), ("trial " + std::to_string(trial) + ": " + why).c_str());
            int64_t alone = 0;
            for (auto& t : plan.tensors)
                alone += t.numBytes();
            QVERIFY(plan.storageBytes() <= alone);
            saved += alone - plan.storageBytes();
        }
        QVERIFY(saved > 0);
    }

    // The planner over a graph: kinds from the values, constants (graph
    // weights and constants made while compiling) in one blob, 64-byte
    // aligned, with their bytes; inputs and outputs in the model's order.
    void plannerOverAGraph() {
        graph::Graph g("g");
        auto x = g.addInput("x", *graph::TensorType::parse("float32[2, 3]"));
        auto w = g.addConstant("w", graph::Constant::fromFloats({3}, {1, 2, 3}));
        auto y = g.addOp("Add", {x, w}, {}, "add");
        auto z = g.addOp("Relu", {y}, {}, "relu");
        g.setOutputs({z});
        lower::StoragePlanner planner(g);
        QVERIFY(planner.usedOutside(y, {}));                     // read by relu
        QVERIFY(!planner.usedOutside(y, {y.producer()->id, z.producer()->id}));
        QVERIFY(planner.usedOutside(z, {z.producer()->id}));     // a graph output
        int tx = planner.tensorOf(x), tw = planner.tensorOf(w), ty = planner.tensorOf(y);
        QCOMPARE(planner.tensorOf(x), tx); // made once
        auto packed = graph::Constant::fromFloats({5}, {9, 8, 7, 6, 5});
        int tp = planner.addConstant("packed", packed);
        planner.addStep("add", {tx, tw, tp, ty}, {ty});
        int tz = planner.tensorOf(z);
        planner.addStep("relu", {ty, tz}, {tz});
        runtime::NDArray weights = planner.finish();
        const auto& plan = planner.plan();
        QCOMPARE(plan.tensors[size_t(tx)].kind, PlanTensor::Kind::Input);
        QCOMPARE(plan.tensors[size_t(tw)].kind, PlanTensor::Kind::Constant);
        QCOMPARE(plan.tensors[size_t(ty)].kind, PlanTensor::Kind::Intermediate);
        QCOMPARE(plan.tensors[size_t(tz)].kind, PlanTensor::Kind::Output);
        QCOMPARE(plan.tensors[size_t(tp)].kind, PlanTensor::Kind::Constant);
        QCOMPARE(plan.inputs, std::vector<int>{tx});
        QCOMPARE(plan.outputs, std::vector<int>{tz});
        QCOMPARE(plan.tensors[size_t(tw)].offset, int64_t(0));
        QCOMPARE(plan.tensors[size_t(tp)].offset, int64_t(64)); // 12 bytes, rounded up
        QCOMPARE(plan.weightsBytes, int64_t(128));
        const char* blob = static_cast<const char*>(weights.rawData());
        QCOMPARE(std::memcmp(blob, w.constant()->bytes.data(), 12), 0);
        QCOMPARE(std::memcmp(blob + 64, packed->bytes.data(), 20), 0);
        QCOMPARE(plan.steps.size(), size_t(2));
        QCOMPARE(planner.stepOutputs(), (std::vector<std::vector<int>>{{ty}, {tz}}));
        QCOMPARE(checkInvariants(plan, planner.stepOutputs()), std::string());
    }

    // Packed weights equal in type and bytes are one plan tensor (a recurrent
    // layer's steps each pack the same recurrent weights); anything else differs.
    void equalPackedConstantsAreOne() {
        graph::Graph g("g");
        auto x = g.addInput("x", *graph::TensorType::parse("float32[5]"));
        g.setOutputs({g.addOp("Relu", {x}, {}, "relu")});
        lower::StoragePlanner planner(g);
        const int a = planner.addConstant("t1_pack", graph::Constant::fromFloats({5}, {9, 8, 7, 6, 5}));
        QCOMPARE(planner.addConstant("t2_pack", graph::Constant::fromFloats({5}, {9, 8, 7, 6, 5})), a);
        QVERIFY(planner.addConstant("other", graph::Constant::fromFloats({5}, {9, 8, 7, 6, 4})) != a);
        QVERIFY(planner.addConstant("reshaped", graph::Constant::fromFloats({1, 5}, {9, 8, 7, 6, 5})) != a);
        std::vector<uint8_t> bytes(20);
        std::memcpy(bytes.data(), graph::Constant::fromFloats({5}, {9, 8, 7, 6, 5})->bytes.data(), 20);
        QVERIFY(planner.addConstant("ints", graph::Constant::make(DataType::int32(), {5}, bytes)) != a);
        QCOMPARE(planner.plan().tensors.size(), size_t(4));
    }

    // The stage view's text: every step in order with its arguments, every
    // tensor with its storage or weights offset, every storage with its tenants.
    void planText() {
        ExecutorPlan plan;
        int in = addTensor(plan, PlanTensor::Kind::Input, 256);
        int a = addTensor(plan, PlanTensor::Kind::Intermediate, 256);
        int out = addTensor(plan, PlanTensor::Kind::Output, 256);
        int k = addTensor(plan, PlanTensor::Kind::Constant, 4);
        plan.tensors[size_t(k)].offset = 0;
        plan.weightsBytes = 64;
        plan.steps = {{"first", {in, k, a}}, {"second", {a, out}}};
        lower::assignStorages(plan, {{a}, {out}});
        plan.validate();
        std::string text = lower::printStoragePlan(plan);
        QVERIFY2(text.find("  0: first(t0, t3, t1)\n  1: second(t1, t2)\n") != std::string::npos, text.c_str());
        QVERIFY2(text.find("t1 intermediate t1: float32[256], 1.0 KiB, storage s") != std::string::npos, text.c_str());
        QVERIFY2(text.find("t3 constant t3: float32[4], 16 B, weights + 0") != std::string::npos, text.c_str());
        QVERIFY2(text.find("s0: 1.0 KiB (1024 bytes): t1\n") != std::string::npos, text.c_str());
        QVERIFY2(text.find("2 steps, 4 tensors, 3 storages") != std::string::npos, text.c_str());
    }
};

QTEST_GUILESS_MAIN(TestStoragePlan)
#include "tst_storageplan.moc"
