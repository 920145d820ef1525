// TimeEvaluator: a known sleep measures about right; minRepeatMs grows number.
#include "runtime/TimeEvaluator.h"

#include <QtTest>

#include <chrono>
#include <cmath>
#include <thread>

using tessel::runtime::median;
using tessel::runtime::TimeEvaluator;

class TestTimeEvaluator : public QObject {
    Q_OBJECT
private slots:
    void sleepMeasuresAboutRight() {
        TimeEvaluator ev{.number = 2, .repeat = 3, .minRepeatMs = 0, .warmup = 1};
        int calls = 0;
        auto times = ev.measure([&] {
            ++calls;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        });
        QCOMPARE(int(times.size()), 3);
        QCOMPARE(calls, 1 + 2 * 3);
        const double m = median(times);
        qInfo("sleep(2 ms) measures %.3f ms", m * 1e3);
        QVERIFY(m >= 2.0e-3);
        QVERIFY(m < 4.0e-3); // the sleep's own overshoot is well under 2 ms
    }
    void minRepeatRaisesNumber() {
        TimeEvaluator ev{.number = 1, .repeat = 2, .minRepeatMs = 20, .warmup = 0};
        int calls = 0;
        auto times = ev.measure([&] {
            ++calls;
            std::this_thread::sleep_for(std::chrono::microseconds(500));
        });
        QCOMPARE(int(times.size()), 2);
        // Each counted repeat lasted >= 20 ms, so at least 2 x 20 ms / ~0.55 ms calls ran.
        QVERIFY2(calls >= 2 * 20 / 2, qPrintable(QString::number(calls)));
        for (double t : times)
            QVERIFY(t >= 0.5e-3 && t < 2e-3);
    }
    void quickFunctionGrowsToFill() {
        TimeEvaluator ev{.number = 1, .repeat = 1, .minRepeatMs = 5, .warmup = 0};
        volatile int sink = 0;
        int calls = 0;
        QElapsedTimer t;
        t.start();
        auto times = ev.measure([&] {
            ++calls;
            sink = sink + 1;
        });
        QVERIFY(calls > 1000);
        QVERIFY(times[0] > 0 && times[0] < 1e-5);
        QVERIFY(t.elapsed() < 1000);
    }
    void medians() {
        QCOMPARE(median({3.0, 1.0, 2.0}), 2.0);
        QCOMPARE(median({4.0, 1.0, 3.0, 2.0}), 2.5);
        QCOMPARE(median({5.0}), 5.0);
        QVERIFY(std::isnan(median({})));
    }
};

QTEST_APPLESS_MAIN(TestTimeEvaluator)
#include "tst_timeevaluator.moc"
