#include "codegen/Builder.h"

#include "codegen/SharedLibrary.h"
#include "ir/Diagnostic.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace tessel::codegen {

namespace {

/// The signature must describe the function's parameters one for one.
void checkSignature(const tir::PrimFunc& f, const runtime::KernelSignature& sig) {
    if (sig.name != f->name)
        throw CompileError("the kernel signature names '" + sig.name + "' but the function is '" + f->name + "'");
    if (sig.args.size() != f->params.size())
        throw CompileError("the kernel signature of '" + f->name + "' has " + std::to_string(sig.args.size()) +
                           " arguments, the function " + std::to_string(f->params.size()));
    for (size_t i = 0; i < sig.args.size(); ++i)
        if (sig.args[i].dtype != f->params[i]->dtype)
            throw CompileError("argument " + std::to_string(i + 1) + " of '" + f->name + "' is " +
                               f->params[i]->dtype.str() + ", the signature says " + sig.args[i].dtype.str());
}

std::vector<char> readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace

LocalBuilder::LocalBuilder(Target target, BuildOptions options)
    : target_(std::move(target)), options_(std::move(options)) {
    options_.jit = false;
    options_.emitAssembly = false;
    options_.debugInfo = false; // a measured kernel needs no line tables
}

runtime::BuildArtifact LocalBuilder::build(const BuildJob& job) {
    if (!job.func.defined()) throw CompileError("nothing to build: the job has no function");
    checkSignature(job.func, job.signature);
    auto t0 = std::chrono::steady_clock::now();
    std::vector<char> object = emitObject({job.func}, target_, options_);
    // LLD writes files: a private temporary name, read back and removed.
    std::string path = (std::filesystem::temp_directory_path() / "tessel-build-XXXXXX.so").string();
    int fd = mkstemps(path.data(), 3);
    if (fd < 0) throw CompileError("cannot create a temporary file to link '" + job.func->name + "'");
    ::close(fd);
    runtime::BuildArtifact a;
    try {
        linkSharedLibrary(object, path);
        a.library = readFile(path);
    } catch (...) {
        std::filesystem::remove(path);
        throw;
    }
    std::filesystem::remove(path);
    if (a.library.empty()) throw CompileError("linking '" + job.func->name + "' gave an empty library");
    a.signature = job.signature;
    a.target = target_.str();
    a.flops = job.flops;
    a.workload = job.workload;
    a.buildSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return a;
}

} // namespace tessel::codegen
