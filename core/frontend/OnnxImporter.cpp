/// \file
/// The ONNX importer (OnnxImporter.h): ModelProto -> graph::Graph.
///
/// The importer walks the ONNX graph once, in its (topological) node order.
/// Each node is converted, normalised to the registry's opset-13 form and
/// typed at once with the registry's inference function, so an error names
/// the ONNX node where it happens and normalisations that depend on an
/// input's rank (Softmax before opset 13) can see it. graph::inferShapes
/// runs over the finished graph as the final check.
#include "frontend/OnnxImporter.h"

#include "frontend/OnnxInferenceGuard.h"
#include "frontend/OnnxProtoConvert.h"
#include "graph/ConstantEval.h"
#include "graph/OpRegistry.h"
#include "graph/Unsupported.h"
#include "graph/passes/InferShapes.h"
#include "ir/Diagnostic.h"

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <charconv>
#include <limits>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace tessel::frontend {

using graph::AttrValue;
using graph::Attributes;
using graph::Constant;
using graph::Node;
using graph::TensorType;
using graph::Value;

std::pair<std::string, std::vector<int64_t>> parseInputShapeBinding(std::string_view text) {
    auto bad = [&](const std::string& why) {
        return CompileError("invalid input shape '" + std::string(text) + "': " + why +
                            " (expected NAME:D0,D1,..., e.g. x:1,3,224,224)");
    };
    const size_t colon = text.rfind(':');
    if (colon == std::string_view::npos) throw bad("no ':' between the name and the dimensions");
    std::string name(text.substr(0, colon));
    if (name.empty()) throw bad("the input name is empty");
    std::string_view dims = text.substr(colon + 1);
    std::vector<int64_t> shape;
    if (dims.empty()) return {name, shape};
    size_t pos = 0;
    while (true) {
        size_t comma = dims.find(',', pos);
        if (comma == std::string_view::npos) comma = dims.size();
        std::string_view d = dims.substr(pos, comma - pos);
        while (!d.empty() && d.front() == ' ')
            d.remove_prefix(1);
        while (!d.empty() && d.back() == ' ')
            d.remove_suffix(1);
        if (d == "?") {
            shape.push_back(-1);
        } else {
            int64_t v = 0;
            auto [p, ec] = std::from_chars(d.data(), d.data() + d.size(), v);
            if (d.empty() || ec != std::errc() || p != d.data() + d.size() || v < -1)
                throw bad("'" + std::string(d) + "' is not a dimension");
            shape.push_back(v);
        }
        if (comma == dims.size()) break;
        pos = comma + 1;
    }
    return {name, shape};
}

namespace {

/// The message of a type inference error without the node's own prefix
/// (the importer words where it is itself).
std::string withoutNodePrefix(const CompileError& e, const graph::Node& node) {
    std::string msg = e.what();
    const std::string prefix = node.describe() + ": ";
    if (msg.rfind(prefix, 0) == 0) msg = msg.substr(prefix.size());
    return msg;
}

std::string shapeText(const std::vector<int64_t>& s) {
    std::string t = "[";
    for (size_t i = 0; i < s.size(); ++i) {
        if (i) t += ", ";
        t += s[i] < 0 ? std::string("?") : std::to_string(s[i]);
    }
    return t + "]";
}

std::string attrTypeName(int type) {
    if (onnx::AttributeProto_AttributeType_IsValid(type))
        return onnx::AttributeProto_AttributeType_Name(
            static_cast<onnx::AttributeProto_AttributeType>(type));
    return "type " + std::to_string(type);
}

/// The model's name for an element type Tessel holds as float32, or null.
const char* storedFloatName(int64_t code) {
    if (code == onnx::TensorProto::FLOAT16) return "float16";
    if (code == onnx::TensorProto::BFLOAT16) return "bfloat16";
    return nullptr;
}


/// The state of one import (of the model's graph, or of one subgraph: then
/// `parent` is the importer of the graph that holds it).
class Importer {
public:
    Importer(const ImportOptions& options, std::string model, Importer* parent = nullptr)
        : options_(options), ops_(graph::opsOrDefault(options.ops)), model_(std::move(model)),
          parent_(parent) {
        if (parent) {
            opset_ = parent->opset_;
            opsetProblem_ = parent->opsetProblem_;
        }
    }

    graph::Graph run(const onnx::ModelProto& m);
    int64_t readOpset(const onnx::ModelProto& m);

private:
    /// Imports a graph-valued attribute as a graph of its own.
    graph::Graph runSubgraph(const onnx::GraphProto& gp, const std::string& title);
    /// The value called `name` here or in an enclosing graph (a subgraph
    /// reading the outer scope becomes an input of the subgraph); undefined
    /// when there is none.
    Value lookup(const std::string& name);
    const Value* findOuter(const std::string& name) const;
    /// Appends an opaque node for a construct that cannot be compiled.
    void emitOpaque(const onnx::NodeProto& n, std::vector<Value> inputs, Attributes attrs,
                    std::vector<graph::Subgraph> subgraphs,
                    const std::vector<std::string>& outputs, const std::string& who,
                    std::string reason);
    /// The message of an error about `who`, without the model's and who's prefixes.
    std::string reasonOf(const CompileError& e, const std::string& who) const;

    CompileError error(const std::string& message) const {
        return CompileError(model_ + ": " + message);
    }
    std::string describe(const onnx::NodeProto& n, int index) const;
    std::optional<TensorType> typeOf(const onnx::TypeProto& t, const std::string& who,
                                     bool required) const;
    void addInputs(const onnx::GraphProto& gp);
    /// The attribute's value; for kinds Tessel does not compute with
    /// (STRINGS, TENSORS, a tensor it cannot hold, ...) its printed text, with
    /// `unsupported` set to why. Graph attributes are not values (runSubgraph).
    AttrValue convertAttr(const onnx::AttributeProto& a, const std::string& who,
                          std::string& unsupported) const;
    /// Imports node `index` of the graph (and, for the model's graph,
    /// records in checkedNodes_ whether the registry checked it).
    void importNode(const onnx::NodeProto& n, int index);
    void convertOrOpaque(const onnx::NodeProto& n, int index);
    /// The node normalised to the registry's form and emitted; throws
    /// CompileError for anything that keeps it from compiling.
    void convertNode(const onnx::NodeProto& n, const std::string& who, std::vector<Value> inputs,
                     Attributes attrs, const std::vector<std::string>& outputs);
    /// An If, Loop or Scan with its subgraphs as a control-flow node
    /// (Node::makeControlFlow); throws CompileError for a form it does not take.
    void emitControlFlow(const onnx::NodeProto& n, const std::string& who, std::vector<Value> inputs,
                         Attributes attrs, std::vector<graph::Subgraph> subgraphs,
                         const std::vector<std::string>& outputs);
    void addConstantNode(const Attributes& attrs, const std::vector<std::string>& outputs,
                         const std::string& who);
    std::vector<Value> emit(const std::string& op, std::vector<Value> inputs, Attributes attrs,
                            std::vector<std::string> outputNames, const std::string& name,
                            const std::string& who);
    Value addConstant(const std::string& base, Ref<Constant> c);
    std::string uniqueName(const std::string& base);
    /// `v` evaluated at import time when it is computed from constants and
    /// static shapes only (small integer shape arithmetic); null otherwise.
    Ref<Constant> foldToConstant(const Value& v, int depth);
    void defineName(const std::string& name, const Value& v, const std::string& who);

    const ImportOptions& options_;
    const graph::OpRegistry& ops_;
    std::string model_;
    Importer* parent_ = nullptr;
    /// A subgraph's reads of outer values, in the order they became inputs.
    std::vector<Value> captured_;
    int64_t opset_ = 0;
    /// Why the model's default-domain opset cannot be read (shown models
    /// only): every default-domain node is then opaque with this reason.
    std::string opsetProblem_;
    graph::Graph g_;
    std::unordered_map<std::string, Value> values_;
    std::set<std::string> used_;
    std::unordered_map<std::string, TensorType> given_;
    /// Types ONNX's own shape inference finds (only when unsupported
    /// constructs are allowed): the types of opaque nodes' outputs and of
    /// what follows them, which Tessel's registry cannot infer. Never checked
    /// against Tessel's inference, only shown.
    std::unordered_map<std::string, TensorType> inferred_;
    /// The type of tensor `name` for a node Tessel does not infer: the
    /// model's, else ONNX's inference's, else unknown.
    TensorType shownType(const std::string& name) const {
        if (name.empty()) return {};
        if (auto it = given_.find(name); it != given_.end()) return it->second;
        if (auto it = inferred_.find(name); it != inferred_.end()) return it->second;
        return {};
    }
    void readInferred(const onnx::GraphProto& gp) {
        for (const auto& vi : gp.value_info())
            if (auto t = typeOf(vi.type(), "value '" + vi.name() + "'", false);
                t && vi.type().tensor_type().has_shape() && !graph::tooManyElements(*t))
                inferred_[vi.name()] = *t;
    }
    /// Node id -> how errors name it ("node 'conv1' (Conv, opset 13)").
    std::unordered_map<int64_t, std::string> who_;
    /// Whether ONNX's inference may run (to show a model); off for the
    /// import that runs first to find what Tessel types itself.
    bool onnxInference_ = true;
    /// Per node of the model's graph: the registry checked it (its operator,
    /// every input typed, every output typed or the node refused).
    std::vector<bool> checkedNodes_;
};

std::string Importer::describe(const onnx::NodeProto& n, int index) const {
    const bool custom = !n.domain().empty() && n.domain() != "ai.onnx";
    const std::string op = n.op_type().empty() ? std::string("?")
                           : custom            ? n.domain() + "." + n.op_type()
                                               : n.op_type();
    const std::string opset = custom ? std::string() : ", opset " + std::to_string(opset_);
    if (!n.name().empty()) return "node '" + n.name() + "' (" + op + opset + ")";
    std::string s = "node #" + std::to_string(index) + " (" + op + opset;
    if (n.output_size() > 0 && !n.output(0).empty()) s += ", output '" + n.output(0) + "'";
    return s + ")";
}

int64_t Importer::readOpset(const onnx::ModelProto& m) {
    bool found = false;
    for (const auto& o : m.opset_import()) {
        if (!o.domain().empty() && o.domain() != "ai.onnx") continue;
        found = true;
        opset_ = o.version();
    }
    if (!found) throw error("the model declares no opset of the default ONNX domain");
    if (opset_ < kMinOnnxOpset || opset_ > kMaxOnnxOpset)
        throw error("opset " + std::to_string(opset_) +
                    " of the default ONNX domain is not supported (Tessel reads opsets " +
                    std::to_string(kMinOnnxOpset) + " to " + std::to_string(kMaxOnnxOpset) + ")");
    return opset_;
}

std::optional<TensorType> Importer::typeOf(const onnx::TypeProto& t, const std::string& who,
                                           bool required) const {
    if (!t.has_tensor_type()) {
        if (required) throw error(who + " is not a tensor (sequences, maps and optionals are not supported)");
        return std::nullopt;
    }
    const auto& tt = t.tensor_type();
    auto dtype = storedFloatName(tt.elem_type()) ? std::optional<DataType>(DataType::float32())
                                                 : graph::dataTypeFromOnnx(tt.elem_type());
    if (!dtype) {
        if (required)
            throw error(who + " has element type " + detail::onnxTypeName(tt.elem_type()) +
                        ", which is not supported");
        return std::nullopt;
    }
    if (!tt.has_shape()) return TensorType(*dtype, {}); // caller decides (rank unknown)
    TensorType type(*dtype, {});
    for (const auto& d : tt.shape().dim())
        type.shape.push_back(d.has_dim_value() && d.dim_value() >= 0 ? d.dim_value() : -1);
    return type;
}

void Importer::defineName(const std::string& name, const Value& v, const std::string& who) {
    if (!used_.insert(name).second)
        throw error(who + ": tensor '" + name + "' is defined twice");
    values_[name] = v;
}

std::string Importer::uniqueName(const std::string& base) {
    std::string name = base;
    for (int i = 1; used_.count(name); ++i)
        name = base + "." + std::to_string(i);
    return name;
}

Value Importer::addConstant(const std::string& base, Ref<Constant> c) {
    const std::string name = uniqueName(base);
    Value v = g_.addConstant(name, std::move(c));
    used_.insert(name);
    values_[name] = v;
    return v;
}

void Importer::addInputs(const onnx::GraphProto& gp) {
    std::set<std::string> initializers;
    for (const auto& t : gp.initializer())
        initializers.insert(t.name());
    std::set<std::string> inputNames;
    for (const auto& in : gp.input())
        if (!initializers.count(in.name())) inputNames.insert(in.name());
    for (const auto& [name, dims] : options_.inputShapes) {
        if (inputNames.count(name) || parent_) continue; // bindings are for the model's inputs
        std::string list;
        for (const auto& n : inputNames)
            list += (list.empty() ? "" : ", ") + n;
        throw error("an input shape is given for '" + name + "', which is not a graph input (" +
                    (list.empty() ? std::string("the model has no inputs") : "inputs: " + list) +
                    ")");
    }
    for (const auto& in : gp.input()) {
        if (initializers.count(in.name())) continue;
        const std::string who = "input '" + in.name() + "'";
        if (in.name().empty()) throw error("a graph input has no name");
        if (parent_ && in.type().value_case() == onnx::TypeProto::VALUE_NOT_SET) {
            // A subgraph's input without a type (ONNX lets the node that
            // holds the subgraph type it, as a Loop's carried value): unknown
            // here, typed from the node's inputs (graph/ops/ControlFlow.cpp).
            if (!used_.insert(in.name()).second) throw error(who + " is declared twice");
            values_[in.name()] = g_.addInput(in.name(), TensorType());
            continue;
        }
        if (!typeOf(in.type(), who, false)) {
            // A sequence, a map, a string tensor: an input the graph cannot hold.
            const std::string reason =
                in.type().has_tensor_type()
                    ? "element type " + detail::onnxTypeName(in.type().tensor_type().elem_type()) +
                          " is not supported"
                    : "the input is not a tensor (sequences, maps and optionals are not supported)";
            if (!used_.insert(in.name()).second) throw error(who + " is declared twice");
            values_[in.name()] =
                g_.addInputNode(Node::makeUnsupportedInput(g_.newId(), in.name(), reason));
            continue;
        }
        if (const char* stored = storedFloatName(in.type().tensor_type().elem_type()))
            g_.setStoredType(in.name(), stored);
        std::optional<TensorType> type = typeOf(in.type(), who, true);
        const bool hasShape = in.type().tensor_type().has_shape();
        auto bound = parent_ ? options_.inputShapes.end() : options_.inputShapes.find(in.name());
        if (bound != options_.inputShapes.end()) {
            const auto& dims = bound->second;
            if (hasShape && dims.size() != type->shape.size())
                throw error(who + " has rank " + std::to_string(type->rank()) + " (" +
                            type->str() + "), but the input shape " + shapeText(dims) + " has " +
                            std::to_string(dims.size()));
            for (size_t i = 0; i < dims.size(); ++i) {
                if (dims[i] < -1)
                    throw error(who + ": dimension " + std::to_string(dims[i]) +
                                " of the input shape is negative");
                if (hasShape && type->shape[i] >= 0 && dims[i] >= 0 && dims[i] != type->shape[i])
                    throw error(who + " is " + type->str() + ", but the input shape " +
                                shapeText(dims) + " gives " + std::to_string(dims[i]) +
                                " for dimension " + std::to_string(i));
            }
            std::vector<int64_t> shape = dims;
            if (hasShape)
                for (size_t i = 0; i < shape.size(); ++i)
                    if (shape[i] < 0) shape[i] = type->shape[i];
            type->shape = shape;
        } else if (!hasShape) {
            if (parent_) {
                type = TensorType(); // a subgraph's input (a Loop's counter): typed by its user
            } else {
                throw error(who + " has no shape in the model; give one (" + in.name() +
                            ":D0,D1,...)");
            }
        }
        if (graph::tooManyElements(*type))
            throw error(who + " is " + type->str() + ": more than 2^53 elements");
        if (!used_.insert(in.name()).second)
            throw error(who + " is declared twice");
        values_[in.name()] = g_.addInput(in.name(), *type);
    }
    for (const auto& t : gp.initializer()) {
        if (t.name().empty()) throw error("an initializer has no name");
        if (used_.count(t.name())) throw error("initializer '" + t.name() + "' is defined twice");
        if (const char* stored = storedFloatName(t.data_type())) g_.setStoredType(t.name(), stored);
        addConstant(t.name(), detail::constantFromTensorProto(t, model_ + ": initializer"));
    }
}

AttrValue Importer::convertAttr(const onnx::AttributeProto& a, const std::string& who,
                                std::string& unsupported) const {
    int type = a.type();
    if (type == onnx::AttributeProto::UNDEFINED) { // writers before IR version 2 left it out
        if (a.has_f()) type = onnx::AttributeProto::FLOAT;
        else if (a.has_i()) type = onnx::AttributeProto::INT;
        else if (a.has_s()) type = onnx::AttributeProto::STRING;
        else if (a.has_t()) type = onnx::AttributeProto::TENSOR;
        else if (a.has_g()) type = onnx::AttributeProto::GRAPH;
        else if (a.floats_size()) type = onnx::AttributeProto::FLOATS;
        else if (a.ints_size()) type = onnx::AttributeProto::INTS;
        else if (a.strings_size()) type = onnx::AttributeProto::STRINGS;
        else if (a.graphs_size()) type = onnx::AttributeProto::GRAPHS;
        else throw error(who + ": attribute '" + a.name() + "' has no value");
    }
    switch (type) {
    case onnx::AttributeProto::FLOAT:
        return static_cast<double>(a.f());
    case onnx::AttributeProto::INT:
        return static_cast<int64_t>(a.i());
    case onnx::AttributeProto::STRING:
        return a.s();
    case onnx::AttributeProto::INTS:
        return std::vector<int64_t>(a.ints().begin(), a.ints().end());
    case onnx::AttributeProto::FLOATS:
        return std::vector<double>(a.floats().begin(), a.floats().end());
    case onnx::AttributeProto::TENSOR:
        try {
            return detail::constantFromTensorProto(a.t(), model_ + ": " + who + ": attribute '" +
                                                              a.name() + "' holds tensor");
        } catch (const CompileError& e) {
            unsupported = reasonOf(e, who);
            return "tensor " + detail::onnxTypeName(a.t().data_type()) + shapeText(std::vector<int64_t>(
                                                                               a.t().dims().begin(), a.t().dims().end()));
        }
    case onnx::AttributeProto::STRINGS: {
        unsupported = "attribute '" + a.name() + "' of type STRINGS is not supported";
        std::string text = "[";
        for (int i = 0; i < a.strings_size(); ++i)
            text += (i ? ", " : "") + a.strings(i);
        return text + "]";
    }
    default:
        // TENSORS, SPARSE_TENSOR(S), TYPE_PROTO(S): shown by kind only.
        unsupported = "attribute '" + a.name() + "' of type " + attrTypeName(type) +
                      " is not supported";
        return attrTypeName(type);
    }
}

std::string Importer::reasonOf(const CompileError& e, const std::string& who) const {
    std::string msg = e.what();
    for (const std::string& prefix : {model_ + ": " + who + ": ", model_ + ": ", who + ": "})
        if (msg.rfind(prefix, 0) == 0) return msg.substr(prefix.size());
    return msg;
}

const Value* Importer::findOuter(const std::string& name) const {
    for (const Importer* p = parent_; p; p = p->parent_)
        if (auto it = p->values_.find(name); it != p->values_.end()) return &it->second;
    return nullptr;
}

Value Importer::lookup(const std::string& name) {
    if (auto it = values_.find(name); it != values_.end()) return it->second;
    const Value* outer = findOuter(name);
    if (!outer) return {};
    // An outer value read by the subgraph: an input of the subgraph here,
    // read from the enclosing graph (which reads it from its own enclosing
    // graph in turn when it is defined further out).
    const Value inParent = parent_->lookup(name);
    Value v = g_.addInput(name, inParent.type());
    used_.insert(name);
    values_[name] = v;
    captured_.push_back(inParent);
    return v;
}

void Importer::emitOpaque(const onnx::NodeProto& n, std::vector<Value> inputs, Attributes attrs,
                          std::vector<graph::Subgraph> subgraphs,
                          const std::vector<std::string>& outputs, const std::string& who,
                          std::string reason) {
    // Outputs take the types the model gives (value_info), else unknown.
    std::vector<TensorType> types;
    for (const auto& o : outputs)
        types.push_back(shownType(o));
    Ref<Node> node = Node::makeOpaque(g_.newId(), n.op_type(), n.domain() == "ai.onnx" ? "" : n.domain(),
                                      std::move(inputs), std::move(attrs), std::move(subgraphs),
                                      std::move(reason), n.name(), std::move(types), outputs);
    g_.append(node);
    who_[node->id] = who;
    for (size_t i = 0; i < outputs.size(); ++i)
        if (!outputs[i].empty() && !values_.count(outputs[i]))
            defineName(outputs[i], node->output(static_cast<int>(i)), who);
}

graph::Graph Importer::runSubgraph(const onnx::GraphProto& gp, const std::string& title) {
    g_ = graph::Graph(gp.name().empty() ? title : gp.name());
    readInferred(gp); // the model's and ONNX's inference's, only shown
    for (const auto& vi : gp.output())
        if (auto t = typeOf(vi.type(), "output '" + vi.name() + "'", false);
            t && vi.type().tensor_type().has_shape() && !graph::tooManyElements(*t))
            given_[vi.name()] = *t;
    addInputs(gp);
    for (int i = 0; i < gp.node_size(); ++i)
        importNode(gp.node(i), i);
    std::vector<Value> outputs;
    for (const auto& o : gp.output()) {
        Value v = lookup(o.name());
        if (!v.defined()) throw error(title + ": output '" + o.name() + "' is not produced by any node");
        outputs.push_back(v);
    }
    g_.setOutputs(std::move(outputs));
    return std::move(g_);
}

std::vector<Value> Importer::emit(const std::string& op, std::vector<Value> inputs,
                                  Attributes attrs, std::vector<std::string> outputNames,
                                  const std::string& name, const std::string& who) {
    if (!ops_.find(op)) throw error(who + ": operator '" + op + "' is not supported");
    const int numOutputs = static_cast<int>(outputNames.size());
    Ref<Node> node = Node::makeOp(g_.newId(), op, inputs, std::move(attrs), numOutputs, name, {},
                                  outputNames);
    std::vector<TensorType> types;
    bool unknownInput = false;
    for (const auto& in : inputs)
        unknownInput = unknownInput || (in.defined() && !in.type().known());
    if (unknownInput) {
        // Behind an opaque node (or a subgraph input without a type): the
        // node keeps the types the model gives, else unknown ones.
        for (const auto& o : outputNames)
            types.push_back(shownType(o));
        node = node->withOutputTypes(std::move(types));
        g_.append(node);
        who_[node->id] = who;
        std::vector<Value> outs = node->outputs();
        for (size_t i = 0; i < outs.size(); ++i)
            if (!outputNames[i].empty()) defineName(outputNames[i], outs[i], who);
        return outs;
    }
    try {
        try {
            types = ops_.inferOutputTypes(*node, inputs);
        } catch (const CompileError&) {
            // A shape computed from other shapes (the expanded functions build
            // Reshape targets from Shape, Size, Sub, ConstantOfShape, Concat):
            // evaluate the inputs that fold to constants and type the node
            // again. The computing nodes stay for fold-constant and DCE.
            bool folded = false;
            for (auto& in : inputs) {
                if (!in.defined() || in.isConstant()) continue;
                if (auto c = foldToConstant(in, 0)) {
                    in = addConstant((in.name().empty() ? name : in.name()) + "/folded", c);
                    folded = true;
                }
            }
            if (!folded) throw;
            node = Node::makeOp(node->id, op, inputs, node->attrs, numOutputs, name, {}, outputNames);
            types = ops_.inferOutputTypes(*node, inputs);
        }
    } catch (const CompileError& e) {
        throw error(who + ": " + withoutNodePrefix(e, *node));
    }
    // Take what the model's value_info knows (dims inference leaves unknown)
    // and check it against what inference found.
    for (size_t i = 0; i < types.size(); ++i) {
        auto it = given_.find(outputNames[i]);
        if (outputNames[i].empty() || it == given_.end() || !types[i].known()) continue;
        const TensorType& given = it->second;
        bool ok = given.dtype == types[i].dtype && given.rank() == types[i].rank();
        for (size_t d = 0; ok && d < types[i].shape.size(); ++d) {
            if (types[i].shape[d] < 0)
                types[i].shape[d] = given.shape[d];
            else if (given.shape[d] >= 0 && given.shape[d] != types[i].shape[d])
                ok = false;
        }
        if (!ok)
            throw error(who + ": output '" + outputNames[i] + "' is inferred as " +
                        types[i].str() + ", but the model gives " + given.str());
    }
    node = node->withOutputTypes(std::move(types));
    g_.append(node);
    who_[node->id] = who;
    std::vector<Value> outs = node->outputs();
    for (size_t i = 0; i < outs.size(); ++i)
        if (!outputNames[i].empty()) defineName(outputNames[i], outs[i], who);
    return outs;
}

Ref<Constant> Importer::foldToConstant(const Value& v, int depth) {
    if (!v.defined()) return {};
    if (v.isConstant()) return v.constant();
    const Node* n = v.producer();
    if (depth > 64 || n->kind != graph::NodeKind::Op || n->opaque()) return {};
    // Shape and Size need only their input's static type; the rest their input values.
    auto out = graph::evaluateFromTypes(ops_, *n, n->inputs);
    if (!out) {
        std::vector<Ref<Constant>> ins;
        for (auto& in : n->inputs) {
            if (!in.defined()) {
                ins.push_back({});
                continue;
            }
            auto c = foldToConstant(in, depth + 1);
            if (!c) return {};
            ins.push_back(c);
        }
        out = graph::evaluateConstant(ops_, *n, ins);
    }
    if (!out || v.index() >= static_cast<int>(out->size())) return {};
    return (*out)[static_cast<size_t>(v.index())];
}

void Importer::addConstantNode(const Attributes& attrs, const std::vector<std::string>& outputs,
                               const std::string& who) {
    if (outputs.size() != 1 || outputs[0].empty())
        throw error(who + ": a Constant node must have exactly one output");
    if (attrs.size() != 1)
        throw error(who + ": exactly one value attribute is required (value, value_float, "
                          "value_floats, value_int or value_ints)");
    const auto& [attr, value] = attrs.entries()[0];
    Ref<Constant> c;
    if (attr == "value" && graph::attrKind(value) == graph::AttrKind::Tensor)
        c = std::get<Ref<Constant>>(value);
    else if (attr == "value_float" && graph::attrKind(value) == graph::AttrKind::Float)
        c = Constant::fromFloats({}, {std::get<double>(value)});
    else if (attr == "value_floats" && graph::attrKind(value) == graph::AttrKind::Floats) {
        const auto& v = std::get<std::vector<double>>(value);
        c = Constant::fromFloats({static_cast<int64_t>(v.size())}, v);
    } else if (attr == "value_int" && graph::attrKind(value) == graph::AttrKind::Int)
        c = Constant::fromInts({}, {std::get<int64_t>(value)});
    else if (attr == "value_ints" && graph::attrKind(value) == graph::AttrKind::Ints) {
        const auto& v = std::get<std::vector<int64_t>>(value);
        c = Constant::fromInts({static_cast<int64_t>(v.size())}, v);
    } else
        throw error(who + ": value attribute '" + attr + "' (" +
                    graph::attrKindName(graph::attrKind(value)) + ") is not supported");
    if (used_.count(outputs[0]))
        throw error(who + ": tensor '" + outputs[0] + "' is defined twice");
    addConstant(outputs[0], c);
}

void Importer::importNode(const onnx::NodeProto& n, int index) {
    convertOrOpaque(n, index);
    if (parent_) return;
    // Checked: the registry's operator, every input typed, and every output
    // typed by its inference or the node refused (opaque). A control-flow
    // node whose subgraph holds what Tessel cannot type is not.
    auto typed = [&](const std::string& name) {
        auto it = values_.find(name);
        return it != values_.end() && it->second.defined() && it->second.type().known();
    };
    bool checked = opsetProblem_.empty() && (n.domain().empty() || n.domain() == "ai.onnx") &&
                   (ops_.find(n.op_type()) || n.op_type() == "Constant");
    for (const auto& name : n.input())
        checked = checked && (name.empty() || typed(name));
    for (const auto& name : n.output()) {
        if (name.empty()) continue;
        auto it = values_.find(name);
        const bool refused = it != values_.end() && it->second.defined() && it->second.producer() &&
                             it->second.producer()->opaque();
        checked = checked && (typed(name) || refused);
    }
    checkedNodes_.resize(std::max(checkedNodes_.size(), static_cast<size_t>(index) + 1), false);
    checkedNodes_[static_cast<size_t>(index)] = checked;
}

void Importer::convertOrOpaque(const onnx::NodeProto& n, int index) {
    const std::string who = describe(n, index);
    if (n.op_type().empty()) throw error(who + ": the node has no operator type");
    std::vector<Value> inputs;
    for (const auto& name : n.input()) {
        if (name.empty()) {
            inputs.emplace_back(); // an absent optional input
            continue;
        }
        Value v = lookup(name);
        if (!v.defined())
            throw error(who + ": input '" + name +
                        "' is not defined before the node (not a graph input, an initializer "
                        "or an earlier node's output)");
        inputs.push_back(v);
    }
    while (!inputs.empty() && !inputs.back().defined())
        inputs.pop_back();
    std::vector<std::string> outputs(n.output().begin(), n.output().end());
    while (!outputs.empty() && outputs.back().empty())
        outputs.pop_back();
    if (outputs.empty()) throw error(who + ": the node has no outputs");

    // Attributes, subgraphs and the first reason the node cannot be compiled.
    std::string reason;
    Attributes attrs;
    std::vector<graph::Subgraph> subgraphs;
    for (const auto& a : n.attribute()) {
        if (a.type() == onnx::AttributeProto::GRAPH || a.has_g()) {
            Importer sub(options_, model_, this);
            auto sg = std::make_shared<const graph::Graph>(sub.runSubgraph(a.g(), a.name()));
            subgraphs.push_back({a.name(), std::move(sg), std::move(sub.captured_)});
            continue;
        }
        if (a.type() == onnx::AttributeProto::GRAPHS || a.graphs_size() > 0) {
            for (int i = 0; i < a.graphs_size(); ++i) {
                const std::string title = a.name() + "[" + std::to_string(i) + "]";
                Importer sub(options_, model_, this);
                auto sg = std::make_shared<const graph::Graph>(sub.runSubgraph(a.graphs(i), title));
                subgraphs.push_back({title, std::move(sg), std::move(sub.captured_)});
            }
            continue;
        }
        if (a.name() == "activations" && a.type() == onnx::AttributeProto::STRINGS &&
            (n.op_type() == "LSTM" || n.op_type() == "GRU" || n.op_type() == "RNN")) {
            // Attributes hold no string lists: the recurrent layers read the
            // names joined by commas (graph/RecurrentLayer.h).
            std::string joined;
            for (int i = 0; i < a.strings_size(); ++i)
                joined += (i ? "," : "") + a.strings(i);
            attrs.set(a.name(), joined);
            continue;
        }
        std::string why;
        attrs.set(a.name(), convertAttr(a, who, why));
        if (reason.empty()) reason = why;
    }
    if (!n.domain().empty() && n.domain() != "ai.onnx")
        reason = "operator domain '" + n.domain() +
                 "' is not supported (only the default ONNX domain is)";
    else if (!opsetProblem_.empty())
        reason = opsetProblem_;
    else if (!subgraphs.empty() && !ops_.find(n.op_type()))
        reason = "operator '" + n.op_type() + "' (control flow: " + std::to_string(subgraphs.size()) +
                 " subgraph" + (subgraphs.size() == 1 ? "" : "s") + ") is not supported";
    if (!reason.empty())
        return emitOpaque(n, std::move(inputs), std::move(attrs), std::move(subgraphs), outputs,
                          who, std::move(reason));
    // Float16 and bfloat16 are computed as float32: so are casts to them.
    for (const char* attr : {"to", "dtype"})
        if (const AttrValue* v = attrs.find(attr);
            v && graph::attrKind(*v) == graph::AttrKind::Int &&
            storedFloatName(std::get<int64_t>(*v)))
            attrs.set(attr, int64_t(onnx::TensorProto::FLOAT));
    try {
        if (const graph::OpInfo* info = ops_.find(n.op_type()); info && info->controlFlow)
            emitControlFlow(n, who, inputs, attrs, subgraphs, outputs);
        else
            convertNode(n, who, inputs, attrs, outputs);
    } catch (const CompileError& e) {
        // Whatever stops this node (an operator Tessel lacks, types that do
        // not infer, a form it does not normalise) stops only this node.
        Attributes original;
        for (const auto& a : n.attribute()) {
            std::string why;
            if (a.type() != onnx::AttributeProto::GRAPH && a.type() != onnx::AttributeProto::GRAPHS)
                original.set(a.name(), convertAttr(a, who, why));
        }
        emitOpaque(n, std::move(inputs), std::move(original), std::move(subgraphs), outputs, who,
                   reasonOf(e, who));
    }
}

void Importer::emitControlFlow(const onnx::NodeProto& n, const std::string& who, std::vector<Value> inputs,
                               Attributes attrs, std::vector<graph::Subgraph> subgraphs,
                               const std::vector<std::string>& outputs) {
    if (n.op_type() == "Scan" && opset_ < 9) {
        // Opset 8: a first input sequence_lens (all lengths full when absent)
        // and a batch axis 0 on every input: Tessel's form is `batch`.
        if (!inputs.empty() && inputs[0].defined())
            throw error(who + ": Scan's sequence_lens input (opset 8) is not supported");
        if (!inputs.empty()) inputs.erase(inputs.begin());
        attrs.set("batch", int64_t(1));
        if (attrs.has("directions")) {
            attrs.set("scan_input_directions", attrs.getInts("directions", {}));
            attrs.erase("directions");
        }
    }
    for (const auto& s : subgraphs)
        for (const auto& v : s.outer) inputs.push_back(v);
    Ref<Node> node = Node::makeControlFlow(g_.newId(), n.op_type(), inputs, std::move(attrs), std::move(subgraphs),
                                           n.name(), outputs);
    // Behind an opaque node, or holding a subgraph that cannot compile (a
    // sequence, an optional): typed as the model says, and the subgraph's
    // constructs are what is listed.
    bool unknownInput = false;
    for (const auto& in : inputs) unknownInput = unknownInput || (in.defined() && !in.type().known());
    for (const auto& s : node->subgraphs) unknownInput = unknownInput || s.graph->hasUnsupported();
    std::vector<TensorType> types;
    if (unknownInput) {
        for (const auto& o : outputs) types.push_back(shownType(o));
    } else {
        try {
            types = ops_.inferOutputTypes(*node, inputs);
        } catch (const CompileError& e) {
            throw error(who + ": " + withoutNodePrefix(e, *node));
        }
    }
    node = node->withOutputTypes(std::move(types));
    g_.append(node);
    who_[node->id] = who;
    std::vector<Value> outs = node->outputs();
    for (size_t i = 0; i < outs.size(); ++i)
        if (!outputs[i].empty()) defineName(outputs[i], outs[i], who);
}

void Importer::convertNode(const onnx::NodeProto& n, const std::string& who,
                           std::vector<Value> inputs, Attributes attrs,
                           const std::vector<std::string>& outputs) {
    std::string op = n.op_type();
    const std::string& name = n.name();

    auto inputType = [&](size_t i) -> const TensorType& {
        static const TensorType unknown;
        return i < inputs.size() && inputs[i].defined() ? inputs[i].type() : unknown;
    };
    auto intsConstant = [&](const std::string& attr, const std::vector<int64_t>& v) {
        return addConstant((name.empty() ? outputs[0] : name) + "/" + attr,
                           Constant::fromInts({static_cast<int64_t>(v.size())}, v));
    };

    if (op == "Constant") return addConstantNode(attrs, outputs, who);

    // --- opset-dependent normalisation to the registry's (opset-13) form ---
    if ((op == "Softmax" || op == "LogSoftmax" || op == "Hardmax") && opset_ < 13) {
        // Before opset 13 the input is flattened to 2-D at `axis` (default 1)
        // and normalised over the whole second part.
        const TensorType& x = inputType(0);
        const int64_t axisAttr = attrs.getInt("axis", 1);
        auto axis = x.known() ? graph::normalizeAxis(axisAttr, std::max(x.rank(), 1))
                              : std::optional<int64_t>(axisAttr);
        if (!axis)
            throw error(who + ": axis " + std::to_string(axisAttr) + " is out of range for " +
                        x.str());
        int64_t inner = 1;
        for (int64_t d = *axis + 1; d < x.rank(); ++d)
            inner = (inner < 0 || x.shape[static_cast<size_t>(d)] < 0)
                        ? -1
                        : inner * x.shape[static_cast<size_t>(d)];
        attrs.set("axis", *axis);
        if (x.rank() > 1 && *axis != x.rank() - 1 && inner != 1) {
            int unknown = 0;
            for (int64_t d : x.shape)
                unknown += d < 0 ? 1 : 0;
            if (unknown > 1 || outputs.size() != 1)
                throw error(who + ": " + op + " over the flattened axes " +
                            std::to_string(*axis) + ".." + std::to_string(x.rank() - 1) + " of " +
                            x.str() +
                            " (semantics before opset 13) is not supported with more than one "
                            "unknown dimension");
            Attributes flatAttrs;
            flatAttrs.set("axis", *axis);
            Value flat = emit("Flatten", {inputs[0]}, flatAttrs, {""}, name + "/flatten", who)[0];
            Attributes smAttrs;
            smAttrs.set("axis", int64_t(1));
            Value sm = emit(op, {flat}, smAttrs, {""}, name, who)[0];
            Value shape = intsConstant("shape", x.shape);
            Attributes reshapeAttrs;
            for (int64_t d : x.shape)
                if (d == 0) reshapeAttrs.set("allowzero", int64_t(1));
            emit("Reshape", {sm, shape}, reshapeAttrs, outputs, name + "/reshape", who);
            return;
        }
    } else if (opset_ < 7 && (op == "Add" || op == "Sub" || op == "Mul" || op == "Div" ||
                              op == "Pow" || op == "Gemm" || op == "Equal" || op == "Less" ||
                              op == "Greater" || op == "And" || op == "Or" || op == "Xor")) {
        // Opset 6 broadcasts only with broadcast=1, aligning B at `axis`
        // (default: trailing, as numpy); from opset 7 numpy rules apply.
        const bool broadcast = attrs.getInt("broadcast", 0) != 0;
        const bool hasAxis = attrs.has("axis");
        const int64_t axisAttr = attrs.getInt("axis", 0);
        attrs.erase("broadcast");
        attrs.erase("axis");
        const size_t b = op == "Gemm" ? 2 : 1;
        const TensorType& x = inputType(0);
        const TensorType& y = inputType(b);
        if (op != "Gemm" && broadcast && hasAxis && x.known() && y.known()) {
            auto axis = graph::normalizeAxis(axisAttr, std::max(x.rank(), 1));
            if (!axis || *axis + y.rank() > x.rank())
                throw error(who + ": broadcast axis " + std::to_string(axisAttr) +
                            " does not fit " + x.str() + " and " + y.str());
            const int64_t trailing = x.rank() - *axis - y.rank();
            if (trailing > 0) {
                if (!y.isStatic())
                    throw error(who + ": legacy broadcasting at axis " +
                                std::to_string(axisAttr) + " needs a static shape for " +
                                y.str());
                std::vector<int64_t> shape = y.shape;
                shape.resize(shape.size() + static_cast<size_t>(trailing), 1);
                Value target = intsConstant("broadcast_shape", shape);
                inputs[b] = emit("Reshape", {inputs[b], target}, {}, {""},
                                 name + "/broadcast", who)[0];
            }
        }
    } else if (opset_ < 7 && op == "PRelu") {
        // Opset 6 applies a 1-D slope per channel (axis 1); from opset 7 it
        // broadcasts numpy-style, so it becomes [C, 1, ..., 1].
        const TensorType& x = inputType(0);
        const TensorType& slope = inputType(1);
        if (x.known() && slope.known() && slope.rank() == 1 && slope.shape[0] > 1 &&
            x.rank() > 2) {
            std::vector<int64_t> shape(static_cast<size_t>(x.rank() - 1), 1);
            shape[0] = slope.shape[0];
            Value target = intsConstant("slope_shape", shape);
            inputs[1] =
                emit("Reshape", {inputs[1], target}, {}, {""}, name + "/slope", who)[0];
        }
    } else if (opset_ < 7 && op == "Dropout") {
        attrs.erase("is_test");
    } else if (op == "BatchNormalization" && opset_ < 9) {
        if (attrs.getInt("spatial", 1) != 1)
            throw error(who + ": spatial=0 (per-element statistics) is not supported");
        attrs.erase("spatial");
        attrs.erase("is_test");
    } else if (op == "Slice" && opset_ < 10) {
        const auto starts = attrs.getInts("starts", {});
        const auto ends = attrs.getInts("ends", {});
        inputs.resize(1);
        inputs.push_back(intsConstant("starts", starts));
        inputs.push_back(intsConstant("ends", ends));
        if (attrs.has("axes")) inputs.push_back(intsConstant("axes", attrs.getInts("axes", {})));
        attrs = Attributes();
    } else if (op == "Split" && opset_ < 13) {
        if (attrs.has("split")) {
            inputs.resize(1);
            inputs.push_back(intsConstant("split", attrs.getInts("split", {})));
            attrs.erase("split");
        }
    } else if (op == "Pad" && opset_ < 11) {
        const TensorType& x = inputType(0);
        inputs.resize(1);
        inputs.push_back(intsConstant("pads", attrs.getInts("pads", {})));
        const double value = attrs.getFloat("value", 0.0);
        if (x.known())
            inputs.push_back(addConstant(
                (name.empty() ? outputs[0] : name) + "/value",
                x.dtype.isFloat() ? Constant::fromFloats({}, {value}, x.dtype)
                                  : Constant::fromInts({}, {static_cast<int64_t>(value)}, x.dtype)));
        attrs.erase("pads");
        attrs.erase("value");
    } else if (op == "Upsample" || (op == "Resize" && opset_ < 11)) {
        // Upsample (and Resize at opset 10) scale with the asymmetric
        // coordinate transform and round nearest neighbours down.
        std::string mode = attrs.getString("mode", "nearest");
        if (mode == "bilinear") mode = "linear";
        Value scales;
        if (op == "Upsample" && opset_ < 9) {
            const auto s = attrs.getFloats("scales", {});
            scales = addConstant((name.empty() ? outputs[0] : name) + "/scales",
                                 Constant::fromFloats({static_cast<int64_t>(s.size())}, s));
        } else if (inputs.size() >= 2) {
            scales = inputs[1];
        }
        inputs = {inputs.empty() ? Value() : inputs[0], Value(), scales};
        attrs = Attributes();
        attrs.set("mode", mode);
        attrs.set("coordinate_transformation_mode", std::string("asymmetric"));
        attrs.set("nearest_mode", std::string("floor"));
        op = "Resize";
    }
    emit(op, std::move(inputs), std::move(attrs), outputs, name, who);
}

graph::Graph Importer::run(const onnx::ModelProto& original) {
    if (!original.has_graph()) throw error("not an ONNX model: it has no graph");
    try {
        readOpset(original);
    } catch (const CompileError& e) {
        if (!options_.allowUnsupported) throw;
        opsetProblem_ = reasonOf(e, "");
    }
    // To show a model Tessel cannot compile, ONNX's own inference types what
    // Tessel's registry cannot (opaque nodes and what follows them). Its
    // findings go to inferred_, never to the checked given_. Its inference
    // functions assume checked input: it sees only the nodes Tessel's own
    // import (run first, without it) could not type, with Tessel's types for
    // the rest (HiddenFromOnnxInference), and nothing of a model whose names
    // are not single assignments (wellScoped).
    onnx::ModelProto withInferred;
    const onnx::ModelProto* source = &original;
    if (options_.allowUnsupported && onnxInference_ && wellScoped(original.graph(), {})) {
        Importer first(options_, model_);
        first.onnxInference_ = false;
        (void)first.run(original); // what it throws, this import would throw too
        withInferred = original;
        try {
            HiddenFromOnnxInference hidden(withInferred, first.checkedNodes_, first.values_);
            onnx::shape_inference::InferShapes(withInferred);
            source = &withInferred;
            readInferred(withInferred.graph());
        } catch (const std::exception&) {
            // Inference is a help here, never a reason to fail.
        }
    }
    const onnx::ModelProto& m = *source;
    const onnx::GraphProto& gp = m.graph();
    g_ = graph::Graph(gp.name().empty() ? std::string("main") : gp.name());
    for (const auto& vi : original.graph().value_info())
        if (auto t = typeOf(vi.type(), "value '" + vi.name() + "'", false);
            t && vi.type().tensor_type().has_shape() && !graph::tooManyElements(*t))
            given_[vi.name()] = *t;
    for (const auto& vi : original.graph().output())
        if (auto t = typeOf(vi.type(), "output '" + vi.name() + "'", false);
            t && vi.type().tensor_type().has_shape() && !graph::tooManyElements(*t))
            given_[vi.name()] = *t;
    addInputs(gp);
    for (const auto& sp : gp.sparse_initializer()) {
        // Kept as an input of unknown type, so the nodes that read it import.
        const std::string name = sp.values().name();
        if (name.empty() || !used_.insert(name).second)
            throw error("sparse initializer '" + name + "' has no name or one used twice");
        values_[name] = g_.addInputNode(
            Node::makeUnsupportedInput(g_.newId(), name, "sparse initializers are not supported"));
    }
    for (int i = 0; i < gp.node_size(); ++i)
        importNode(gp.node(i), i);
    std::vector<Value> outputs;
    for (const auto& o : gp.output()) {
        auto it = values_.find(o.name());
        if (it == values_.end())
            throw error("graph output '" + o.name() + "' is not produced by any node");
        outputs.push_back(it->second);
        if (o.type().has_tensor_type())
            if (const char* stored = storedFloatName(o.type().tensor_type().elem_type()))
                g_.setStoredType(o.name(), stored);
    }
    if (outputs.empty()) throw error("the graph has no outputs");
    g_.setOutputs(std::move(outputs));

    if (g_.hasUnsupported()) {
        if (options_.allowUnsupported) return std::move(g_);
        // One error that names every construct, as the importer names nodes.
        auto list = graph::unsupportedConstructs(g_);
        for (auto& c : list)
            if (auto it = who_.find(c.nodeId); it != who_.end() && c.path.empty())
                c.where = it->second;
        throw error(graph::describeUnsupported(list));
    }

    auto rethrow = [&](const CompileError& e) -> CompileError {
        std::string msg = e.what();
        for (const auto& n : g_.nodes()) {
            const std::string prefix = n->describe() + ":";
            auto it = who_.find(n->id);
            if (msg.rfind(prefix, 0) == 0 && it != who_.end())
                return error(it->second + msg.substr(prefix.size() - 1));
        }
        return error(msg);
    };
    try {
        graph::InferShapesOptions shapes;
        shapes.ops = &ops_;
        if (options_.inferShapes) g_ = graph::inferShapes(g_, shapes);
        g_.verify(ops_);
    } catch (const CompileError& e) {
        throw rethrow(e);
    }
    return std::move(g_);
}

void parseModel(std::string_view bytes, const std::string& model, onnx::ModelProto& m) {
    if (bytes.empty()) throw CompileError(model + ": the file is empty (not an ONNX model)");
    if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()))
        throw CompileError(model + ": the model is too large (2 GiB or more)");
    if (!m.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
        throw CompileError(model +
                           ": not a valid ONNX model (malformed or truncated protobuf data)");
}

} // namespace

graph::Graph importOnnxBytes(std::string_view bytes, const ImportOptions& options) {
    const std::string model = options.modelName.empty() ? std::string("model") : options.modelName;
    onnx::ModelProto m;
    parseModel(bytes, model, m);
    return Importer(options, model).run(m);
}

graph::Graph importOnnx(const std::string& path, const ImportOptions& options) {
    const std::string bytes = detail::readFileBytes(path);
    ImportOptions o = options;
    if (o.modelName.empty()) o.modelName = path;
    return importOnnxBytes(bytes, o);
}

int64_t onnxOpsetOf(const std::string& path) {
    const std::string bytes = detail::readFileBytes(path);
    onnx::ModelProto m;
    parseModel(bytes, path, m);
    ImportOptions o;
    return Importer(o, path).readOpset(m);
}

} // namespace tessel::frontend
