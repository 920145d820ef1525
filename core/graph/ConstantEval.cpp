#include "graph/ConstantEval.h"

#include "graph/OpRegistry.h"
#include "ir/Check.h"
#include "ir/Diagnostic.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string_view>
#include <type_traits>

namespace tessel::graph {

namespace {

using Shape = std::vector<int64_t>;
using Outputs = std::optional<std::vector<Ref<Constant>>>;

int64_t product(const Shape& s) {
    int64_t n = 1;
    for (int64_t d : s)
        n *= d;
    return n;
}

/// Row-major strides of a shape.
Shape stridesOf(const Shape& s) {
    Shape st(s.size(), 1);
    for (size_t d = s.size(); d-- > 1;)
        st[d - 1] = st[d] * s[d];
    return st;
}

/// For every element of `out` (row-major), the index of the element of `in`
/// that numpy broadcasting reads (`in` aligned right, size-1 dims repeated).
std::vector<int64_t> broadcastIndex(const Shape& in, const Shape& out) {
    const size_t r = out.size();
    Shape padded(r - in.size(), 1);
    padded.insert(padded.end(), in.begin(), in.end());
    Shape step = stridesOf(padded);
    for (size_t d = 0; d < r; ++d)
        if (padded[d] == 1) step[d] = 0;
    std::vector<int64_t> index(static_cast<size_t>(product(out)));
    Shape pos(r, 0);
    int64_t offset = 0;
    for (auto& ix : index) {
        ix = offset;
        for (size_t d = r; d-- > 0;) {
            offset += step[d];
            if (++pos[d] < out[d]) break;
            offset -= step[d] * out[d];
            pos[d] = 0;
        }
    }
    return index;
}

/// For every element of the output (shape `out`, row-major), the flat index
/// of the input element at sum over d of (base[d] + pos[d] * step[d]) * stride[d].
std::vector<int64_t> stridedIndex(const Shape& out, const Shape& base, const Shape& step,
                                  const Shape& stride) {
    const size_t r = out.size();
    std::vector<int64_t> index(static_cast<size_t>(product(out)));
    Shape pos(r, 0);
    int64_t offset = 0;
    for (size_t d = 0; d < r; ++d)
        offset += base[d] * stride[d];
    for (auto& ix : index) {
        ix = offset;
        for (size_t d = r; d-- > 0;) {
            offset += step[d] * stride[d];
            if (++pos[d] < out[d]) break;
            offset -= step[d] * stride[d] * out[d];
            pos[d] = 0;
        }
    }
    return index;
}

/// A constant of type `dtype` and shape `shape` whose element k is element
/// index[k] of `src` (the same element type): data movement, byte by byte.
Ref<Constant> gatherBytes(const Constant& src, DataType dtype, Shape shape,
                          const std::vector<int64_t>& index) {
    const size_t size = static_cast<size_t>(dtype.bytes());
    std::vector<uint8_t> bytes(index.size() * size);
    for (size_t k = 0; k < index.size(); ++k)
        std::memcpy(bytes.data() + k * size,
                    src.bytes.data() + static_cast<size_t>(index[k]) * size, size);
    return Constant::make(dtype, std::move(shape), std::move(bytes));
}

// --- typed access ---------------------------------------------------------------

/// Bools are stored one byte each, 0 or 1; they compute as uint8_t.
template <class T> std::vector<T> load(const Constant& c) {
    std::vector<T> v(static_cast<size_t>(c.numElements()));
    std::memcpy(v.data(), c.bytes.data(), v.size() * sizeof(T));
    return v;
}

template <class T> Ref<Constant> store(DataType dtype, Shape shape, const std::vector<T>& v) {
    std::vector<uint8_t> bytes(v.size() * sizeof(T));
    std::memcpy(bytes.data(), v.data(), bytes.size());
    return Constant::make(dtype, std::move(shape), std::move(bytes));
}

/// Calls f(T{}) with the C++ type that computes elements of `t` (uint8_t for
/// bool when `withBool`); false, without calling, for float16 and other types.
template <class F> bool dispatch(DataType t, bool withBool, F&& f) {
    if (t.isBool()) {
        if (!withBool) return false;
        f(uint8_t{});
        return true;
    }
    if (t.isFloat()) {
        if (t.bits() == 32)
            f(float{});
        else if (t.bits() == 64)
            f(double{});
        else
            return false;
        return true;
    }
    const bool s = t.isInt();
    if (!t.isIntOrUInt()) return false;
    switch (t.bits()) {
    case 8:
        s ? f(int8_t{}) : f(uint8_t{});
        return true;
    case 16:
        s ? f(int16_t{}) : f(uint16_t{});
        return true;
    case 32:
        s ? f(int32_t{}) : f(uint32_t{});
        return true;
    case 64:
        s ? f(int64_t{}) : f(uint64_t{});
        return true;
    }
    return false;
}

// Integer arithmetic wraps around (two's complement), as the kernels' does;
// computing in uint64_t avoids C++'s undefined signed overflow.
template <class T> T wrapAdd(T a, T b) {
    if constexpr (std::is_integral_v<T>)
        return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
    else
        return a + b;
}
template <class T> T wrapSub(T a, T b) {
    if constexpr (std::is_integral_v<T>)
        return static_cast<T>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
    else
        return a - b;
}
template <class T> T wrapMul(T a, T b) {
    if constexpr (std::is_integral_v<T>)
        return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
    else
        return a * b;
}
template <class T> T wrapNeg(T a) {
    return wrapSub(T(0), a);
}
template <class T> bool isNan(T v) {
    if constexpr (std::is_floating_point_v<T>)
        return std::isnan(v);
    else
        return false;
}

/// What one evaluation sees.
struct Eval {
    const Node& node;
    const std::vector<Ref<Constant>>& in;
    const std::vector<TensorType>& types;

    [[noreturn]] void fail(const std::string& m) const {
        throw CompileError(node.describe() + ": " + m);
    }
    const Constant& input(size_t i) const { return *in[i]; }
    bool has(size_t i) const { return i < in.size() && in[i]; }
    const TensorType& out(size_t i = 0) const { return types[i]; }
    /// The output with input 0's bytes and output 0's shape (Reshape, Squeeze ...).
    Outputs sameBytes() const {
        return std::vector<Ref<Constant>>{Constant::make(out().dtype, out().shape, input(0).bytes)};
    }
    Outputs one(Ref<Constant> c) const { return std::vector<Ref<Constant>>{std::move(c)}; }
};

// --- data movement --------------------------------------------------------------

Outputs evalGather(const Eval& e) {
    const Constant& data = e.input(0);
    const int64_t axis =
        *normalizeAxis(e.node.attrs.getInt("axis", 0), static_cast<int64_t>(data.shape.size()));
    const int64_t dim = data.shape[static_cast<size_t>(axis)];
    const int64_t outer = product(Shape(data.shape.begin(), data.shape.begin() + axis));
    const int64_t inner = product(Shape(data.shape.begin() + axis + 1, data.shape.end()));
    std::vector<int64_t> indices = e.input(1).toInts();
    for (auto& i : indices) {
        if (i < -dim || i >= dim)
            e.fail("index " + std::to_string(i) + " is out of range for axis " +
                   std::to_string(axis) + " of size " + std::to_string(dim));
        if (i < 0) i += dim;
    }
    std::vector<int64_t> index;
    index.reserve(static_cast<size_t>(outer * inner) * indices.size());
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i : indices)
            for (int64_t k = 0; k < inner; ++k)
                index.push_back((o * dim + i) * inner + k);
    return e.one(gatherBytes(data, e.out().dtype, e.out().shape, index));
}

Outputs evalConcat(const Eval& e) {
    const Shape& shape = e.out().shape;
    const int64_t axis =
        *normalizeAxis(e.node.attrs.getInt("axis", 0), static_cast<int64_t>(shape.size()));
    const int64_t outer = product(Shape(shape.begin(), shape.begin() + axis));
    const int64_t inner = product(Shape(shape.begin() + axis + 1, shape.end()));
    const size_t size = static_cast<size_t>(e.out().dtype.bytes());
    std::vector<uint8_t> bytes;
    bytes.reserve(static_cast<size_t>(e.out().numElements()) * size);
    for (int64_t o = 0; o < outer; ++o)
        for (const auto& c : e.in) {
            const size_t chunk =
                static_cast<size_t>(c->shape[static_cast<size_t>(axis)] * inner) * size;
            const uint8_t* p = c->bytes.data() + static_cast<size_t>(o) * chunk;
            bytes.insert(bytes.end(), p, p + chunk);
        }
    return e.one(Constant::make(e.out().dtype, shape, std::move(bytes)));
}

Outputs evalTranspose(const Eval& e) {
    const Shape& inShape = e.input(0).shape;
    Shape perm(inShape.size());
    for (size_t i = 0; i < perm.size(); ++i)
        perm[i] = static_cast<int64_t>(perm.size() - 1 - i);
    perm = e.node.attrs.getInts("perm", perm);
    const Shape inStride = stridesOf(inShape);
    Shape stride(perm.size());
    for (size_t d = 0; d < perm.size(); ++d)
        stride[d] = inStride[static_cast<size_t>(perm[d])];
    const Shape& out = e.out().shape;
    return e.one(
        gatherBytes(e.input(0), e.out().dtype, out,
                    stridedIndex(out, Shape(out.size(), 0), Shape(out.size(), 1), stride)));
}

Outputs evalSlice(const Eval& e) {
    const Shape& inShape = e.input(0).shape;
    const int64_t r = static_cast<int64_t>(inShape.size());
    auto param = [&](size_t i, const char* attr) -> std::optional<Shape> {
        if (e.in.size() == 1) {
            if (!e.node.attrs.has(attr) || i > 3) return std::nullopt;
            return e.node.attrs.getInts(attr, {});
        }
        if (!e.has(i)) return std::nullopt;
        return e.input(i).toInts();
    };
    const Shape starts = *param(1, "starts"), ends = *param(2, "ends");
    Shape axes(starts.size());
    std::iota(axes.begin(), axes.end(), 0);
    if (auto a = param(3, "axes")) axes = *a;
    const Shape steps = param(4, "steps").value_or(Shape(starts.size(), 1));
    Shape base(inShape.size(), 0), step(inShape.size(), 1);
    for (size_t i = 0; i < axes.size(); ++i) {
        const size_t a = static_cast<size_t>(*normalizeAxis(axes[i], r));
        const SliceRange range = sliceRange(inShape[a], starts[i], ends[i], steps[i]);
        base[a] = range.start;
        step[a] = range.step;
    }
    const Shape& out = e.out().shape;
    return e.one(gatherBytes(e.input(0), e.out().dtype, out,
                             stridedIndex(out, base, step, stridesOf(inShape))));
}

Outputs evalExpand(const Eval& e) {
    return e.one(gatherBytes(e.input(0), e.out().dtype, e.out().shape,
                             broadcastIndex(e.input(0).shape, e.out().shape)));
}

Outputs evalTile(const Eval& e) {
    const Shape& inShape = e.input(0).shape;
    const Shape& out = e.out().shape;
    const Shape inStride = stridesOf(inShape);
    std::vector<int64_t> index(static_cast<size_t>(product(out)));
    Shape pos(out.size(), 0);
    for (auto& ix : index) {
        ix = 0;
        for (size_t d = 0; d < out.size(); ++d)
            ix += (pos[d] % inShape[d]) * inStride[d];
        for (size_t d = out.size(); d-- > 0;) {
            if (++pos[d] < out[d]) break;
            pos[d] = 0;
        }
    }
    return e.one(gatherBytes(e.input(0), e.out().dtype, out, index));
}

Outputs evalWhere(const Eval& e) {
    const Shape& out = e.out().shape;
    const auto cond = load<uint8_t>(e.input(0));
    const auto ic = broadcastIndex(e.input(0).shape, out);
    const auto ix = broadcastIndex(e.input(1).shape, out);
    const auto iy = broadcastIndex(e.input(2).shape, out);
    const size_t size = static_cast<size_t>(e.out().dtype.bytes());
    std::vector<uint8_t> bytes(ic.size() * size);
    for (size_t k = 0; k < ic.size(); ++k) {
        const bool c = cond[static_cast<size_t>(ic[k])] != 0;
        const Constant& src = c ? e.input(1) : e.input(2);
        std::memcpy(bytes.data() + k * size,
                    src.bytes.data() + static_cast<size_t>(c ? ix[k] : iy[k]) * size, size);
    }
    return e.one(Constant::make(e.out().dtype, out, std::move(bytes)));
}

Outputs evalConstantOfShape(const Eval& e) {
    Ref<Constant> value = e.node.attrs.getTensor("value");
    if (!value) value = Constant::zeros(DataType::float32(), {1});
    const std::vector<int64_t> index(static_cast<size_t>(e.out().numElements()), 0);
    return e.one(gatherBytes(*value, e.out().dtype, e.out().shape, index));
}

Outputs evalConstantOp(const Eval& e) {
    const auto& [attr, value] = e.node.attrs.entries().at(0);
    Ref<Constant> c;
    if (attr == "value")
        c = std::get<Ref<Constant>>(value);
    else if (attr == "value_float")
        c = Constant::fromFloats({}, {e.node.attrs.getFloat(attr, 0)});
    else if (attr == "value_int")
        c = Constant::fromInts({}, {e.node.attrs.getInt(attr, 0)});
    else if (attr == "value_floats")
        c = Constant::fromFloats(e.out().shape, e.node.attrs.getFloats(attr, {}));
    else if (attr == "value_ints")
        c = Constant::fromInts(e.out().shape, e.node.attrs.getInts(attr, {}));
    else
        return std::nullopt;
    return e.one(c);
}

// --- arithmetic -----------------------------------------------------------------

Outputs evalCast(const Eval& e) {
    const Constant& x = e.input(0);
    const DataType to = e.out().dtype;
    Outputs result;
    dispatch(x.dtype, true, [&](auto from) {
        using S = decltype(from);
        const auto v = load<S>(x);
        dispatch(to, true, [&](auto target) {
            using D = decltype(target);
            std::vector<D> out(v.size());
            for (size_t i = 0; i < v.size(); ++i) {
                if (to.isBool()) {
                    out[i] = static_cast<D>(v[i] != S(0));
                } else if constexpr (std::is_floating_point_v<S> && std::is_integral_v<D>) {
                    // Out of range (or NaN) is undefined in ONNX: leave it to run time.
                    const double t = std::trunc(static_cast<double>(v[i]));
                    if (!(t >= static_cast<double>(std::numeric_limits<D>::lowest()) &&
                          t < static_cast<double>(std::numeric_limits<D>::max()) + 1.0))
                        return;
                    out[i] = static_cast<D>(t);
                } else {
                    out[i] = static_cast<D>(v[i]);
                }
            }
            result = e.one(store(to, e.out().shape, out));
        });
    });
    return result;
}

/// Element-wise over broadcast inputs: out[k] = f(a, b) in type T, folded
/// left to right over all inputs (Min, Max, Sum are variadic).
template <class T, class F> std::vector<T> foldInputs(const Eval& e, const Shape& out, F&& f) {
    std::vector<T> acc;
    for (size_t i = 0; i < e.in.size(); ++i) {
        const auto v = load<T>(e.input(i));
        const auto ix = broadcastIndex(e.input(i).shape, out);
        if (i == 0) {
            acc.resize(ix.size());
            for (size_t k = 0; k < ix.size(); ++k)
                acc[k] = v[static_cast<size_t>(ix[k])];
            continue;
        }
        for (size_t k = 0; k < ix.size(); ++k)
            acc[k] = f(acc[k], v[static_cast<size_t>(ix[k])]);
    }
    return acc;
}

/// A comparison of two broadcast inputs of type T: 0/1 bytes.
template <class T, class F>
std::vector<uint8_t> compareInputs(const Eval& e, const Shape& out, F&& f) {
    const auto a = load<T>(e.input(0)), b = load<T>(e.input(1));
    const auto ia = broadcastIndex(e.input(0).shape, out),
               ib = broadcastIndex(e.input(1).shape, out);
    std::vector<uint8_t> r(ia.size());
    for (size_t k = 0; k < r.size(); ++k)
        r[k] = f(a[static_cast<size_t>(ia[k])], b[static_cast<size_t>(ib[k])]) ? 1 : 0;
    return r;
}

Outputs evalArith(const Eval& e, std::string_view op) {
    const DataType t = e.out().dtype;
    const Shape& shape = e.out().shape;
    Outputs result;
    dispatch(t, false, [&](auto tag) {
        using T = decltype(tag);
        std::vector<T> v;
        if (op == "Add" || op == "Sum" || op == "Mean") {
            v = foldInputs<T>(e, shape, [](T a, T b) { return wrapAdd(a, b); });
            if (op == "Mean")
                for (auto& x : v)
                    x = static_cast<T>(x / static_cast<T>(e.in.size()));
        } else if (op == "Sub") {
            v = foldInputs<T>(e, shape, [](T a, T b) { return wrapSub(a, b); });
        } else if (op == "Mul") {
            v = foldInputs<T>(e, shape, [](T a, T b) { return wrapMul(a, b); });
        } else if (op == "Div") {
            v = foldInputs<T>(e, shape, [&](T a, T b) -> T {
                if constexpr (std::is_integral_v<T>) {
                    if (b == 0) e.fail("integer division by zero");
                    if constexpr (std::is_signed_v<T>)
                        if (b == T(-1)) return wrapNeg(a); // INT_MIN / -1 wraps
                }
                return static_cast<T>(a / b); // integers truncate toward zero
            });
        } else if (op == "Min" || op == "Max") {
            const bool isMax = op == "Max";
            v = foldInputs<T>(e, shape, [&](T a, T b) {
                if (isNan(a) || isNan(b)) return isNan(a) ? a : b;
                return isMax ? std::max(a, b) : std::min(a, b);
            });
        } else {
            return;
        }
        result = e.one(store(t, shape, v));
    });
    return result;
}

Outputs evalCompare(const Eval& e, std::string_view op) {
    const Shape& shape = e.out().shape;
    Outputs result;
    dispatch(e.input(0).dtype, true, [&](auto tag) {
        using T = decltype(tag);
        std::vector<uint8_t> v;
        if (op == "Equal")
            v = compareInputs<T>(e, shape, [](T a, T b) { return a == b; });
        else if (op == "Less")
            v = compareInputs<T>(e, shape, [](T a, T b) { return a < b; });
        else if (op == "Greater")
            v = compareInputs<T>(e, shape, [](T a, T b) { return a > b; });
        else if (op == "LessOrEqual")
            v = compareInputs<T>(e, shape, [](T a, T b) { return a <= b; });
        else if (op == "GreaterOrEqual")
            v = compareInputs<T>(e, shape, [](T a, T b) { return a >= b; });
        else
            return;
        result = e.one(store(DataType::boolean(), shape, v));
    });
    return result;
}

/// Logic on bools, which are stored as 0/1 bytes.
Outputs evalLogic(const Eval& e, std::string_view op) {
    const Shape& shape = e.out().shape;
    std::vector<uint8_t> v;
    if (op == "Not") {
        v = load<uint8_t>(e.input(0));
        for (auto& x : v)
            x = x ? 0 : 1;
    } else if (op == "And") {
        v = foldInputs<uint8_t>(e, shape, [](uint8_t a, uint8_t b) { return uint8_t(a && b); });
    } else if (op == "Or") {
        v = foldInputs<uint8_t>(e, shape, [](uint8_t a, uint8_t b) { return uint8_t(a || b); });
    } else {
        v = foldInputs<uint8_t>(e, shape, [](uint8_t a, uint8_t b) { return uint8_t(!a != !b); });
    }
    return e.one(store(DataType::boolean(), shape, v));
}

Outputs evalUnary(const Eval& e, std::string_view op) {
    const DataType t = e.out().dtype;
    Outputs result;
    dispatch(t, false, [&](auto tag) {
        using T = decltype(tag);
        std::vector<T> v = load<T>(e.input(0));
        auto each = [&](auto f) {
            for (auto& x : v)
                x = static_cast<T>(f(x));
        };
        if (op == "Neg") {
            each([](T x) { return wrapNeg(x); });
        } else if (op == "Abs") {
            each([](T x) { return x < T(0) ? wrapNeg(x) : x; });
        } else if (op == "Relu") {
            each([](T x) { return x < T(0) ? T(0) : x; });
        } else if (op == "Sign") {
            each([](T x) { return isNan(x) ? x : T(T(0) < x) - T(x < T(0)); });
        } else if constexpr (std::is_floating_point_v<T>) {
            if (op == "Sqrt")
                each([](T x) { return std::sqrt(x); });
            else if (op == "Reciprocal")
                each([](T x) { return T(1) / x; });
            else if (op == "Floor")
                each([](T x) { return std::floor(x); });
            else if (op == "Ceil")
                each([](T x) { return std::ceil(x); });
            else if (op == "Round")
                each([](T x) { return std::nearbyint(x); }); // halves to even
            else
                return;
        } else {
            return;
        }
        result = e.one(store(t, e.out().shape, v));
    });
    return result;
}

Outputs evalRange(const Eval& e) {
    const DataType t = e.out().dtype;
    const int64_t n = e.out().shape[0];
    Outputs result;
    dispatch(t, false, [&](auto tag) {
        using T = decltype(tag);
        const T start = load<T>(e.input(0))[0], delta = load<T>(e.input(2))[0];
        std::vector<T> v(static_cast<size_t>(n));
        // ONNX's definition: output[i] = start + i * delta, in the tensor's type.
        for (size_t i = 0; i < v.size(); ++i)
            v[i] = wrapAdd(start, wrapMul(static_cast<T>(i), delta));
        result = e.one(store(t, {n}, v));
    });
    return result;
}

Outputs evalReduce(const Eval& e, std::string_view op) {
    const Constant& x = e.input(0);
    const int64_t r = static_cast<int64_t>(x.shape.size());
    std::optional<Shape> axes;
    if (e.has(1))
        axes = e.input(1).toInts();
    else if (e.node.attrs.has("axes"))
        axes = e.node.attrs.getInts("axes", {});
    std::vector<bool> reduced(static_cast<size_t>(r), false);
    if (!axes || axes->empty()) {
        if (e.node.attrs.getInt("noop_with_empty_axes", 0) != 0) return e.sameBytes();
        std::fill(reduced.begin(), reduced.end(), true);
    } else {
        for (int64_t a : *axes)
            reduced[static_cast<size_t>(*normalizeAxis(a, r))] = true;
    }
    // Each input element adds to the output element at its index with the
    // reduced dims set to 0.
    Shape kept = x.shape;
    for (size_t d = 0; d < kept.size(); ++d)
        if (reduced[d]) kept[d] = 1;
    Shape step = stridesOf(kept);
    for (size_t d = 0; d < kept.size(); ++d)
        if (reduced[d]) step[d] = 0;
    const std::vector<int64_t> target =
        stridedIndex(x.shape, Shape(x.shape.size(), 0), Shape(x.shape.size(), 1), step);
    const DataType t = e.out().dtype;
    Outputs result;
    dispatch(t, false, [&](auto tag) {
        using T = decltype(tag);
        using L = std::numeric_limits<T>;
        const auto v = load<T>(x);
        T init = T(0);
        if (op == "ReduceProd") init = T(1);
        if (op == "ReduceMin") init = L::has_infinity ? L::infinity() : L::max();
        if (op == "ReduceMax") init = L::has_infinity ? -L::infinity() : L::lowest();
        std::vector<T> acc(static_cast<size_t>(product(kept)), init);
        for (size_t k = 0; k < v.size(); ++k) {
            T& a = acc[static_cast<size_t>(target[k])];
            const T b = v[k];
            if (op == "ReduceSum")
                a = wrapAdd(a, b);
            else if (op == "ReduceProd")
                a = wrapMul(a, b);
            else if (isNan(a) || isNan(b))
                a = isNan(a) ? a : b;
            else
                a = op == "ReduceMin" ? std::min(a, b) : std::max(a, b);
        }
        result = e.one(store(t, e.out().shape, acc));
    });
    return result;
}

bool isOneOf(std::string_view op, std::initializer_list<std::string_view> ops) {
    return std::find(ops.begin(), ops.end(), op) != ops.end();
}

} // namespace

Ref<Constant> shapeConstant(const TensorType& type, const Attributes& attrs) {
    const int64_t r = type.rank();
    auto clamp = [&](int64_t v) { return std::clamp(v < 0 ? v + r : v, int64_t(0), r); };
    const int64_t start = clamp(attrs.getInt("start", 0));
    const int64_t end = std::max(clamp(attrs.getInt("end", r)), start);
    Shape dims(type.shape.begin() + start, type.shape.begin() + end);
    return Constant::fromInts({static_cast<int64_t>(dims.size())}, dims);
}

std::optional<std::vector<Ref<Constant>>>
evaluateConstant(const Node& node, const std::vector<Ref<Constant>>& inputs) {
    static const std::string_view kSupported[]{"Constant",    "Identity",
                                               "Shape",       "Size",
                                               "Gather",      "Concat",
                                               "Cast",        "Reshape",
                                               "Flatten",     "Squeeze",
                                               "Unsqueeze",   "Transpose",
                                               "Slice",       "Expand",
                                               "Tile",        "Where",
                                               "Range",       "ConstantOfShape",
                                               "Add",         "Sub",
                                               "Mul",         "Div",
                                               "Min",         "Max",
                                               "Sum",         "Mean",
                                               "Neg",         "Abs",
                                               "Sqrt",        "Relu",
                                               "Reciprocal",  "Floor",
                                               "Ceil",        "Round",
                                               "Sign",        "Equal",
                                               "Less",        "Greater",
                                               "LessOrEqual", "GreaterOrEqual",
                                               "Not",         "And",
                                               "Or",          "Xor",
                                               "ReduceSum",   "ReduceProd",
                                               "ReduceMin",   "ReduceMax"};
    if (node.kind != NodeKind::Op ||
        std::find(std::begin(kSupported), std::end(kSupported), node.op) == std::end(kSupported))
        return std::nullopt;
    TESSEL_CHECK(inputs.size() == node.inputs.size(),
                 "evaluateConstant: " + std::to_string(inputs.size()) + " inputs for " +
                     node.describe());
    // The output shapes (and every check on the inputs) come from the
    // operator's inference, run on the constants.
    std::vector<Value> values;
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (!inputs[i]) {
            values.emplace_back();
            continue;
        }
        if (inputs[i]->dtype.isFloat() && inputs[i]->dtype.bits() == 16) return std::nullopt;
        values.push_back(Node::makeConstant(-1, "input" + std::to_string(i), inputs[i])->output(0));
    }
    const std::vector<TensorType> types = inferOutputTypes(node, values);
    for (const auto& t : types)
        if (!t.isStatic() || (t.dtype.isFloat() && t.dtype.bits() == 16)) return std::nullopt;

    const Eval e{node, inputs, types};
    const std::string_view op = node.op;
    if (op == "Constant") return evalConstantOp(e);
    if (op == "Identity" || op == "Reshape" || op == "Flatten" || op == "Squeeze" ||
        op == "Unsqueeze")
        return e.sameBytes();
    if (op == "Shape") return e.one(shapeConstant(inputs[0]->type(), node.attrs));
    if (op == "Size") return e.one(Constant::fromInts({}, {inputs[0]->numElements()}));
    if (op == "Gather") return evalGather(e);
    if (op == "Concat") return evalConcat(e);
    if (op == "Cast") return evalCast(e);
    if (op == "Transpose") return evalTranspose(e);
    if (op == "Slice") return evalSlice(e);
    if (op == "Expand") return evalExpand(e);
    if (op == "Tile") return evalTile(e);
    if (op == "Where") return evalWhere(e);
    if (op == "Range") return evalRange(e);
    if (op == "ConstantOfShape") return evalConstantOfShape(e);
    if (isOneOf(op, {"Add", "Sub", "Mul", "Div", "Min", "Max", "Sum", "Mean"}))
        return evalArith(e, op);
    if (isOneOf(op, {"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual"}))
        return evalCompare(e, op);
    if (isOneOf(op, {"Not", "And", "Or", "Xor"})) return evalLogic(e, op);
    if (isOneOf(op, {"ReduceSum", "ReduceProd", "ReduceMin", "ReduceMax"}))
        return evalReduce(e, op);
    return evalUnary(e, op);
}

} // namespace tessel::graph
