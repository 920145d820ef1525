#include "driver/KernelBundleExport.h"

#include "driver/Measure.h"
#include "tir/IROperators.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace tessel::driver {

namespace {

void writeFile(const std::filesystem::path& path, const void* data, size_t bytes) {
    std::ofstream f(path, std::ios::binary);
    f.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
    if (!f) throw std::runtime_error("cannot write '" + path.string() + "'");
}

} // namespace

runtime::KernelBundle exportKernelBundle(const LoweredFunction& f, const std::string& dir, const Target& target,
                                         const BundleOptions& options) {
    if (!target.isGPU()) throw CompileError("a kernel bundle is for a GPU target (cuda), not " + target.str());
    codegen::BuildOptions bo;
    bo.jit = false;
    codegen::BuildResult built = buildFunctions({f}, target, bo);
    tir::DeviceSplit split = splitForDevice({f}).at(0);

    runtime::KernelBundle b;
    b.dir = dir;
    b.signature = signatureOf(f);
    b.target = target.str();
    b.flops = flopCount(f);
    for (auto& w : split.workspaces) {
        size_t bytes = size_t(w->dtype.bytes());
        for (auto& s : w->shape) {
            auto c = tir::asConstInt(s);
            if (!c) throw CompileError("workspace '" + w->name + "' has no constant size");
            bytes *= size_t(*c);
        }
        b.workspaceBytes.push_back(bytes);
    }
    for (auto& k : split.kernels) {
        runtime::KernelBundle::Launch l;
        l.shape.name = k.kernel->name;
        for (int i = 0; i < 3; ++i) {
            l.shape.grid[size_t(i)] = unsigned(k.grid[size_t(i)]);
            l.shape.block[size_t(i)] = unsigned(k.block[size_t(i)]);
        }
        l.shape.sharedBytes = unsigned(k.sharedBytes);
        l.args = k.args;
        b.launches.push_back(std::move(l));
    }

    std::filesystem::create_directories(dir);
    const std::filesystem::path root(dir);
    writeFile(root / "kernels.ptx", built.assembly.data(), built.assembly.size());
    if (options.expected) {
        RunOptions ro;
        ro.check = false;
        ro.evaluator = runtime::TimeEvaluator{1, 1, 1, 1};
        RunReport ref = runAndCheck(lowerReference(f), ro);
        if (!ref.ok) throw CompileError("the reference (default schedule) did not run here: " + ref.error);
        for (size_t o = 0; o < ref.outputs.size(); ++o) {
            std::string name = "expected" + std::to_string(o) + ".bin";
            writeFile(root / name, ref.outputs[o].rawData(), ref.outputs[o].numBytes());
            b.expected.push_back(name);
        }
    }
    std::string json = b.json();
    writeFile(root / "kernels.json", json.data(), json.size());
    return b;
}

} // namespace tessel::driver
