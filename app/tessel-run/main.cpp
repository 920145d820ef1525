// tessel-run: runs a model exported by `tesselc compile` with the runtime
// alone (no LLVM, no ONNX, no Qt), as a board would. Inputs are seeded random
// values; it prints every output's type and the median latency.
#include "runtime/ExportedModel.h"
#include "runtime/ThreadPool.h"
#include "runtime/TimeEvaluator.h"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

using namespace tessel;

int main(int argc, char** argv) {
    std::string dir;
    int threads = 0, repeat = 10;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if ((a == "--threads" || a == "--repeat") && i + 1 < argc) {
            (a == "--threads" ? threads : repeat) = std::atoi(argv[++i]);
        } else if (!a.starts_with("--") && dir.empty()) {
            dir = a;
        } else {
            std::fprintf(stderr, "usage: tessel-run DIR [--threads N] [--repeat R]\n");
            return 2;
        }
    }
    if (dir.empty()) {
        std::fprintf(stderr, "usage: tessel-run DIR [--threads N] [--repeat R]\n");
        return 2;
    }
    try {
        if (threads > 0) runtime::ThreadPool::global().setNumThreads(threads);
        auto model = runtime::loadExportedModel(dir);
        auto exec = model.makeExecutor();
        for (int i = 0; i < exec->numInputs(); ++i) exec->input(i).fillRandom(1 + static_cast<uint64_t>(i), 0.0, 1.0);
        exec->run();
        runtime::TimeEvaluator ev{1, std::max(repeat, 1), 0, 0};
        auto secs = ev.measure([&] { exec->run(); });
        for (int o = 0; o < exec->numOutputs(); ++o) {
            auto out = exec->output(o);
            std::printf("output '%s' %s: first %g\n", exec->outputInfo(o).name.c_str(), out.str().c_str(),
                        out.numElements() ? out.at(0) : 0.0);
        }
        std::printf("latency %.3f ms (median of %zu), %d thread%s\n", runtime::median(secs) * 1e3, secs.size(),
                    runtime::ThreadPool::global().numThreads(),
                    runtime::ThreadPool::global().numThreads() == 1 ? "" : "s");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tessel-run: error: %s\n", e.what());
        return 1;
    }
    return 0;
}
