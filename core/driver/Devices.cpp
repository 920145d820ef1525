#include "driver/Devices.h"

#include "codegen/Target.h"
#include "rpc/Auth.h"
#include "rpc/Endpoint.h"
#include "rpc/RpcRunner.h"

namespace tessel::driver {

DeviceSpec DeviceSpec::inProcess() {
    DeviceSpec s;
    s.kind = Kind::InProcess;
    return s;
}

DeviceSpec DeviceSpec::server(std::string host, uint16_t port, std::string tokenFile) {
    DeviceSpec s;
    s.kind = Kind::Server;
    s.host = std::move(host);
    s.port = port;
    s.tokenFile = std::move(tokenFile);
    return s;
}

DeviceSpec DeviceSpec::tracker(std::string host, uint16_t port, std::string key, std::string tokenFile) {
    DeviceSpec s;
    s.kind = Kind::Tracker;
    s.host = std::move(host);
    s.port = port;
    s.key = std::move(key);
    s.tokenFile = std::move(tokenFile);
    return s;
}

std::string DeviceSpec::label() const {
    const std::string address = host + ":" + std::to_string(port);
    std::string l;
    switch (kind) {
    case Kind::Local: l = "this machine"; break;
    case Kind::InProcess: l = "this process"; break;
    case Kind::Server: l = "server " + address; break;
    case Kind::Tracker: l = key + " via tracker " + address; break;
    }
    if (device != runtime::Device::cpu()) l += " (" + device.str() + ")";
    return l;
}

DeviceRunners::DeviceRunners(DeviceSpec spec) : spec_(std::move(spec)) {
    rpc::ClientOptions co;
    co.name = spec_.clientName;
    if (!spec_.tokenFile.empty()) co.token = rpc::readTokenFile(spec_.tokenFile);
    switch (spec_.kind) {
    case DeviceSpec::Kind::InProcess:
        runner_ = std::make_unique<runtime::InProcessRunner>();
        return;
    case DeviceSpec::Kind::Local:
        // The process's warm local server: a kernel that crashes or hangs
        // ends that measurement, not the caller.
        endpoint_ = std::make_shared<rpc::LocalEndpoint>(rpc::LocalServer::shared(), spec_.clientName);
        break;
    case DeviceSpec::Kind::Server:
        endpoint_ = std::make_shared<rpc::AddressEndpoint>(spec_.host, spec_.port, co);
        break;
    case DeviceSpec::Kind::Tracker:
        endpoint_ = std::make_shared<rpc::TrackerEndpoint>(spec_.host, spec_.port, spec_.key, co, co.token);
        break;
    }
    runner_ = std::make_unique<rpc::RpcRunner>(endpoint_, spec_.device);
}

DeviceRunners::~DeviceRunners() = default;

std::string DeviceRunners::name() const { return runner_->name(); }

runtime::DeviceInfo DeviceRunners::deviceInfo() {
    if (!spec_.remote()) return runtime::DeviceInfo::local();
    if (!info_) { // a short session of its own: the runners open theirs when they run
        rpc::Client c = endpoint_->open(); // throws RpcError naming the step
        info_ = c.device();
        c.bye();
    }
    return *info_;
}

Target DeviceRunners::target() {
    if (!spec_.remote()) return codegen::hostTarget();
    return codegen::targetForDevice(deviceInfo());
}

std::unique_ptr<runtime::ModelRunner> DeviceRunners::modelRunner() {
    if (!endpoint_) return std::make_unique<runtime::InProcessModelRunner>();
    return std::make_unique<rpc::RpcModelRunner>(endpoint_, spec_.device);
}

codegen::Builder& DeviceRunners::builder() {
    if (!builder_) builder_ = std::make_unique<codegen::LocalBuilder>(target(), codegen::BuildOptions{});
    return *builder_;
}

codegen::Builder& DeviceRunners::referenceBuilder() {
    if (!spec_.remote()) return builder();
    if (!hostBuilder_) hostBuilder_ = std::make_unique<codegen::LocalBuilder>(codegen::hostTarget(), codegen::BuildOptions{});
    return *hostBuilder_;
}

runtime::Runner& DeviceRunners::referenceRunner() { return spec_.remote() ? hostRunner_ : *runner_; }

void DeviceRunners::apply(RunOptions& options) {
    options.runner = runner_.get();
    if (spec_.remote()) {
        options.referenceBuilder = &referenceBuilder();
        options.referenceRunner = &hostRunner_;
        try {
            options.builder = &builder(); // asks the device for its target
        } catch (const std::exception&) {
            // It cannot be reached now (refused, a wrong token): the run on
            // it fails and its report says why, as a measurement's failure.
        }
    }
}

RunReport runAndCheckOn(const DeviceSpec& device, const LoweredFunction& f, RunOptions options) {
    DeviceRunners runners(device);
    runners.apply(options);
    return runAndCheck(f, options);
}

} // namespace tessel::driver
