// The element-wise and broadcast computes against ONNX's node tests.
#include "TopiTestUtil.h"

#include <QtTest>

#include <algorithm>

class TestTopiElementwise : public QObject {
    Q_OBJECT
private slots:
    void nodeTests_data() {
        QTest::addColumn<QString>("name");
        for (const char* n :
             {"test_abs", "test_add", "test_add_bcast", "test_add_uint8", "test_sub", "test_sub_bcast",
              "test_sub_uint8", "test_mul", "test_mul_bcast", "test_mul_uint8", "test_div", "test_div_bcast",
              "test_div_example", "test_div_uint8", "test_pow", "test_pow_bcast_array", "test_pow_bcast_scalar",
              "test_pow_types_float32_int32", "test_pow_types_int32_int32", "test_pow_types_int64_float32",
              "test_relu", "test_sigmoid", "test_tanh", "test_exp", "test_log", "test_sqrt", "test_neg", "test_erf",
              "test_leakyrelu", "test_leakyrelu_default", "test_clip", "test_clip_default_inbounds",
              "test_clip_default_int8_max", "test_clip_splitbounds", "test_clip_outbounds", "test_hardsigmoid",
              "test_hardsigmoid_default", "test_hardswish", "test_identity", "test_dropout_default",
              "test_cast_FLOAT_to_DOUBLE", "test_cast_DOUBLE_to_FLOAT", "test_batchnorm_epsilon",
              "test_batchnorm_example", "test_max_example", "test_max_int8", "test_max_uint64",
              "test_min_two_inputs", "test_min_float64",
              // Issue 20's element-wise operators.
              "test_mod_broadcast", "test_mod_int64_fmod", "test_mod_mixed_sign_float32", "test_mod_mixed_sign_int8",
              "test_mod_mixed_sign_int64", "test_mod_uint16", "test_bitshift_left_uint8", "test_bitshift_right_uint16",
              "test_bitshift_left_uint64", "test_bitshift_right_uint32", "test_castlike_FLOAT_to_DOUBLE",
              "test_isnan", "test_isinf", "test_isinf_negative", "test_isinf_positive", "test_celu",
              "test_thresholdedrelu", "test_thresholdedrelu_default", "test_shrink_hard", "test_shrink_soft",
              "test_tan", "test_asin", "test_acos", "test_atan", "test_sinh", "test_cosh", "test_asinh", "test_acosh",
              "test_atanh"})
            QTest::newRow(n) << QString(n);
    }
    void nodeTests() {
        QFETCH(QString, name);
        auto r = tessel::topi::test::runNodeTest(name.toStdString());
        QVERIFY2(r.failure.empty(), r.failure.c_str());
    }

    // The typed computes, called directly as a TE script would: numpy
    // broadcasting, literal bounds, casts to bool, variadic folds.
    void typedComputes() {
        using namespace tessel;
        using runtime::NDArray;
        using topi::test::Tensors;
        NDArray a({2, 1, 3}, DataType::float32()), b({4, 1}, DataType::float32()), c({3}, DataType::float32());
        a.fillRandom(1);
        b.fillRandom(2);
        c.fillRandom(3);
        auto r = topi::test::runCompute({a, b}, [](const Tensors& in) { return Tensors{topi::add(in[0], in[1])}; });
        QVERIFY2(r.error.empty(), r.error.c_str());
        QCOMPARE(r.outputs[0].shape(), (std::vector<int64_t>{2, 4, 3}));
        QCOMPARE(r.outputs[0].data<float>()[(1 * 4 + 2) * 3 + 1], a.data<float>()[1 * 3 + 1] + b.data<float>()[2]);
        r = topi::test::runCompute({a}, [](const Tensors& in) { return Tensors{topi::clip(in[0], -0.25, 0.5)}; });
        QVERIFY2(r.error.empty(), r.error.c_str());
        for (int i = 0; i < 6; ++i)
            QCOMPARE(r.outputs[0].data<float>()[i], std::min(std::max(a.data<float>()[i], -0.25f), 0.5f));
        r = topi::test::runCompute({a}, [](const Tensors& in) {
            return Tensors{topi::cast(topi::relu(in[0]), DataType::boolean())};
        });
        QVERIFY2(r.error.empty(), r.error.c_str());
        QCOMPARE(r.outputs[0].dtype(), DataType::boolean());
        for (int i = 0; i < 6; ++i)
            QCOMPARE(bool(r.outputs[0].data<uint8_t>()[i]), a.data<float>()[i] > 0);
        r = topi::test::runCompute({a, b, c}, [](const Tensors& in) { return Tensors{topi::maximum(in)}; });
        QVERIFY2(r.error.empty(), r.error.c_str());
        QCOMPARE(r.outputs[0].data<float>()[(1 * 4 + 3) * 3 + 2],
                 std::max({a.data<float>()[1 * 3 + 2], b.data<float>()[3], c.data<float>()[2]}));
        NDArray d({2, 3}, DataType::float32()), e({4, 3}, DataType::float32());
        r = topi::test::runCompute({d, e}, [](const Tensors& in) { return Tensors{topi::multiply(in[0], in[1])}; });
        QVERIFY2(r.error.find("shapes [2, 3] and [4, 3] do not broadcast") != std::string::npos, r.error.c_str());
    }

    // Mod: integers take the divisor's sign (numpy) unless fmod, which takes
    // the dividend's (C); a zero integer divisor gives 0 rather than a trap.
    void modSignRules() {
        using namespace tessel;
        using runtime::NDArray;
        using topi::test::Tensors;
        const std::vector<int32_t> as{-7, 7, -7, 7, 5, 0, -8}, bs{3, -3, -3, 3, 0, 4, 8};
        NDArray a({7}, DataType::int32()), b({7}, DataType::int32());
        std::copy(as.begin(), as.end(), a.data<int32_t>());
        std::copy(bs.begin(), bs.end(), b.data<int32_t>());
        for (bool fmod : {false, true}) {
            auto r = topi::test::runCompute({a, b}, [fmod](const Tensors& in) {
                return Tensors{topi::mod(in[0], in[1], fmod)};
            });
            QVERIFY2(r.error.empty(), r.error.c_str());
            for (size_t i = 0; i < as.size(); ++i) {
                int32_t want = 0;
                if (bs[i] != 0) {
                    want = as[i] % bs[i];
                    if (!fmod && want != 0 && ((want < 0) != (bs[i] < 0))) want += bs[i];
                }
                QCOMPARE(r.outputs[0].data<int32_t>()[i], want);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestTopiElementwise)
#include "tst_topi_elementwise.moc"
