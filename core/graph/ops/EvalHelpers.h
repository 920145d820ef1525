/// \file
/// Private to graph/ops: element access and index arithmetic for constant
/// evaluators (the `evaluate` functions of the operator records).
///
/// Evaluators compute in each tensor's own element type, as the kernels
/// would: load<T>() and store<T>() move elements between a Constant's bytes
/// and a typed vector, dispatch() picks the C++ type for a DataType, integer
/// arithmetic wraps (wrapAdd ...), and data movement copies bytes through a
/// flat index (broadcastIndex, stridedIndex, gatherBytes).
#pragma once

#include "graph/OpRegistry.h"

#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

namespace tessel::graph::ops {

using Shape = std::vector<int64_t>;

/// The number of elements of a (static) shape.
int64_t product(const Shape& s);
/// Row-major strides of a shape.
Shape stridesOf(const Shape& s);
/// For every element of `out` (row-major), the index of the element of `in`
/// that numpy broadcasting reads (`in` aligned right, size-1 dims repeated).
std::vector<int64_t> broadcastIndex(const Shape& in, const Shape& out);
/// For every element of the output (shape `out`, row-major), the flat index
/// of the input element at sum over d of (base[d] + pos[d] * step[d]) * stride[d].
std::vector<int64_t> stridedIndex(const Shape& out, const Shape& base, const Shape& step,
                                  const Shape& stride);
/// A constant of type `dtype` and shape `shape` whose element k is element
/// index[k] of `src` (the same element type): data movement, byte by byte.
Ref<Constant> gatherBytes(const Constant& src, DataType dtype, Shape shape,
                          const std::vector<int64_t>& index);

/// One output.
inline EvalResult one(Ref<Constant> c) {
    return std::vector<Ref<Constant>>{std::move(c)};
}
/// The output with input 0's bytes and output 0's type (Reshape, Squeeze ...).
EvalResult sameBytes(const EvalContext& e);

// --- typed access ---------------------------------------------------------------

/// Bools are stored one byte each, 0 or 1; they compute as uint8_t.
template <class T> std::vector<T> load(const Constant& c) {
    std::vector<T> v(static_cast<size_t>(c.numElements()));
    // An empty vector's data() may be null, which memcpy may not be given even for 0 bytes.
    if (!v.empty()) std::memcpy(v.data(), c.bytes.data(), v.size() * sizeof(T));
    return v;
}

template <class T> Ref<Constant> store(DataType dtype, Shape shape, const std::vector<T>& v) {
    std::vector<uint8_t> bytes(v.size() * sizeof(T));
    if (!bytes.empty()) std::memcpy(bytes.data(), v.data(), bytes.size());
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

/// Element-wise over broadcast inputs: out[k] = f(a, b) in type T, folded
/// left to right over all inputs (Min, Max, Sum are variadic).
template <class T, class F>
std::vector<T> foldInputs(const EvalContext& e, const Shape& out, F&& f) {
    std::vector<T> acc;
    for (int i = 0; i < e.numInputs(); ++i) {
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

} // namespace tessel::graph::ops
