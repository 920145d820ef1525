#include "driver/HostOps.h"

#include "graph/OpRegistry.h"
#include "ir/AxisMath.h"
#include "ir/Diagnostic.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace tessel::driver {

using runtime::NDArray;

namespace {

/// Element `i` of `a`, exactly (long double holds every int64 and double).
long double elem(const NDArray& a, int64_t i) {
    const DataType t = a.dtype();
    const void* p = a.rawData();
    if (t.isFloat()) return t.bits() == 64 ? static_cast<const double*>(p)[i] : static_cast<const float*>(p)[i];
    if (t.isBool()) return static_cast<const uint8_t*>(p)[i] != 0;
    switch (t.bits()) {
    case 8:
        return t.isInt() ? static_cast<const int8_t*>(p)[i] : static_cast<const uint8_t*>(p)[i];
    case 16:
        return t.isInt() ? static_cast<const int16_t*>(p)[i] : static_cast<const uint16_t*>(p)[i];
    case 32:
        return t.isInt() ? static_cast<const int32_t*>(p)[i] : static_cast<const uint32_t*>(p)[i];
    default:
        return t.isInt() ? static_cast<const int64_t*>(p)[i] : static_cast<const uint64_t*>(p)[i];
    }
}

int64_t product(const std::vector<int64_t>& s, size_t from, size_t to) {
    int64_t p = 1;
    for (size_t i = from; i < to; ++i)
        p *= s[i];
    return p;
}

int64_t axisOf(int64_t axis, int64_t rank, const char* op) {
    auto a = normalizeAxis(axis, rank);
    if (!a)
        throw CompileError(std::string(op) + ": axis " + std::to_string(axis) + " is out of range for rank " +
                           std::to_string(rank));
    return *a;
}

NDArray int64Array(std::vector<int64_t> shape, const std::vector<int64_t>& values) {
    NDArray out(std::move(shape), DataType::int64());
    if (!values.empty()) std::memcpy(out.rawData(), values.data(), values.size() * sizeof(int64_t));
    return out;
}

/// `x` viewed as [outer, len, inner]: the slices `picks` along the middle axis, in order.
NDArray gatherSlices(const NDArray& x, int64_t axis, const std::vector<int64_t>& picks) {
    std::vector<int64_t> shape = x.shape();
    const size_t ax = size_t(axis);
    const int64_t len = shape[ax], outer = product(shape, 0, ax);
    const size_t inner = size_t(product(shape, ax + 1, shape.size())) * size_t(x.dtype().bytes());
    shape[ax] = int64_t(picks.size());
    NDArray out(shape, x.dtype());
    const char* src = static_cast<const char*>(x.rawData());
    char* dst = static_cast<char*>(out.rawData());
    for (int64_t o = 0; o < outer; ++o)
        for (size_t k = 0; k < picks.size(); ++k)
            std::memcpy(dst + (size_t(o) * picks.size() + k) * inner, src + size_t(o * len + picks[k]) * inner,
                        inner);
    return out;
}

float scalarFloat(const NDArray& a, const char* what) {
    if (a.numElements() != 1) throw CompileError(std::string("NonMaxSuppression: ") + what + " must hold one value");
    return float(elem(a, 0));
}

} // namespace

bool isDataDependentNode(const graph::Node& n) {
    if (n.kind != graph::NodeKind::Op || n.opaque()) return false;
    const graph::OpInfo* info = graph::findOp(n.op);
    return info && info->dataDependent;
}

NDArray nonZero(const NDArray& x) {
    const std::vector<int64_t> shape = x.shape().empty() ? std::vector<int64_t>{1} : x.shape();
    const size_t rank = shape.size();
    std::vector<int64_t> flat;
    for (int64_t i = 0; i < x.numElements(); ++i)
        if (elem(x, i) != 0) flat.push_back(i);
    const size_t n = flat.size();
    std::vector<int64_t> rows(rank * n);
    for (size_t k = 0; k < n; ++k) {
        int64_t rest = flat[k];
        for (size_t d = rank; d-- > 0;) {
            rows[d * n + k] = rest % shape[d];
            rest /= shape[d];
        }
    }
    return int64Array({int64_t(rank), int64_t(n)}, rows);
}

NDArray compress(const NDArray& x, const NDArray& condition, std::optional<int64_t> axis) {
    if (condition.ndim() != 1) throw CompileError("Compress: the condition " + condition.str() + " must be 1-D");
    NDArray in = axis ? x : x.reshaped({x.numElements()});
    const int64_t ax = axis ? axisOf(*axis, in.ndim(), "Compress") : 0;
    const int64_t len = in.shape()[size_t(ax)];
    std::vector<int64_t> picks;
    for (int64_t i = 0; i < std::min(len, condition.numElements()); ++i)
        if (elem(condition, i) != 0) picks.push_back(i);
    return gatherSlices(in, ax, picks);
}

UniqueResult unique(const NDArray& x, std::optional<int64_t> axis, bool sorted) {
    NDArray in = axis ? x : x.reshaped({x.numElements()});
    const int64_t ax = axis ? axisOf(*axis, in.ndim(), "Unique") : 0;
    const auto& s = in.shape();
    const int64_t len = s[size_t(ax)], outer = product(s, 0, size_t(ax)),
                  inner = product(s, size_t(ax) + 1, s.size());
    // Slice i's elements in row-major order of the other axes: (o, i, j) for o, j.
    auto less = [&](int64_t a, int64_t b) {
        for (int64_t o = 0; o < outer; ++o)
            for (int64_t j = 0; j < inner; ++j) {
                const long double u = elem(in, (o * len + a) * inner + j), v = elem(in, (o * len + b) * inner + j);
                if (u != v) return u < v;
            }
        return false;
    };
    std::vector<int64_t> order(static_cast<size_t>(len));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), less); // equal slices keep their order: the first leads
    struct Group {
        int64_t first = 0, count = 0;
        std::vector<int64_t> members;
    };
    std::vector<Group> groups;
    for (size_t k = 0; k < order.size(); ++k) {
        if (k == 0 || less(order[k - 1], order[k])) groups.push_back({order[k], 0, {}});
        groups.back().count++;
        groups.back().members.push_back(order[k]);
    }
    if (!sorted)
        std::sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) { return a.first < b.first; });
    std::vector<int64_t> firsts, counts, inverse(static_cast<size_t>(len));
    for (size_t g = 0; g < groups.size(); ++g) {
        firsts.push_back(groups[g].first);
        counts.push_back(groups[g].count);
        for (int64_t m : groups[g].members)
            inverse[size_t(m)] = int64_t(g);
    }
    UniqueResult r;
    r.y = gatherSlices(in, ax, firsts);
    r.indices = int64Array({int64_t(firsts.size())}, firsts);
    r.inverse = int64Array({len}, inverse);
    r.counts = int64Array({int64_t(counts.size())}, counts);
    return r;
}

namespace {

struct Box {
    float xMin, yMin, xMax, yMax;
};

Box boxAt(const NDArray& boxes, int64_t at, bool center) {
    float v[4];
    for (int k = 0; k < 4; ++k)
        v[k] = float(elem(boxes, at * 4 + k));
    if (center) {
        const float w = v[2] / 2, h = v[3] / 2;
        return {v[0] - w, v[1] - h, v[0] + w, v[1] + h};
    }
    // [y1, x1, y2, x2]: any pair of opposite corners.
    return {std::min(v[1], v[3]), std::min(v[0], v[2]), std::max(v[1], v[3]), std::max(v[0], v[2])};
}

/// ONNX Runtime's test: true when the IoU of `a` and `b` is above `threshold`.
bool suppresses(const Box& a, const Box& b, float threshold) {
    const float ixMin = std::max(a.xMin, b.xMin), ixMax = std::min(a.xMax, b.xMax);
    if (ixMax <= ixMin) return false;
    const float iyMin = std::max(a.yMin, b.yMin), iyMax = std::min(a.yMax, b.yMax);
    if (iyMax <= iyMin) return false;
    const float inter = (ixMax - ixMin) * (iyMax - iyMin);
    if (inter <= 0.0f) return false;
    const float areaA = (a.xMax - a.xMin) * (a.yMax - a.yMin), areaB = (b.xMax - b.xMin) * (b.yMax - b.yMin);
    const float uni = areaA + areaB - inter;
    if (areaA <= 0.0f || areaB <= 0.0f || uni <= 0.0f) return false;
    return inter / uni > threshold;
}

} // namespace

NDArray nonMaxSuppression(const NDArray& boxes, const NDArray& scores, const NmsOptions& o) {
    if (boxes.ndim() != 3 || boxes.shape()[2] != 4)
        throw CompileError("NonMaxSuppression: boxes " + boxes.str() + " must be [batches, boxes, 4]");
    if (scores.ndim() != 3 || scores.shape()[0] != boxes.shape()[0] || scores.shape()[2] != boxes.shape()[1])
        throw CompileError("NonMaxSuppression: scores " + scores.str() + " must be [batches, classes, boxes] for boxes " +
                           boxes.str());
    if (o.iouThreshold < 0 || o.iouThreshold > 1)
        throw CompileError("NonMaxSuppression: iou_threshold " + std::to_string(o.iouThreshold) +
                           " must be between 0 and 1");
    const int64_t batches = boxes.shape()[0], count = boxes.shape()[1], classes = scores.shape()[1];
    std::vector<int64_t> rows;
    std::vector<Box> all(static_cast<size_t>(count));
    for (int64_t b = 0; b < batches && o.maxOutputBoxesPerClass > 0; ++b) {
        for (int64_t i = 0; i < count; ++i)
            all[size_t(i)] = boxAt(boxes, b * count + i, o.centerPointBox);
        for (int64_t c = 0; c < classes; ++c) {
            const int64_t base = (b * classes + c) * count;
            std::vector<std::pair<float, int64_t>> candidates;
            for (int64_t i = 0; i < count; ++i) {
                const float score = float(elem(scores, base + i));
                if (!o.scoreThreshold || score > *o.scoreThreshold) candidates.emplace_back(score, i);
            }
            // Descending score; the lower index first on a tie.
            std::stable_sort(candidates.begin(), candidates.end(),
                             [](const auto& p, const auto& q) { return p.first > q.first; });
            std::vector<int64_t> kept;
            for (const auto& [score, i] : candidates) {
                if (int64_t(kept.size()) >= o.maxOutputBoxesPerClass) break;
                const bool gone = std::any_of(kept.begin(), kept.end(), [&](int64_t k) {
                    return suppresses(all[size_t(k)], all[size_t(i)], o.iouThreshold);
                });
                if (gone) continue;
                kept.push_back(i);
                rows.insert(rows.end(), {b, c, i});
            }
        }
    }
    return int64Array({int64_t(rows.size() / 3), 3}, rows);
}

std::vector<NDArray> runHostOp(const graph::Node& n, const std::vector<NDArray>& inputs) {
    auto input = [&](size_t i) -> const NDArray& {
        if (i >= inputs.size() || !inputs[i].defined())
            throw CompileError(n.describe() + ": input " + std::to_string(i) + " is absent");
        return inputs[i];
    };
    auto present = [&](size_t i) { return i < inputs.size() && inputs[i].defined(); };
    std::optional<int64_t> axis;
    if (n.attrs.has("axis")) axis = n.attrs.getInt("axis", 0);
    try {
        if (n.op == "NonZero") return {nonZero(input(0))};
        if (n.op == "Compress") return {compress(input(0), input(1), axis)};
        if (n.op == "Unique") {
            UniqueResult r = unique(input(0), axis, n.attrs.getInt("sorted", 1) != 0);
            std::vector<NDArray> out{r.y, r.indices, r.inverse, r.counts};
            out.resize(size_t(n.numOutputs()));
            return out;
        }
        if (n.op == "NonMaxSuppression") {
            NmsOptions o;
            o.centerPointBox = n.attrs.getInt("center_point_box", 0) != 0;
            if (present(2)) {
                if (input(2).numElements() != 1)
                    throw CompileError("NonMaxSuppression: max_output_boxes_per_class must hold one value");
                o.maxOutputBoxesPerClass = int64_t(elem(input(2), 0));
            }
            if (present(3)) o.iouThreshold = scalarFloat(input(3), "iou_threshold");
            if (present(4)) o.scoreThreshold = scalarFloat(input(4), "score_threshold");
            return {nonMaxSuppression(input(0), input(1), o)};
        }
    } catch (const CompileError& e) {
        throw CompileError(n.describe() + ": " + e.what());
    }
    throw CompileError(n.describe() + ": no host kernel for operator '" + n.op + "'");
}

} // namespace tessel::driver
