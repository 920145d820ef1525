/// \file
/// Guards around ONNX's own shape inference (libonnx), which the importer runs
/// to type what Tessel's registry cannot when it shows a model: libonnx
/// assumes a model its checker accepts, so the importer first checks names
/// are single assignments (wellScoped) and hides from it the nodes that
/// would crash it or that Tessel typed itself (HiddenFromOnnxInference).
/// Internal to core/frontend.
#pragma once

#include "graph/Graph.h"

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>

#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tessel::frontend {

using graph::TensorType;

/// True when every name of `g` and of its subgraphs is defined once (in
/// `defined`, the enclosing graphs' names, or here; a graph input may also be
/// an initializer) and every node reads only names defined before it: the
/// single assignment ONNX's checker requires. ONNX's own shape inference
/// assumes it (two graph inputs of one name corrupt its memory), so a model
/// that breaks it is shown without that inference; Tessel's import names
/// what is wrong.
bool wellScoped(const onnx::GraphProto& g, std::unordered_set<std::string> defined);

/// ONNX's own shape inference (libonnx 1.12) assumes nodes its checker
/// accepts and inputs of the ranks the operator takes: on a node without a
/// required attribute (Scan without `num_scan_inputs`) it reads through a null
/// pointer, on a Gemm of opset 6 with a 1-d B past the end of B's shape. So
/// before it runs on a model to show, nodes are moved to a domain that has no
/// schemas, where inference passes them by, and the destructor gives them
/// their domains back:
///  - the nodes of the model's graph that Tessel's registry checked
///    (`checked`: its operator, every input typed, every output typed or the
///    node refused): their outputs get Tessel's types (`values`) as
///    value_info, which stays, so ONNX's inference starts from checked types
///    where Tessel's stops;
///  - every node, here or in a subgraph, that its schema does not verify
///    (onnx::OpSchema::Verify, at each opset the model declares for its
///    domain): its outputs keep the model's types, or none.
class HiddenFromOnnxInference {
public:
    HiddenFromOnnxInference(onnx::ModelProto& m, const std::vector<bool>& checked,
                            const std::unordered_map<std::string, graph::Value>& values) {
        const Opsets opsets = add({}, m.opset_import());
        onnx::GraphProto& g = *m.mutable_graph();
        std::unordered_set<std::string> declared;
        for (const auto& in : g.input())
            declared.insert(in.name());
        for (const auto& out : g.output())
            declared.insert(out.name());
        for (const auto& t : g.initializer())
            declared.insert(t.name());
        std::unordered_map<std::string, onnx::ValueInfoProto*> valueInfo;
        for (auto& vi : *g.mutable_value_info())
            valueInfo.emplace(vi.name(), &vi);
        for (int i = 0; i < g.node_size(); ++i) {
            onnx::NodeProto& n = *g.mutable_node(i);
            if (static_cast<size_t>(i) >= checked.size() || !checked[static_cast<size_t>(i)])
                continue;
            hidden_.push_back({&n, n.has_domain(), n.domain()});
            n.set_domain(kNoSchemas);
            for (const auto& name : n.output()) {
                auto v = values.find(name);
                if (name.empty() || declared.count(name) || v == values.end() ||
                    !v->second.defined() || !v->second.type().known())
                    continue;
                auto [it, added] = valueInfo.emplace(name, nullptr);
                if (added) {
                    it->second = g.add_value_info();
                    it->second->set_name(name);
                }
                setType(*it->second->mutable_type(), v->second.type());
            }
        }
        hide(g, opsets);
        // A domain without an opset import stops ONNX's inference altogether.
        if (!hidden_.empty()) importNoSchemas(*m.mutable_opset_import());
        for (auto& f : *m.mutable_functions()) {
            const Opsets own = add(opsets, f.opset_import());
            const size_t before = hidden_.size();
            for (auto& n : *f.mutable_node())
                hide(n, own);
            if (hidden_.size() > before) importNoSchemas(*f.mutable_opset_import());
        }
    }
    ~HiddenFromOnnxInference() {
        for (auto* imports : imports_)
            imports->RemoveLast();
        for (auto& h : hidden_) {
            if (h.hadDomain)
                h.node->set_domain(h.domain);
            else
                h.node->clear_domain();
        }
    }
    HiddenFromOnnxInference(const HiddenFromOnnxInference&) = delete;
    HiddenFromOnnxInference& operator=(const HiddenFromOnnxInference&) = delete;

private:
    /// Domain ("" for ONNX's) -> every version the model declares for it.
    using Opsets = std::map<std::string, std::vector<int64_t>>;
    struct Hidden {
        onnx::NodeProto* node;
        bool hadDomain;
        std::string domain;
    };

    static std::string canonical(const std::string& domain) {
        return domain == "ai.onnx" ? std::string() : domain;
    }
    static Opsets add(Opsets into,
                      const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& imports) {
        for (const auto& o : imports)
            into[canonical(o.domain())].push_back(o.version());
        return into;
    }
    static bool verifies(const onnx::NodeProto& n, const Opsets& opsets) {
        auto it = opsets.find(canonical(n.domain()));
        if (it == opsets.end()) return true; // inference finds no schema either
        for (int64_t version : it->second) {
            // ONNX's inference keeps the version as an int.
            const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(
                n.op_type(), static_cast<int>(version), canonical(n.domain()));
            if (!schema) continue;
            try {
                schema->Verify(n);
            } catch (const std::exception&) {
                return false;
            }
        }
        return true;
    }
    void hide(onnx::GraphProto& g, const Opsets& opsets) {
        for (auto& n : *g.mutable_node())
            hide(n, opsets);
    }
    void hide(onnx::NodeProto& n, const Opsets& opsets) {
        if (n.domain() == kNoSchemas) return; // hidden already
        if (!verifies(n, opsets)) {
            hidden_.push_back({&n, n.has_domain(), n.domain()});
            n.set_domain(kNoSchemas);
            return;
        }
        for (auto& a : *n.mutable_attribute()) {
            if (a.has_g()) hide(*a.mutable_g(), opsets);
            for (auto& sub : *a.mutable_graphs())
                hide(sub, opsets);
        }
    }

    /// The ONNX type of a Tessel type (float16 and bfloat16 values are held,
    /// and so typed, as float32).
    static void setType(onnx::TypeProto& type, const TensorType& t) {
        type.Clear();
        auto& tt = *type.mutable_tensor_type();
        for (int code = 1; code <= onnx::TensorProto::DataType_MAX; ++code)
            if (auto d = graph::dataTypeFromOnnx(code); d && *d == t.dtype) {
                tt.set_elem_type(code);
                break;
            }
        auto& shape = *tt.mutable_shape();
        for (int64_t d : t.logical().shape)
            if (d >= 0)
                shape.add_dim()->set_dim_value(d);
            else
                shape.add_dim();
    }

    using Imports = google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>;
    void importNoSchemas(Imports& imports) {
        auto& import = *imports.Add();
        import.set_domain(kNoSchemas);
        import.set_version(1);
        imports_.push_back(&imports);
    }

    static constexpr const char* kNoSchemas = "tessel.hidden";
    std::vector<Hidden> hidden_;
    /// The opset imports given one for kNoSchemas (the model's, functions').
    std::vector<Imports*> imports_;
};

} // namespace tessel::frontend
