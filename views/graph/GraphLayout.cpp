#include "graph/GraphLayout.h"

#include <cgraph.h>
#include <gvc.h>

#include <charconv>
#include <chrono>
#include <clocale>
#include <cmath>
#include <functional>
#include <cstdio>
#include <locale.h>
#include <mutex>
#include <stdexcept>

// The two plugin libraries linked in views/CMakeLists.txt, registered as
// built-ins so no plugin config file is read (names checked with nm -D).
extern "C" {
extern gvplugin_library_t gvplugin_dot_layout_LTX_library;
extern gvplugin_library_t gvplugin_core_LTX_library;
}

namespace tessel::views {

namespace {

constexpr double kPointsPerInch = 72.0;

/// Every call into cgraph/gvc holds this: Graphviz keeps global state.
std::mutex& graphvizMutex() {
    static std::mutex m;
    return m;
}

/// Graphviz's error text while a layout runs (guarded by graphvizMutex).
std::string& graphvizMessages() {
    static std::string text;
    return text;
}

int collectMessage(char* text) {
    if (text) graphvizMessages() += text;
    return 0;
}

/// The one context, made on first use; call with graphvizMutex held.
GVC_t* context() {
    static lt_symlist_t builtins[] = {
        {"gvplugin_dot_layout_LTX_library", &gvplugin_dot_layout_LTX_library},
        {"gvplugin_core_LTX_library", &gvplugin_core_LTX_library},
        {nullptr, nullptr},
    };
    static GVC_t* gvc = gvContextPlugins(builtins, 0);
    return gvc;
}

/// Graphviz reads numbers with strtod, which follows LC_NUMERIC; a Qt
/// application sets the user's locale, where 0.5 may be "0,5". This switches
/// the calling thread (only) to the C locale for the scope.
class CNumericLocale {
public:
    CNumericLocale() {
        loc_ = newlocale(LC_NUMERIC_MASK, "C", static_cast<locale_t>(nullptr));
        if (loc_) old_ = uselocale(loc_);
    }
    ~CNumericLocale() {
        if (!loc_) return;
        uselocale(old_);
        freelocale(loc_);
    }
    CNumericLocale(const CNumericLocale&) = delete;
    CNumericLocale& operator=(const CNumericLocale&) = delete;

private:
    locale_t loc_ = nullptr;
    locale_t old_ = nullptr;
};

/// A number as Graphviz reads it, whatever the locale.
std::string num(double v) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 3);
    std::string s(buf, r.ptr);
    // Trim trailing zeros: "0.500" -> "0.5", "2.000" -> "2".
    if (s.find('.') != std::string::npos) {
        while (!s.empty() && s.back() == '0')
            s.pop_back();
        if (!s.empty() && s.back() == '.') s.pop_back();
    }
    return s;
}

char* cstr(const char* s) {
    return const_cast<char*>(s); // cgraph takes char* but does not write
}

void setAttr(void* obj, Agsym_t* sym, const std::string& value) {
    agxset(obj, sym, cstr(value.c_str()));
}

/// Owns a cgraph graph (and its layout) for the scope.
class GraphHandle {
public:
    explicit GraphHandle(Agraph_t* g) : g_(g) {}
    ~GraphHandle() {
        if (!g_) return;
        if (laidOut_) gvFreeLayout(context(), g_);
        agclose(g_);
    }
    GraphHandle(const GraphHandle&) = delete;
    GraphHandle& operator=(const GraphHandle&) = delete;
    Agraph_t* get() const { return g_; }
    void setLaidOut() { laidOut_ = true; }

private:
    Agraph_t* g_;
    bool laidOut_ = false;
};

std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out + '"';
}

} // namespace

LayoutResult computeLayout(const LayoutInput& input) {
    LayoutResult result;
    if (input.nodes.empty()) return result;
    for (auto& e : input.edges)
        if (e.from < 0 || e.to < 0 || e.from >= int(input.nodes.size()) ||
            e.to >= int(input.nodes.size()))
            throw std::runtime_error("layout: an edge names a node that does not exist");

    std::lock_guard lock(graphvizMutex());
    CNumericLocale cLocale;
    auto start = std::chrono::steady_clock::now();
    graphvizMessages().clear();
    agseterr(AGERR);
    agseterrf(collectMessage);
    GVC_t* gvc = context();
    if (!gvc) throw std::runtime_error("layout: Graphviz could not start");

    GraphHandle handle(agopen(cstr("g"), Agdirected, nullptr));
    Agraph_t* g = handle.get();
    agattr(g, AGRAPH, cstr("rankdir"), cstr("TB"));
    agattr(g, AGRAPH, cstr("splines"), cstr("spline"));
    agattr(g, AGRAPH, cstr("nodesep"), cstr(num(input.nodeSep / kPointsPerInch).c_str()));
    agattr(g, AGRAPH, cstr("ranksep"), cstr(num(input.rankSep / kPointsPerInch).c_str()));
    agattr(g, AGRAPH, cstr("fontsize"), cstr(num(input.clusterFontSize).c_str()));
    agattr(g, AGRAPH, cstr("labeljust"), cstr("l"));
    if (input.fast && input.nodes.size() > 300) {
        // Cap crossing minimisation and network simplex: on wide graphs with
        // many crossings dot's defaults can take seconds. (Chain-like CNNs
        // barely notice either way: 1,200 boxes lay out in about 1.2 s.)
        agattr(g, AGRAPH, cstr("mclimit"), cstr("0.5"));
        agattr(g, AGRAPH, cstr("nslimit"), cstr("4"));
        agattr(g, AGRAPH, cstr("nslimit1"), cstr("4"));
        agattr(g, AGRAPH, cstr("remincross"), cstr("false"));
        agattr(g, AGRAPH, cstr("searchsize"), cstr("10"));
    }
    Agsym_t* clusterLabel = agattr(g, AGRAPH, cstr("label"), cstr(""));
    // Room around a cluster's boxes (points); on the root graph, margin would
    // be the page margin in inches, so it is set per cluster only.
    Agsym_t* clusterMargin = agattr(g, AGRAPH, cstr("margin"), cstr(""));
    agattr(g, AGNODE, cstr("shape"), cstr("box"));
    agattr(g, AGNODE, cstr("fixedsize"), cstr("true"));
    agattr(g, AGNODE, cstr("label"), cstr(""));
    Agsym_t* width = agattr(g, AGNODE, cstr("width"), cstr("0.75"));
    Agsym_t* height = agattr(g, AGNODE, cstr("height"), cstr("0.5"));

    std::vector<Agraph_t*> clusters;
    clusters.reserve(input.clusters.size());
    for (size_t i = 0; i < input.clusters.size(); ++i) {
        char name[32];
        std::snprintf(name, sizeof name, "cluster_%zu", i);
        const auto& c = input.clusters[i];
        // Nested clusters (a Loop inside an If's branch) are subgraphs of their parent's.
        Agraph_t* parent = c.parent >= 0 && c.parent < int(i) ? clusters[size_t(c.parent)] : g;
        Agraph_t* sg = agsubg(parent, name, 1);
        if (c.labelWidth > 0 && c.labelHeight > 0) {
            // An empty fixed-size table: dot leaves exactly the room the GUI measured.
            std::string html =
                "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLPADDING=\"0\" CELLSPACING=\"0\" "
                "FIXEDSIZE=\"TRUE\" WIDTH=\"" +
                num(std::ceil(c.labelWidth)) + "\" HEIGHT=\"" + num(std::ceil(c.labelHeight)) +
                "\"><TR><TD></TD></TR></TABLE>";
            char* label = agstrdup_html(g, cstr(html.c_str()));
            agxset(sg, clusterLabel, label); // takes its own reference
            agstrfree(g, label);
        } else {
            setAttr(sg, clusterLabel, c.label);
        }
        setAttr(sg, clusterMargin, "7");
        clusters.push_back(sg);
    }
    std::vector<Agnode_t*> nodes;
    nodes.reserve(input.nodes.size());
    for (size_t i = 0; i < input.nodes.size(); ++i) {
        const auto& in = input.nodes[i];
        char name[32];
        std::snprintf(name, sizeof name, "n%zu", i);
        Agnode_t* n = agnode(g, name, 1);
        setAttr(n, width, num(std::max(in.width, 1.0) / kPointsPerInch));
        setAttr(n, height, num(std::max(in.height, 1.0) / kPointsPerInch));
        if (in.cluster >= 0 && in.cluster < int(clusters.size()))
            agsubnode(clusters[size_t(in.cluster)], n, 1);
        nodes.push_back(n);
    }
    std::vector<Agedge_t*> edges;
    edges.reserve(input.edges.size());
    for (auto& e : input.edges)
        edges.push_back(agedge(g, nodes[size_t(e.from)], nodes[size_t(e.to)], nullptr, 1));

    if (gvLayout(gvc, g, "dot") != 0) {
        std::string message = "layout: Graphviz dot failed";
        if (!graphvizMessages().empty()) message.append(": ").append(graphvizMessages());
        agseterrf(nullptr);
        throw std::runtime_error(message);
    }
    handle.setLaidOut();

    // Graphviz: points, y up, origin at GD_bb's lower-left. Here: y down.
    boxf bb = GD_bb(g);
    auto flip = [&](pointf p) { return LayoutPoint{p.x - bb.LL.x, bb.UR.y - p.y}; };
    result.bounds = {0, 0, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y};

    result.nodes.reserve(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) {
        LayoutPoint c = flip(ND_coord(nodes[i]));
        double w = std::max(input.nodes[i].width, 1.0), h = std::max(input.nodes[i].height, 1.0);
        result.nodes.push_back({c.x - w / 2, c.y - h / 2, w, h});
    }
    result.edges.resize(edges.size());
    for (size_t i = 0; i < edges.size(); ++i) {
        Agedge_t* e = edges[i];
        if (!e || !ED_spl(e)) continue;
        const splines* spl = ED_spl(e);
        auto& route = result.edges[i];
        for (int b = 0; b < spl->size; ++b) {
            const bezier& bz = spl->list[b];
            for (int k = 0; k < bz.size; ++k) {
                // A later piece starts where the previous one ended.
                if (b > 0 && k == 0 && !route.points.empty()) continue;
                route.points.push_back(flip(bz.list[k]));
            }
            if (bz.eflag) {
                route.arrow = true;
                route.arrowTip = flip(bz.ep);
            }
        }
    }
    for (Agraph_t* sg : clusters) {
        boxf cb = GD_bb(sg);
        LayoutPoint tl = flip({cb.LL.x, cb.UR.y});
        result.clusters.push_back({tl.x, tl.y, cb.UR.x - cb.LL.x, cb.UR.y - cb.LL.y});
        textlabel_t* label = GD_label(sg);
        result.clusterLabels.push_back(label ? flip(label->pos) : LayoutPoint{tl.x + 4, tl.y + 8});
    }
    result.messages = graphvizMessages();
    agseterrf(nullptr);
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

std::string toDot(const LayoutInput& input, const LayoutResult* layout) {
    bool withPos = layout && layout->nodes.size() == input.nodes.size();
    std::string out = "digraph " + quoted(input.name) + " {\n";
    out += "  graph [rankdir=TB, splines=spline, nodesep=" + num(input.nodeSep / kPointsPerInch) +
           ", ranksep=" + num(input.rankSep / kPointsPerInch) +
           ", fontname=\"Helvetica\", fontsize=" + num(input.clusterFontSize) + "];\n";
    out += "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", "
           "fontname=\"Helvetica\", "
           "fontsize=9, fixedsize=true];\n";
    auto nodeLine = [&](size_t i, const std::string& indent) {
        const auto& n = input.nodes[i];
        std::string label;
        for (size_t k = 0; k < n.label.size(); ++k)
            label += (k ? "\n" : "") + n.label[k];
        std::string line = indent + "n" + std::to_string(i) + " [label=" + quoted(label) +
                           ", width=" + num(n.width / kPointsPerInch) +
                           ", height=" + num(n.height / kPointsPerInch);
        if (!n.color.empty()) line += ", fillcolor=" + quoted(n.color);
        if (withPos) {
            const auto& r = layout->nodes[i];
            double x = r.x + r.width / 2, y = layout->bounds.height - (r.y + r.height / 2);
            line += ", pos=\"" + num(x) + "," + num(y) + "!\"";
        }
        return line + "];\n";
    };
    std::function<void(size_t, const std::string&)> cluster = [&](size_t c, const std::string& indent) {
        const auto& cl = input.clusters[c];
        out += indent + "subgraph cluster_" + std::to_string(c) + " {\n";
        out += indent + "  label=" + quoted(cl.label) + "; style=\"rounded,filled\";";
        if (!cl.color.empty()) out += " fillcolor=" + quoted(cl.color) + ";";
        out += "\n";
        for (size_t i = 0; i < input.nodes.size(); ++i)
            if (input.nodes[i].cluster == int(c)) out += nodeLine(i, indent + "  ");
        for (size_t k = c + 1; k < input.clusters.size(); ++k)
            if (input.clusters[k].parent == int(c)) cluster(k, indent + "  ");
        out += indent + "}\n";
    };
    for (size_t c = 0; c < input.clusters.size(); ++c)
        if (input.clusters[c].parent < 0) cluster(c, "  ");
    for (size_t i = 0; i < input.nodes.size(); ++i) {
        int c = input.nodes[i].cluster;
        if (c < 0 || c >= int(input.clusters.size())) out += nodeLine(i, "  ");
    }
    for (auto& e : input.edges)
        out += "  n" + std::to_string(e.from) + " -> n" + std::to_string(e.to) + ";\n";
    out += "}\n";
    return out;
}

std::string graphvizVersion() {
    std::lock_guard lock(graphvizMutex());
    GVC_t* gvc = context();
    const char* v = gvc ? gvcVersion(gvc) : nullptr;
    return v ? v : "";
}

} // namespace tessel::views
