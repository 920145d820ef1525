// NDArray: alignment, sizes, views, random fill determinism, copies and compare.
#include "runtime/NDArray.h"
#include "runtime/ThreadPool.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>

using tessel::DataType;
using tessel::runtime::compare;
using tessel::runtime::NDArray;

class TestNDArray : public QObject {
    Q_OBJECT
private slots:
    void alignmentAndSizes() {
        for (int64_t n : {1, 3, 17, 1000, 4097}) {
            NDArray a({n, 3}, DataType::float32());
            QVERIFY(a.defined() && a.ownsData());
            QCOMPARE(reinterpret_cast<uintptr_t>(a.rawData()) % NDArray::kAlignment, uintptr_t(0));
            QCOMPARE(a.numElements(), n * 3);
            QCOMPARE(a.numBytes(), size_t(n * 3 * 4));
            QCOMPARE(a.ndim(), 2);
        }
        NDArray b({2, 0, 4}, DataType::int64());
        QCOMPARE(b.numElements(), int64_t(0));
        NDArray s({}, DataType::float64());
        QCOMPARE(s.numElements(), int64_t(1));
        QCOMPARE(QString::fromStdString(NDArray({64, 128}, DataType::float32()).str()),
                 QString("float32[64, 128]"));
        QCOMPARE(NDArray({5}, DataType::boolean()).numBytes(), size_t(5));
        QVERIFY(!NDArray().defined());
    }
    void typedAccess() {
        NDArray a({4}, DataType::int32());
        QVERIFY(a.data<int32_t>() != nullptr);
        QVERIFY_THROWS_EXCEPTION(tessel::InternalError, a.data<float>());
        QVERIFY_THROWS_EXCEPTION(tessel::InternalError, a.data<uint32_t>());
        NDArray m({4}, DataType::boolean());
        QVERIFY(m.data<bool>() && m.data<uint8_t>());
        QVERIFY_THROWS_EXCEPTION(tessel::InternalError, NDArray({2}, DataType::float32(4)));
    }
    void randomFillIsDeterministic() {
        for (DataType t : {DataType::float32(), DataType::float64(), DataType::int32(),
                           DataType::int64(), DataType(DataType::Code::UInt, 8),
                           DataType(DataType::Code::Int, 8), DataType::boolean()}) {
            NDArray a({1000}, t), b({1000}, t), c({1000}, t);
            a.fillRandom(7, -5, 5);
            b.fillRandom(7, -5, 5);
            c.fillRandom(8, -5, 5);
            QVERIFY(std::memcmp(a.rawData(), b.rawData(), a.numBytes()) == 0);
            QVERIFY(std::memcmp(a.rawData(), c.rawData(), a.numBytes()) != 0);
        }
        // The first elements do not depend on the array's length.
        NDArray small({10}, DataType::float32()), big({1000}, DataType::float32());
        small.fillRandom(3);
        big.fillRandom(3);
        QVERIFY(std::memcmp(small.rawData(), big.rawData(), small.numBytes()) == 0);
        // Large arrays are filled in parallel; the result equals a serial fill
        // (fillRandom from inside a task runs serially).
        NDArray par({3, 1 << 20}, DataType::float32()), ser({3, 1 << 20}, DataType::float32());
        par.fillRandom(11);
        tessel::runtime::ThreadPool one(1);
        one.run(1, [&](int32_t, int32_t) { ser.fillRandom(11); });
        QVERIFY(std::memcmp(par.rawData(), ser.rawData(), par.numBytes()) == 0);
    }
    void randomFillRange() {
        NDArray f({100000}, DataType::float32());
        f.fillRandom(1, -2.0, 3.0);
        double lo = 1e9, hi = -1e9, sum = 0;
        for (int64_t i = 0; i < f.numElements(); ++i) {
            double v = f.data<float>()[i];
            lo = std::min(lo, v);
            hi = std::max(hi, v);
            sum += v;
        }
        QVERIFY(lo >= -2.0 && hi <= 3.0);
        QVERIFY(lo < -1.99 && hi > 2.99);
        QVERIFY(std::fabs(sum / f.numElements() - 0.5) < 0.02);

        NDArray u({10000}, DataType(DataType::Code::UInt, 8));
        u.fillRandom(2, 0, 255);
        int seen[256] = {};
        for (int64_t i = 0; i < u.numElements(); ++i)
            seen[u.data<uint8_t>()[i]]++;
        QVERIFY(seen[0] > 0 && seen[255] > 0);

        NDArray k({10000}, DataType::int32());
        k.fillRandom(3, -3.5, 3.5); // integers -3..3
        int32_t kmin = 100, kmax = -100;
        for (int64_t i = 0; i < k.numElements(); ++i) {
            kmin = std::min(kmin, k.data<int32_t>()[i]);
            kmax = std::max(kmax, k.data<int32_t>()[i]);
        }
        QCOMPARE(kmin, -3);
        QCOMPARE(kmax, 3);

        NDArray l({1000}, DataType::int64());
        l.fillRandom(4, -1e30, 1e30); // clamped to the type's range, no overflow
        NDArray m({1000}, DataType::boolean());
        m.fillRandom(5);
        int ones = 0;
        for (int64_t i = 0; i < m.numElements(); ++i) {
            QVERIFY(m.data<uint8_t>()[i] <= 1);
            ones += m.data<uint8_t>()[i];
        }
        QVERIFY(ones > 400 && ones < 600);
    }
    void randomFillIsFast() {
        NDArray a({1 << 22}, DataType::float32());
        QElapsedTimer t;
        t.start();
        a.fillRandom(1);
        qInfo("fillRandom of 4M float32: %.2f ms", t.nsecsElapsed() / 1e6);
        QVERIFY(t.elapsed() < 500);
    }
    void copiesAndViews() {
        NDArray a({3, 4}, DataType::float32());
        a.fillRandom(9);
        NDArray shared = a;
        QCOMPARE(shared.rawData(), a.rawData());
        NDArray deep = a.copy();
        QVERIFY(deep.rawData() != a.rawData());
        QVERIFY(compare(deep, a, 0, 0).allClose);
        deep.data<float>()[5] += 1;
        QVERIFY(!compare(deep, a, 0, 0).allClose);
        deep.copyFrom(a);
        QVERIFY(compare(deep, a, 0, 0).allClose);

        float buffer[6] = {1, 2, 3, 4, 5, 6};
        NDArray v = NDArray::view(buffer, {2, 3}, DataType::float32());
        QVERIFY(!v.ownsData());
        QCOMPARE(v.rawData(), static_cast<void*>(buffer));
        QCOMPARE(v.at(4), 5.0);
        NDArray r = v.reshaped({3, 2});
        QCOMPARE(r.rawData(), v.rawData());
        QVERIFY_THROWS_EXCEPTION(tessel::InternalError, v.reshaped({4}));
        NDArray z = NDArray::zeros({8}, DataType::int32());
        for (int i = 0; i < 8; ++i)
            QCOMPARE(z.data<int32_t>()[i], 0);
    }
    void compareReportsErrors() {
        NDArray e({4}, DataType::float32()), g({4}, DataType::float32());
        float ev[4] = {1.0f, -2.0f, 0.0f, 100.0f};
        float gv[4] = {1.0f, -2.002f, 1e-7f, 100.01f};
        std::memcpy(e.rawData(), ev, sizeof ev);
        std::memcpy(g.rawData(), gv, sizeof gv);
        auto r = compare(g, e, 1e-5, 1e-6);
        QVERIFY(r.shapesMatch);
        QVERIFY(!r.allClose);
        QCOMPARE(r.numMismatches, int64_t(2)); // element 2 is within atol, 1 and 3 are not
        QVERIFY(std::fabs(r.maxAbsError - 0.01) < 1e-5);
        QCOMPARE(r.worstIndex, int64_t(3));
        // Relative to max(|expected|, tiny): element 2 (expected 0) dominates.
        QVERIFY(r.maxRelError > 1e30);
        QVERIFY(compare(g, e, 1e-3, 1e-6).allClose);

        NDArray nan = e.copy();
        nan.data<float>()[0] = std::numeric_limits<float>::quiet_NaN();
        auto rn = compare(nan, e);
        QVERIFY(!rn.allClose);
        QVERIFY(std::isinf(rn.maxAbsError));
        QVERIFY(compare(nan, nan).allClose);

        QVERIFY(!compare(g, NDArray({2, 2}, DataType::float32())).shapesMatch);
        QVERIFY(!compare(g, NDArray({4}, DataType::float64())).allClose);

        NDArray i1({3}, DataType::int32()), i2({3}, DataType::int32());
        i1.fillRandom(1, -100, 100);
        i2.copyFrom(i1);
        QVERIFY(compare(i1, i2, 0, 0).allClose);
        i2.data<int32_t>()[1] += 1;
        QCOMPARE(compare(i1, i2, 0, 0).numMismatches, int64_t(1));
        QVERIFY(!compare(i1, i2, 0, 0).str().empty());
    }
};

QTEST_APPLESS_MAIN(TestNDArray)
#include "tst_ndarray.moc"
