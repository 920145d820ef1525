// The host kernels of the operators whose output shape is data (driver/HostOps.h):
// NonZero, Compress, Unique and NonMaxSuppression on the examples of ONNX's
// operator documentation and backend test data (their expected values are
// ONNX's reference's), and the edges those leave out (a scalar, nothing
// selected, no score threshold, a condition shorter than the axis).
#include "driver/HostOps.h"
#include "graph/OpRegistry.h"
#include "ir/Diagnostic.h"

#include <QtTest>

#include <cstring>
#include <vector>

using namespace tessel;
using runtime::NDArray;

namespace {

template <class T> NDArray make(std::vector<int64_t> shape, const std::vector<T>& values, DataType t) {
    NDArray a(std::move(shape), t);
    if (!values.empty()) std::memcpy(a.rawData(), values.data(), values.size() * sizeof(T));
    return a;
}
NDArray f32(std::vector<int64_t> shape, const std::vector<float>& v) { return make(std::move(shape), v, DataType::float32()); }
NDArray i64(std::vector<int64_t> shape, const std::vector<int64_t>& v) { return make(std::move(shape), v, DataType::int64()); }
NDArray boolean(std::vector<int64_t> shape, const std::vector<uint8_t>& v) {
    return make(std::move(shape), v, DataType::boolean());
}

/// Shape and every value equal.
void same(const NDArray& got, const NDArray& want) {
    QVERIFY2(got.shape() == want.shape() && got.dtype() == want.dtype(), (got.str() + " vs " + want.str()).c_str());
    for (int64_t i = 0; i < want.numElements(); ++i)
        QVERIFY2(got.at(i) == want.at(i), (got.str() + " differs at " + std::to_string(i)).c_str());
}

} // namespace

class TestHostOps : public QObject {
    Q_OBJECT
private slots:
    void nonZero() {
        // ONNX's example: condition [[1, 0], [1, 1]] (bool).
        same(driver::nonZero(boolean({2, 2}, {1, 0, 1, 1})), i64({2, 3}, {0, 1, 1, 0, 0, 1}));
        same(driver::nonZero(f32({2, 3}, {0, 2.5f, 0, -1, 0, 0})), i64({2, 2}, {0, 1, 1, 0}));
        same(driver::nonZero(f32({}, {3})), i64({1, 1}, {0})); // a scalar counts as rank 1
        same(driver::nonZero(f32({2}, {0, 0})), i64({1, 0}, {}));
    }

    void compress() {
        const NDArray x = f32({3, 2}, {1, 2, 3, 4, 5, 6});
        // test_compress_0, _1, _default_axis, _negative_axis.
        same(driver::compress(x, boolean({3}, {0, 1, 1}), 0), f32({2, 2}, {3, 4, 5, 6}));
        same(driver::compress(x, boolean({2}, {0, 1}), 1), f32({3, 1}, {2, 4, 6}));
        same(driver::compress(x, boolean({5}, {0, 1, 0, 0, 1}), std::nullopt), f32({2}, {2, 5}));
        same(driver::compress(x, boolean({2}, {0, 1}), -1), f32({3, 1}, {2, 4, 6}));
        // A condition shorter than the axis selects among its first entries only.
        same(driver::compress(x, boolean({1}, {1}), 0), f32({1, 2}, {1, 2}));
        same(driver::compress(x, boolean({3}, {0, 0, 0}), 0), f32({0, 2}, {}));
        QVERIFY_THROWS_EXCEPTION(CompileError, driver::compress(x, boolean({2}, {1, 1}), 2));
    }

    void uniqueUnsorted() {
        // ONNX's example 1: sorted = 0 keeps the order of first occurrence.
        auto r = driver::unique(f32({6}, {2, 1, 1, 3, 4, 3}), std::nullopt, false);
        same(r.y, f32({4}, {2, 1, 3, 4}));
        same(r.indices, i64({4}, {0, 1, 3, 4}));
        same(r.inverse, i64({6}, {0, 1, 1, 2, 3, 2}));
        same(r.counts, i64({4}, {1, 2, 2, 1}));
    }

    void uniqueSorted() {
        // Example 2: no axis, the flattened input.
        auto r = driver::unique(f32({2, 2}, {1, 3, 2, 3}), std::nullopt, true);
        same(r.y, f32({3}, {1, 2, 3}));
        same(r.indices, i64({3}, {0, 2, 1}));
        same(r.inverse, i64({4}, {0, 2, 1, 2}));
        same(r.counts, i64({3}, {1, 1, 2}));
        // Example 3: rows (axis 0).
        r = driver::unique(f32({3, 3}, {1, 0, 0, 1, 0, 0, 2, 3, 4}), 0, true);
        same(r.y, f32({2, 3}, {1, 0, 0, 2, 3, 4}));
        same(r.indices, i64({2}, {0, 2}));
        same(r.inverse, i64({3}, {0, 0, 1}));
        same(r.counts, i64({2}, {2, 1}));
    }

    void uniqueAlongAMiddleAxis() {
        // Example 4: slices along axis 1 of a [2, 4, 2] tensor, compared in lexicographic order.
        const NDArray x = f32({2, 4, 2}, {1, 1, 0, 1, 2, 1, 0, 1, 1, 1, 0, 1, 2, 1, 0, 1});
        for (int64_t axis : {1, -2}) {
            auto r = driver::unique(x, axis, true);
            same(r.y, f32({2, 3, 2}, {0, 1, 1, 1, 2, 1, 0, 1, 1, 1, 2, 1}));
            same(r.indices, i64({3}, {1, 0, 2}));
            same(r.inverse, i64({4}, {1, 0, 2, 0}));
            same(r.counts, i64({3}, {2, 1, 1}));
        }
        // Integers beyond float's precision stay apart.
        auto big = driver::unique(i64({3}, {(int64_t(1) << 60) + 1, int64_t(1) << 60, (int64_t(1) << 60) + 1}),
                                  std::nullopt, true);
        QCOMPARE(big.y.numElements(), int64_t(2));
        same(big.counts, i64({2}, {1, 2}));
    }

    void nonMaxSuppressionByIou() {
        // test_nonmaxsuppression_suppress_by_IOU and its center_point_box form.
        const NDArray boxes = f32({1, 6, 4}, {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, -0.1f, 1, 0.9f,
                                              0, 10, 1, 11, 0, 10.1f, 1, 11.1f, 0, 100, 1, 101});
        const NDArray centred = f32({1, 6, 4}, {0.5f, 0.5f, 1, 1, 0.5f, 0.6f, 1, 1, 0.5f, 0.4f, 1, 1,
                                                0.5f, 10.5f, 1, 1, 0.5f, 10.6f, 1, 1, 0.5f, 100.5f, 1, 1});
        const NDArray scores = f32({1, 1, 6}, {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f});
        driver::NmsOptions o;
        o.maxOutputBoxesPerClass = 3;
        o.iouThreshold = 0.5f;
        o.scoreThreshold = 0.0f;
        same(driver::nonMaxSuppression(boxes, scores, o), i64({3, 3}, {0, 0, 3, 0, 0, 0, 0, 0, 5}));
        o.centerPointBox = true;
        same(driver::nonMaxSuppression(centred, scores, o), i64({3, 3}, {0, 0, 3, 0, 0, 0, 0, 0, 5}));
        o.centerPointBox = false;
        // _and_scores: a score threshold of 0.4 drops box 5; _limit_output_size: 2 per class.
        o.scoreThreshold = 0.4f;
        same(driver::nonMaxSuppression(boxes, scores, o), i64({2, 3}, {0, 0, 3, 0, 0, 0}));
        o.scoreThreshold.reset();
        o.maxOutputBoxesPerClass = 2;
        same(driver::nonMaxSuppression(boxes, scores, o), i64({2, 3}, {0, 0, 3, 0, 0, 0}));
        // No limit given: max_output_boxes_per_class 0 selects nothing.
        o.maxOutputBoxesPerClass = 0;
        same(driver::nonMaxSuppression(boxes, scores, o), i64({0, 3}, {}));
    }

    void nonMaxSuppressionBatchesAndClasses() {
        // test_nonmaxsuppression_two_classes: the same boxes, two classes, rows by class.
        const std::vector<float> six{0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, -0.1f, 1, 0.9f,
                                     0, 10, 1, 11, 0, 10.1f, 1, 11.1f, 0, 100, 1, 101};
        const std::vector<float> s{0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f};
        std::vector<float> s2 = s;
        s2.insert(s2.end(), s.begin(), s.end());
        driver::NmsOptions o;
        o.maxOutputBoxesPerClass = 2;
        o.iouThreshold = 0.5f;
        o.scoreThreshold = 0.0f;
        same(driver::nonMaxSuppression(f32({1, 6, 4}, six), f32({1, 2, 6}, s2), o),
             i64({4, 3}, {0, 0, 3, 0, 0, 0, 0, 1, 3, 0, 1, 0}));
        // _two_batches: the same boxes twice, one class.
        std::vector<float> b2 = six;
        b2.insert(b2.end(), six.begin(), six.end());
        same(driver::nonMaxSuppression(f32({2, 6, 4}, b2), f32({2, 1, 6}, s2), o),
             i64({4, 3}, {0, 0, 3, 0, 0, 0, 1, 0, 3, 1, 0, 0}));
        // _identical_boxes: ten equal boxes keep the first; flipped corners are the same box.
        std::vector<float> same10, flat10(10, 0.9f);
        for (int i = 0; i < 10; ++i)
            same10.insert(same10.end(), {0, 0, 1, 1});
        o.maxOutputBoxesPerClass = 3;
        same(driver::nonMaxSuppression(f32({1, 10, 4}, same10), f32({1, 1, 10}, flat10), o), i64({1, 3}, {0, 0, 0}));
        same(driver::nonMaxSuppression(f32({1, 2, 4}, {1, 1, 0, 0, 0, 0, 1, 1}), f32({1, 1, 2}, {0.5f, 0.9f}), o),
             i64({1, 3}, {0, 0, 1}));
        QVERIFY_THROWS_EXCEPTION(CompileError,
                                 driver::nonMaxSuppression(f32({1, 6, 4}, six), f32({1, 1, 5}, {1, 1, 1, 1, 1}), o));
    }

    void registryMarksThem() {
        for (const char* op : {"NonZero", "Compress", "Unique", "NonMaxSuppression"}) {
            const graph::OpInfo* info = graph::findOp(op);
            QVERIFY2(info && info->dataDependent && info->infer, op);
        }
    }
};

QTEST_GUILESS_MAIN(TestHostOps)
#include "tst_hostops.moc"
