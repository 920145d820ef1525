/// \file
/// The plain C++ reference of tir::Intrinsic::PairDotI16 and the operands the
/// codegen tests feed it: random pairs and the extreme halves (-32768, 32767)
/// where an int32 sum of two products wraps.
#pragma once

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace tessel::test {

/// lo16(a) * lo16(b) + hi16(a) * hi16(b), the sum wrapping like int32.
inline int32_t pairDotI16(int32_t a, int32_t b) {
    auto lo = [](int32_t v) { return int32_t(int16_t(uint16_t(uint32_t(v)))); };
    auto hi = [](int32_t v) { return int32_t(int16_t(uint16_t(uint32_t(v) >> 16))); };
    return int32_t(uint32_t(lo(a) * lo(b)) + uint32_t(hi(a) * hi(b)));
}

/// Two operand arrays of `n` values (n >= 256): the first 256 pair every
/// combination of the extreme operands (halves -32768, 32767, 0, -1), the
/// rest are random.
inline std::pair<std::vector<int32_t>, std::vector<int32_t>> pairDotInputs(size_t n, uint32_t seed) {
    auto pack = [](int lo, int hi) {
        return int32_t(uint32_t(uint16_t(int16_t(lo))) | (uint32_t(uint16_t(int16_t(hi))) << 16));
    };
    const int ext[] = {-32768, 32767, 0, -1};
    std::vector<int32_t> extremes;
    for (int lo : ext)
        for (int hi : ext)
            extremes.push_back(pack(lo, hi));
    std::vector<int32_t> a, b;
    for (int32_t x : extremes)
        for (int32_t y : extremes) {
            a.push_back(x);
            b.push_back(y);
        }
    std::mt19937 rng(seed);
    while (a.size() < n) {
        a.push_back(int32_t(rng()));
        b.push_back(int32_t(rng()));
    }
    a.resize(n);
    b.resize(n);
    return {a, b};
}

} // namespace tessel::test
