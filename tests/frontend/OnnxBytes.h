/// \file
/// A tiny protobuf writer for frontend tests: builds ONNX ModelProto and
/// TensorProto bytes by field number, so tests need no protobuf headers
/// (tessel_frontend keeps them private). Field numbers are onnx.proto's.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace onnxbytes {

/// One protobuf message under construction.
class Msg {
public:
    Msg& varint(int field, uint64_t v) {
        key(field, 0);
        putVarint(v);
        return *this;
    }
    Msg& bytes(int field, const std::string& s) {
        key(field, 2);
        putVarint(s.size());
        data_ += s;
        return *this;
    }
    Msg& msg(int field, const Msg& m) { return bytes(field, m.data_); }
    Msg& f32(int field, float v) {
        key(field, 5);
        char b[4];
        std::memcpy(b, &v, 4);
        data_.append(b, 4);
        return *this;
    }
    const std::string& str() const { return data_; }

private:
    void key(int field, int wire) { putVarint(static_cast<uint64_t>(field) << 3 | wire); }
    void putVarint(uint64_t v) {
        while (v >= 0x80) {
            data_ += static_cast<char>(v | 0x80);
            v >>= 7;
        }
        data_ += static_cast<char>(v);
    }
    std::string data_;
};

/// TensorProto with raw_data.
inline Msg tensorRaw(const std::string& name, int dtype, const std::vector<int64_t>& dims,
                     const std::string& raw) {
    Msg t;
    for (int64_t d : dims)
        t.varint(1, static_cast<uint64_t>(d));
    t.varint(2, static_cast<uint64_t>(dtype));
    t.bytes(8, name);
    t.bytes(9, raw);
    return t;
}

/// ValueInfoProto of a tensor; a dim < 0 is written as dim_param "N".
inline Msg valueInfo(const std::string& name, int dtype, const std::vector<int64_t>& dims,
                     bool withShape = true) {
    Msg shape;
    for (int64_t d : dims) {
        Msg dim;
        if (d >= 0)
            dim.varint(1, static_cast<uint64_t>(d));
        else
            dim.bytes(2, "N");
        shape.msg(1, dim);
    }
    Msg tensorType;
    tensorType.varint(1, static_cast<uint64_t>(dtype));
    if (withShape) tensorType.msg(2, shape);
    Msg type;
    type.msg(1, tensorType);
    Msg vi;
    vi.bytes(1, name);
    vi.msg(2, type);
    return vi;
}

/// ValueInfoProto of a tensor whose dimension i is symbolic, named
/// `dimNames[i]`, where `dims[i]` < 0 (and `dimNames[i]` is not empty).
inline Msg valueInfoNamed(const std::string& name, int dtype, const std::vector<int64_t>& dims,
                          const std::vector<std::string>& dimNames) {
    Msg shape;
    for (size_t i = 0; i < dims.size(); ++i) {
        Msg dim;
        if (dims[i] >= 0)
            dim.varint(1, static_cast<uint64_t>(dims[i]));
        else if (i < dimNames.size() && !dimNames[i].empty())
            dim.bytes(2, dimNames[i]);
        shape.msg(1, dim);
    }
    Msg tensorType;
    tensorType.varint(1, static_cast<uint64_t>(dtype));
    tensorType.msg(2, shape);
    Msg type;
    type.msg(1, tensorType);
    Msg vi;
    vi.bytes(1, name);
    vi.msg(2, type);
    return vi;
}

inline Msg node(const std::string& op, const std::vector<std::string>& inputs,
                const std::vector<std::string>& outputs, const std::string& name,
                const std::vector<Msg>& attributes = {}, const std::string& domain = {}) {
    Msg n;
    for (const auto& i : inputs)
        n.bytes(1, i);
    for (const auto& o : outputs)
        n.bytes(2, o);
    n.bytes(3, name);
    n.bytes(4, op);
    for (const auto& a : attributes)
        n.msg(5, a);
    if (!domain.empty()) n.bytes(7, domain);
    return n;
}

inline Msg intAttr(const std::string& name, int64_t v) {
    Msg a;
    a.bytes(1, name);
    a.varint(3, static_cast<uint64_t>(v));
    a.varint(20, 2);
    return a;
}

inline Msg intsAttr(const std::string& name, const std::vector<int64_t>& v) {
    Msg a;
    a.bytes(1, name);
    for (int64_t x : v)
        a.varint(8, static_cast<uint64_t>(x));
    a.varint(20, 7);
    return a;
}

/// AttributeProto of type GRAPH holding `g`.
inline Msg graphAttr(const std::string& name, const Msg& g) {
    Msg a;
    a.bytes(1, name);
    a.msg(6, g);
    a.varint(20, 5);
    return a;
}

inline Msg graph(const std::vector<Msg>& nodes, const std::vector<Msg>& inputs,
                 const std::vector<Msg>& outputs, const std::vector<Msg>& initializers = {}) {
    Msg g;
    for (const auto& n : nodes)
        g.msg(1, n);
    g.bytes(2, "g");
    for (const auto& t : initializers)
        g.msg(5, t);
    for (const auto& i : inputs)
        g.msg(11, i);
    for (const auto& o : outputs)
        g.msg(12, o);
    return g;
}

inline std::string model(const Msg& graph, int64_t opset, const std::string& domain = {}) {
    Msg opsetId;
    if (!domain.empty()) opsetId.bytes(1, domain);
    opsetId.varint(2, static_cast<uint64_t>(opset));
    Msg m;
    m.varint(1, 8);
    m.msg(7, graph);
    m.msg(8, opsetId);
    return m.str();
}

constexpr int kFloat = 1;
constexpr int kInt64 = 7;
constexpr int kFloat16 = 10;

} // namespace onnxbytes
