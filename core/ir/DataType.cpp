#include "ir/DataType.h"

#include <charconv>

namespace tessel {

std::string DataType::str() const {
    std::string s;
    switch (code_) {
    case Code::Int: s = "int" + std::to_string(bits_); break;
    case Code::UInt: s = bits_ == 1 ? "bool" : "uint" + std::to_string(bits_); break;
    case Code::Float: s = "float" + std::to_string(bits_); break;
    case Code::Handle: return "handle";
    case Code::Void: return "void";
    }
    if (lanes_ > 1) s += "x" + std::to_string(lanes_);
    return s;
}

std::optional<DataType> DataType::parse(std::string_view t) {
    auto number = [](std::string_view s, int& out) {
        if (s.empty()) return false;
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
        return ec == std::errc() && p == s.data() + s.size();
    };
    if (t == "handle") return handle();
    if (t == "void") return voidType();
    int lanes = 1;
    if (auto x = t.find('x'); x != std::string_view::npos) {
        if (!number(t.substr(x + 1), lanes) || lanes < 1) return std::nullopt;
        t = t.substr(0, x);
    }
    int bits = 0;
    if (t == "bool") return boolean(lanes);
    if (t.starts_with("float") && number(t.substr(5), bits) && (bits == 16 || bits == 32 || bits == 64))
        return DataType(Code::Float, bits, lanes);
    if (t.starts_with("uint") && number(t.substr(4), bits) && (bits == 8 || bits == 16 || bits == 32 || bits == 64))
        return DataType(Code::UInt, bits, lanes);
    if (t.starts_with("int") && number(t.substr(3), bits) && (bits == 8 || bits == 16 || bits == 32 || bits == 64))
        return DataType(Code::Int, bits, lanes);
    return std::nullopt;
}

} // namespace tessel
