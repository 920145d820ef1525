/// \file
/// Operators that read or write elements at indices held in a tensor:
/// GatherElements, GatherND, ScatterElements (and its old name Scatter),
/// ScatterND, OneHot, TopK, ReverseSequence, and the masks Trilu and EyeLike. GatherElements evaluates on constants (index
/// arithmetic in shape subgraphs); the others are computed by kernels.
#include "graph/ops/EvalHelpers.h"
#include "graph/ops/OpHelpers.h"

namespace tessel::graph::ops {

namespace {

void requireIndices(const InferContext& ctx, int i) {
    if (!ctx.input(i).dtype.isInt())
        ctx.fail("indices " + ctx.input(i).str() + " must be int32 or int64");
}

int64_t axisAttr(const InferContext& ctx, int64_t rank, int64_t def) {
    const int64_t a = ctx.attrs().getInt("axis", def);
    auto n = normalizeAxis(a, rank);
    if (!n) ctx.fail("axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
    return *n;
}

void requireReduction(const InferContext& ctx) {
    const std::string r = ctx.attrs().getString("reduction", "none");
    if (r != "none" && r != "add" && r != "mul")
        ctx.fail("reduction '" + r + "' is not supported (none, add or mul)");
}

Types inferGatherElements(const InferContext& ctx) {
    const TensorType& data = ctx.input(0);
    const TensorType& idx = ctx.input(1);
    requireIndices(ctx, 1);
    if (idx.rank() != data.rank())
        ctx.fail("indices " + idx.str() + " must have the rank of data " + data.str());
    axisAttr(ctx, data.rank(), 0);
    return {TensorType(data.dtype, idx.shape)};
}

Types inferScatterElements(const InferContext& ctx) {
    const TensorType& data = ctx.input(0);
    const TensorType& idx = ctx.input(1);
    const TensorType& upd = ctx.input(2);
    requireIndices(ctx, 1);
    requireSameDtype(ctx, 0, 2);
    requireReduction(ctx);
    if (idx.rank() != data.rank() || upd.shape != idx.shape)
        ctx.fail("indices " + idx.str() + " and updates " + upd.str() +
                 " must have one shape, of the rank of data " + data.str());
    axisAttr(ctx, data.rank(), 0);
    return {data};
}

Types inferGatherND(const InferContext& ctx) {
    const TensorType& data = ctx.input(0);
    const TensorType& idx = ctx.input(1);
    requireIndices(ctx, 1);
    const int64_t b = ctx.attrs().getInt("batch_dims", 0);
    if (idx.rank() < 1 || b < 0 || b >= idx.rank() || b >= data.rank())
        ctx.fail("batch_dims " + std::to_string(b) + " does not fit data " + data.str() + " and indices " + idx.str());
    const int64_t k = idx.shape.back();
    if (k < 0) ctx.fail("the last dimension of indices " + idx.str() + " is not static");
    if (b + k > data.rank()) ctx.fail("indices " + idx.str() + " index more axes than data " + data.str() + " has");
    Shape out(idx.shape.begin(), idx.shape.end() - 1);
    out.insert(out.end(), data.shape.begin() + b + k, data.shape.end());
    return {TensorType(data.dtype, out)};
}

Types inferScatterND(const InferContext& ctx) {
    const TensorType& data = ctx.input(0);
    const TensorType& idx = ctx.input(1);
    const TensorType& upd = ctx.input(2);
    requireIndices(ctx, 1);
    requireSameDtype(ctx, 0, 2);
    requireReduction(ctx);
    if (idx.rank() < 1 || idx.shape.back() < 0)
        ctx.fail("indices " + idx.str() + " need a static last dimension");
    const int64_t k = idx.shape.back();
    if (k > data.rank()) ctx.fail("indices " + idx.str() + " index more axes than data " + data.str() + " has");
    Shape want(idx.shape.begin(), idx.shape.end() - 1);
    want.insert(want.end(), data.shape.begin() + k, data.shape.end());
    if (upd.rank() != static_cast<int>(want.size()))
        ctx.fail("updates " + upd.str() + " must have shape " + shapeStr(want));
    return {data};
}

Types inferOneHot(const InferContext& ctx) {
    const TensorType& idx = ctx.input(0);
    if (ctx.input(1).numElements() != 1) ctx.fail("depth " + ctx.input(1).str() + " must be a scalar");
    if (ctx.input(2).rank() != 1 || ctx.input(2).shape[0] != 2)
        ctx.fail("values " + ctx.input(2).str() + " must be [off, on]");
    const int64_t axis = axisAttr(ctx, idx.rank() + 1, -1);
    int64_t depth = -1;
    if (auto c = ctx.constantInput(1)) {
        const double d = c->dtype.isFloat() ? c->toDoubles()[0] : double(c->toInts()[0]);
        depth = static_cast<int64_t>(d);
        if (depth < 1) ctx.fail("depth " + std::to_string(d) + " must be at least 1");
    }
    Shape out = idx.shape;
    out.insert(out.begin() + axis, depth);
    return {TensorType(ctx.input(2).dtype, out)};
}

Types inferTopK(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    const int64_t axis = axisAttr(ctx, x.rank(), -1);
    if (ctx.input(1).numElements() != 1) ctx.fail("K " + ctx.input(1).str() + " must hold one value");
    Shape out = x.shape;
    out[static_cast<size_t>(axis)] = -1;
    if (auto k = constInts(ctx, 1, "K")) {
        const int64_t dim = x.shape[static_cast<size_t>(axis)];
        if ((*k)[0] < 0 || (dim >= 0 && (*k)[0] > dim))
            ctx.fail("K = " + std::to_string((*k)[0]) + " is out of range for " + x.str());
        out[static_cast<size_t>(axis)] = (*k)[0];
    }
    return {TensorType(x.dtype, out), TensorType(DataType::int64(), out)};
}

Types inferTrilu(const InferContext& ctx) {
    requireMinRank(ctx, 0, 2, "input");
    if (ctx.hasInput(1) && ctx.input(1).numElements() != 1) ctx.fail("k " + ctx.input(1).str() + " must be a scalar");
    return {ctx.input(0)};
}

Types inferEyeLike(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    if (x.rank() != 2) ctx.fail("input " + x.str() + " must be 2-D");
    DataType t = x.dtype;
    if (ctx.attrs().has("dtype")) {
        auto d = dataTypeFromOnnx(ctx.attrs().getInt("dtype", 1));
        if (!d) ctx.fail("unsupported dtype code " + std::to_string(ctx.attrs().getInt("dtype", 1)));
        t = *d;
    }
    return {TensorType(t, x.shape)};
}

Types inferReverseSequence(const InferContext& ctx) {
    const TensorType& x = ctx.input(0);
    requireMinRank(ctx, 0, 2, "input");
    requireIndices(ctx, 1);
    const int64_t b = ctx.attrs().getInt("batch_axis", 1), t = ctx.attrs().getInt("time_axis", 0);
    if (!((b == 0 && t == 1) || (b == 1 && t == 0)))
        ctx.fail("batch_axis and time_axis must be 0 and 1 (in either order)");
    if (ctx.input(1).rank() != 1) ctx.fail("sequence_lens " + ctx.input(1).str() + " must be 1-D");
    return {x};
}

EvalResult evalGatherElements(const EvalContext& e) {
    const Constant& data = e.input(0);
    const Shape& is = e.input(1).shape;
    const int64_t axis = *normalizeAxis(e.attrs().getInt("axis", 0), static_cast<int64_t>(data.shape.size()));
    const int64_t dim = data.shape[static_cast<size_t>(axis)];
    const Shape ds = stridesOf(data.shape), os = stridesOf(is);
    const std::vector<int64_t> idx = e.input(1).toInts();
    std::vector<int64_t> index(idx.size());
    for (size_t k = 0; k < idx.size(); ++k) {
        int64_t at = 0, rest = static_cast<int64_t>(k);
        for (size_t d = 0; d < is.size(); ++d) {
            int64_t c = rest / os[d];
            rest %= os[d];
            if (static_cast<int64_t>(d) == axis) {
                c = idx[k];
                if (c < -dim || c >= dim)
                    e.fail("index " + std::to_string(c) + " is out of range for axis of size " + std::to_string(dim));
                if (c < 0) c += dim;
            }
            at += c * ds[d];
        }
        index[k] = at;
    }
    return one(gatherBytes(data, e.output().dtype, e.output().shape, index));
}

/// An index (negative: from the end) checked against an axis of `dim`.
int64_t checkedIndex(const EvalContext& e, int64_t i, int64_t dim) {
    if (i < -dim || i >= dim)
        e.fail("index " + std::to_string(i) + " is out of range for an axis of size " + std::to_string(dim));
    return i < 0 ? i + dim : i;
}

EvalResult evalGatherND(const EvalContext& e) {
    const Constant& data = e.input(0);
    const Shape& is = e.input(1).shape;
    const auto b = static_cast<size_t>(e.attrs().getInt("batch_dims", 0));
    const auto k = static_cast<size_t>(is.back());
    const std::vector<int64_t> idx = e.input(1).toInts();
    const Shape ds = stridesOf(data.shape);
    // Elements per gathered slice, and index rows per batch entry.
    const int64_t slice = product(Shape(data.shape.begin() + long(b + k), data.shape.end()));
    const int64_t rowsPerBatch = product(Shape(is.begin() + long(b), is.end() - 1));
    const int64_t rows = product(Shape(is.begin(), is.end() - 1));
    const Shape batchStrides = stridesOf(Shape(data.shape.begin(), data.shape.begin() + long(b)));
    std::vector<int64_t> index;
    for (int64_t r = 0; r < rows; ++r) {
        int64_t base = 0, batch = r / rowsPerBatch;
        for (size_t d = 0; d < b; ++d) {
            base += (batch / batchStrides[d]) * ds[d];
            batch %= batchStrides[d];
        }
        for (size_t j = 0; j < k; ++j)
            base += checkedIndex(e, idx[size_t(r) * k + j], data.shape[b + j]) * ds[b + j];
        for (int64_t q = 0; q < slice; ++q) index.push_back(base + q);
    }
    return one(gatherBytes(data, e.output().dtype, e.output().shape, index));
}

/// ScatterElements and ScatterND on constants: the flat positions the
/// updates land on, then a copy (none) or a typed add or multiply.
EvalResult scatterAt(const EvalContext& e, const std::vector<int64_t>& target) {
    const Constant& data = e.input(0);
    const Constant& upd = e.input(2);
    const std::string red = e.attrs().getString("reduction", "none");
    // Each target starts a contiguous slice of `per` elements (1 for ScatterElements).
    const size_t per = target.empty() ? 0 : size_t(upd.numElements()) / target.size();
    if (red == "none") {
        std::vector<uint8_t> bytes = data.bytes;
        const size_t size = static_cast<size_t>(data.dtype.bytes());
        for (size_t k = 0; k < target.size(); ++k)
            std::memcpy(bytes.data() + size_t(target[k]) * size, upd.bytes.data() + k * per * size, per * size);
        return one(Constant::make(data.dtype, data.shape, std::move(bytes)));
    }
    EvalResult result;
    dispatch(data.dtype, false, [&](auto tag) {
        using T = decltype(tag);
        std::vector<T> v = load<T>(data);
        const std::vector<T> u = load<T>(upd);
        for (size_t k = 0; k < target.size(); ++k)
            for (size_t q = 0; q < per; ++q) {
                T& a = v[size_t(target[k]) + q];
                a = red == "add" ? wrapAdd(a, u[k * per + q]) : wrapMul(a, u[k * per + q]);
            }
        result = one(store(data.dtype, data.shape, v));
    });
    return result;
}

EvalResult evalScatterElements(const EvalContext& e) {
    const Constant& data = e.input(0);
    const Shape& is = e.input(1).shape;
    const auto axis = static_cast<size_t>(*normalizeAxis(e.attrs().getInt("axis", 0), int64_t(data.shape.size())));
    const Shape ds = stridesOf(data.shape), os = stridesOf(is);
    const std::vector<int64_t> idx = e.input(1).toInts();
    std::vector<int64_t> target(idx.size());
    for (size_t k = 0; k < idx.size(); ++k) {
        int64_t at = 0, rest = int64_t(k);
        for (size_t d = 0; d < is.size(); ++d) {
            int64_t c = rest / os[d];
            rest %= os[d];
            if (d == axis) c = checkedIndex(e, idx[k], data.shape[d]);
            at += c * ds[d];
        }
        target[k] = at;
    }
    return scatterAt(e, target);
}

EvalResult evalScatterND(const EvalContext& e) {
    const Constant& data = e.input(0);
    const Shape& is = e.input(1).shape;
    const auto k = static_cast<size_t>(is.back());
    const std::vector<int64_t> idx = e.input(1).toInts();
    const Shape ds = stridesOf(data.shape);
    const int64_t rows = product(Shape(is.begin(), is.end() - 1));
    std::vector<int64_t> target;
    for (int64_t r = 0; r < rows; ++r) {
        int64_t at = 0;
        for (size_t j = 0; j < k; ++j) at += checkedIndex(e, idx[size_t(r) * k + j], data.shape[j]) * ds[j];
        target.push_back(at);
    }
    return scatterAt(e, target);
}

EvalResult evalTrilu(const EvalContext& e) {
    const Constant& x = e.input(0);
    if (x.numElements() == 0) return std::nullopt; // an empty tensor stays the kernels' (which refuse it)
    const int64_t k = e.hasInput(1) ? e.input(1).toInts().at(0) : 0;
    const bool upper = e.attrs().getInt("upper", 1) != 0;
    const int64_t rows = x.shape[x.shape.size() - 2], cols = x.shape.back();
    std::vector<uint8_t> bytes = x.bytes;
    const size_t size = static_cast<size_t>(x.dtype.bytes());
    for (int64_t m = 0; m < product(x.shape) / (rows * cols); ++m)
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < cols; ++c)
                if (upper ? c - r < k : c - r > k)
                    std::memset(bytes.data() + size_t((m * rows + r) * cols + c) * size, 0, size);
    return one(Constant::make(x.dtype, x.shape, std::move(bytes)));
}

} // namespace

void registerIndexOps(OpRegistry& r) {
    using P = OpPattern;
    const AttrSchema reduction = attrString("reduction", "none", "how updates combine: none, add or mul");
    r.add(withEval(op("GatherElements", "data at indices along axis, elsewhere at the output's own index",
                      P::Injective, 2, 2, inferGatherElements, {attrInt("axis", 0, "the indexed axis")}),
                   evalGatherElements));
    r.add(withEval(op("GatherND", "slices of data addressed by the last axis of indices", P::Injective, 2, 2,
                      inferGatherND, {attrInt("batch_dims", 0, "leading axes shared by data and indices")}),
                   evalGatherND));
    r.add(withEval(op("ScatterElements", "data with updates written (or combined) at indices along axis", P::Opaque,
                      3, 3, inferScatterElements, {attrInt("axis", 0, "the indexed axis"), reduction}),
                   evalScatterElements));
    // Scatter (opsets 9-10) is ScatterElements under its old name.
    r.add(withEval(op("Scatter", "ScatterElements under its name before opset 11", P::Opaque, 3, 3,
                      inferScatterElements, {attrInt("axis", 0, "the indexed axis")}),
                   evalScatterElements));
    r.add(op("ReverseSequence", "the first sequence_lens[b] steps of each batch entry reversed", P::Injective, 2, 2,
             inferReverseSequence,
             {attrInt("batch_axis", 1, "the batch axis (0 or 1)"), attrInt("time_axis", 0, "the time axis (1 or 0)")}));
    r.add(withEval(op("ScatterND", "data with slices of updates written (or combined) where indices point",
                      P::Opaque, 3, 3, inferScatterND, {reduction}),
                   evalScatterND));
    r.add(op("OneHot", "values[1] where the index meets the new axis, values[0] elsewhere", P::Injective, 3, 3,
             inferOneHot, {attrInt("axis", -1, "where the depth axis goes")}));
    r.add(op("TopK", "the K largest (or smallest) elements along axis and their indices", P::Opaque, 2, 2,
             inferTopK,
             {attrInt("axis", -1, "the axis to search"), attrInt("largest", 1, "1: largest, 0: smallest"),
              attrInt("sorted", 1, "results in order (Tessel always sorts)")},
             2, 2));
    r.add(withEval(op("Trilu", "the upper (or lower) triangle of the last two axes from diagonal k; zeros elsewhere",
                      P::Injective, 1, 2, inferTrilu, {attrInt("upper", 1, "1: keep the upper triangle, 0: the lower")}),
                   evalTrilu));
    r.add(op("EyeLike", "ones on diagonal k of a 2-D tensor of the input's shape, zeros elsewhere", P::Injective,
             1, 1, inferEyeLike,
             {attrInt("dtype", std::nullopt, "output element type (default: the input's)"),
              attrInt("k", 0, "the diagonal: 0 main, > 0 above, < 0 below")}));
}

} // namespace tessel::graph::ops
