#include "driver/ControlFlowProgram.h"

#include "driver/HostOps.h"
#include "driver/ModelRunner.h"
#include "graph/FreezeInputs.h"
#include "graph/Retype.h"
#include "graph/passes/InferShapes.h"
#include "graph/passes/InlineConstantIf.h"
#include "ir/AxisMath.h"
#include "ir/Check.h"
#include "ir/Diagnostic.h"
#include "runtime/ModelRunner.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace tessel::driver {

using graph::Node;
using graph::TensorType;
using graph::Value;
using runtime::NDArray;
using Env = std::unordered_map<Value, NDArray, graph::ValueHash>;

namespace {

bool isControlFlowNode(const Node& n) {
    return n.kind == graph::NodeKind::Op && !n.opaque() && !n.subgraphs.empty() &&
           (n.op == "If" || n.op == "Loop" || n.op == "Scan");
}

/// A node the host runs as a step of its own: control flow, or an operator
/// whose output shape is data (driver/HostOps.h).
bool isHostStep(const Node& n) {
    return isControlFlowNode(n) || isDataDependentNode(n);
}

// --- host tensor helpers --------------------------------------------------------------

int64_t product(const std::vector<int64_t>& s, size_t from, size_t to) {
    int64_t p = 1;
    for (size_t i = from; i < to; ++i)
        p *= s[i];
    return p;
}

/// Index `index` of axis `axis` of `a`: a tensor without that axis.
NDArray sliceAt(const NDArray& a, int64_t axis, int64_t index) {
    const auto& s = a.shape();
    const size_t ax = static_cast<size_t>(axis);
    const int64_t len = s[ax], outer = product(s, 0, ax);
    const size_t inner =
        static_cast<size_t>(product(s, ax + 1, s.size())) * size_t(a.dtype().bytes());
    std::vector<int64_t> shape = s;
    shape.erase(shape.begin() + axis);
    NDArray out(shape, a.dtype());
    const char* src = static_cast<const char*>(a.rawData());
    char* dst = static_cast<char*>(out.rawData());
    for (int64_t o = 0; o < outer; ++o)
        std::memcpy(dst + size_t(o) * inner, src + size_t(o * len + index) * inner, inner);
    return out;
}

/// `parts` (one shape and type) stacked along a new axis `axis`.
NDArray stack(const std::vector<NDArray>& parts, int64_t axis, const std::string& what) {
    const auto& s = parts[0].shape();
    for (const auto& p : parts)
        if (p.shape() != s || p.dtype() != parts[0].dtype())
            throw CompileError(
                what + ": iterations give " + parts[0].str() + " and " + p.str() +
                " (outputs whose shape changes between iterations cannot be stacked)");
    const size_t ax = static_cast<size_t>(axis);
    std::vector<int64_t> shape = s;
    shape.insert(shape.begin() + axis, static_cast<int64_t>(parts.size()));
    NDArray out(shape, parts[0].dtype());
    const int64_t outer = product(s, 0, ax);
    const size_t inner =
        static_cast<size_t>(product(s, ax, s.size())) * size_t(parts[0].dtype().bytes());
    char* dst = static_cast<char*>(out.rawData());
    const size_t n = parts.size();
    for (int64_t o = 0; o < outer; ++o)
        for (size_t t = 0; t < n; ++t)
            std::memcpy(dst + (size_t(o) * n + t) * inner,
                        static_cast<const char*>(parts[t].rawData()) + size_t(o) * inner, inner);
    return out;
}

/// An empty stack (no iteration ran) of the type inference gave the output.
NDArray emptyStack(const TensorType& t, const std::string& what) {
    if (!t.known())
        throw CompileError(what + ": no iteration ran and the output's type is not known");
    std::vector<int64_t> shape = t.shape;
    for (auto& d : shape)
        d = std::max<int64_t>(d, 0);
    return NDArray::zeros(shape, t.dtype);
}

bool truth(const NDArray& a, const std::string& what) {
    if (a.numElements() != 1) throw CompileError(what + " must hold one element, not " + a.str());
    return a.at(0) != 0;
}

/// A scalar for a subgraph input of type `declared` (its shape when that holds one element).
NDArray scalarFor(const TensorType& declared, DataType dtype, int64_t value) {
    std::vector<int64_t> shape;
    if (declared.known() && declared.isStatic() && declared.numElements() == 1)
        shape = declared.shape;
    NDArray a(shape, dtype);
    if (dtype.isBool())
        a.data<bool>()[0] = value != 0;
    else
        a.data<int64_t>()[0] = value;
    return a;
}

int64_t axisOf(int64_t axis, int64_t rank, const std::string& what) {
    auto a = normalizeAxis(axis, rank);
    if (!a)
        throw CompileError(what + ": axis " + std::to_string(axis) + " is out of range for rank " +
                           std::to_string(rank));
    return *a;
}

bool smallInteger(const NDArray& a) {
    return a.dtype().isIntOrUInt() && a.numElements() <= 64;
}

} // namespace

bool isShapeCarryingError(const std::string& message) {
    static const std::regex re("must be a constant|as constants|known length|is not static");
    return std::regex_search(message, re);
}

bool hasHostSteps(const graph::Graph& g) {
    return std::any_of(g.nodes().begin(), g.nodes().end(), [](const Ref<Node>& n) { return isHostStep(*n); });
}

std::string hostStepsText(const graph::Graph& g) {
    std::set<std::string> cf, dd;
    for (const auto& n : g.nodes()) {
        if (isControlFlowNode(*n)) cf.insert(n->op);
        if (isDataDependentNode(*n)) dd.insert(n->op);
    }
    auto list = [](const std::set<std::string>& ops) {
        std::string out;
        for (const auto& op : ops)
            out += (out.empty() ? "" : ", ") + op;
        return out;
    };
    std::string out;
    if (!cf.empty()) out = "control flow (" + list(cf) + ")";
    if (!dd.empty()) out += (out.empty() ? "" : " and ") + std::string("data-dependent output shapes (") + list(dd) + ")";
    return out;
}

// --- segments -----------------------------------------------------------------------------

struct ControlFlowProgram::Segment {
    /// The segment as a graph: inputs for `ins`, the constants it reads, its
    /// nodes, outputs for `outs`.
    graph::Graph templ = graph::Graph("segment");
    std::vector<Value> ins, outs;
    size_t nodes = 0;
    /// Compiled per value of its small integer inputs (see the file comment).
    bool byValue = false;
    struct Entry {
        CompiledModel model;
        runtime::InProcessModelRunner runner;
        /// For each plan input, its index in `ins`.
        std::vector<size_t> order;
    };
    std::map<std::string, std::unique_ptr<Entry>> cache;
    int compiles = 0;
};

struct ControlFlowProgram::Step {
    std::unique_ptr<Segment> segment;
    /// A control-flow node, with one program per subgraph.
    Ref<Node> node;
    std::vector<std::shared_ptr<ControlFlowProgram>> subs;
};

namespace {

using Segment = ControlFlowProgram::Segment;

/// The segment of `nodes` (a run of `g`'s ordinary nodes).
std::unique_ptr<Segment> makeSegment(const graph::Graph& g, const std::vector<Ref<Node>>& nodes,
                                     int64_t& nextId) {
    auto seg = std::make_unique<Segment>();
    seg->nodes = nodes.size();
    std::unordered_set<const Node*> inside;
    for (const auto& n : nodes)
        inside.insert(n.get());
    std::unordered_set<Value, graph::ValueHash> usedOutside(g.outputs().begin(), g.outputs().end());
    for (const auto& n : g.nodes())
        if (!inside.count(n.get()))
            for (const auto& in : n->inputs)
                usedOutside.insert(in);
    std::set<std::string> names;
    for (const auto& c : g.constants())
        names.insert(c->name);
    std::unordered_map<Value, Value, graph::ValueHash> map;
    std::unordered_set<const Node*> constants;
    graph::Graph& t = seg->templ;
    for (const auto& n : nodes)
        for (const auto& in : n->inputs) {
            if (!in.defined() || map.count(in) || inside.count(in.producer())) continue;
            if (in.isConstant()) {
                if (constants.insert(in.producer()).second) t.append(in.producerRef());
                map[in] = in;
                continue;
            }
            std::string name = in.name();
            for (int k = 0; name.empty() || names.count(name); ++k)
                name = "cf_in" + std::to_string(k);
            names.insert(name);
            Ref<Node> input = Node::makeInput(nextId++, name, in.type());
            map[in] = t.addInputNode(input);
            seg->ins.push_back(in);
        }
    for (const auto& n : nodes) {
        std::vector<Value> ins;
        for (const auto& in : n->inputs)
            ins.push_back(in.defined() ? map.at(in) : in);
        Ref<Node> m = n->withInputs(std::move(ins));
        t.append(m);
        for (int i = 0; i < n->numOutputs(); ++i) {
            map[n->output(i)] = m->output(i);
            if (usedOutside.count(n->output(i))) seg->outs.push_back(n->output(i));
        }
    }
    std::vector<Value> outs;
    for (const auto& v : seg->outs)
        outs.push_back(map.at(v));
    t.setOutputs(std::move(outs));
    return seg;
}

/// The segment's graph with inputs of `types` and every node's type to be inferred again.
graph::Graph retyped(const Segment& s, const std::vector<TensorType>& types) {
    return graph::withInputTypes(s.templ, types);
}

/// The compiled form of `s` for inputs of `types` (with `values` when known:
/// needed once the segment is compiled per value); null when it must wait
/// for values.
Segment::Entry* entryFor(Segment& s, const std::vector<TensorType>& types,
                         const std::vector<NDArray>* values, const CompileOptions& options) {
    std::string key;
    for (const auto& t : types)
        key += t.str() + ";";
    if (s.byValue) {
        if (!values) return nullptr;
        for (const auto& v : *values)
            if (smallInteger(v))
                for (int64_t i = 0; i < v.numElements(); ++i)
                    key += std::to_string(int64_t(v.at(i))) + ",";
    }
    if (auto it = s.cache.find(key); it != s.cache.end()) return it->second.get();
    graph::Graph g = retyped(s, types);
    auto entry = std::make_unique<Segment::Entry>();
    if (!s.byValue) {
        try {
            entry->model = compileGraph(g, options);
        } catch (const CompileError& e) {
            if (!isShapeCarryingError(e.what())) throw;
            s.byValue = true; // a shape-carrying input is data here: compile per value
            return entryFor(s, types, values, options);
        }
    } else {
        if (s.cache.size() >= ControlFlowProgram::kMaxSpecialisations)
            throw CompileError("control flow: a segment was compiled for " +
                               std::to_string(ControlFlowProgram::kMaxSpecialisations) +
                               " values of its shape-carrying inputs; more are not supported");
        std::map<std::string, Ref<graph::Constant>> frozen;
        for (size_t i = 0; i < values->size(); ++i) {
            const NDArray& v = (*values)[i];
            if (!smallInteger(v)) continue;
            std::vector<uint8_t> bytes(v.numBytes());
            if (!bytes.empty()) std::memcpy(bytes.data(), v.rawData(), bytes.size());
            frozen[s.templ.inputs()[i]->name] =
                graph::Constant::make(v.dtype(), v.shape(), std::move(bytes));
        }
        entry->model = compileGraph(graph::freezeInputs(g, frozen), options);
    }
    ++s.compiles;
    const auto& plan = entry->model.plan;
    for (int idx : plan.inputs) {
        const std::string& name = plan.tensors[size_t(idx)].name;
        size_t k = 0;
        while (k < s.templ.inputs().size() && s.templ.inputs()[k]->name != name)
            ++k;
        TESSEL_CHECK(k < s.templ.inputs().size(),
                     "control flow: plan input " + name + " is no segment input");
        entry->order.push_back(k);
    }
    TESSEL_CHECK(plan.outputs.size() == s.outs.size(),
                 "control flow: a segment's plan has another output count");
    entry->runner.load(packageOf(entry->model));
    Segment::Entry* made = entry.get();
    s.cache[key] = std::move(entry);
    return made;
}

NDArray valueOf(const Env& env, const Value& v) {
    if (!v.defined()) return {};
    if (Ref<graph::Constant> c = v.constant()) return toNDArray(*c);
    auto it = env.find(v);
    TESSEL_CHECK(it != env.end(), "control flow: a value is used before it is computed");
    return it->second;
}

/// The segment's outputs for `values`, compiled for their `types` (once).
std::vector<NDArray> runCompiled(Segment& s, const std::vector<NDArray>& values,
                                 const std::vector<TensorType>& types, const CompileOptions& options) {
    Segment::Entry* e = entryFor(s, types, &values, options);
    std::vector<NDArray> args;
    for (size_t k : e->order)
        args.push_back(values[k]);
    e->runner.setInputs(args);
    e->runner.run({});
    return e->runner.outputs();
}

/// A segment reading an empty tensor (the scan output of a loop that ran no
/// iteration). Kernels have no empty tensors, so: an output that depends on
/// an empty input must be empty too (element-wise work on it) and is; the
/// others are computed by the segment compiled with each empty input given
/// one element instead (their values do not read it). An empty input that
/// makes a non-empty output (a reduction, a concatenation) is refused with
/// its reason. Returns false when no input is empty.
bool runWithEmptyInputs(Segment& s, Env& env, std::vector<NDArray> values, std::vector<TensorType> types,
                        const CompileOptions& options) {
    std::unordered_set<const Node*> empty;
    for (size_t i = 0; i < types.size(); ++i)
        if (types[i].numElements() == 0) empty.insert(s.templ.inputs()[i].get());
    if (empty.empty()) return false;
    // Which outputs read an empty input, through the segment's nodes.
    std::unordered_set<const Node*> tainted = empty;
    for (const auto& n : s.templ.nodes())
        for (const auto& in : n->inputs)
            if (in.defined() && tainted.count(in.producer())) tainted.insert(n.get());
    const graph::Graph g = graph::inferShapes(retyped(s, types));
    std::vector<NDArray> outs(s.outs.size());
    bool needRun = false;
    for (size_t i = 0; i < s.outs.size(); ++i) {
        if (!tainted.count(s.templ.outputs()[i].producer())) {
            needRun = true;
            continue;
        }
        const TensorType& t = g.outputs()[i].type();
        if (!t.known() || t.numElements() != 0)
            throw CompileError("control flow: " + s.templ.outputs()[i].producer()->describe() +
                               " reads an empty tensor and gives " + t.str() +
                               ", which is not empty: an operator over empty tensors is computed only when "
                               "its result is empty too");
        outs[i] = NDArray::zeros(t.shape, t.dtype);
    }
    if (needRun) {
        for (size_t i = 0; i < types.size(); ++i)
            if (types[i].numElements() == 0) {
                for (auto& d : types[i].shape)
                    d = std::max<int64_t>(d, 1);
                values[i] = NDArray::zeros(types[i].shape, types[i].dtype);
            }
        std::vector<NDArray> full = runCompiled(s, values, types, options);
        for (size_t i = 0; i < s.outs.size(); ++i)
            if (!outs[i].defined()) outs[i] = full[i];
    }
    for (size_t i = 0; i < s.outs.size(); ++i)
        env[s.outs[i]] = outs[i];
    return true;
}

void runSegment(Segment& s, Env& env, const CompileOptions& options) {
    std::vector<NDArray> values;
    std::vector<TensorType> types;
    for (const auto& v : s.ins) {
        values.push_back(valueOf(env, v));
        types.emplace_back(values.back().dtype(), values.back().shape());
    }
    if (runWithEmptyInputs(s, env, values, types, options)) return;
    std::vector<NDArray> outs = runCompiled(s, values, types, options);
    for (size_t i = 0; i < s.outs.size(); ++i)
        env[s.outs[i]] = outs[i];
}

} // namespace

// --- building -----------------------------------------------------------------------------

ControlFlowProgram::~ControlFlowProgram() = default;

std::shared_ptr<ControlFlowProgram> ControlFlowProgram::build(const graph::Graph& g,
                                                              const CompileOptions& options) {
    std::shared_ptr<ControlFlowProgram> p(new ControlFlowProgram());
    p->graph_ = graph::inlineConstantIf(g);
    p->options_ = options;
    p->options_.trace = false;
    p->options_.progress = nullptr;
    p->options_.schedules.clear(); // named for the whole model's functions, not a segment's
    int64_t nextId = 0;
    for (const auto* list : {&p->graph_.inputs(), &p->graph_.constants(), &p->graph_.nodes()})
        for (const auto& n : *list)
            nextId = std::max(nextId, n->id + 1);
    std::vector<Ref<Node>> run;
    auto flush = [&] {
        if (run.empty()) return;
        auto step = std::make_unique<Step>();
        step->segment = makeSegment(p->graph_, run, nextId);
        run.clear();
        if (step->segment->outs.empty()) return; // nothing later reads it
        p->steps_.push_back(std::move(step));
    };
    for (const auto& n : p->graph_.nodes()) {
        if (!isHostStep(*n)) {
            run.push_back(n);
            continue;
        }
        flush();
        auto step = std::make_unique<Step>();
        step->node = n;
        for (const auto& s : n->subgraphs)
            step->subs.push_back(build(*s.graph, options));
        p->steps_.push_back(std::move(step));
    }
    flush();
    // Segments whose input types are static now are compiled now, with the
    // trace when asked (the code view shows their functions); later compiles
    // for the shapes a run brings are for running only.
    CompileOptions now = p->options_;
    now.trace = options.trace;
    for (auto& step : p->steps_) {
        if (!step->segment) continue;
        std::vector<TensorType> types;
        bool known = true;
        for (const auto& v : step->segment->ins) {
            known = known && v.type().known() && v.type().isStatic();
            types.push_back(v.type());
        }
        if (known) entryFor(*step->segment, types, nullptr, now);
    }
    return p;
}

std::vector<FusedFunction> ControlFlowProgram::functions() const {
    std::vector<FusedFunction> out;
    std::set<std::string> used;
    collectFunctions({}, "", out, used);
    return out;
}

void ControlFlowProgram::collectFunctions(const std::vector<std::pair<int64_t, std::string>>& region,
                                          const std::string& prefix, std::vector<FusedFunction>& out,
                                          std::set<std::string>& used) const {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    for (const auto& step : steps_) {
        if (step->segment) {
            for (const auto& [key, entry] : step->segment->cache)
                for (const FusedFunction& f : entry->model.functions) {
                    FusedFunction g = f;
                    g.name = prefix + f.name;
                    for (int k = 2; used.count(g.name); ++k)
                        g.name = prefix + f.name + "_" + std::to_string(k);
                    used.insert(g.name);
                    g.region = region;
                    g.group = -1;
                    g.args.clear();
                    out.push_back(std::move(g));
                }
            continue;
        }
        const Node& n = *step->node;
        for (size_t k = 0; k < step->subs.size(); ++k) {
            auto inner = region;
            inner.emplace_back(n.id, n.subgraphs[k].attr);
            step->subs[k]->collectFunctions(inner, prefix + (n.name.empty() ? n.op : n.name) + "/" +
                                                       n.subgraphs[k].attr + "/",
                                            out, used);
        }
    }
}

int ControlFlowProgram::compiles() const {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    int n = 0;
    for (const auto& s : steps_) {
        if (s->segment) n += s->segment->compiles;
        for (const auto& sub : s->subs)
            n += sub->compiles();
    }
    return n;
}

std::string ControlFlowProgram::describe() const {
    std::string out;
    for (size_t i = 0; i < steps_.size(); ++i) {
        const Step& s = *steps_[i];
        if (!out.empty()) out += " -> ";
        if (s.segment) {
            out += "segment (" + std::to_string(s.segment->nodes) + " node" +
                   (s.segment->nodes == 1 ? "" : "s") + ")";
            continue;
        }
        out += s.node->op + (s.node->name.empty() ? "" : " '" + s.node->name + "'");
        if (s.subs.empty()) continue; // a data-dependent operator
        out += " [";
        for (size_t k = 0; k < s.subs.size(); ++k)
            out += (k ? "; " : "") + s.node->subgraphs[k].attr + ": " + s.subs[k]->describe();
        out += "]";
    }
    return out.empty() ? "(no steps)" : out;
}

// --- running ------------------------------------------------------------------------------

namespace {

using Program = ControlFlowProgram;

std::vector<NDArray> runIf(const Node& n, const std::vector<NDArray>& own,
                           const std::vector<std::vector<NDArray>>& outer,
                           const std::vector<std::shared_ptr<Program>>& subs) {
    const std::string taken =
        truth(own.at(0), n.describe() + ": the condition") ? "then_branch" : "else_branch";
    for (size_t k = 0; k < n.subgraphs.size(); ++k)
        if (n.subgraphs[k].attr == taken) return subs[k]->run(outer[k]);
    throw CompileError(n.describe() + ": subgraph '" + taken + "' is missing");
}

std::vector<NDArray> runLoop(const Node& n, const std::vector<NDArray>& own,
                             const std::vector<NDArray>& outer, const Program& body,
                             const graph::Graph& bodyGraph) {
    const std::string who = n.describe();
    int64_t trips = std::numeric_limits<int64_t>::max();
    if (own.size() > 0 && own[0].defined()) trips = int64_t(own[0].at(0));
    bool cond = own.size() > 1 && own[1].defined() ? truth(own[1], who + ": the condition") : true;
    const size_t carriedCount = own.size() > 2 ? own.size() - 2 : 0;
    std::vector<NDArray> carried(own.begin() + std::min<long>(2, long(own.size())), own.end());
    const size_t scanCount = size_t(n.numOutputs()) - carriedCount;
    std::vector<std::vector<NDArray>> scans(scanCount);
    const auto& bodyInputs = bodyGraph.inputs();
    if (bodyInputs.size() != 2 + carriedCount + outer.size())
        throw CompileError(who + ": the body takes " + std::to_string(bodyInputs.size()) +
                           " inputs, not " + std::to_string(2 + carriedCount + outer.size()));
    for (int64_t i = 0; i < trips && cond; ++i) {
        std::vector<NDArray> args{scalarFor(bodyInputs[0]->outputTypes[0], DataType::int64(), i),
                                  scalarFor(bodyInputs[1]->outputTypes[0], DataType::boolean(), 1)};
        args.insert(args.end(), carried.begin(), carried.end());
        args.insert(args.end(), outer.begin(), outer.end());
        std::vector<NDArray> outs = body.run(args);
        if (outs.size() != 1 + carriedCount + scanCount)
            throw CompileError(who + ": the body gives " + std::to_string(outs.size()) +
                               " outputs, not " + std::to_string(1 + carriedCount + scanCount));
        cond = truth(outs[0], who + ": the body's condition");
        for (size_t k = 0; k < carriedCount; ++k)
            carried[k] = outs[1 + k];
        for (size_t k = 0; k < scanCount; ++k)
            scans[k].push_back(outs[1 + carriedCount + k]);
    }
    std::vector<NDArray> results = carried;
    for (size_t k = 0; k < scanCount; ++k)
        results.push_back(scans[k].empty()
                              ? emptyStack(n.outputTypes[carriedCount + k], who)
                              : stack(scans[k], 0, who + ": scan output " + std::to_string(k)));
    return results;
}

struct ScanAttrs {
    std::vector<int64_t> inAxes, inDirs, outAxes, outDirs;
    int64_t at(const std::vector<int64_t>& v, size_t i) const { return i < v.size() ? v[i] : 0; }
};

/// One Scan over `scans` (opset 9's form): the final states, then the stacked outputs.
std::vector<NDArray> scanOnce(const Node& n, std::vector<NDArray> states,
                              const std::vector<NDArray>& scans, const std::vector<NDArray>& outer,
                              const ScanAttrs& a, const Program& body) {
    const std::string who = n.describe();
    std::vector<int64_t> axes;
    for (size_t j = 0; j < scans.size(); ++j)
        axes.push_back(axisOf(a.at(a.inAxes, j), scans[j].ndim(), who));
    const int64_t length = scans[0].shape()[size_t(axes[0])];
    for (size_t j = 0; j < scans.size(); ++j)
        if (scans[j].shape()[size_t(axes[j])] != length)
            throw CompileError(who + ": scan inputs of different lengths (" + scans[0].str() +
                               ", " + scans[j].str() + ")");
    if (length == 0) throw CompileError(who + ": a scan over 0 iterations is not supported");
    const size_t scanOutputs = size_t(n.numOutputs()) - states.size();
    std::vector<std::vector<NDArray>> parts(scanOutputs);
    for (int64_t t = 0; t < length; ++t) {
        std::vector<NDArray> args = states;
        for (size_t j = 0; j < scans.size(); ++j)
            args.push_back(sliceAt(scans[j], axes[j], a.at(a.inDirs, j) ? length - 1 - t : t));
        args.insert(args.end(), outer.begin(), outer.end());
        std::vector<NDArray> outs = body.run(args);
        if (outs.size() != states.size() + scanOutputs)
            throw CompileError(who + ": the body gives " + std::to_string(outs.size()) +
                               " outputs");
        for (size_t k = 0; k < states.size(); ++k)
            states[k] = outs[k];
        for (size_t k = 0; k < scanOutputs; ++k)
            parts[k].push_back(outs[states.size() + k]);
    }
    std::vector<NDArray> results = states;
    for (size_t k = 0; k < scanOutputs; ++k) {
        if (a.at(a.outDirs, k)) std::reverse(parts[k].begin(), parts[k].end());
        const int64_t axis = axisOf(a.at(a.outAxes, k), parts[k][0].ndim() + 1, who);
        results.push_back(stack(parts[k], axis, who + ": scan output " + std::to_string(k)));
    }
    return results;
}

std::vector<NDArray> runScan(const Node& n, const std::vector<NDArray>& own,
                             const std::vector<NDArray>& outer, const Program& body) {
    const size_t m = size_t(n.attrs.getInt("num_scan_inputs", 1));
    const size_t stateCount = own.size() - m;
    std::vector<NDArray> states(own.begin(), own.begin() + long(stateCount));
    std::vector<NDArray> scans(own.begin() + long(stateCount), own.end());
    ScanAttrs a{
        n.attrs.getInts("scan_input_axes", {}), n.attrs.getInts("scan_input_directions", {}),
        n.attrs.getInts("scan_output_axes", {}), n.attrs.getInts("scan_output_directions", {})};
    if (!n.attrs.getInt("batch", 0)) return scanOnce(n, states, scans, outer, a, body);
    // Opset 8: axis 0 of every input is a batch, each entry scanned along its axis 0.
    const int64_t batch = scans[0].ndim() > 0 ? scans[0].shape()[0] : 0;
    std::vector<std::vector<NDArray>> perOutput(size_t(n.numOutputs()));
    for (int64_t b = 0; b < batch; ++b) {
        std::vector<NDArray> s, x;
        for (const auto& v : states)
            s.push_back(sliceAt(v, 0, b));
        for (const auto& v : scans)
            x.push_back(sliceAt(v, 0, b));
        std::vector<NDArray> r = scanOnce(n, s, x, outer, ScanAttrs{{}, a.inDirs, {}, {}}, body);
        for (size_t k = 0; k < r.size(); ++k)
            perOutput[k].push_back(r[k]);
    }
    if (batch == 0) throw CompileError(n.describe() + ": a batch of 0 is not supported");
    std::vector<NDArray> results;
    for (size_t k = 0; k < perOutput.size(); ++k)
        results.push_back(stack(perOutput[k], 0, n.describe() + ": output " + std::to_string(k)));
    return results;
}

} // namespace

std::vector<NDArray> ControlFlowProgram::run(const std::vector<NDArray>& inputs) const {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    return runLocked(inputs);
}

std::vector<NDArray> ControlFlowProgram::runLocked(const std::vector<NDArray>& inputs) const {
    if (inputs.size() != graph_.inputs().size())
        throw CompileError("control flow: '" + graph_.name() + "' takes " +
                           std::to_string(graph_.inputs().size()) + " inputs, not " +
                           std::to_string(inputs.size()));
    Env env;
    for (size_t i = 0; i < inputs.size(); ++i)
        env[graph_.inputs()[i]->output()] = inputs[i];
    for (const auto& step : steps_) {
        if (step->segment) {
            runSegment(*step->segment, env, options_);
            continue;
        }
        const Node& n = *step->node;
        const size_t own = size_t(n.numOwnInputs());
        std::vector<NDArray> ownValues;
        for (size_t i = 0; i < own; ++i)
            ownValues.push_back(valueOf(env, n.inputs[i]));
        std::vector<std::vector<NDArray>> outer;
        size_t at = own;
        for (const auto& s : n.subgraphs) {
            outer.emplace_back();
            for (size_t k = 0; k < s.outer.size(); ++k)
                outer.back().push_back(valueOf(env, n.inputs[at++]));
        }
        std::vector<NDArray> results;
        if (isDataDependentNode(n))
            results = runHostOp(n, ownValues);
        else if (n.op == "If")
            results = runIf(n, ownValues, outer, step->subs);
        else if (n.op == "Loop")
            results = runLoop(n, ownValues, outer.at(0), *step->subs.at(0), *n.subgraphs[0].graph);
        else
            results = runScan(n, ownValues, outer.at(0), *step->subs.at(0));
        if (results.size() != size_t(n.numOutputs()))
            throw CompileError(n.describe() + ": gives " + std::to_string(results.size()) +
                               " outputs, not " + std::to_string(n.numOutputs()));
        for (int i = 0; i < n.numOutputs(); ++i)
            env[n.output(i)] = results[size_t(i)];
    }
    std::vector<NDArray> outputs;
    for (const auto& v : graph_.outputs())
        outputs.push_back(valueOf(env, v));
    return outputs;
}

} // namespace tessel::driver
