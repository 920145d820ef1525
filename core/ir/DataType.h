/// \file
/// Scalar and vector data types shared by every IR.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tessel {

/// A type code, a bit width and a lane count (1 for scalars), as in TVM's DLDataType.
class DataType {
public:
    enum class Code : uint8_t { Int, UInt, Float, Handle, Void };

    constexpr DataType() = default;
    constexpr DataType(Code code, int bits, int lanes = 1)
        : code_(code), bits_(static_cast<uint8_t>(bits)), lanes_(static_cast<uint16_t>(lanes)) {}

    static constexpr DataType int32(int lanes = 1) { return {Code::Int, 32, lanes}; }
    static constexpr DataType int64(int lanes = 1) { return {Code::Int, 64, lanes}; }
    static constexpr DataType int8(int lanes = 1) { return {Code::Int, 8, lanes}; }
    static constexpr DataType uint8(int lanes = 1) { return {Code::UInt, 8, lanes}; }
    static constexpr DataType float32(int lanes = 1) { return {Code::Float, 32, lanes}; }
    static constexpr DataType float64(int lanes = 1) { return {Code::Float, 64, lanes}; }
    static constexpr DataType boolean(int lanes = 1) { return {Code::UInt, 1, lanes}; }
    static constexpr DataType handle() { return {Code::Handle, 64, 1}; }
    static constexpr DataType voidType() { return {Code::Void, 0, 1}; }

    constexpr Code code() const { return code_; }
    constexpr int bits() const { return bits_; }
    constexpr int lanes() const { return lanes_; }
    constexpr int bytes() const { return (bits_ + 7) / 8; }

    constexpr bool isInt() const { return code_ == Code::Int; }
    constexpr bool isUInt() const { return code_ == Code::UInt && bits_ != 1; }
    constexpr bool isBool() const { return code_ == Code::UInt && bits_ == 1; }
    constexpr bool isIntOrUInt() const { return code_ == Code::Int || code_ == Code::UInt; }
    constexpr bool isFloat() const { return code_ == Code::Float; }
    constexpr bool isHandle() const { return code_ == Code::Handle; }
    constexpr bool isVoid() const { return code_ == Code::Void; }
    constexpr bool isScalar() const { return lanes_ == 1; }
    constexpr bool isVector() const { return lanes_ > 1; }

    constexpr DataType withLanes(int lanes) const { return {code_, bits_, lanes}; }
    constexpr DataType element() const { return withLanes(1); }
    constexpr DataType withBits(int bits) const { return {code_, bits, lanes_}; }

    constexpr bool operator==(const DataType&) const = default;

    /// "float32", "int64x8", "bool", "handle".
    std::string str() const;
    /// Parses what str() prints; nullopt when the text names no type.
    static std::optional<DataType> parse(std::string_view text);

private:
    Code code_ = Code::Void;
    uint8_t bits_ = 0;
    uint16_t lanes_ = 1;
};

} // namespace tessel
