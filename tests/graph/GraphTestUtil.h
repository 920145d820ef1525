/// \file
/// Small helpers shared by the graph tests: types, constants, attributes and
/// one-node graphs from text, and printed graphs.
#pragma once

#include "graph/Graph.h"
#include "graph/GraphPrinter.h"
#include "ir/Diagnostic.h"

#include <QString>
#include <QtGlobal>

#include <functional>
#include <string>
#include <vector>

namespace tessel::graph::test {

/// A TensorType written as text ("float32[1, 3, 224, 224]"); a bad one ends the test.
inline TensorType type(const std::string& text) {
    auto t = TensorType::parse(text);
    if (!t) qFatal("bad type in test: %s", text.c_str());
    return *t;
}

/// The printed graph without constant values (they are checked numerically).
inline std::string text(const Graph& g) {
    GraphPrintOptions o;
    o.maxConstantElements = 0;
    return printGraph(g, o).text;
}

/// `s` cut at every `sep` (nothing for an empty string).
inline std::vector<std::string> split(const std::string& s, const std::string& sep) {
    std::vector<std::string> out;
    if (s.empty()) return out;
    size_t pos = 0;
    while (true) {
        size_t next = s.find(sep, pos);
        out.push_back(s.substr(pos, next - pos));
        if (next == std::string::npos) break;
        pos = next + sep.size();
    }
    return out;
}

/// A constant from `TYPE=v,v,...` (zeros without `=`).
inline Ref<Constant> parseConstant(const std::string& text) {
    auto eq = text.find('=');
    TensorType t = type(text.substr(0, eq));
    if (eq == std::string::npos) return Constant::zeros(t.dtype, t.shape);
    std::vector<int64_t> ints;
    std::vector<double> floats;
    for (const auto& x : split(text.substr(eq + 1), ",")) {
        ints.push_back(std::stoll(x));
        floats.push_back(std::stod(x));
    }
    return t.dtype.isFloat() ? Constant::fromFloats(t.shape, floats, t.dtype)
                             : Constant::fromInts(t.shape, ints, t.dtype);
}

/// `5` (int), `0.5` (float), `"SAME_UPPER"` (string), `[1,1]` (ints), `[0.5,1.0]` (floats),
/// `tensor int32[1]=5` (a tensor).
inline AttrValue parseAttr(const std::string& v) {
    if (v.starts_with("tensor ")) return parseConstant(v.substr(7));
    if (v.front() == '"') return v.substr(1, v.size() - 2);
    if (v.front() == '[') {
        std::string body = v.substr(1, v.size() - 2);
        if (body.find('.') != std::string::npos) {
            std::vector<double> d;
            for (const auto& x : split(body, ","))
                d.push_back(std::stod(x));
            return d;
        }
        std::vector<int64_t> i;
        for (const auto& x : split(body, ","))
            i.push_back(std::stoll(x));
        return i;
    }
    if (v.find('.') != std::string::npos) return std::stod(v);
    return int64_t(std::stoll(v));
}

/// A one-node graph from the table's text: inputs are `;`-separated types
/// (graph inputs), `const TYPE=v,v` (constants; zeros without `=`) or `none`.
inline Graph oneNode(const std::string& op, const std::string& inputs, const std::string& attrs,
                     int numOutputs) {
    Graph g("t");
    std::vector<Value> ins;
    int k = 0;
    for (const auto& in : split(inputs, ";")) {
        std::string name = "i";
        name.append(std::to_string(k++));
        if (in == "none") {
            ins.emplace_back();
        } else if (in.starts_with("const ")) {
            ins.push_back(g.addConstant(name, parseConstant(in.substr(6))));
        } else {
            ins.push_back(g.addInput(name, type(in)));
        }
    }
    Attributes a;
    for (const auto& kv : split(attrs, ";")) {
        auto eq = kv.find('=');
        a.set(kv.substr(0, eq), parseAttr(kv.substr(eq + 1)));
    }
    g.setOutputs(g.addNode(op, ins, a, numOutputs, "n")->outputs());
    return g;
}

/// The message of the CompileError `f` throws, or an empty string.
inline QString compileErrorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const CompileError& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

/// How many operator nodes of `g` apply `op`.
inline int countOps(const Graph& g, const std::string& op) {
    int n = 0;
    for (const auto& node : g.nodes())
        if (node->op == op) ++n;
    return n;
}

/// The first operator node of `g` that applies `op`, or null.
inline const Node* firstNode(const Graph& g, const std::string& op) {
    for (const auto& node : g.nodes())
        if (node->op == op) return node.get();
    return nullptr;
}

} // namespace tessel::graph::test
