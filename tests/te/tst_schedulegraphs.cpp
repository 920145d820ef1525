// TEDD's three pictures of a schedule (te/ScheduleGraphs.h): the nodes and
// edges of the dataflow graph, the schedule tree and the itervar relationship
// graph for schedules with split, fuse, reorder, compute_at and cache_write.
#include "te/ScheduleGraphs.h"
#include "te/script/Script.h"

#include <QFile>
#include <QtTest>

#include <algorithm>

using namespace tessel;
using namespace tessel::te;

namespace {

// Line numbers matter: the graphs carry the script lines of what they show.
const char* kScript = R"(M = 64
N = 64
K = 64
k = te.reduce_axis((0, K), "k")
A = te.placeholder((M, K), name="A")
B = te.placeholder((K, N), name="B")
C = te.compute((M, N), lambda x, y: te.sum(A[x, k] * B[k, y], axis=k), name="C")
s = te.create_schedule(C.op)
CC = s.cache_write(C, "local")
x, y = s[C].op.axis
xo, xi = s[C].split(x, factor=16)
yo, yi = s[C].split(y, factor=8)
s[C].reorder(xo, yo, xi, yi)
f = s[C].fuse(xo, yo)
s[C].parallel(f)
s[C].vectorize(yi)
s[CC].compute_at(s[C], f)
xc, yc = s[CC].op.axis
(kc,) = s[CC].op.reduce_axis
ko, ki = s[CC].split(kc, nparts=4)
s[CC].reorder(ko, xc, ki, yc)
s[CC].unroll(ki)
)";

Schedule scheduleOf(const std::string& src) {
    try {
        auto r = script::runScript(src);
        if (r.schedules.empty()) throw std::runtime_error("the script made no schedule");
        return r.schedules.back();
    } catch (const CompileError& e) {
        qWarning("%s", e.diagnostic().str().c_str());
        throw;
    }
}

const ScheduleGraphNode& node(const ScheduleGraph& g, const std::string& id) {
    const int i = g.find(id);
    if (i < 0) {
        std::string ids;
        for (const auto& n : g.nodes) ids += n.id + " ";
        qFatal("%s has no node %s (nodes: %s)", g.name.c_str(), id.c_str(), ids.c_str());
    }
    return g.nodes[size_t(i)];
}

/// The nodes an edge leads to from `id`, in edge order.
std::vector<std::string> successors(const ScheduleGraph& g, const std::string& id) {
    std::vector<std::string> out;
    const int from = g.find(id);
    for (const auto& e : g.edges)
        if (e.from == from) out.push_back(g.nodes[size_t(e.to)].id);
    return out;
}

int inDegree(const ScheduleGraph& g, int index) {
    return int(std::count_if(g.edges.begin(), g.edges.end(), [&](const auto& e) { return e.to == index; }));
}

std::string labelText(const ScheduleGraphNode& n) {
    std::string s;
    for (const auto& l : n.label) s += (s.empty() ? "" : " | ") + l;
    return s;
}

} // namespace

class TestScheduleGraphs : public QObject {
    Q_OBJECT
private slots:
    void dataflow() {
        const ScheduleGraph g = dataflowGraph(scheduleOf(kScript));
        QCOMPARE(g.nodes.size(), size_t(4)); // A, B, C_local (the cache), C (now a copy)
        QCOMPARE(node(g, "stage:A").kind, ScheduleGraphNode::Kind::Placeholder);
        QCOMPARE(node(g, "stage:C_local").kind, ScheduleGraphNode::Kind::Stage);
        // After cache_write the cache reads A and B and C reads only the cache.
        QVERIFY(g.hasEdge("stage:A", "stage:C_local"));
        QVERIFY(g.hasEdge("stage:B", "stage:C_local"));
        QVERIFY(g.hasEdge("stage:C_local", "stage:C"));
        QVERIFY(!g.hasEdge("stage:A", "stage:C"));
        QCOMPARE(g.edges.size(), size_t(3));
        QCOMPARE(labelText(node(g, "stage:A")), std::string("A | float32[64, 64]"));
        QCOMPARE(labelText(node(g, "stage:C_local")), std::string("C_local | float32[64, 64] | local"));
        // The cache's line is the cache_write.
        QCOMPARE(node(g, "stage:C_local").lines.empty() ? 0 : node(g, "stage:C_local").lines.front(), 9);
    }

    void scheduleTreeNestsLoopsAndAttachments() {
        const ScheduleGraph g = scheduleTree(scheduleOf(kScript));
        QCOMPARE(g.find("stage:A"), -1); // inputs are no stages of the tree
        // C at root, its leaves in order: the fused loop, then xi, yi.
        QCOMPARE(successors(g, "root"), std::vector<std::string>{"stage:C"});
        QCOMPARE(successors(g, "stage:C"), std::vector<std::string>{"iv:C/x_outer_y_outer_fused"});
        const auto fused = successors(g, "iv:C/x_outer_y_outer_fused");
        QCOMPARE(fused.size(), size_t(2));
        QVERIFY(std::find(fused.begin(), fused.end(), "iv:C/x_inner") != fused.end());
        QVERIFY(std::find(fused.begin(), fused.end(), "stage:C_local") != fused.end()); // compute_at
        QCOMPARE(successors(g, "iv:C/x_inner"), std::vector<std::string>{"iv:C/y_inner"});
        QVERIFY(successors(g, "iv:C/y_inner").empty());
        // The cache's loops after split and reorder: ko, xc, ki, yc.
        QCOMPARE(successors(g, "stage:C_local"), std::vector<std::string>{"iv:C_local/k_outer"});
        QCOMPARE(successors(g, "iv:C_local/k_outer"), std::vector<std::string>{"iv:C_local/x_c"});
        QCOMPARE(successors(g, "iv:C_local/x_c"), std::vector<std::string>{"iv:C_local/k_inner"});
        QCOMPARE(successors(g, "iv:C_local/k_inner"), std::vector<std::string>{"iv:C_local/y_c"});
        // Annotations and leaf positions.
        QCOMPARE(node(g, "iv:C/x_outer_y_outer_fused").annotation, std::string("parallel"));
        QCOMPARE(node(g, "iv:C/y_inner").annotation, std::string("vectorize"));
        QCOMPARE(node(g, "iv:C_local/k_inner").annotation, std::string("unroll"));
        QVERIFY(node(g, "iv:C_local/k_inner").reduce);
        QCOMPARE(node(g, "iv:C/y_inner").leafIndex, 2);
        QCOMPARE(node(g, "iv:C_local/y_c").leafIndex, 3);
        // Extents at root come from the splits (64/16 * 64/8); a stage
        // computed at a loop gets its bounds at lowering, so none are written.
        QCOMPARE(labelText(node(g, "iv:C/x_outer_y_outer_fused")), std::string("x_outer_y_outer_fused | 32 · parallel"));
        QCOMPARE(labelText(node(g, "iv:C_local/k_inner")), std::string("k_inner | reduce · unroll"));
        QCOMPARE(labelText(node(g, "stage:C_local")), std::string("C_local | at C.x_outer_y_outer_fused · local"));
        // A tree: every node but the root has one parent.
        for (size_t i = 0; i < g.nodes.size(); ++i)
            QCOMPARE(inDegree(g, int(i)), g.nodes[i].id == "root" ? 0 : 1);
        // Lines: the split that made yi, the vectorize that changed it.
        const auto& lines = node(g, "iv:C/y_inner").lines;
        QVERIFY2(std::find(lines.begin(), lines.end(), 12) != lines.end(), "the split of y is on line 12");
        QVERIFY2(std::find(lines.begin(), lines.end(), 16) != lines.end(), "the vectorize is on line 16");
    }

    void itervarRelations() {
        const ScheduleGraph g = itervarGraph(scheduleOf(kScript));
        QCOMPARE(g.clusters, (std::vector<std::string>{"C_local", "C"}));
        // C: x -> split -> x_outer, x_inner; y likewise; x_outer, y_outer -> fuse -> fused.
        QVERIFY(g.hasEdge("iv:C/x", "split:C/0"));
        QVERIFY(g.hasEdge("split:C/0", "iv:C/x_outer"));
        QVERIFY(g.hasEdge("split:C/0", "iv:C/x_inner"));
        QVERIFY(g.hasEdge("iv:C/y", "split:C/1"));
        QVERIFY(g.hasEdge("iv:C/x_outer", "fuse:C/2"));
        QVERIFY(g.hasEdge("iv:C/y_outer", "fuse:C/2"));
        QVERIFY(g.hasEdge("fuse:C/2", "iv:C/x_outer_y_outer_fused"));
        QCOMPARE(labelText(node(g, "split:C/0")), std::string("split | factor 16"));
        QCOMPARE(labelText(node(g, "split:C_local/0")), std::string("split | nparts 4"));
        QVERIFY(g.hasEdge("iv:C_local/k", "split:C_local/0"));
        // Roots and intermediates are no leaves; the loops the stage runs are.
        QVERIFY(!node(g, "iv:C/x").leaf);
        QVERIFY(!node(g, "iv:C/x_outer").leaf);
        QVERIFY(node(g, "iv:C/x_outer_y_outer_fused").leaf);
        QVERIFY(node(g, "iv:C/x_inner").leaf);
        QCOMPARE(node(g, "iv:C/x_inner").cluster, 1);
        // Edges say which side of a split each loop is.
        for (const auto& e : g.edges)
            if (g.nodes[size_t(e.from)].id == "split:C/1" && g.nodes[size_t(e.to)].id == "iv:C/y_inner")
                QCOMPARE(e.label, std::string("inner"));
        // Every loop ever made is a node: C has x, y and four split loops and
        // the fused one; C_local x_c, y_c, k and k's two halves.
        int loops = 0;
        for (const auto& n : g.nodes) loops += n.kind == ScheduleGraphNode::Kind::IterVar;
        QCOMPARE(loops, 7 + 5);
        QCOMPARE(labelText(node(g, "iv:C/x_outer")), std::string("x_outer | 4"));
        // The cache is computed at a loop of C: its bounds come at lowering.
        QCOMPARE(labelText(node(g, "iv:C_local/k_inner")), std::string("k_inner | reduce · unroll"));
        QCOMPARE(labelText(node(g, "iv:C/x_outer_y_outer_fused")), std::string("x_outer_y_outer_fused | 32 · parallel"));
    }

    void dotText() {
        const ScheduleGraph g = itervarGraph(scheduleOf(kScript));
        const std::string dot = g.toDot();
        QVERIFY(dot.rfind("digraph \"itervar\" {", 0) == 0);
        QVERIFY(dot.find("subgraph cluster_0") != std::string::npos);
        QVERIFY(dot.find("label=\"split\\nfactor 16\"") != std::string::npos);
        QCOMPARE(size_t(std::count(dot.begin(), dot.end(), '>')), g.edges.size());
    }

    // The last step of the GEMM ladder: the packing of B hangs under the
    // parallel panel loop yo, the register block under xo.
    void gemmLadderStep() {
        QFile f(QStringLiteral(TESSEL_SOURCE_DIR "/resources/examples/gemm/08_register_blocking.te"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const Schedule s = scheduleOf(f.readAll().toStdString());
        const ScheduleGraph tree = scheduleTree(s);
        QVERIFY(tree.hasEdge("iv:C/y_outer", "stage:packedB"));
        QVERIFY(tree.hasEdge("iv:C/x_outer", "stage:C_local"));
        QCOMPARE(node(tree, "iv:C/y_outer").leafIndex, 0);
        QCOMPARE(node(tree, "iv:C/y_outer").annotation, std::string("parallel"));
        const ScheduleGraph flow = dataflowGraph(s);
        QVERIFY(flow.hasEdge("stage:B", "stage:packedB"));
        QVERIFY(flow.hasEdge("stage:packedB", "stage:C_local"));
        QVERIFY(flow.hasEdge("stage:A", "stage:C_local"));
        const ScheduleGraph ivs = itervarGraph(s);
        QCOMPARE(ivs.clusters.size(), size_t(3));
        QVERIFY(ivs.hasEdge("iv:C_local/y_c", "split:C_local/1"));
    }

    // The GPU ladder's shared tiles: bound loops carry their thread tags, and
    // the shared stage hangs under the tile loop of the local accumulator.
    void gpuLadderStep() {
        QFile f(QStringLiteral(TESSEL_SOURCE_DIR "/resources/examples/gemm-gpu/02_shared_tiles.te"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const Schedule s = scheduleOf(f.readAll().toStdString());
        const ScheduleGraph tree = scheduleTree(s);
        QCOMPARE(node(tree, "iv:C/x_outer").annotation, std::string("blockIdx.y"));
        QCOMPARE(node(tree, "iv:C/y_inner_outer").annotation, std::string("threadIdx.x"));
        QVERIFY(tree.hasEdge("iv:C_local/k_outer", "stage:A_shared"));
    }
};

QTEST_APPLESS_MAIN(TestScheduleGraphs)
#include "tst_schedulegraphs.moc"
