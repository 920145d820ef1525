/// \file
/// TensorProto reading, and the conversion of TensorProto messages to
/// constants that the ONNX importer shares (OnnxProtoConvert.h).
#include "frontend/TensorProto.h"

#include "frontend/OnnxProtoConvert.h"
#include "ir/Diagnostic.h"
#include "ir/Half.h"

#include <bit>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

namespace tessel::frontend {

namespace detail {

static_assert(std::endian::native == std::endian::little,
              "ONNX raw_data is little-endian; a big-endian host needs byte swapping");

std::string onnxTypeName(int64_t code) {
    if (code >= 0 && code <= std::numeric_limits<int>::max() &&
        onnx::TensorProto_DataType_IsValid(static_cast<int>(code)))
        return onnx::TensorProto_DataType_Name(static_cast<onnx::TensorProto_DataType>(code));
    return "type " + std::to_string(code);
}

std::string readFileBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw CompileError(path + ": cannot read the file");
    std::ostringstream s;
    s << in.rdbuf();
    if (in.bad()) throw CompileError(path + ": cannot read the file");
    return std::move(s).str();
}

namespace {

/// Copies typed-field values into a byte buffer of element type T.
template <class T, class Field>
std::vector<uint8_t> packAs(const Field& field) {
    std::vector<uint8_t> bytes(static_cast<size_t>(field.size()) * sizeof(T));
    for (int i = 0; i < field.size(); ++i) {
        const T v = static_cast<T>(field.Get(i));
        std::memcpy(bytes.data() + static_cast<size_t>(i) * sizeof(T), &v, sizeof(T));
    }
    return bytes;
}

} // namespace

Ref<graph::Constant> constantFromTensorProto(const onnx::TensorProto& t,
                                             const std::string& context) {
    const std::string who = context + " '" + t.name() + "'";
    auto fail = [&](const std::string& message) -> CompileError {
        return CompileError(who + ": " + message);
    };
    if (t.has_data_location() && t.data_location() == onnx::TensorProto::EXTERNAL)
        throw fail("external data is not supported (store the weights inside the model)");
    if (t.has_segment()) throw fail("segmented tensors are not supported");
    const int code = t.data_type();
    // Float16 and bfloat16 are read as float32 (what Tessel computes in).
    const bool half = code == onnx::TensorProto::FLOAT16 || code == onnx::TensorProto::BFLOAT16;
    auto dtype = half ? std::optional<DataType>(DataType::float32()) : graph::dataTypeFromOnnx(code);
    if (!dtype) throw fail("element type " + onnxTypeName(code) + " is not supported");

    std::vector<int64_t> shape;
    int64_t n = 1;
    for (int64_t d : t.dims()) {
        if (d < 0) throw fail("dimension " + std::to_string(d) + " is negative");
        if (d != 0 && n > std::numeric_limits<int64_t>::max() / 16 / d)
            throw fail("the tensor is too large");
        n *= d;
        shape.push_back(d);
    }
    const size_t elemBytes = static_cast<size_t>(dtype->bytes());
    const size_t count = static_cast<size_t>(n);

    std::vector<uint8_t> bytes;
    if (half) {
        // Two bytes an element in raw_data, or one element per int32_data entry.
        std::vector<uint16_t> bits;
        if (t.has_raw_data()) {
            const std::string& raw = t.raw_data();
            if (raw.size() != count * 2)
                throw fail("raw_data holds " + std::to_string(raw.size()) + " bytes, but " +
                           std::to_string(count) + " elements of " + onnxTypeName(code) +
                           " need " + std::to_string(count * 2));
            bits.resize(count);
            if (count) std::memcpy(bits.data(), raw.data(), count * 2);
        } else {
            if (static_cast<size_t>(t.int32_data_size()) != count)
                throw fail("int32_data holds " + std::to_string(t.int32_data_size()) +
                           " elements, but the dims give " + std::to_string(count));
            for (int i = 0; i < t.int32_data_size(); ++i)
                bits.push_back(static_cast<uint16_t>(t.int32_data(i)));
        }
        bytes.resize(count * 4);
        for (size_t i = 0; i < count; ++i) {
            const float f = code == onnx::TensorProto::FLOAT16 ? halfToFloat(bits[i])
                                                                : bfloat16ToFloat(bits[i]);
            std::memcpy(bytes.data() + i * 4, &f, 4);
        }
    } else if (t.has_raw_data()) {
        const std::string& raw = t.raw_data();
        if (raw.size() != count * elemBytes)
            throw fail("raw_data holds " + std::to_string(raw.size()) + " bytes, but " +
                       std::to_string(count) + " elements of " + onnxTypeName(code) + " need " +
                       std::to_string(count * elemBytes));
        bytes.assign(raw.begin(), raw.end());
    } else {
        size_t have = 0;
        const char* field = "";
        switch (code) {
        case onnx::TensorProto::FLOAT:
            bytes = packAs<float>(t.float_data());
            have = static_cast<size_t>(t.float_data_size());
            field = "float_data";
            break;
        case onnx::TensorProto::DOUBLE:
            bytes = packAs<double>(t.double_data());
            have = static_cast<size_t>(t.double_data_size());
            field = "double_data";
            break;
        case onnx::TensorProto::INT64:
            bytes = packAs<int64_t>(t.int64_data());
            have = static_cast<size_t>(t.int64_data_size());
            field = "int64_data";
            break;
        case onnx::TensorProto::INT32:
            bytes = packAs<int32_t>(t.int32_data());
            have = static_cast<size_t>(t.int32_data_size());
            field = "int32_data";
            break;
        case onnx::TensorProto::INT16:
            bytes = packAs<int16_t>(t.int32_data());
            have = static_cast<size_t>(t.int32_data_size());
            field = "int32_data";
            break;
        case onnx::TensorProto::UINT16:
            bytes = packAs<uint16_t>(t.int32_data());
            have = static_cast<size_t>(t.int32_data_size());
            field = "int32_data";
            break;
        case onnx::TensorProto::INT8:
            bytes = packAs<int8_t>(t.int32_data());
            have = static_cast<size_t>(t.int32_data_size());
            field = "int32_data";
            break;
        case onnx::TensorProto::UINT8:
            bytes = packAs<uint8_t>(t.int32_data());
            have = static_cast<size_t>(t.int32_data_size());
            field = "int32_data";
            break;
        case onnx::TensorProto::BOOL: {
            bytes.resize(static_cast<size_t>(t.int32_data_size()));
            for (int i = 0; i < t.int32_data_size(); ++i)
                bytes[static_cast<size_t>(i)] = t.int32_data(i) != 0 ? 1 : 0;
            have = bytes.size();
            field = "int32_data";
            break;
        }
        case onnx::TensorProto::UINT32:
            bytes = packAs<uint32_t>(t.uint64_data());
            have = static_cast<size_t>(t.uint64_data_size());
            field = "uint64_data";
            break;
        case onnx::TensorProto::UINT64:
            bytes = packAs<uint64_t>(t.uint64_data());
            have = static_cast<size_t>(t.uint64_data_size());
            field = "uint64_data";
            break;
        default:
            throw fail("element type " + onnxTypeName(code) + " is not supported");
        }
        if (have != count)
            throw fail(std::string(field) + " holds " + std::to_string(have) + " elements, but " +
                       "the dims give " + std::to_string(count));
    }
    if (dtype->isBool())
        for (uint8_t& b : bytes)
            b = b != 0 ? 1 : 0;
    return graph::Constant::make(*dtype, std::move(shape), std::move(bytes));
}

} // namespace detail

NamedTensor readTensorProtoBytes(std::string_view bytes, const std::string& what) {
    if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()))
        throw CompileError(what + ": the data is too large (2 GiB or more)");
    onnx::TensorProto t;
    if (!t.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
        throw CompileError(what + ": not a valid TensorProto (malformed or truncated data)");
    if (!t.has_data_type() || t.data_type() == onnx::TensorProto::UNDEFINED)
        throw CompileError(what + ": not a valid TensorProto (no element type)");
    NamedTensor result;
    result.name = t.name();
    result.value = detail::constantFromTensorProto(t, what + ": tensor");
    return result;
}

NamedTensor readTensorProto(const std::string& path) {
    return readTensorProtoBytes(detail::readFileBytes(path), path);
}

} // namespace tessel::frontend
