// bench/conv: ResNet-18's 3x3 convolution layers, Tessel default and tuned
// against oneDNN's convolution of the same shape, in one run:
//
//   bench_conv [--model F.onnx] [--records F|DIR] [--rounds R] [--threads 1,2]
//              [--min-repeat-ms MS] [--no-check] [--passive] [--json FILE]
//   bench_conv --check-anchor        the oneDNN anchor against a naive
//                                    convolution on small shapes (ctest)
//
// The model (default <build>/models/resnet18/model.onnx) is exported with
// scripts/export-models.py when it is missing, as bench_models does.
// The layers are the model's tuning tasks (driver::extractTasks) whose
// workload is a 3x3 convolution: each is one fused function (convolution,
// bias, and the epilogue the model fuses into it: ReLU, or residual add then
// ReLU), weighted by how often one run of the model calls it. Tessel's
// kernels are the task's default configuration and the best configuration
// of --records for this machine (apply-best: driver::bestConfigsFor; the
// default where there is none), both built with task->instantiate() and run
// in this process on seeded random inputs. They take and return the layout
// the model gives them: since alter-layout, the channel blocks NCHW[x]c
// (their weights come packed), so "oneDNN blocked" is the like-for-like
// column (from the model's first layer on, plain NCHW in and blocks out,
// the function packs its input itself). oneDNN runs the same convolution with bias and the
// same epilogue as post-ops (sum for the residual, eltwise ReLU), in the
// layouts it picks, timed twice: on its blocked tensors alone, and with the
// reorders of the source (and residual) from NCHW and of the result to NCHW,
// which is what Tessel's figure includes.
//
// Every figure is the median of TimeEvaluator repeats (5 of at least
// --min-repeat-ms, default 50 ms); the four kernels of a layer are measured
// one after another in each of R rounds (default 5) and the medians over
// rounds are reported, so a noisy moment hits all of them alike. Ratios are
// ours / theirs in time (< 1: Tessel is faster); the geometric means are over
// layers, plain and weighted by calls. GFLOP/s count the convolution's
// multiply-adds (2 * OC * OH * OW * C * 9) for every column.
#include "gemm/Anchors.h"
#include "gemm/ConvAnchor.h"

#include "codegen/Builder.h"
#include "driver/ApplyBest.h"
#include "driver/ModelCompiler.h"
#include "driver/ModelTasks.h"
#include "ir/Diagnostic.h"
#include "runtime/InProcessRunner.h"
#include "runtime/ThreadPool.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace tessel;
using bench::ConvShape;

namespace {

constexpr const char* kDefaultModel = TESSEL_BINARY_DIR "/models/resnet18/model.onnx";

struct Args {
    std::string model = kDefaultModel;
    std::string records = TESSEL_SOURCE_DIR "/resources/records";
    std::string json;
    int rounds = 5;
    std::vector<int> threads = {1, 2};
    double minRepeatMs = 50;
    bool check = true, passive = false, checkAnchor = false;
};

/// The figures of one layer at one thread count, every round.
struct Timings {
    std::vector<double> defaultMs, tunedMs, dnnlMs, dnnlReorderMs;
};

struct Layer {
    std::shared_ptr<const tune::Task> task;
    int calls = 0;
    std::vector<std::string> functions;
    ConvShape shape;
    /// Why oneDNN cannot run it (an epilogue it has no post-op for); empty: it can.
    std::string unmapped;
    tune::Config tuned;
    bool hasRecord = false;
    /// Every knob with its value, as instantiated.
    std::string defaultText, tunedText;
    runtime::BuildArtifact defaultKernel, tunedKernel;
    std::string defaultCheck = "not checked", tunedCheck = "not checked";
    bench::ConvCheck anchorCheck;
    std::string dnnlImpl, dnnlLayouts;
    std::map<int, Timings> timings; // by threads
};

double median(const std::vector<double>& v) { return runtime::median(v); }
double gflops(const Layer& l, double ms) { return l.shape.flops() / (ms * 1e-3) / 1e9; }

std::vector<int> parseInts(const std::string& s) {
    std::vector<int> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, ',');)
        if (int v = std::atoi(item.c_str()); v > 0) out.push_back(v);
    return out;
}

Args parseArgs(int argc, char** argv) {
    Args a;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "bench_conv: %s needs a value\n", arg.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (arg == "--model") a.model = value();
        else if (arg == "--records") a.records = value();
        else if (arg == "--json") a.json = value();
        else if (arg == "--rounds") a.rounds = std::max(1, std::atoi(value().c_str()));
        else if (arg == "--threads") a.threads = parseInts(value());
        else if (arg == "--min-repeat-ms") a.minRepeatMs = std::max(0.0, std::atof(value().c_str()));
        else if (arg == "--no-check") a.check = false;
        else if (arg == "--passive") a.passive = true;
        else if (arg == "--check-anchor") a.checkAnchor = true;
        else {
            std::fprintf(stderr,
                         "usage: bench_conv [--model F.onnx] [--records F|DIR] [--rounds R] [--threads 1,2]\n"
                         "                  [--min-repeat-ms MS] [--no-check] [--passive] [--json FILE]\n"
                         "       bench_conv --check-anchor\n");
            std::exit(2);
        }
    }
    if (a.threads.empty()) a.threads = {1};
    return a;
}

/// The anchor against the naive convolution on small shapes that exercise
/// what ResNet's layers use (stride 2, the residual, odd channel counts that
/// oneDNN pads into its blocks, asymmetric padding), at 1 and 2 threads.
int checkAnchor() {
    using P = ConvShape::Post;
    std::vector<ConvShape> shapes;
    auto add = [&](int64_t C, int64_t H, int64_t W, int64_t OC, int64_t stride, std::vector<int64_t> pads,
                   std::vector<P> post) {
        ConvShape s;
        s.C = C, s.H = H, s.W = W, s.OC = OC, s.strideH = s.strideW = stride;
        s.padTop = pads[0], s.padLeft = pads[1], s.padBottom = pads[2], s.padRight = pads[3];
        s.post = std::move(post);
        shapes.push_back(s);
    };
    add(16, 12, 12, 32, 1, {1, 1, 1, 1}, {P::Relu});
    add(16, 12, 12, 16, 1, {1, 1, 1, 1}, {P::Residual, P::Relu});
    add(32, 11, 9, 48, 2, {1, 1, 1, 1}, {P::Relu});
    add(5, 9, 7, 20, 1, {0, 1, 1, 0}, {});
    add(24, 8, 8, 24, 2, {1, 1, 1, 1}, {P::Relu, P::Residual});
    bool ok = true;
    for (const ConvShape& s : shapes)
        for (int threads : {1, 2}) {
            bench::ConvCheck c;
            std::string why;
            try {
                c = bench::checkDnnlConv(s, threads);
            } catch (const std::exception& e) {
                why = e.what();
            }
            ok &= c.ok;
            std::printf("%-36s %-26s %d thread%s  %s  max rel err %.1e  %s\n", s.str().c_str(), s.epilogueText().c_str(),
                        threads, threads == 1 ? " " : "s", c.implementation.c_str(), c.maxRelErr,
                        c.ok ? "ok" : ("FAILED " + why).c_str());
        }
    std::printf("%s\n", ok ? "oneDNN anchor: every shape matches the naive convolution"
                           : "oneDNN anchor: MISMATCH against the naive convolution");
    return ok ? 0 : 1;
}

/// The convolution and epilogue of the fused function `fn`, read from the
/// compiled graph; `why` says what oneDNN could not run.
ConvShape shapeOf(const driver::CompiledModel& model, const std::string& fn, std::string& why) {
    ConvShape s;
    const driver::FusedFunction* f = model.findFunction(fn);
    if (!f || f->group < 0 || size_t(f->group) >= model.fusion.groups.size()) {
        why = "no fusion group";
        return s;
    }
    const graph::FusionGroup& g = model.fusion.groups[size_t(f->group)];
    const graph::Node* conv = model.graph.findNode(g.master);
    if (!conv || conv->op != "Conv" || conv->inputs.size() < 2) {
        why = "its anchor is not a Conv";
        return s;
    }
    // The data may be stored in channel blocks ([N, C/b, H, W, b], after alter-layout).
    auto x = conv->inputs[0].type().shape;
    if (x.size() == 5) {
        x[1] *= x[4];
        x.pop_back();
    }
    const auto& w = conv->inputs[1].type().shape;
    if (x.size() != 4 || w.size() != 4 || x[0] != 1) {
        why = "not a batch-1 2-d convolution";
        return s;
    }
    s.C = x[1], s.H = x[2], s.W = x[3], s.OC = w[0], s.KH = w[2], s.KW = w[3];
    const auto strides = conv->attrs.getInts("strides", {1, 1});
    const auto pads = conv->attrs.getInts("pads", {0, 0, 0, 0});
    const auto dil = conv->attrs.getInts("dilations", {1, 1});
    if (conv->attrs.getInt("group", 1) != 1 || dil != std::vector<int64_t>{1, 1} || strides.size() != 2 ||
        pads.size() != 4 || w[1] != s.C) {
        why = "grouped, dilated or with unusual attributes";
        return s;
    }
    s.strideH = strides[0], s.strideW = strides[1];
    s.padTop = pads[0], s.padLeft = pads[1], s.padBottom = pads[2], s.padRight = pads[3];
    if (conv->inputs.size() < 3 || !conv->inputs[2].defined()) why = "no bias (the anchor always adds one)";
    for (int64_t id : g.members) {
        if (id == g.master) continue;
        const graph::Node* n = model.graph.findNode(id);
        if (n && n->op == "Relu") s.post.push_back(ConvShape::Post::Relu);
        else if (n && n->op == "Add") s.post.push_back(ConvShape::Post::Residual);
        else why = "its epilogue has " + (n ? n->op : std::string("?")) + ", which the anchor does not map";
    }
    return s;
}

/// Builds `config`'s kernel of `task`; with `check`, runs it once and
/// compares its outputs with the task's reference schedule on the same seeded
/// inputs (tolerance 1e-4 of the largest |reference value|, as the tuner's).
runtime::BuildArtifact buildChecked(const tune::Task& task, const tune::Config& config, codegen::Builder& builder,
                                    bool check, std::string& verdict, std::string& knobText) {
    const tune::Instance inst = task.instantiate(config);
    knobText.clear();
    for (const te::Knob& k : inst.knobs)
        knobText += (knobText.empty() ? "" : " ") + k.name + "=" + k.choiceText(k.chosen);
    runtime::BuildArtifact art = builder.build(inst.job);
    if (!check) return art;
    runtime::InProcessRunner runner;
    runtime::RunRequest req;
    req.untimed = true;
    const runtime::RunResult ref = runner.run(builder.build(task.referenceFor(config).job), req);
    const runtime::RunResult got = runner.run(art, req);
    if (!ref.ok || !got.ok || ref.outputs.size() != got.outputs.size()) {
        verdict = "FAILED: " + (ref.ok ? got.message : "the reference: " + ref.message);
        return art;
    }
    double worst = 0;
    bool ok = true;
    for (size_t o = 0; o < ref.outputs.size(); ++o) {
        double maxAbs = 0;
        for (int64_t i = 0; i < ref.outputs[o].numElements(); ++i)
            maxAbs = std::max(maxAbs, std::fabs(ref.outputs[o].at(i)));
        const runtime::CompareResult c = runtime::compare(got.outputs[o], ref.outputs[o], 0.0, 1e-4 * std::max(maxAbs, 1e-30));
        ok &= c.shapesMatch && c.allClose;
        worst = std::max(worst, c.maxAbsError / std::max(maxAbs, 1e-30));
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s (max err %.1e)", ok ? "ok" : "WRONG", worst);
    verdict = buf;
    return art;
}

/// The model's 3x3 convolution tasks, their shapes, tuned configurations and
/// kernels (built and checked), and the anchor's check per shape.
std::vector<Layer> loadLayers(const Args& a) {
    driver::CompileOptions co;
    const driver::CompiledModel model = driver::compileModel(a.model, {}, co);
    std::vector<std::string> warnings;
    const driver::AppliedRecords applied =
        driver::bestConfigsFor(driver::loadRecords(a.records, &warnings), model.target);
    for (auto& w : warnings) std::fprintf(stderr, "bench_conv: %s\n", w.c_str());
    std::printf("%s: %zu fused functions; records %s: %zu workloads for this target (%d measured here, %d on "
                "another machine of its kind)\n",
                a.model.c_str(), model.functions.size(), a.records.c_str(), applied.configs.size(), applied.exact,
                applied.sameKind);
    codegen::LocalBuilder builder(model.target, codegen::BuildOptions{});
    runtime::ThreadPool::global().setNumThreads(a.threads.back());
    std::vector<Layer> layers;
    for (const driver::ModelTask& mt : driver::extractTasks(model, co)) {
        if (mt.task->workload().op != "Conv" ||
            mt.task->workload().key.find("kernel_shape=[3, 3]") == std::string::npos)
            continue;
        Layer l;
        l.task = mt.task;
        l.calls = mt.weight;
        l.functions = mt.functions;
        l.shape = shapeOf(model, mt.functions.front(), l.unmapped);
        if (auto it = applied.configs.find(mt.task->workload().key); it != applied.configs.end()) {
            l.tuned = it->second;
            l.hasRecord = true;
        }
        l.defaultKernel = buildChecked(*l.task, {}, builder, a.check, l.defaultCheck, l.defaultText);
        l.tunedKernel = l.defaultKernel;
        l.tunedCheck = l.defaultCheck;
        if (l.hasRecord) l.tunedKernel = buildChecked(*l.task, l.tuned, builder, a.check, l.tunedCheck, l.tunedText);
        if (l.unmapped.empty()) {
            if (a.check) l.anchorCheck = bench::checkDnnlConv(l.shape, a.threads.back());
            const bench::ConvOperands o = bench::randomConvOperands(l.shape, 11);
            const bench::DnnlConv conv(l.shape, o, a.threads.back());
            l.dnnlImpl = conv.implementation();
            l.dnnlLayouts = conv.layouts();
        }
        layers.push_back(std::move(l));
        std::printf("  layer %zu built%s\n", layers.size(), a.check ? " and checked" : "");
        std::fflush(stdout);
    }
    return layers;
}

/// One layer at one thread count: R rounds of default, tuned, oneDNN blocked
/// and oneDNN with reorders, one after another.
void measureLayer(Layer& l, int threads, const Args& a, const runtime::TimeEvaluator& ev) {
    runtime::ThreadPool::global().setNumThreads(threads);
    runtime::InProcessRunner runner;
    runtime::RunRequest req;
    req.evaluator = ev;
    req.fetchOutputs = false;
    auto tessel = [&](const runtime::BuildArtifact& art) {
        const runtime::RunResult r = runner.run(art, req);
        if (!r.ok) throw std::runtime_error(l.task->name() + ": " + r.message);
        return r.latencyMs;
    };
    Timings& t = l.timings[threads];
    bench::ConvOperands operands; // outlives the anchor, which reads them
    std::unique_ptr<bench::DnnlConv> conv;
    if (l.unmapped.empty()) {
        operands = bench::randomConvOperands(l.shape, 11);
        conv = std::make_unique<bench::DnnlConv>(l.shape, operands, threads);
    }
    for (int r = 0; r < a.rounds; ++r) {
        t.defaultMs.push_back(tessel(l.defaultKernel));
        t.tunedMs.push_back(l.hasRecord ? tessel(l.tunedKernel) : t.defaultMs.back());
        if (!conv) continue;
        bench::quiesceAnchorThreads(); // Tessel's pool spins briefly after a launch
        t.dnnlMs.push_back(conv->seconds(ev, false) * 1e3);
        t.dnnlReorderMs.push_back(conv->seconds(ev, true) * 1e3);
        bench::quiesceAnchorThreads(); // libgomp spins for milliseconds after oneDNN
    }
}

/// exp(sum w log r / sum w) over the layers with a oneDNN figure.
double geomean(const std::vector<Layer>& layers, int threads, bool weighted,
               double (*ratio)(const Timings&)) {
    double sum = 0, weight = 0;
    for (const Layer& l : layers) {
        auto it = l.timings.find(threads);
        if (it == l.timings.end() || it->second.dnnlMs.empty()) continue;
        const double w = weighted ? l.calls : 1.0;
        sum += w * std::log(ratio(it->second));
        weight += w;
    }
    return weight > 0 ? std::exp(sum / weight) : std::nan("");
}

double tunedOverDnnl(const Timings& t) { return median(t.tunedMs) / median(t.dnnlMs); }
double tunedOverDnnlReorders(const Timings& t) { return median(t.tunedMs) / median(t.dnnlReorderMs); }
double defaultOverDnnl(const Timings& t) { return median(t.defaultMs) / median(t.dnnlMs); }
double defaultOverDnnlReorders(const Timings& t) { return median(t.defaultMs) / median(t.dnnlReorderMs); }

void printLayers(const std::vector<Layer>& layers) {
    std::printf("\n  #  %-34s %-22s %5s  %s\n", "shape (C x H x W -> OC x OH x OW)", "fused epilogue", "calls",
                "checks: Tessel default, tuned (against the reference schedule), oneDNN (against a naive convolution)");
    for (size_t i = 0; i < layers.size(); ++i) {
        const Layer& l = layers[i];
        char anchor[128];
        if (!l.unmapped.empty()) std::snprintf(anchor, sizeof anchor, "no oneDNN: %s", l.unmapped.c_str());
        else if (l.anchorCheck.implementation.empty()) std::snprintf(anchor, sizeof anchor, "not checked");
        else
            std::snprintf(anchor, sizeof anchor, "%s (max err %.1e)", l.anchorCheck.ok ? "ok" : "WRONG",
                          l.anchorCheck.maxRelErr);
        std::printf("  %-2zu %-34s %-22s %5d  %s; %s; %s\n", i + 1, l.shape.str().c_str(),
                    l.shape.epilogueText().c_str(), l.calls, l.defaultCheck.c_str(), l.tunedCheck.c_str(), anchor);
        std::printf("     default: %s\n     tuned:   %s\n", l.defaultText.c_str(),
                    l.hasRecord ? l.tunedText.c_str() : "(no record: the default)");
        if (!l.dnnlImpl.empty()) std::printf("     oneDNN:  %s, %s\n", l.dnnlImpl.c_str(), l.dnnlLayouts.c_str());
    }
}

void printTable(const std::vector<Layer>& layers, int threads, int rounds) {
    std::printf("\n%d thread%s (ms and GFLOP/s, medians of %d rounds; ratios ours / theirs in time, < 1: Tessel faster)\n",
                threads, threads == 1 ? "" : "s", rounds);
    std::printf("  #  %5s  %16s  %16s  %16s  %16s  %12s  %14s  %13s\n", "calls", "Tessel default", "Tessel tuned",
                "oneDNN blocked", "oneDNN+reorders", "tuned/oneDNN", "tuned/+reorders", "default/oneDNN");
    for (size_t i = 0; i < layers.size(); ++i) {
        const Layer& l = layers[i];
        const Timings& t = l.timings.at(threads);
        auto cell = [&](const std::vector<double>& ms) {
            char b[32];
            if (ms.empty()) std::snprintf(b, sizeof b, "%16s", "-");
            else std::snprintf(b, sizeof b, "%7.3f %6.1f", median(ms), gflops(l, median(ms)));
            return std::string(b);
        };
        std::printf("  %-2zu %5d  %16s  %16s  %16s  %16s", i + 1, l.calls, cell(t.defaultMs).c_str(),
                    cell(t.tunedMs).c_str(), cell(t.dnnlMs).c_str(), cell(t.dnnlReorderMs).c_str());
        if (t.dnnlMs.empty()) std::printf("\n");
        else
            std::printf("  %12.2f  %14.2f  %13.2f\n", tunedOverDnnl(t), tunedOverDnnlReorders(t), defaultOverDnnl(t));
    }
    std::printf("  geometric mean over layers     tuned/oneDNN %.2f  tuned/oneDNN+reorders %.2f  default/oneDNN %.2f\n",
                geomean(layers, threads, false, tunedOverDnnl), geomean(layers, threads, false, tunedOverDnnlReorders),
                geomean(layers, threads, false, defaultOverDnnl));
    std::printf("  weighted by calls              tuned/oneDNN %.2f  tuned/oneDNN+reorders %.2f  default/oneDNN %.2f\n",
                geomean(layers, threads, true, tunedOverDnnl), geomean(layers, threads, true, tunedOverDnnlReorders),
                geomean(layers, threads, true, defaultOverDnnl));
}

void writeJson(const std::vector<Layer>& layers, const Args& a, const std::string& env) {
    nlohmann::json j{{"model", a.model}, {"records", a.records}, {"rounds", a.rounds},
                     {"min_repeat_ms", a.minRepeatMs}, {"environment", env}};
    for (const Layer& l : layers) {
        nlohmann::json lj{{"shape", l.shape.str()}, {"epilogue", l.shape.epilogueText()},
                          {"calls", l.calls}, {"functions", l.functions}, {"workload", l.task->workload().key},
                          {"flops", l.shape.flops()}, {"default_knobs", l.defaultText},
                          {"tuned_knobs", l.hasRecord ? l.tunedText : ""},
                          {"check_default", l.defaultCheck}, {"check_tuned", l.tunedCheck},
                          {"onednn_impl", l.dnnlImpl}, {"onednn_layouts", l.dnnlLayouts},
                          {"onednn_unmapped", l.unmapped}, {"onednn_check_max_rel_err", l.anchorCheck.maxRelErr}};
        for (const auto& [threads, t] : l.timings)
            lj["threads"][std::to_string(threads)] = {{"default_ms", t.defaultMs}, {"tuned_ms", t.tunedMs},
                                                      {"onednn_ms", t.dnnlMs}, {"onednn_reorders_ms", t.dnnlReorderMs}};
        j["layers"].push_back(lj);
    }
    for (int threads : a.threads)
        j["geomean"][std::to_string(threads)] = {
            {"tuned_over_onednn", geomean(layers, threads, false, tunedOverDnnl)},
            {"tuned_over_onednn_weighted", geomean(layers, threads, true, tunedOverDnnl)},
            {"tuned_over_onednn_reorders", geomean(layers, threads, false, tunedOverDnnlReorders)},
            {"tuned_over_onednn_reorders_weighted", geomean(layers, threads, true, tunedOverDnnlReorders)},
            {"default_over_onednn", geomean(layers, threads, false, defaultOverDnnl)},
            {"default_over_onednn_reorders", geomean(layers, threads, false, defaultOverDnnlReorders)}};
    std::ofstream(a.json) << j.dump(2) << "\n";
}

} // namespace

int main(int argc, char** argv) {
    const Args a = parseArgs(argc, argv);
    if (a.checkAnchor) return checkAnchor();
    bench::restartWithAnchorEnvironment(argv, a.passive);
    if (!std::filesystem::exists(a.model)) {
        if (a.model != kDefaultModel) {
            std::fprintf(stderr, "bench_conv: %s does not exist\n", a.model.c_str());
            return 1;
        }
        // As bench_models does: export the zoo's ResNet-18 (torch, seeded weights).
        const std::string cmd = "/usr/bin/python3 '" TESSEL_SOURCE_DIR "/scripts/export-models.py' '" TESSEL_BINARY_DIR
                                "/models' --models resnet18";
        std::printf("%s is missing; exporting it: %s\n", a.model.c_str(), cmd.c_str());
        std::fflush(stdout);
        if (std::system(cmd.c_str()) != 0 || !std::filesystem::exists(a.model)) {
            std::fprintf(stderr, "bench_conv: exporting the model failed (or: cd build && ctest -R models/references)\n");
            return 1;
        }
    }
    std::vector<Layer> layers;
    try {
        layers = loadLayers(a);
    } catch (const CompileError& e) {
        std::fprintf(stderr, "bench_conv: %s\n", e.diagnostic().str().c_str());
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_conv: %s\n", e.what());
        return 1;
    }
    if (layers.empty()) {
        std::fprintf(stderr, "bench_conv: %s has no 3x3 convolution task\n", a.model.c_str());
        return 1;
    }
    const char* wait = std::getenv("OMP_WAIT_POLICY");
    const std::string env = bench::dnnlVersionText() + ", OMP_WAIT_POLICY=" + (wait ? wait : "(unset: libgomp spins)");
    std::printf("\n3x3 convolutions of %s: Tessel (default and tuned) against %s\n", a.model.c_str(), env.c_str());
    printLayers(layers);
    const runtime::TimeEvaluator ev{1, 5, a.minRepeatMs, 2};
    try {
        for (int threads : a.threads) {
            for (Layer& l : layers) measureLayer(l, threads, a, ev);
            printTable(layers, threads, a.rounds);
            std::fflush(stdout);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_conv: %s\n", e.what());
        return 1;
    }
    if (!a.json.empty()) writeJson(layers, a, env);
    bool ok = true;
    for (const Layer& l : layers)
        ok &= l.defaultCheck.rfind("WRONG", 0) != 0 && l.defaultCheck.rfind("FAILED", 0) != 0 &&
              l.tunedCheck.rfind("WRONG", 0) != 0 && l.tunedCheck.rfind("FAILED", 0) != 0 &&
              (l.anchorCheck.implementation.empty() || l.anchorCheck.ok);
    return ok ? 0 : 1;
}
