// tune::SimulatedAnnealing: over a synthetic model whose optimum is known it
// finds the optimum, never returns excluded points, repeats with its seed,
// stops early once nothing improves, and respects a budget of points.
#include "tune/SimulatedAnnealing.h"

#include "Synthetic.h"

#include <QtTest>

#include <set>

using namespace tessel;

namespace {

/// A model: minus the squared distance of the choices from `best`, scored in batches.
tune::BatchScore bowlModel(const tune::Space& space, std::vector<int64_t> best, int64_t* scored = nullptr) {
    return [&space, best, scored](const std::vector<int64_t>& points) {
        std::vector<float> s;
        for (int64_t p : points) {
            const auto c = space.choices(p);
            double d = 0;
            for (size_t k = 0; k < c.size(); ++k) d += double(c[k] - best[k]) * double(c[k] - best[k]);
            s.push_back(float(-d));
        }
        if (scored) *scored += int64_t(points.size());
        return s;
    };
}

} // namespace

class TestSimulatedAnnealing : public QObject {
    Q_OBJECT
private slots:
    void findsTheOptimumOfASyntheticModel() {
        // 20^5 = 3.2 million configurations: far too many to score them all.
        tune::Space space(synthetic::knobs({20, 20, 20, 20, 20}));
        const std::vector<int64_t> best = {3, 17, 9, 0, 12};
        tune::SimulatedAnnealing sa(space, {}, 1);
        int64_t scored = 0;
        const auto top = sa.findMaximums(bowlModel(space, best, &scored), 8, {});
        QCOMPARE(int(top.size()), 8);
        QCOMPARE(space.choices(top[0].index), best);
        QCOMPARE(top[0].score, 0.f);
        for (size_t i = 1; i < top.size(); ++i) QVERIFY(top[i - 1].score >= top[i].score);
        // The next best are one step away (score -1).
        QCOMPARE(top[1].score, -1.f);
        QVERIFY(scored < space.size() / 100);
        QVERIFY(sa.lastIterations() < 500); // stopped early once the heap settled
    }

    void excludedPointsAreNeverReturned() {
        tune::Space space(synthetic::knobs({10, 10, 10}));
        const std::vector<int64_t> best = {5, 5, 5};
        const int64_t optimum = space.index(best);
        std::set<int64_t> excluded = {optimum};
        for (int64_t n : space.neighbours(optimum)) excluded.insert(n);
        tune::SimulatedAnnealing sa(space, {}, 2);
        const auto top = sa.findMaximums(bowlModel(space, best), 10, [&](int64_t i) { return excluded.count(i) > 0; });
        QCOMPARE(int(top.size()), 10);
        for (auto& p : top) QVERIFY(!excluded.count(p.index));
        // The best not excluded are two steps away.
        QCOMPARE(top[0].score, -2.f);
    }

    void repeatsWithItsSeed() {
        tune::Space space(synthetic::knobs({12, 12, 12, 12}));
        const std::vector<int64_t> best = {1, 2, 3, 4};
        tune::AnnealingOptions o;
        o.maxIterations = 30;
        o.earlyStop = 1000;
        tune::SimulatedAnnealing a(space, o, 9), b(space, o, 9);
        const auto x = a.findMaximums(bowlModel(space, best), 16, {});
        const auto y = b.findMaximums(bowlModel(space, best), 16, {});
        QCOMPARE(x.size(), y.size());
        for (size_t i = 0; i < x.size(); ++i) QCOMPARE(x[i].index, y[i].index);
        QCOMPARE(a.lastIterations(), 30);
    }

    void aBudgetOfPointsIsKept() {
        tune::Space space(synthetic::knobs({20, 20, 20, 20, 20}));
        tune::AnnealingOptions o;
        o.maxPoints = 1000;
        o.earlyStop = 1000;
        tune::SimulatedAnnealing sa(space, o, 3);
        sa.findMaximums(bowlModel(space, {1, 1, 1, 1, 1}), 4, {});
        // One more iteration of 128 chains may start below the budget.
        QVERIFY(sa.lastPoints() < 1000 + 128);
        QVERIFY(sa.lastPoints() >= 1000);
    }

    void aSmallSpaceIsFilledFromWhatIsLeft() {
        tune::Space space(synthetic::knobs({3, 3}));
        tune::SimulatedAnnealing sa(space, {}, 4);
        const auto top = sa.findMaximums(bowlModel(space, {0, 0}), 20, [](int64_t i) { return i < 4; });
        QCOMPARE(int(top.size()), 5); // 9 points, 4 excluded
    }
};

QTEST_APPLESS_MAIN(TestSimulatedAnnealing)
#include "tst_simulatedannealing.moc"
