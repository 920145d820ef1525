/// \file
/// IEEE binary16 (float16) and bfloat16 to and from float32, bit-exact.
///
/// Tessel holds float16 and bfloat16 tensors as float32 and computes in
/// float32 (every float16 and bfloat16 value is exactly a float32); these
/// convert what a model stores, and what a run gives back in the model's type.
#pragma once

#include <bit>
#include <cstdint>

namespace tessel {

/// The float32 value of float16 bits (subnormals, infinities and NaNs kept).
inline float halfToFloat(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    uint32_t bits;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (mant << 13); // infinity or NaN
    } else if (exp != 0) {
        bits = sign | ((exp + 112u) << 23) | (mant << 13);
    } else if (mant == 0) {
        bits = sign; // signed zero
    } else {
        // Subnormal: normalise the mantissa.
        uint32_t e = 113;
        while (!(mant & 0x400u)) {
            mant <<= 1;
            --e;
        }
        bits = sign | (e << 23) | ((mant & 0x3ffu) << 13);
    }
    return std::bit_cast<float>(bits);
}

/// The float32 value of bfloat16 bits (the upper half of a float32).
inline float bfloat16ToFloat(uint16_t b) {
    return std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}

/// Float16 bits of `f`, rounded to nearest even; overflow gives infinity.
inline uint16_t floatToHalf(float f) {
    const uint32_t x = std::bit_cast<uint32_t>(f);
    const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
    const uint32_t absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u) // infinity or NaN (kept quiet)
        return static_cast<uint16_t>(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0u));
    if (absx >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u); // rounds past 65504
    if (absx < 0x38800000u) {
        // Subnormal or zero in float16: shift with rounding to nearest even.
        if (absx < 0x33000000u) return sign; // below half the smallest subnormal
        const uint32_t mant = (absx & 0x7fffffu) | 0x800000u;
        const int shift = 126 - static_cast<int>(absx >> 23); // 14..24
        uint32_t h = mant >> shift;
        const uint32_t rest = mant & ((1u << shift) - 1u);
        const uint32_t half = 1u << (shift - 1);
        if (rest > half || (rest == half && (h & 1u))) ++h;
        return static_cast<uint16_t>(sign | h);
    }
    uint32_t h = ((absx >> 23) - 112u) << 10 | ((absx >> 13) & 0x3ffu);
    const uint32_t rest = absx & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h; // may carry into the exponent
    return static_cast<uint16_t>(sign | h);
}

/// `f` rounded to bfloat16 precision (nearest even), as a float32.
inline float roundToBfloat16(float f) {
    const uint32_t x = std::bit_cast<uint32_t>(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return f; // NaN stays NaN
    const uint32_t rounded = (x + 0x7fffu + ((x >> 16) & 1u)) & 0xffff0000u;
    return std::bit_cast<float>(rounded);
}

} // namespace tessel
