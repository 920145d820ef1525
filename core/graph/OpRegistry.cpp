#include "graph/OpRegistry.h"

#include "ir/Layout.h"

#include "graph/ops/OpHelpers.h"
#include "ir/Diagnostic.h"

#include <algorithm>

namespace tessel::graph {

const char* opPatternName(OpPattern p) {
    switch (p) {
    case OpPattern::ElementWise:
        return "elementwise";
    case OpPattern::Broadcast:
        return "broadcast";
    case OpPattern::Injective:
        return "injective";
    case OpPattern::CommReduce:
        return "reduce";
    case OpPattern::OutEWiseFusable:
        return "out-elementwise-fusable";
    case OpPattern::Opaque:
        return "opaque";
    }
    return "?";
}

const AttrSchema* OpInfo::findAttr(const std::string& attrName) const {
    for (const auto& a : attributes)
        if (a.name == attrName) return &a;
    return nullptr;
}

namespace {

std::string countText(int lo, int hi, const char* what) {
    std::string plural = std::string(what) + "s";
    if (hi < 0) return "at least " + std::to_string(lo) + " " + (lo == 1 ? what : plural);
    if (lo == hi) return std::to_string(lo) + " " + (lo == 1 ? what : plural);
    return std::to_string(lo) + " to " + std::to_string(hi) + " " + plural;
}

} // namespace

std::string OpInfo::inputCountText() const {
    return countText(minInputs, maxInputs, "input");
}
std::string OpInfo::outputCountText() const {
    return countText(minOutputs, maxOutputs, "output");
}

const TensorType& InferContext::input(int i) const {
    if (!hasInput(i)) fail("input " + std::to_string(i) + " is absent");
    return inputs_[static_cast<size_t>(i)].type();
}

Ref<Constant> InferContext::constantInput(int i) const {
    return hasInput(i) ? inputs_[static_cast<size_t>(i)].constant() : Ref<Constant>();
}

void InferContext::fail(const std::string& message) const {
    throw CompileError(message);
}

void EvalContext::fail(const std::string& message) const {
    throw CompileError(node_.describe() + ": " + message);
}

std::optional<std::vector<int64_t>> broadcastShapes(const std::vector<int64_t>& a,
                                                    const std::vector<int64_t>& b) {
    const size_t r = std::max(a.size(), b.size());
    std::vector<int64_t> out(r);
    for (size_t i = 0; i < r; ++i) {
        int64_t x = i < r - a.size() ? 1 : a[i - (r - a.size())];
        int64_t y = i < r - b.size() ? 1 : b[i - (r - b.size())];
        if (x == y)
            out[i] = x;
        else if (x == 1)
            out[i] = y;
        else if (y == 1)
            out[i] = x;
        else if (x < 0)
            out[i] = y; // unknown must be 1 or y
        else if (y < 0)
            out[i] = x;
        else
            return std::nullopt;
    }
    return out;
}

// --- the registry -------------------------------------------------------------------

const OpInfo& OpRegistry::add(OpInfo info) {
    auto refuse = [&](const std::string& why) {
        throw CompileError("cannot register operator '" + info.name + "': " + why);
    };
    if (info.name.empty()) throw CompileError("cannot register an operator without a name");
    if (find(info.name)) refuse("an operator of that name is already registered");
    if (info.doc.empty()) refuse("it has no doc line");
    if (!info.infer) refuse("it has no inference function");
    if (info.foldOnly && !info.evaluate) refuse("it is fold-only but has no evaluator");
    const OpInfo& added = ops_.emplace_back(std::move(info));
    byName_.emplace(added.name, &added);
    return added;
}

const OpInfo* OpRegistry::find(std::string_view name) const {
    auto it = byName_.find(name);
    return it == byName_.end() ? nullptr : it->second;
}

std::vector<TensorType> OpRegistry::inferOutputTypes(const Node& node,
                                                     const std::vector<Value>& inputs) const {
    auto fail = [&](const std::string& m) { throw CompileError(node.describe() + ": " + m); };
    const OpInfo* info = find(node.op);
    if (!info) fail("unknown operator '" + node.op + "'");
    const int nin = static_cast<int>(inputs.size());
    if (nin < info->minInputs || (info->maxInputs >= 0 && nin > info->maxInputs))
        fail("expects " + info->inputCountText() + ", got " + std::to_string(nin));
    if (node.numOutputs() < info->minOutputs ||
        (info->maxOutputs >= 0 && node.numOutputs() > info->maxOutputs))
        fail("expects " + info->outputCountText() + ", got " + std::to_string(node.numOutputs()));
    for (int i = 0; i < nin; ++i) {
        const Value& v = inputs[static_cast<size_t>(i)];
        if (!v.defined()) {
            if (i < info->minInputs) fail("required input " + std::to_string(i) + " is absent");
            continue;
        }
        if (!v.type().known())
            fail("input " + std::to_string(i) + " (from " + v.producer()->describe() +
                 ") has no type yet");
    }
    // Blocked inputs: refused by plain operators; one layout for the
    // element-wise ones (their single elements aside), which gives it to
    // their outputs.
    std::string layout;
    bool seen = false;
    if (info->layouts != LayoutPolicy::Custom) {
        for (int i = 0; i < nin; ++i) {
            const Value& v = inputs[static_cast<size_t>(i)];
            if (!v.defined()) continue;
            const TensorType& t = v.type();
            if (info->layouts == LayoutPolicy::Plain) {
                if (t.blocked())
                    fail("input " + std::to_string(i) + " is stored as " + t.layout + " (" + t.str() + "); " +
                         node.op + " takes plain tensors only");
                continue;
            }
            if (t.numElements() == 1 && !t.blocked()) continue;
            if (seen && t.layout != layout)
                fail("input " + std::to_string(i) + " " + t.str() + " is not stored like the others (" +
                     (layout.empty() ? std::string("plain") : layout) + ")");
            layout = t.layout;
            seen = true;
        }
    }
    std::vector<TensorType> out;
    try {
        out = info->infer(InferContext(node, inputs));
    } catch (const CompileError& e) {
        fail(e.what());
    }
    if (static_cast<int>(out.size()) != node.numOutputs())
        throw CompileError(node.describe() + ": inference gave " + std::to_string(out.size()) +
                           " types for " + std::to_string(node.numOutputs()) + " outputs");
    for (const auto& t : out) {
        if (std::any_of(t.shape.begin(), t.shape.end(), [](int64_t d) { return d < -1; }))
            fail("the output type " + t.str() + " has a negative dimension");
        if (tooManyElements(t))
            fail("the output " + t.str() + " would have more than 2^53 elements");
    }
    if (!layout.empty())
        for (auto& t : out) {
            if (t.rank() != Layout::of(layout).storedRank())
                fail("an output of rank " + std::to_string(t.rank()) + " cannot be stored as " + layout);
            t.layout = layout;
        }
    return out;
}

void registerGraphOps(OpRegistry& registry) {
    ops::registerNnOps(registry);
    ops::registerBroadcastOps(registry);
    ops::registerElementwiseOps(registry);
    ops::registerLogicalOps(registry);
    ops::registerTransformOps(registry);
    ops::registerGeneratorOps(registry);
    ops::registerReduceOps(registry);
    ops::registerIndexOps(registry);
    ops::registerLossOps(registry);
    ops::registerQuantizeOps(registry);
    ops::registerSignalOps(registry);
    ops::registerRecurrentOps(registry);
    ops::registerControlFlowOps(registry);
    ops::registerDataDependentOps(registry);
}

const OpRegistry& defaultOpRegistry() {
    static const OpRegistry registry = [] {
        OpRegistry r;
        registerGraphOps(r);
        return r;
    }();
    return registry;
}

const OpRegistry& graphOps() {
    return defaultOpRegistry();
}

const OpInfo* findOp(std::string_view name) {
    return defaultOpRegistry().find(name);
}

std::vector<TensorType> inferOutputTypes(const Node& node, const std::vector<Value>& inputs) {
    return defaultOpRegistry().inferOutputTypes(node, inputs);
}

} // namespace tessel::graph
