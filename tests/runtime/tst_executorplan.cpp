// The executor plan's JSON form and its validation, and the executor on a
// hand-made plan with a module of plain C++ kernels (no compiler involved).
#include "runtime/ExecutorPlan.h"
#include "runtime/GraphExecutor.h"

#include "common/TwoStepPlan.h"

#include <QtTest>

#include <cstring>
#include <stdexcept>

using namespace tessel;
using namespace tessel::runtime;

using test::TableModule;
using test::twoSteps;

class TestExecutorPlan : public QObject {
    Q_OBJECT
private slots:
    void jsonRoundTrip() {
        ExecutorPlan p = twoSteps();
        ExecutorPlan q = ExecutorPlan::fromJson(p.toJson());
        QCOMPARE(q.toJson(), p.toJson());
        QCOMPARE(q.tensors.size(), size_t(4));
        QCOMPARE(q.tensors[1].kind, PlanTensor::Kind::Constant);
        QCOMPARE(q.steps[1].function, std::string("double"));
        QCOMPARE(q.storageBytes(), int64_t(48));
    }

    // One kernel alone: an output argument in the middle stays in its place.
    void planOfOneKernel() {
        KernelSignature sig{"double", {{"y", DataType::float32(), {4}, false}, {"z", DataType::float32(), {4}, true}}};
        ExecutorPlan p = ExecutorPlan::forKernel(sig);
        QCOMPARE(p.steps.size(), size_t(1));
        QCOMPARE(p.steps[0].function, std::string("double"));
        QCOMPARE(p.steps[0].args, (std::vector<int>{0, 1}));
        QCOMPARE(p.inputs, std::vector<int>{0});
        QCOMPARE(p.outputs, std::vector<int>{1});
        QCOMPARE(p.tensors[1].kind, PlanTensor::Kind::Output);
        QCOMPARE(p.storageBytes(), int64_t(32));
        QCOMPARE(p.weightsBytes, int64_t(0));
        GraphExecutor exec(ExecutorPlan::fromJson(p.toJson()), std::make_shared<TableModule>(), NDArray());
        float* y = exec.input(0).data<float>();
        for (int i = 0; i < 4; ++i) y[i] = float(i);
        exec.run();
        QCOMPARE(exec.output(0).data<float>()[3], 6.0f);
        KernelSignature mixed{"k", {{"a", DataType::float32(), {2}, true}, {"b", DataType::int32(), {3}, false}}};
        ExecutorPlan q = ExecutorPlan::forKernel(mixed);
        QCOMPARE(q.outputs, std::vector<int>{0});
        QCOMPARE(q.inputs, std::vector<int>{1});
        QCOMPARE(q.tensors[1].numBytes(), int64_t(12));
    }

    void malformedPlans_data() {
        QTest::addColumn<QString>("edit");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << "garbage" << "executor plan:";
        QTest::newRow("other format") << "format" << "not a Tessel executor plan";
        QTest::newRow("step arg out of range") << "arg" << "tensor index 9 out of range";
        QTest::newRow("constant outside weights") << "offset" << "lies outside the weights";
        QTest::newRow("storage too small") << "storage" << "is too small";
    }
    void malformedPlans() {
        QFETCH(QString, edit);
        QFETCH(QString, message);
        ExecutorPlan p = twoSteps();
        std::string text;
        if (edit == "garbage") text = "{not json";
        if (edit == "arg") p.steps[0].args[0] = 9;
        if (edit == "offset") p.tensors[1].offset = 60;
        if (edit == "storage") p.storages[1] = 8;
        if (text.empty()) text = p.toJson();
        if (edit == "format") text.replace(text.find("tessel-executor-plan"), 6, "foobar");
        try {
            ExecutorPlan::fromJson(text);
            QFAIL("accepted a malformed plan");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
    }

    void runsStepsInOrder() {
        NDArray weights = NDArray::zeros({64}, DataType::int8());
        float w[4] = {10, 20, 30, 40};
        std::memcpy(weights.rawData(), w, sizeof w);
        GraphExecutor exec(twoSteps(), std::make_shared<TableModule>(), weights);
        NDArray x({4}, DataType::float32());
        for (int i = 0; i < 4; ++i) x.data<float>()[i] = float(i);
        exec.setInput(0, x);
        exec.run();
        for (int i = 0; i < 4; ++i) QCOMPARE(exec.output(0).data<float>()[i], 2 * (float(i) + w[i]));
        auto times = exec.profile(3);
        QCOMPARE(times.size(), size_t(2));
        // A wrong input is refused with its name.
        try {
            exec.setInput(0, NDArray({5}, DataType::float32()));
            QFAIL("accepted a wrong shape");
        } catch (const std::runtime_error& e) {
            QVERIFY2(QString(e.what()).contains("input 'x'"), e.what());
        }
    }

    void failingKernelAndMissingKernel() {
        NDArray weights = NDArray::zeros({64}, DataType::int8());
        ExecutorPlan p = twoSteps();
        p.steps[1].function = "fail";
        GraphExecutor exec(p, std::make_shared<TableModule>(), weights);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, exec.run());
        p.steps[1].function = "nope";
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, GraphExecutor(p, std::make_shared<TableModule>(), weights));
    }
};

QTEST_GUILESS_MAIN(TestExecutorPlan)
#include "tst_executorplan.moc"
