#include "runtime/KernelBundle.h"

#include "runtime/ExportedModel.h"
#include "runtime/OutputCheck.h"
#include "runtime/ReadFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tessel::runtime {

bool KernelBundle::isBundle(const std::string& dir) {
    // A model exported for a GPU has a launch table of the same name beside its plan.
    const std::filesystem::path root(dir);
    return std::filesystem::exists(root / "kernels.json") && !std::filesystem::exists(root / kExportPlan);
}

std::string KernelBundle::json() const {
    nlohmann::json j;
    j["format"] = "tessel-kernel-bundle";
    j["version"] = 1;
    j["function"] = signature.name;
    j["target"] = target;
    j["flops"] = flops;
    for (auto& a : signature.args)
        j["args"].push_back({{"name", a.name}, {"dtype", a.dtype.str()}, {"shape", a.shape}, {"output", a.output}});
    j["workspaces"] = workspaceBytes;
    for (auto& l : launches)
        j["kernels"].push_back({{"name", l.shape.name},
                                {"grid", l.shape.grid},
                                {"block", l.shape.block},
                                {"shared", l.shape.sharedBytes},
                                {"args", l.args}});
    j["expected"] = expected;
    return j.dump(1);
}

KernelBundle KernelBundle::load(const std::string& dir) {
    const std::string path = (std::filesystem::path(dir) / "kernels.json").string();
    KernelBundle b;
    b.dir = dir;
    try {
        auto j = nlohmann::json::parse(readFile(path));
        if (j.value("format", "") != "tessel-kernel-bundle")
            throw std::runtime_error("'" + path + "' is not a Tessel kernel bundle");
        if (j.value("version", 0) != 1)
            throw std::runtime_error("'" + path + "' is a kernel bundle of version " +
                                     std::to_string(j.value("version", 0)) + "; this runtime reads version 1");
        b.signature.name = j.at("function").get<std::string>();
        b.target = j.value("target", "");
        b.flops = j.value("flops", 0.0);
        for (auto& a : j.at("args")) {
            ArgSpec s;
            s.name = a.at("name").get<std::string>();
            auto t = DataType::parse(a.at("dtype").get<std::string>());
            if (!t) throw std::runtime_error("unknown type '" + a.at("dtype").get<std::string>() + "'");
            s.dtype = *t;
            s.shape = a.at("shape").get<std::vector<int64_t>>();
            s.output = a.at("output").get<bool>();
            b.signature.args.push_back(std::move(s));
        }
        b.workspaceBytes = j.value("workspaces", std::vector<size_t>{});
        auto shapes = parseKernelShapes(j.dump());
        size_t i = 0;
        for (auto& k : j.at("kernels")) {
            Launch l;
            l.shape = shapes.at(i++);
            l.args = k.at("args").get<std::vector<size_t>>();
            for (size_t a : l.args)
                if (a >= b.signature.args.size() + b.workspaceBytes.size())
                    throw std::runtime_error("kernel '" + l.shape.name + "' names argument " + std::to_string(a) +
                                             ", which does not exist");
            b.launches.push_back(std::move(l));
        }
        b.expected = j.value("expected", std::vector<std::string>{});
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error("bad kernel bundle '" + path + "': " + e.what());
    }
    return b;
}

BundleRun runBundle(const KernelBundle& b, Device device, int repeat, double tolerance) {
    DeviceAPI& api = deviceAPI(device);
    auto* cuda = dynamic_cast<CudaDeviceAPI*>(&api);
    if (!cuda) throw std::runtime_error("a kernel bundle runs on a CUDA device, not " + device.str());
    std::vector<KernelShape> shapes;
    for (auto& l : b.launches) shapes.push_back(l.shape);
    ModulePtr module = cuda->loadPtx(device, readFile((std::filesystem::path(b.dir) / "kernels.ptx").string()), shapes);

    // Inputs as every Tessel run makes them; outputs start at zero.
    std::vector<NDArray> host, dev;
    uint64_t seed = 1;
    for (auto& a : b.signature.args) {
        NDArray h(a.shape, a.dtype);
        if (a.output) h.fillZero();
        else h.fillRandom(seed++, 0.0, 1.0);
        dev.push_back(h.copyTo(device));
        host.push_back(std::move(h));
    }
    for (size_t bytes : b.workspaceBytes)
        dev.push_back(NDArray::empty({int64_t((bytes + 3) / 4)}, DataType::float32(), device));
    std::vector<Kernel> kernels;
    for (auto& l : b.launches) kernels.push_back(module->kernel(l.shape.name));

    auto call = [&] {
        for (size_t k = 0; k < b.launches.size(); ++k) {
            std::vector<void*> args;
            for (size_t a : b.launches[k].args) args.push_back(dev[a].rawData());
            if (int32_t rc = kernels[k].launch(args.data(), int32_t(args.size())); rc != 0)
                throw std::runtime_error("launching " + b.launches[k].shape.name + " failed (CUDA error " +
                                         std::to_string(-rc) + ")");
        }
    };
    BundleRun r;
    call(); // warm-up, and the outputs checked below
    api.synchronize(device, nullptr);
    for (size_t i = 0; i < b.signature.args.size(); ++i)
        if (b.signature.args[i].output) r.outputs.push_back(dev[i].copyTo(Device::cpu()));
    for (int i = 0; i < repeat; ++i) {
        DeviceTimer t(device);
        t.start();
        call();
        t.stop();
        r.ms.push_back(t.ms());
    }
    if (!r.ms.empty()) {
        auto sorted = r.ms;
        std::sort(sorted.begin(), sorted.end());
        r.medianMs = sorted[sorted.size() / 2];
    }
    std::vector<NDArray> want, got;
    size_t o = 0;
    for (size_t i = 0; i < b.signature.args.size(); ++i) {
        if (!b.signature.args[i].output) continue;
        if (o < b.expected.size() && !b.expected[o].empty()) {
            NDArray e(b.signature.args[i].shape, b.signature.args[i].dtype);
            std::string bytes = readFile((std::filesystem::path(b.dir) / b.expected[o]).string());
            if (bytes.size() != e.numBytes())
                throw std::runtime_error("'" + b.expected[o] + "' has " + std::to_string(bytes.size()) + " bytes, not " +
                                         std::to_string(e.numBytes()));
            std::copy(bytes.begin(), bytes.end(), static_cast<char*>(e.rawData()));
            want.push_back(std::move(e));
            got.push_back(r.outputs[o]);
        }
        ++o;
    }
    if (!want.empty()) {
        OutputCheck c = checkOutputs(got, want, tolerance);
        r.checked = true;
        r.ok = c.ok;
        r.maxAbsErr = c.maxAbsErr;
        r.message = c.message;
    }
    return r;
}

} // namespace tessel::runtime
