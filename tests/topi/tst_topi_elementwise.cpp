// The element-wise and broadcast computes against ONNX's node tests.
#include "TopiTestUtil.h"

#include <QtTest>

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
              "test_min_two_inputs", "test_min_float64"})
            QTest::newRow(n) << QString(n);
    }
    void nodeTests() {
        QFETCH(QString, name);
        auto r = tessel::topi::test::runNodeTest(name.toStdString());
        QVERIFY2(r.failure.empty(), r.failure.c_str());
    }
};

QTEST_GUILESS_MAIN(TestTopiElementwise)
#include "tst_topi_elementwise.moc"
