#include "te/ScheduleGraphs.h"

#include "tir/IROperators.h"
#include "tir/IRPrinter.h"

#include <map>
#include <optional>
#include <set>

namespace tessel::te {

namespace {

using Node = ScheduleGraphNode;
using Extents = std::map<const tir::IterVarNode*, std::optional<int64_t>>;

/// Adds nodes and edges, keeping ids unique (a stage may name two loops alike).
struct Builder {
    ScheduleGraph g;
    std::set<std::string> ids;

    int add(Node n) {
        std::string id = n.id;
        for (int k = 2; ids.count(id); ++k) id = n.id + "#" + std::to_string(k);
        n.id = id;
        ids.insert(id);
        g.nodes.push_back(std::move(n));
        return int(g.nodes.size()) - 1;
    }
    void edge(int from, int to, std::string label = {}) { g.edges.push_back({from, to, std::move(label)}); }
};

std::vector<int> linesOf(const std::vector<SourceLoc>& locs) {
    std::vector<int> lines;
    for (const SourceLoc& l : locs)
        if (l.known()) lines.push_back(l.line);
    return lines;
}

std::vector<int> linesOf(const StageData& st, const IterVar& iv) {
    auto it = st.sources.iterVars.find(iv.get());
    return it == st.sources.iterVars.end() ? std::vector<int>{} : linesOf(it->second);
}

bool isPlaceholder(const StageData& st) { return st.op->opKind() == OpKind::Placeholder; }

/// The constant extent of every loop of `st` that the schedule alone gives
/// (roots from their domains, then through splits and fuses); nullopt where
/// it is symbolic.
Extents extentsOf(const StageData& st) {
    Extents e;
    for (const IterVar& iv : st.allIterVars)
        if (iv->dom.extent.defined()) e[iv.get()] = tir::asConstInt(iv->dom.extent);
    auto get = [&](const IterVar& iv) -> std::optional<int64_t> {
        auto it = e.find(iv.get());
        return it == e.end() ? std::nullopt : it->second;
    };
    for (const IterRelation& r : st.relations) {
        if (r.kind == IterRelation::Kind::Split) {
            auto p = get(r.parent);
            auto f = tir::asConstInt(r.factor);
            if (p && f && *f > 0) {
                const int64_t other = (*p + *f - 1) / *f;
                e[r.outer.get()] = r.byNParts ? *f : other;
                e[r.inner.get()] = r.byNParts ? other : *f;
            } else {
                e[r.outer.get()] = std::nullopt;
                e[r.inner.get()] = r.byNParts || !f ? std::nullopt : f;
            }
        } else {
            auto o = get(r.outer), i = get(r.inner);
            e[r.fused.get()] = o && i ? std::optional<int64_t>(*o * *i) : std::nullopt;
        }
    }
    return e;
}

std::string annotationOf(const StageData& st, const IterVar& iv) {
    // A loop bound to GPU blocks or threads shows its thread tag.
    if (auto b = st.bindings.find(iv.get()); b != st.bindings.end()) return b->second->threadTag;
    auto it = st.annotations.find(iv.get());
    if (it == st.annotations.end() || it->second == IterAnnotation::None) return {};
    return iterAnnotationName(it->second);
}

/// An IterVar node of stage `st`: "x_outer" over "32 · parallel". Without
/// `extents` (a stage computed at another's loop, whose bounds come from
/// bound inference at lowering) no extent is written.
Node loopNode(const StageData& st, const IterVar& iv, const Extents* extents) {
    Node n;
    n.kind = Node::Kind::IterVar;
    n.stage = st.op->name;
    n.iterVar = iv->var.name();
    n.id = "iv:" + n.stage + "/" + n.iterVar;
    n.annotation = annotationOf(st, iv);
    n.reduce = iv->kind == tir::IterVarKind::CommReduce;
    for (size_t i = 0; i < st.leafIterVars.size(); ++i)
        if (st.leafIterVars[i].sameAs(iv)) n.leafIndex = int(i);
    n.leaf = n.leafIndex >= 0;
    n.lines = linesOf(st, iv);
    std::string detail;
    if (extents) {
        auto it = extents->find(iv.get());
        detail = it != extents->end() && it->second ? std::to_string(*it->second) : "?";
    }
    for (const std::string& word : {n.reduce ? std::string("reduce") : std::string(), n.annotation})
        if (!word.empty()) detail += (detail.empty() ? "" : " · ") + word;
    n.label = {n.iterVar};
    if (!detail.empty()) n.label.push_back(detail);
    return n;
}

std::string attachText(const StageData& st) {
    switch (st.attach) {
    case AttachKind::Root: return "at root";
    case AttachKind::Inline: return "inline";
    case AttachKind::Scope: {
        auto parent = st.attachStage.lock();
        return "at " + (parent ? parent->op->name : std::string("?")) + "." +
               (st.attachIter.defined() ? st.attachIter->var.name() : std::string("?"));
    }
    }
    return {};
}

Node stageNode(const StageData& st) {
    Node n;
    n.kind = isPlaceholder(st) ? Node::Kind::Placeholder : Node::Kind::Stage;
    n.stage = st.op->name;
    n.id = "stage:" + n.stage;
    n.lines = linesOf(st.sources.stage);
    return n;
}

std::string escape(const std::string& s) {
    std::string r;
    for (char c : s) {
        if (c == '"' || c == '\\') r += '\\';
        r += c;
    }
    return r;
}

} // namespace

int ScheduleGraph::find(const std::string& id) const {
    for (size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].id == id) return int(i);
    return -1;
}

bool ScheduleGraph::hasEdge(const std::string& from, const std::string& to) const {
    const int f = find(from), t = find(to);
    for (const auto& e : edges)
        if (e.from == f && e.to == t) return f >= 0 && t >= 0;
    return false;
}

std::string ScheduleGraph::toDot() const {
    std::string out = "digraph \"" + escape(name) + "\" {\n  node [fontname=\"Helvetica\", fontsize=10];\n";
    auto nodeLine = [&](size_t i) {
        const Node& n = nodes[i];
        std::string label;
        for (const auto& l : n.label) label += (label.empty() ? "" : "\\n") + escape(l);
        const bool relation = n.kind == Node::Kind::Split || n.kind == Node::Kind::Fuse;
        std::string attrs = relation ? "shape=ellipse" : n.kind == Node::Kind::Root ? "shape=circle" : "shape=box";
        if (n.kind == Node::Kind::IterVar && n.leaf) attrs += ", style=bold";
        return "n" + std::to_string(i) + " [label=\"" + label + "\", " + attrs + "];\n";
    };
    for (size_t c = 0; c < clusters.size(); ++c) {
        out += "  subgraph cluster_" + std::to_string(c) + " {\n    label=\"" + escape(clusters[c]) + "\";\n";
        for (size_t i = 0; i < nodes.size(); ++i)
            if (nodes[i].cluster == int(c)) out += "    " + nodeLine(i);
        out += "  }\n";
    }
    for (size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].cluster < 0) out += "  " + nodeLine(i);
    for (const auto& e : edges) {
        out += "  n" + std::to_string(e.from) + " -> n" + std::to_string(e.to);
        if (!e.label.empty()) out += " [label=\"" + escape(e.label) + "\"]";
        out += ";\n";
    }
    return out + "}\n";
}

ScheduleGraph dataflowGraph(const Schedule& s) {
    Builder b;
    b.g.name = "dataflow";
    std::map<const OperationNode*, int> nodeOf;
    for (const auto& st : s.data().stages) {
        Node n = stageNode(*st);
        n.label = {st->op->name};
        for (int i = 0; i < st->op->numOutputs(); ++i) n.label.push_back(typeText(st->op.output(i)));
        if (st->scope != "global") n.label.push_back(st->scope);
        nodeOf[st->op.get()] = b.add(std::move(n));
    }
    for (const auto& st : s.data().stages) {
        if (isPlaceholder(*st)) continue;
        for (const Tensor& t : st->op->inputTensors()) {
            // A tensor of an operation that cache_read/cache_write replaced
            // reads from the stage that stands for it now.
            auto it = nodeOf.find(t->op.get());
            if (it == nodeOf.end()) it = nodeOf.find(s.data().resolve(t->op).get());
            if (it == nodeOf.end()) continue;
            b.edge(it->second, nodeOf[st->op.get()], t->producerName());
        }
    }
    return std::move(b.g);
}

ScheduleGraph scheduleTree(const Schedule& s) {
    Builder b;
    b.g.name = "schedule_tree";
    Node root;
    root.kind = Node::Kind::Root;
    root.id = "root";
    root.label = {"root"};
    const int rootIndex = b.add(root);
    // Stages first (so a stage computed at a later stage's loop finds it),
    // then the loops of each, then the attachments.
    std::map<const StageData*, int> stageIndex;
    std::map<std::pair<const StageData*, const tir::IterVarNode*>, int> loopIndex;
    for (const auto& st : s.data().stages) {
        if (isPlaceholder(*st)) continue;
        Node n = stageNode(*st);
        n.label = {st->op->name, attachText(*st)};
        if (st->scope != "global") n.label.back() += " · " + st->scope;
        stageIndex[st.get()] = b.add(std::move(n));
    }
    for (const auto& st : s.data().stages) {
        if (isPlaceholder(*st) || st->attach == AttachKind::Inline) continue;
        const Extents extents = extentsOf(*st);
        int prev = stageIndex[st.get()];
        for (const IterVar& iv : st->leafIterVars) {
            const int at = b.add(loopNode(*st, iv, st->attach == AttachKind::Scope ? nullptr : &extents));
            loopIndex[{st.get(), iv.get()}] = at;
            b.edge(prev, at);
            prev = at;
        }
    }
    for (const auto& st : s.data().stages) {
        if (isPlaceholder(*st)) continue;
        int parent = rootIndex;
        if (st->attach == AttachKind::Scope) {
            auto p = st->attachStage.lock();
            auto it = loopIndex.find({p.get(), st->attachIter.get()});
            if (it != loopIndex.end()) parent = it->second;
        }
        b.edge(parent, stageIndex[st.get()]);
    }
    return std::move(b.g);
}

ScheduleGraph itervarGraph(const Schedule& s) {
    Builder b;
    b.g.name = "itervar";
    for (const auto& st : s.data().stages) {
        if (isPlaceholder(*st)) continue;
        const int cluster = int(b.g.clusters.size());
        b.g.clusters.push_back(st->op->name);
        const Extents extents = extentsOf(*st);
        std::map<const tir::IterVarNode*, int> at;
        // As in the tree: a stage computed at another's loop gets its bounds
        // at lowering, so its loops show no extents.
        const Extents* known = st->attach == AttachKind::Scope ? nullptr : &extents;
        for (const IterVar& iv : st->allIterVars) {
            Node n = loopNode(*st, iv, known);
            n.cluster = cluster;
            at[iv.get()] = b.add(std::move(n));
        }
        auto nodeOf = [&](const IterVar& iv) {
            auto it = at.find(iv.get());
            return it == at.end() ? -1 : it->second;
        };
        for (size_t k = 0; k < st->relations.size(); ++k) {
            const IterRelation& r = st->relations[k];
            Node n;
            n.stage = st->op->name;
            n.cluster = cluster;
            const std::string suffix = st->op->name + "/" + std::to_string(k);
            if (r.kind == IterRelation::Kind::Split) {
                n.kind = Node::Kind::Split;
                n.id = "split:" + suffix;
                auto f = tir::asConstInt(r.factor);
                n.label = {"split", (r.byNParts ? "nparts " : "factor ") +
                                        (f ? std::to_string(*f) : tir::toString(r.factor))};
                n.lines = linesOf(*st, r.outer);
                const int rel = b.add(std::move(n));
                if (int p = nodeOf(r.parent); p >= 0) b.edge(p, rel);
                if (int o = nodeOf(r.outer); o >= 0) b.edge(rel, o, "outer");
                if (int i = nodeOf(r.inner); i >= 0) b.edge(rel, i, "inner");
            } else {
                n.kind = Node::Kind::Fuse;
                n.id = "fuse:" + suffix;
                n.label = {"fuse"};
                n.lines = linesOf(*st, r.fused);
                const int rel = b.add(std::move(n));
                if (int o = nodeOf(r.outer); o >= 0) b.edge(o, rel, "outer");
                if (int i = nodeOf(r.inner); i >= 0) b.edge(i, rel, "inner");
                if (int f = nodeOf(r.fused); f >= 0) b.edge(rel, f);
            }
        }
    }
    return std::move(b.g);
}

} // namespace tessel::te
