/// \file
/// Tests of the TensorProto reader: ONNX's test-data tensors read from file
/// equal the same tensors re-encoded here as raw_data and as typed fields,
/// and bad data gives a clear error.
#include "OnnxBytes.h"

#include "frontend/TensorProto.h"
#include "ir/Diagnostic.h"
#include "ir/Half.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace tessel;
using namespace tessel::frontend;
namespace ob = onnxbytes;

namespace {

const std::string kData = "/usr/share/libonnx-testdata/data/";

template <class F> std::string errorOf(F&& f) {
    try {
        f();
    } catch (const CompileError& e) {
        return e.what();
    }
    return "";
}

/// The ONNX type code of a dtype the tests use.
int onnxCode(DataType t) {
    if (t == DataType::float32()) return 1;
    if (t == DataType::float64()) return 11;
    if (t == DataType::int64()) return 7;
    if (t == DataType::int32()) return 6;
    if (t == DataType::boolean()) return 9;
    if (t == DataType(DataType::Code::UInt, 8)) return 2;
    if (t == DataType(DataType::Code::Int, 8)) return 3;
    return 0;
}

} // namespace

class TestTensorProto : public QObject {
    Q_OBJECT

private slots:
    void testDataMatchesRawEncoding_data();
    void testDataMatchesRawEncoding();
    void typedFields();
    void halfTypesReadAsFloat32();
    void errors();
};

void TestTensorProto::halfTypesReadAsFloat32() {
    // ONNX's cast tests hold the same values as float16 and as float32: a
    // float16 tensor reads as float32 exactly, and a float32 one rounded to
    // float16 (ir/Half.h) is what ONNX's reference wrote.
    const std::string dir = kData + "node/test_cast_FLOAT16_to_FLOAT/test_data_set_0/";
    if (!std::filesystem::exists(dir)) QSKIP("ONNX test data not installed");
    auto half = readTensorProto(dir + "input_0.pb").value;
    auto single = readTensorProto(dir + "output_0.pb").value;
    QCOMPARE(half->dtype, DataType::float32());
    QCOMPARE(half->shape, single->shape);
    QVERIFY(half->numElements() > 4);
    QCOMPARE(half->bytes, single->bytes); // bit for bit, NaNs included

    const std::string back = kData + "node/test_cast_FLOAT_to_FLOAT16/test_data_set_0/";
    auto from = readTensorProto(back + "input_0.pb").value;
    auto to = readTensorProto(back + "output_0.pb").value;
    QCOMPARE(from->numElements(), to->numElements());
    const auto* f = reinterpret_cast<const float*>(from->bytes.data());
    const auto* t = reinterpret_cast<const float*>(to->bytes.data());
    for (int64_t i = 0; i < from->numElements(); ++i) {
        const float rounded = halfToFloat(floatToHalf(f[i]));
        if (std::isnan(f[i]))
            QVERIFY(std::isnan(t[i]));
        else
            QCOMPARE(rounded, t[i]);
    }

    // Typed fields: float16 and bfloat16 bits one per int32_data entry.
    ob::Msg h;
    h.varint(1, 3).varint(2, 10);
    for (int bits : {0x3c00, 0xc000, 0x0001}) h.varint(5, static_cast<uint64_t>(bits));
    h.bytes(8, "h");
    auto ht = readTensorProtoBytes(h.str(), "h.pb").value;
    QCOMPARE(ht->toDoubles(), (std::vector<double>{1.0, -2.0, std::ldexp(1.0, -24)}));
    ob::Msg b;
    b.varint(1, 2).varint(2, 16).varint(5, 0x3f80).varint(5, 0xc0a0).bytes(8, "b");
    auto bt = readTensorProtoBytes(b.str(), "b.pb").value;
    QCOMPARE(bt->dtype, DataType::float32());
    QCOMPARE(bt->toDoubles(), (std::vector<double>{1.0, -5.0}));
}

void TestTensorProto::testDataMatchesRawEncoding_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("type");
    QTest::newRow("relu x") << "node/test_relu/test_data_set_0/input_0.pb"
                            << "float32[3, 4, 5]";
    QTest::newRow("conv x") << "node/test_conv_with_strides_padding/test_data_set_0/input_0.pb"
                            << "float32[1, 1, 7, 5]";
    QTest::newRow("conv y") << "node/test_conv_with_strides_padding/test_data_set_0/output_0.pb"
                            << "float32[1, 1, 4, 3]";
    QTest::newRow("Conv2d x") << "pytorch-converted/test_Conv2d/test_data_set_0/input_0.pb"
                              << "";
    QTest::newRow("cast int64") << "node/test_argmax_default_axis_example/test_data_set_0/output_0.pb"
                                << "int64[1, 2]";
}

void TestTensorProto::testDataMatchesRawEncoding() {
    QFETCH(QString, file);
    QFETCH(QString, type);
    const std::string path = kData + file.toStdString();
    if (!std::filesystem::exists(path)) QSKIP("ONNX test data not installed");
    NamedTensor t = readTensorProto(path);
    QVERIFY(t.value.defined());
    if (!type.isEmpty()) QCOMPARE(t.value->type().str(), type.toStdString());
    QCOMPARE(static_cast<int64_t>(t.value->bytes.size()),
             t.value->numElements() * t.value->dtype.bytes());

    // The same tensor written as raw_data here reads back identically.
    const int code = onnxCode(t.value->dtype);
    QVERIFY(code != 0);
    const std::string raw(reinterpret_cast<const char*>(t.value->bytes.data()),
                          t.value->bytes.size());
    NamedTensor again =
        readTensorProtoBytes(ob::tensorRaw(t.name, code, t.value->shape, raw).str());
    QCOMPARE(again.name, t.name);
    QCOMPARE(again.value->type().str(), t.value->type().str());
    QVERIFY(again.value->bytes == t.value->bytes);

    // And as typed fields (float_data / int64_data).
    if (code == 1 || code == 7) {
        ob::Msg typed;
        for (int64_t d : t.value->shape)
            typed.varint(1, static_cast<uint64_t>(d));
        typed.varint(2, static_cast<uint64_t>(code));
        typed.bytes(8, t.name);
        if (code == 1) {
            for (double v : t.value->toDoubles())
                typed.f32(4, static_cast<float>(v));
        } else {
            for (int64_t v : t.value->toInts())
                typed.varint(7, static_cast<uint64_t>(v));
        }
        NamedTensor fromTyped = readTensorProtoBytes(typed.str());
        QVERIFY(fromTyped.value->bytes == t.value->bytes);
    }
}

void TestTensorProto::typedFields() {
    // int32_data carries int8, uint8, bool and int32; double_data doubles.
    ob::Msg i8;
    i8.varint(1, 3).varint(2, 3).bytes(8, "a");
    for (int64_t v : {-1, 0, 127})
        i8.varint(5, static_cast<uint64_t>(v));
    NamedTensor a = readTensorProtoBytes(i8.str());
    QCOMPARE(a.name, std::string("a"));
    QCOMPARE(a.value->type().str(), std::string("int8[3]"));
    QCOMPARE(a.value->toInts(), (std::vector<int64_t>{-1, 0, 127}));

    ob::Msg b;
    b.varint(1, 2).varint(2, 9).varint(5, 1).varint(5, 0);
    QCOMPARE(readTensorProtoBytes(b.str()).value->toInts(), (std::vector<int64_t>{1, 0}));

    ob::Msg d;
    d.varint(2, 11);
    const double v = 2.5;
    d.bytes(10, std::string(reinterpret_cast<const char*>(&v), 8));
    NamedTensor scalar = readTensorProtoBytes(d.str());
    QCOMPARE(scalar.value->type().str(), std::string("float64[]"));
    QCOMPARE(scalar.value->toDoubles(), std::vector<double>{2.5});

    ob::Msg u8;
    u8.varint(1, 2).varint(2, 2).bytes(9, std::string("\x01\xff", 2));
    QCOMPARE(readTensorProtoBytes(u8.str()).value->toInts(), (std::vector<int64_t>{1, 255}));
}

void TestTensorProto::errors() {
    QCOMPARE(errorOf([] { readTensorProto("/nonexistent/input_0.pb"); }),
             std::string("/nonexistent/input_0.pb: cannot read the file"));
    QCOMPARE(errorOf([] { readTensorProtoBytes("", "in.pb"); }),
             std::string("in.pb: not a valid TensorProto (no element type)"));
    QCOMPARE(errorOf([] { readTensorProtoBytes(std::string("\xff\xff\xff", 3), "in.pb"); }),
             std::string("in.pb: not a valid TensorProto (malformed or truncated data)"));
    QCOMPARE(errorOf([] {
                 readTensorProtoBytes(ob::tensorRaw("h", 10, {2}, std::string(3, '\0')).str(),
                                      "in.pb");
             }),
             std::string("in.pb: tensor 'h': raw_data holds 3 bytes, but 2 elements of FLOAT16 "
                         "need 4"));
    QCOMPARE(errorOf([] {
                 readTensorProtoBytes(ob::tensorRaw("s", 8, {1}, "").str(), "in.pb");
             }),
             std::string("in.pb: tensor 's': element type STRING is not supported"));
    QCOMPARE(errorOf([] {
                 readTensorProtoBytes(ob::tensorRaw("f", 1, {3}, std::string(8, '\0')).str(),
                                      "in.pb");
             }),
             std::string("in.pb: tensor 'f': raw_data holds 8 bytes, but 3 elements of FLOAT "
                         "need 12"));
    ob::Msg missing;
    missing.varint(1, 2).varint(2, 1).bytes(8, "m").f32(4, 1.0f);
    QCOMPARE(errorOf([&] { readTensorProtoBytes(missing.str(), "in.pb"); }),
             std::string("in.pb: tensor 'm': float_data holds 1 elements, but the dims give 2"));
    // A real file cut in half.
    const std::string path = kData + "node/test_relu/test_data_set_0/input_0.pb";
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), {});
    QVERIFY(!bytes.empty());
    const std::string msg =
        errorOf([&] { readTensorProtoBytes(bytes.substr(0, bytes.size() / 2), "half.pb"); });
    QCOMPARE(msg, std::string("half.pb: not a valid TensorProto (malformed or truncated data)"));
}

QTEST_APPLESS_MAIN(TestTensorProto)
#include "tst_tensorproto.moc"
