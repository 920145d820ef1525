/// \file
/// Tests of ir/Half.h over every float16 bit pattern: decoding agrees with
/// the format's definition (sign, exponent, mantissa, subnormals), encoding
/// gives every value back, and float32 values between two float16 values
/// round to the nearer one, ties to the even one, as IEEE 754 says.
#include "ir/Half.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace tessel;

namespace {

/// The value of float16 bits from the format's definition.
double definedValue(uint16_t h) {
    const int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    double v;
    if (exp == 0x1f)
        v = mant ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else if (exp == 0)
        v = std::ldexp(mant, -24);
    else
        v = std::ldexp(1024 + mant, exp - 25);
    return sign ? -v : v;
}

} // namespace

class TestHalf : public QObject {
    Q_OBJECT

private slots:
    void decodeEveryPattern() {
        for (uint32_t h = 0; h < 0x10000; ++h) {
            const double want = definedValue(static_cast<uint16_t>(h));
            const float got = halfToFloat(static_cast<uint16_t>(h));
            if (std::isnan(want)) {
                QVERIFY2(std::isnan(got), qPrintable(QString::number(h, 16)));
                QVERIFY(std::isnan(halfToFloat(floatToHalf(got))));
                continue;
            }
            QCOMPARE(double(got), want);
            QCOMPARE(std::signbit(got), bool(h & 0x8000));
            QCOMPARE(uint32_t(floatToHalf(got)), h);
        }
    }

    void roundToNearestEven() {
        // Between each pair of neighbouring finite positive float16 values.
        for (uint16_t h = 0; h < 0x7bff; ++h) {
            const double lo = definedValue(h), hi = definedValue(uint16_t(h + 1));
            const double mid = (lo + hi) / 2; // exact in float32 (one more mantissa bit)
            const uint16_t even = (h & 1) ? uint16_t(h + 1) : h;
            QCOMPARE(uint32_t(floatToHalf(float(mid))), uint32_t(even));
            QCOMPARE(uint32_t(floatToHalf(std::nextafter(float(mid), 0.f))), uint32_t(h));
            QCOMPARE(uint32_t(floatToHalf(std::nextafter(float(mid), 1e9f))), uint32_t(h + 1));
            QCOMPARE(uint32_t(floatToHalf(-float(mid))), uint32_t(even | 0x8000));
        }
        // Past the largest finite value (65504) by half a step or more: infinity.
        QCOMPARE(uint32_t(floatToHalf(65519.f)), 0x7bffu);
        QCOMPARE(uint32_t(floatToHalf(65520.f)), 0x7c00u);
        QCOMPARE(uint32_t(floatToHalf(-1e10f)), 0xfc00u);
        // Below half the smallest subnormal: zero, keeping the sign.
        QCOMPARE(uint32_t(floatToHalf(std::ldexp(1.f, -26))), 0u);
        QCOMPARE(uint32_t(floatToHalf(-std::ldexp(1.f, -26))), 0x8000u);
    }

    void bfloat16() {
        for (uint32_t b = 0; b < 0x10000; b += 7) {
            const float f = bfloat16ToFloat(static_cast<uint16_t>(b));
            if (std::isnan(f)) continue;
            QCOMPARE(roundToBfloat16(f), f); // representable: unchanged
        }
        QCOMPARE(bfloat16ToFloat(0x3f80), 1.0f);
        // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: to the even one (1).
        QCOMPARE(roundToBfloat16(1.0f + std::ldexp(1.f, -8)), 1.0f);
        QCOMPARE(roundToBfloat16(1.0f + 3 * std::ldexp(1.f, -8)), 1.0f + std::ldexp(1.f, -6));
    }
};

QTEST_APPLESS_MAIN(TestHalf)
#include "tst_half.moc"
