// The one rule measured outputs are checked by (runtime::checkOutputs): every
// element within tolerance x the largest |value| of its output's reference,
// so a small error near zero passes where the output is large, a real one
// fails with the numbers, and a count or shape mismatch is named.
#include "runtime/OutputCheck.h"

#include <QtTest>

using namespace tessel;
using namespace tessel::runtime;

namespace {

NDArray values(std::vector<float> v) {
    NDArray a({int64_t(v.size())}, DataType::float32());
    for (size_t i = 0; i < v.size(); ++i) a.data<float>()[i] = v[i];
    return a;
}

} // namespace

class TestOutputCheck : public QObject {
    Q_OBJECT
private slots:
    void errorsScaleWithTheOutput() {
        const NDArray want = values({100, 0, -50, 1e-3f});
        // 1e-3 off an element near zero: 1e-5 of the output's 100.
        OutputCheck c = checkOutputs({values({100, 1e-3f, -50, 0})}, {want}, 1e-4);
        QVERIFY2(c.ok, c.message.c_str());
        QVERIFY(c.maxAbsErr > 0.9e-3 && c.maxAbsErr < 1.1e-3);
        QVERIFY(c.maxRelErr >= 1.0); // relative to the element itself it is all of it
        // 0.1 off is 1e-3 of 100: over 1e-4.
        c = checkOutputs({values({100.1f, 0, -50, 1e-3f})}, {want}, 1e-4);
        QVERIFY(!c.ok);
        QVERIFY2(c.message.find("output 0 differs from the reference schedule's") == 0, c.message.c_str());
        QVERIFY2(c.message.find("max |reference| 100") != std::string::npos, c.message.c_str());
        // Each output against its own scale.
        c = checkOutputs({want, values({1.001f})}, {want, values({1})}, 1e-4);
        QVERIFY(!c.ok);
        QVERIFY2(c.message.find("output 1") == 0, c.message.c_str());
        QVERIFY(checkOutputs({want, values({1.00001f})}, {want, values({1})}).ok);
    }

    void mismatchesAreNamed() {
        OutputCheck c = checkOutputs({values({1})}, {values({1}), values({2})});
        QVERIFY(!c.ok);
        QCOMPARE(QString::fromStdString(c.message), QString("the kernel has 1 outputs, the reference 2"));
        c = checkOutputs({values({1, 2})}, {values({1, 2, 3})});
        QVERIFY(!c.ok);
        QVERIFY2(c.message.find("float32[2] against float32[3]") != std::string::npos, c.message.c_str());
        // An all-zero reference allows nothing but zeros.
        QVERIFY(!checkOutputs({values({1e-20f})}, {values({0})}).ok);
        QVERIFY(checkOutputs({values({0})}, {values({0})}).ok);
    }
};

QTEST_GUILESS_MAIN(TestOutputCheck)
#include "tst_outputcheck.moc"
