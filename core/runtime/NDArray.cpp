#include "runtime/NDArray.h"

#include "runtime/DeviceAPI.h"
#include "runtime/ThreadPool.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <sstream>

namespace tessel::runtime {

namespace {

/// Calls `f(T{})` with the C++ type that stores elements of `dtype`.
template <class F> decltype(auto) visitType(DataType dtype, F&& f) {
    TESSEL_CHECK(dtype.isScalar(), "NDArray: vector element type " + dtype.str());
    if (dtype.isBool()) return f(uint8_t{});
    if (dtype.isFloat()) {
        if (dtype.bits() == 32) return f(float{});
        if (dtype.bits() == 64) return f(double{});
    } else if (dtype.isInt()) {
        switch (dtype.bits()) {
        case 8:
            return f(int8_t{});
        case 16:
            return f(int16_t{});
        case 32:
            return f(int32_t{});
        case 64:
            return f(int64_t{});
        }
    } else if (dtype.isUInt()) {
        switch (dtype.bits()) {
        case 8:
            return f(uint8_t{});
        case 16:
            return f(uint16_t{});
        case 32:
            return f(uint32_t{});
        case 64:
            return f(uint64_t{});
        }
    }
    failCheck("supported dtype", __FILE__, __LINE__,
              "NDArray: unsupported element type " + dtype.str());
}

int64_t countElements(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (int64_t d : shape) {
        TESSEL_CHECK(d >= 0, "NDArray: negative dimension");
        n *= d;
    }
    return n;
}

/// SplitMix64's finaliser: a good 64-bit mix, one multiply-xorshift chain.
inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/// A counter-based generator: the i-th value of stream `seed`.
inline uint64_t randomBits(uint64_t key, uint64_t i) {
    return mix64(key + (i + 1) * 0x9e3779b97f4a7c15ULL);
}

} // namespace

std::string CompareResult::str() const {
    if (!shapesMatch) return "shapes or types differ";
    std::ostringstream os;
    os.precision(3);
    os << "max abs " << maxAbsError << ", max rel " << maxRelError << ", " << numMismatches
       << " mismatched";
    return os.str();
}

NDArray::NDArray(std::vector<int64_t> shape, DataType dtype, Device device)
    : shape_(std::move(shape)), dtype_(dtype), device_(device) {
    visitType(dtype_, [](auto) { return 0; }); // rejects unsupported types
    numElements_ = countElements(shape_);
    DeviceAPI& api = deviceAPI(device_);
    void* p = api.alloc(device_, numBytes(), kAlignment);
    owner_ = std::shared_ptr<void>(p, [&api, device](void* q) { api.free(device, q); });
    data_ = p;
}

NDArray NDArray::zeros(std::vector<int64_t> shape, DataType dtype, Device device) {
    NDArray a(std::move(shape), dtype, device);
    a.fillZero();
    return a;
}

NDArray NDArray::view(void* data, std::vector<int64_t> shape, DataType dtype, Device device) {
    visitType(dtype, [](auto) { return 0; });
    NDArray a;
    a.device_ = device;
    a.shape_ = std::move(shape);
    a.dtype_ = dtype;
    a.numElements_ = countElements(a.shape_);
    TESSEL_CHECK(data || a.numElements_ == 0, "NDArray::view of a null pointer");
    a.data_ = data;
    return a;
}

void NDArray::fillZero() {
    if (!numBytes()) return;
    if (isHost()) {
        std::memset(data_, 0, numBytes());
        return;
    }
    copyFrom(NDArray::zeros(shape_, dtype_));
}

void NDArray::fillRandom(uint64_t seed, double lo, double hi) {
    TESSEL_CHECK(defined(), "fillRandom on an undefined NDArray");
    if (!isHost()) {
        NDArray host(shape_, dtype_);
        host.fillRandom(seed, lo, hi);
        copyFrom(host);
        return;
    }
    TESSEL_CHECK(lo <= hi, "fillRandom: lo > hi");
    const uint64_t key = mix64(seed ^ 0x5851f42d4c957f2dULL);
    // Fills elements [begin, end); element i depends only on (key, i), so the
    // range can be split among threads without changing the result.
    auto fillRange = [&](int64_t begin, int64_t end) {
        if (dtype_.isBool()) {
            auto* p = static_cast<uint8_t*>(data_);
            for (int64_t i = begin; i < end; ++i)
                p[i] = static_cast<uint8_t>(randomBits(key, i) >> 63);
            return;
        }
        visitType(dtype_, [&](auto tag) {
            using T = decltype(tag);
            T* p = static_cast<T*>(data_);
            if constexpr (std::is_floating_point_v<T>) {
                const double scale = (hi - lo) * 0x1.0p-53;
                for (int64_t i = begin; i < end; ++i) {
                    // Through int64: a signed conversion is one instruction.
                    const auto bits53 = static_cast<int64_t>(randomBits(key, i) >> 11);
                    p[i] = static_cast<T>(lo + static_cast<double>(bits53) * scale);
                }
            } else {
                constexpr double tmin = static_cast<double>(std::numeric_limits<T>::min());
                constexpr double tmax = static_cast<double>(std::numeric_limits<T>::max());
                double a = std::clamp(std::ceil(lo), tmin, tmax);
                double b = std::clamp(std::floor(hi), tmin, tmax);
                if (b < a) b = a;
                // 128-bit arithmetic: the full 64-bit ranges need no special case.
                const __int128 first = static_cast<__int128>(a);
                const unsigned __int128 span =
                    static_cast<unsigned __int128>(static_cast<__int128>(b) - first) + 1;
                constexpr __int128 last =
                    std::numeric_limits<T>::max(); // 2^63 as double overshoots
                for (int64_t i = begin; i < end; ++i) {
                    unsigned __int128 r = randomBits(key, i);
                    __int128 v = first + static_cast<__int128>((r * span) >> 64);
                    p[i] = static_cast<T>(v > last ? last : v);
                }
            }
            return 0;
        });
    };
    const int64_t n = numElements_;
    if (n < (int64_t(1) << 20) || ThreadPool::inParallelRegion()) {
        fillRange(0, n);
        return;
    }
    ThreadPool::global().run(0, [&](int32_t task, int32_t numTasks) {
        fillRange(n * task / numTasks, n * (task + 1) / numTasks);
    });
}

NDArray NDArray::copy() const { return copyTo(device_); }

NDArray NDArray::copyTo(Device device) const {
    if (!defined()) return {};
    NDArray a(shape_, dtype_, device);
    a.copyFrom(*this);
    return a;
}

void NDArray::copyFrom(const NDArray& src) {
    TESSEL_CHECK(src.dtype_ == dtype_ && src.numElements_ == numElements_,
                 "NDArray::copyFrom: " + src.str() + " into " + str());
    const size_t bytes = numBytes();
    if (!bytes || (src.data_ == data_ && src.device_ == device_)) return;
    if (isHost() && src.isHost()) {
        std::memmove(data_, src.data_, bytes);
    } else if (src.isHost()) {
        DeviceAPI& api = deviceAPI(device_);
        api.copyToDevice(device_, data_, src.data_, bytes);
        api.synchronize(device_);
    } else if (isHost()) {
        DeviceAPI& api = deviceAPI(src.device_);
        api.copyFromDevice(src.device_, data_, src.data_, bytes);
        api.synchronize(src.device_);
    } else if (src.device_ == device_) {
        DeviceAPI& api = deviceAPI(device_);
        api.copyWithinDevice(device_, data_, src.data_, bytes);
        api.synchronize(device_);
    } else {
        copyFrom(src.copyTo(Device::cpu())); // between two devices: through the host
    }
}

NDArray NDArray::reshaped(std::vector<int64_t> shape) const {
    TESSEL_CHECK(countElements(shape) == numElements_, "NDArray::reshaped: element count differs");
    NDArray a = *this;
    a.shape_ = std::move(shape);
    return a;
}

double NDArray::at(int64_t i) const {
    TESSEL_CHECK(i >= 0 && i < numElements_, "NDArray::at: index out of range");
    TESSEL_CHECK(isHost(), "NDArray::at on an array on " + device_.str());
    return visitType(dtype_, [&](auto tag) {
        using T = decltype(tag);
        return static_cast<double>(static_cast<const T*>(data_)[i]);
    });
}

std::string NDArray::str() const {
    if (!defined()) return "undefined";
    std::string s = dtype_.str() + "[";
    for (size_t i = 0; i < shape_.size(); ++i) {
        if (i) s += ", ";
        s += std::to_string(shape_[i]);
    }
    return s + "]" + (isHost() ? "" : " on " + device_.str());
}

CompareResult compare(const NDArray& got, const NDArray& expected, double rtol, double atol) {
    CompareResult r;
    TESSEL_CHECK(got.isHost() && expected.isHost(), "runtime::compare of arrays off the host");
    if (got.dtype() != expected.dtype() || got.shape() != expected.shape()) {
        r.shapesMatch = false;
        r.allClose = false;
        return r;
    }
    const int64_t n = got.numElements();
    constexpr double tiny = std::numeric_limits<double>::min();
    visitType(got.dtype(), [&](auto tag) {
        using T = decltype(tag);
        const T* g = static_cast<const T*>(got.rawData());
        const T* e = static_cast<const T*>(expected.rawData());
        double worst = -1;
        for (int64_t i = 0; i < n; ++i) {
            const double gv = static_cast<double>(g[i]);
            const double ev = static_cast<double>(e[i]);
            double abs;
            if (std::isnan(gv) || std::isnan(ev))
                abs = (std::isnan(gv) && std::isnan(ev)) ? 0.0
                                                         : std::numeric_limits<double>::infinity();
            else if (gv == ev)
                abs = 0.0; // also equal infinities
            else
                abs = std::fabs(gv - ev);
            const double mag = std::isfinite(ev) ? std::fabs(ev) : 0.0;
            const double rel = abs / std::max(mag, tiny);
            if (!(abs <= atol + rtol * mag)) ++r.numMismatches;
            if (abs > worst) {
                worst = abs;
                r.worstIndex = i;
            }
            r.maxAbsError = std::max(r.maxAbsError, abs);
            r.maxRelError = std::max(r.maxRelError, rel);
        }
        return 0;
    });
    r.allClose = r.numMismatches == 0;
    return r;
}

} // namespace tessel::runtime
