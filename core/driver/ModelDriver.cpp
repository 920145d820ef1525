#include "driver/ModelDriver.h"

#include "codegen/Target.h"
#include "driver/ModelCompiler.h"

#include "graph/GraphPrinter.h"
#include "graph/passes/GraphPassManager.h"
#include "graph/passes/GraphPipeline.h"

#include <memory>

namespace tessel::driver {

StageSnapshot importStage(const graph::Graph& imported) {
    StageSnapshot s;
    s.pass = "import";
    s.level = StageLevel::Graph;
    s.text = graph::printGraph(imported);
    s.changed = true;
    s.ir = imported;
    return s;
}

ModelTrace optimizeModel(const std::string& path, const frontend::ImportOptions& options,
                         const Context* context) {
    const Context& c = context ? *context : Context::builtin();
    ModelTrace t;
    frontend::ImportOptions io = options;
    if (!io.ops) io.ops = &c.ops;
    t.imported = frontend::importOnnx(path, io);
    t.stages.push_back(importStage(t.imported));
    graph::GraphPassManager pm(c.graphPasses);
    auto snaps = std::make_shared<graph::GraphSnapshotInstrument>();
    pm.addInstrument(snaps);
    t.optimized = pm.run(t.imported, graphPipelineFor(codegen::hostTarget()));
    for (auto& s : snaps->snapshots()) t.stages.push_back(s);
    graph::FuseOpsOptions fusion;
    fusion.ops = &c.ops;
    t.fusion = graph::planFusion(t.optimized, fusion);
    return t;
}

ShownModel importModelToShow(const std::string& path, const frontend::ImportOptions& options,
                             const Context* context) {
    const Context& c = context ? *context : Context::builtin();
    frontend::ImportOptions io = options;
    if (!io.ops) io.ops = &c.ops;
    io.allowUnsupported = true;
    ShownModel m;
    m.graph = frontend::importOnnx(path, io);
    m.unsupported = graph::unsupportedConstructs(m.graph);
    return m;
}

std::string unsupportedReport(const std::vector<graph::UnsupportedConstruct>& list) {
    if (list.empty()) return {};
    std::string s = "# this model cannot be compiled: " + std::to_string(list.size()) +
                    " unsupported construct" + (list.size() == 1 ? "" : "s") + "\n";
    for (const auto& c : list)
        s += "#   " + c.str() + "\n";
    return s;
}

std::string describeFusion(const graph::Graph& g, const graph::FusionPlan& plan) {
    std::string out;
    for (auto& grp : plan.groups) {
        out += grp.name + " (" + std::to_string(grp.members.size()) + " operator" +
               (grp.members.size() == 1 ? "" : "s") + ")\n";
        for (auto id : grp.members) {
            auto n = g.findNode(id);
            std::string what = n ? n->describe() : "node " + std::to_string(id);
            out += "  " + what + ": " + plan.reason(id) + "\n";
        }
    }
    return out;
}

} // namespace tessel::driver
