// tune::Space: the index <-> configuration mapping (mixed radix, the first
// knob least significant) round-trips, is pinned to fixed numbers so that it
// cannot change silently, and sampling, neighbours and filters stay inside
// the valid space.
#include "driver/TuneTasks.h"
#include "tune/Space.h"

#include "Synthetic.h"

#include <QtTest>

#include <fstream>
#include <iterator>
#include <set>

using namespace tessel;

namespace {

std::string readText(const std::string& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::unique_ptr<driver::ScriptTask> templateTask(const char* name, std::map<std::string, int64_t> workload = {}) {
    driver::ScriptTaskOptions o;
    o.fileName = name;
    o.workload = std::move(workload);
    return std::make_unique<driver::ScriptTask>(readText(std::string(TESSEL_SOURCE_DIR "/resources/templates/") + name), o);
}

} // namespace

class TestSpace : public QObject {
    Q_OBJECT
private slots:
    void everyIndexRoundTrips() {
        tune::Space space(synthetic::knobs({3, 4, 5}));
        QCOMPARE(space.size(), int64_t(60));
        std::set<tune::Config> seen;
        for (int64_t i = 0; i < space.size(); ++i) {
            const tune::Config c = space.config(i);
            QCOMPARE(space.index(c), i);
            QCOMPARE(space.index(space.choices(i)), i);
            QVERIFY(seen.insert(c).second);
        }
    }

    void theMappingIsPinned() {
        // First knob least significant: index = c0 + 3 * (c1 + 4 * c2).
        tune::Space space(synthetic::knobs({3, 4, 5}, {1, 2, 0}));
        QCOMPARE(space.index(tune::Config{{"k0", 2}, {"k1", 1}, {"k2", 3}}), int64_t(2 + 3 * (1 + 4 * 3)));
        QCOMPARE(space.choices(41), (tune::Space::Choices{2, 1, 3}));
        QCOMPARE(space.defaultIndex(), int64_t(1 + 3 * 2));
        // A knob the config leaves out takes its default.
        QCOMPARE(space.index(tune::Config{{"k2", 4}}), int64_t(1 + 3 * (2 + 4 * 4)));

        // The GEMM template (resources/templates/gemm.te, 1024^3): knobs in
        // definition order tile_y (5), tile_x (20), tile_k (4), unroll_k,
        // block_order, pack_b (2 each); its default is the most even splits.
        auto gemm = templateTask("gemm.te");
        tune::Space g(gemm->knobs());
        QCOMPARE(g.size(), int64_t(3200));
        QCOMPARE(g.defaultIndex(), int64_t(4 + 5 * (12 + 20 * 3)));
        const tune::Config ladder = {{"tile_y", 2}, {"tile_x", 12}, {"tile_k", 2}, {"unroll_k", 0},
                                     {"block_order", 1}, {"pack_b", 1}};
        QCOMPARE(g.index(ladder), int64_t(2 + 5 * (12 + 20 * (2 + 4 * (0 + 2 * (1 + 2 * 1))))));
        QCOMPARE(g.describe(g.index(ladder)).at("tile_x"), std::string("[16, 4, 16]"));
        QCOMPARE(g.describe(g.index(ladder)).at("block_order"), std::string("'vectors'"));
    }

    void badConfigurationsAreRejected() {
        tune::Space space(synthetic::knobs({3, 4}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, space.index(tune::Config{{"nope", 0}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, space.index(tune::Config{{"k1", 4}}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, space.choices(12));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, space.choices(-1));
        QVERIFY(!space.valid(12));
        std::vector<te::Knob> empty = synthetic::knobs({2});
        empty[0].choices.clear();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, tune::Space{empty});
        // 2^64 configurations do not fit an index.
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, tune::Space(synthetic::knobs(std::vector<int64_t>(64, 2))));
        QCOMPARE(tune::Space(synthetic::knobs(std::vector<int64_t>(62, 2))).size(), int64_t(1) << 62);
    }

    void filtersSamplingAndNeighbours() {
        tune::Space space(synthetic::knobs({6, 6, 6}));
        // Keep only configurations whose choices sum to an even number.
        space.addFilter([](const tune::Space::Choices& c) { return (c[0] + c[1] + c[2]) % 2 == 0; });
        QVERIFY(space.valid(0));
        QVERIFY(!space.valid(1));
        tune::Rng rng(7);
        std::set<int64_t> sampled;
        for (int i = 0; i < 3000; ++i) {
            const int64_t s = space.sample(rng);
            QVERIFY(space.valid(s));
            sampled.insert(s);
        }
        QCOMPARE(int(sampled.size()), 108); // every valid point is reachable
        // Skipping all but one valid point still finds it.
        QCOMPARE(space.sample(rng, [](int64_t i) { return i != 42; }), int64_t(42));
        QCOMPARE(space.sample(rng, [](int64_t) { return true; }), int64_t(-1));

        for (int64_t i : {int64_t(0), int64_t(42), int64_t(214)}) {
            const auto base = space.choices(i);
            const auto all = space.neighbours(i);
            QVERIFY(!all.empty());
            for (int64_t n : all) {
                QVERIFY(space.valid(n));
                const auto c = space.choices(n);
                int differing = 0;
                for (size_t k = 0; k < c.size(); ++k) differing += c[k] != base[k];
                QCOMPARE(differing, 1);
            }
            for (int step = 0; step < 50; ++step) {
                const int64_t n = space.randomNeighbour(i, rng);
                QVERIFY(std::find(all.begin(), all.end(), n) != all.end());
            }
        }
    }

    void samplingRepeatsWithTheSeed() {
        tune::Space space(synthetic::knobs({10, 10, 10}));
        tune::Rng a(3), b(3);
        for (int i = 0; i < 20; ++i) QCOMPARE(space.sample(a), space.sample(b));
    }
};

QTEST_APPLESS_MAIN(TestSpace)
#include "tst_space.moc"
