/// \file
/// N-dimensional tensors of the runtime, on a device, and the comparison used
/// to check a kernel's output against a reference.
///
/// An NDArray is a cheap handle, as in TVM: copying an NDArray shares its
/// storage, `copy()` makes a deep copy. The storage lives on a Device (the
/// CPU unless asked otherwise) and is either owned (allocated through the
/// device's DeviceAPI, 64-byte aligned, rounded up to a whole 64 bytes so
/// vector loads of the last elements stay inside it) or a non-owning view of
/// memory someone else keeps alive. Elements are dense and row-major. `bool`
/// takes one byte per element. Element types: float32, float64,
/// int8/16/32/64, uint8/16/32/64 and bool; lanes must be 1.
///
/// Only host (CPU) arrays can be read and written element by element
/// (data<T>(), at(), fillRandom, compare); an array on another device is
/// moved with copyTo()/copyFrom(), which go through the DeviceAPIs.
#pragma once

#include "ir/Check.h"
#include "ir/DataType.h"
#include "runtime/Device.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace tessel::runtime {

/// The outcome of comparing a result with an expected tensor, element by
/// element, as numpy.allclose does: an element is close when
/// |got - expected| <= atol + rtol * |expected|.
struct CompareResult {
    /// False when shapes or types differ; then nothing else is meaningful.
    bool shapesMatch = true;
    /// Every element is close (and the shapes match).
    bool allClose = true;
    /// max |got - expected| (infinity where one side is NaN and the other not).
    double maxAbsError = 0;
    /// max |got - expected| / max(|expected|, tiny).
    double maxRelError = 0;
    /// How many elements are not close.
    int64_t numMismatches = 0;
    /// Flat index of the element with the largest absolute error (-1 when empty).
    int64_t worstIndex = -1;

    /// One line for logs: "max abs 1.2e-06, max rel 3.4e-07, 0 of 1024 mismatched".
    std::string str() const;
};

class NDArray {
public:
    /// Alignment of owned storage, in bytes.
    static constexpr size_t kAlignment = 64;

    /// An undefined array (no shape, no storage).
    NDArray() = default;
    /// A new array that owns uninitialised, aligned storage on `device`.
    /// Throws std::runtime_error when there is no such device.
    NDArray(std::vector<int64_t> shape, DataType dtype, Device device = Device::cpu());

    /// Same as the constructor; reads well at call sites.
    static NDArray empty(std::vector<int64_t> shape, DataType dtype, Device device = Device::cpu()) {
        return NDArray(std::move(shape), dtype, device);
    }
    /// A new owned array filled with zeros.
    static NDArray zeros(std::vector<int64_t> shape, DataType dtype, Device device = Device::cpu());
    /// A non-owning view of `data` on `device`, which must outlive every
    /// handle to the view.
    static NDArray view(void* data, std::vector<int64_t> shape, DataType dtype, Device device = Device::cpu());

    bool defined() const { return dtype_ != DataType(); }
    Device device() const { return device_; }
    /// The storage is host memory (elements can be read and written here).
    bool isHost() const { return device_.isCpu(); }
    /// Whether the storage was allocated by this array (or a handle sharing it).
    bool ownsData() const { return owner_ != nullptr; }

    const std::vector<int64_t>& shape() const { return shape_; }
    int ndim() const { return static_cast<int>(shape_.size()); }
    DataType dtype() const { return dtype_; }
    int64_t numElements() const { return numElements_; }
    size_t numBytes() const { return static_cast<size_t>(numElements_) * dtype_.bytes(); }

    void* rawData() { return data_; }
    const void* rawData() const { return data_; }

    /// Typed access to a host array; checks that T matches the element type
    /// (a bool array may be read as bool, uint8_t or int8_t).
    template <class T> T* data() {
        TESSEL_CHECK(matches<T>(dtype_), "NDArray::data<T>: T does not match " + dtype_.str());
        TESSEL_CHECK(isHost(), "NDArray::data<T> of an array on " + device_.str());
        return static_cast<T*>(data_);
    }
    template <class T> const T* data() const {
        TESSEL_CHECK(matches<T>(dtype_), "NDArray::data<T>: T does not match " + dtype_.str());
        TESSEL_CHECK(isHost(), "NDArray::data<T> of an array on " + device_.str());
        return static_cast<const T*>(data_);
    }

    /// Zeros every element (on any device).
    void fillZero();
    /// Fills with uniform values in [lo, hi) (integers: [ceil(lo), floor(hi)],
    /// bool: 0 or 1). Element i depends only on (seed, i, lo, hi): the same
    /// seed gives the same tensor on every machine and with any thread count.
    /// Large arrays (a million elements or more) are filled on the global
    /// ThreadPool. An array on another device is filled through a host copy.
    void fillRandom(uint64_t seed, double lo = -1.0, double hi = 1.0);

    /// A deep copy with owned storage on the same device.
    NDArray copy() const;
    /// A deep copy with owned storage on `device` (copyTo(Device::cpu()) brings
    /// any array to the host).
    NDArray copyTo(Device device) const;
    /// Copies the elements of `src` (same type and element count, any
    /// device) into this array, and waits until they are there.
    void copyFrom(const NDArray& src);
    /// A handle to the same storage with another shape of the same element count.
    NDArray reshaped(std::vector<int64_t> shape) const;

    /// Element `i` (flat, row-major) of a host array converted to double; for
    /// checks and printing.
    double at(int64_t i) const;

    /// "float32[64, 128]" (with " on cuda:0" for an array off the host).
    std::string str() const;

    /// Whether the C++ type T can read elements of type `dtype`.
    template <class T> static constexpr bool matches(DataType dtype) {
        using U = std::remove_cv_t<T>;
        if (!dtype.isScalar()) return false;
        if constexpr (std::is_same_v<U, bool>) return dtype.isBool();
        if constexpr (std::is_floating_point_v<U>)
            return dtype.isFloat() && dtype.bits() == 8 * int(sizeof(U));
        if constexpr (std::is_integral_v<U>) {
            if (dtype.isBool()) return sizeof(U) == 1;
            if (dtype.bits() != 8 * int(sizeof(U))) return false;
            return std::is_signed_v<U> ? dtype.isInt() : dtype.isUInt();
        }
        return false;
    }

private:
    std::vector<int64_t> shape_;
    DataType dtype_;
    Device device_;
    int64_t numElements_ = 0;
    void* data_ = nullptr;
    std::shared_ptr<void> owner_;
};

/// Compares `got` with `expected` element by element (see CompareResult);
/// both must be host arrays. Types must match; integers and bools are compared as exact values unless
/// atol/rtol allow a difference.
CompareResult compare(const NDArray& got, const NDArray& expected, double rtol = 1e-5,
                      double atol = 1e-6);

} // namespace tessel::runtime
