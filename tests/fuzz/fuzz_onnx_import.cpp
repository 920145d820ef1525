// libFuzzer target: the ONNX importer (frontend/OnnxImporter.h) and the graph
// passes a compile runs on what it imports, on bytes read as a ModelProto.
//
// Each input is imported twice, as the two front ends do:
//  - to show it (`tesselc show`, the IDE's graph view): allowUnsupported, so
//    ONNX's own shape inference runs and opaque nodes stay; the graph is
//    printed and its unsupported constructs listed;
//  - to compile it (driver::compileGraph up to lowering): a strict import,
//    then the default graph pipeline (driver::graphPipelineFor a CPU with
//    8 float32 lanes, alter-layout blocking channels by 8) and the fusion
//    plan; a graph with control flow gets the pre-pass compileGraph gives it
//    (infer-shapes, fold-constant, inline-constant-if, dead-code-elimination)
//    and goes on to the default pipeline only when no control flow is left.
// A CompileError is the expected answer to bad input. Anything else (another
// exception, InternalError included, escaping; a crash; a sanitizer report;
// an allocation over -malloc_limit_mb; a hang) is a bug. With
// TESSEL_FUZZ_VERBOSE set, the errors an input gave are printed.
#include "frontend/OnnxImporter.h"
#include "graph/GraphPrinter.h"
#include "graph/OpRegistry.h"
#include "graph/Unsupported.h"
#include "graph/passes/FuseOps.h"
#include "graph/passes/GraphPassManager.h"
#include "graph/passes/GraphPipeline.h"
#include "ir/Diagnostic.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

using namespace tessel;

namespace {

/// Control flow, or an operator whose output shape is data: both run on the host executor.
bool hasControlFlow(const graph::Graph& g) {
    return std::any_of(g.nodes().begin(), g.nodes().end(), [](const Ref<graph::Node>& n) {
        if (n->kind != graph::NodeKind::Op || n->opaque()) return false;
        const graph::OpInfo* info = graph::findOp(n->op);
        return (!n->subgraphs.empty() && (n->op == "If" || n->op == "Loop" || n->op == "Scan")) ||
               (info && info->dataDependent);
    });
}

/// With TESSEL_FUZZ_VERBOSE set (to look at one input): the error bad input gave.
void report(const char* what, const CompileError& e) {
    if (std::getenv("TESSEL_FUZZ_VERBOSE")) std::fprintf(stderr, "%s: %s\n", what, e.what());
}

void show(std::string_view bytes) {
    frontend::ImportOptions o;
    o.allowUnsupported = true;
    try {
        graph::Graph g = frontend::importOnnxBytes(bytes, o);
        (void)graph::printGraph(g);
        (void)graph::describeUnsupported(graph::unsupportedConstructs(g));
    } catch (const CompileError& e) {
        report("show", e);
    }
}

void compile(std::string_view bytes) {
    try {
        graph::Graph g = frontend::importOnnxBytes(bytes, {});
        graph::GraphPassManager pm;
        if (hasControlFlow(g)) {
            g = pm.run(g, {"infer-shapes", "fold-constant", "inline-constant-if", "dead-code-elimination"});
            if (hasControlFlow(g)) return;
        }
        g = pm.run(g, graph::defaultGraphPipeline(8));
        (void)graph::planFusion(g);
        (void)graph::printGraph(g);
    } catch (const CompileError& e) {
        report("compile", e);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    show(bytes);
    compile(bytes);
    return 0;
}
