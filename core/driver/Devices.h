/// \file
/// Where the IDE, `tesselc` and the tests measure and run: a DeviceSpec
/// (this machine's local tessel-rpc server, which is what a user gets by
/// default; this process; a server given by address; a server of a key from
/// a tracker; and which device on it) and the runners made from it, written
/// once here:
///   - a runtime::Runner for kernels (one session, kept open),
///   - runtime::ModelRunners for whole models (each in a session of its own,
///     on the same server: both sides of a comparison on one board),
///   - the target that kernels for it are compiled for (the device asks its
///     own; this machine's otherwise),
///   - the builder for that target, and where reference outputs come from:
///     for a remote device this machine (a host build run in process, as TVM
///     checks a board's results against the host's), else the device itself.
#pragma once

#include "codegen/Builder.h"
#include "driver/Measure.h"
#include "ir/Target.h"
#include "runtime/Device.h"
#include "runtime/DeviceInfo.h"
#include "runtime/InProcessRunner.h"
#include "runtime/ModelRunner.h"
#include "runtime/Runner.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace tessel::rpc {
class Endpoint;
}

namespace tessel::driver {

struct DeviceSpec {
    enum class Kind {
        Local,     ///< this machine's tessel-rpc server child (the default: a crash is an error, not a crash)
        InProcess, ///< this process (fastest; a crashing kernel takes the caller with it)
        Server,    ///< a tessel-rpc server at host:port
        Tracker,   ///< a server of `key` from the tracker at host:port
    };
    Kind kind = Kind::Local;
    /// The server's (Server) or the tracker's (Tracker) address.
    std::string host;
    uint16_t port = 0;
    /// The tracker's key (Tracker).
    std::string key;
    /// A file whose first line is the token (the servers' and the tracker's); empty: none.
    std::string tokenFile;
    /// This client's name in the server's log.
    std::string clientName = "tessel";
    /// The device of the server (or of this process) that runs the kernels.
    runtime::Device device;

    static DeviceSpec local() { return {}; }
    static DeviceSpec inProcess();
    static DeviceSpec server(std::string host, uint16_t port, std::string tokenFile = {});
    static DeviceSpec tracker(std::string host, uint16_t port, std::string key, std::string tokenFile = {});

    /// A device elsewhere (Server, Tracker): kernels are built for its target
    /// and checked against this machine.
    bool remote() const { return kind == Kind::Server || kind == Kind::Tracker; }
    /// "this machine", "this process", "server HOST:PORT", "KEY via tracker HOST:PORT".
    std::string label() const;
    bool operator==(const DeviceSpec&) const = default;
};

class DeviceRunners {
public:
    /// Throws std::runtime_error when the token file cannot be read.
    explicit DeviceRunners(DeviceSpec spec);
    ~DeviceRunners();
    DeviceRunners(const DeviceRunners&) = delete;
    DeviceRunners& operator=(const DeviceRunners&) = delete;

    const DeviceSpec& spec() const { return spec_; }
    /// The runners' name for messages ("local server", "rpc 10.0.0.2:9090", "in-process").
    std::string name() const;
    /// The device's facts (a remote device is asked once; throws rpc::RpcError).
    runtime::DeviceInfo deviceInfo();
    /// What kernels for it are compiled for: the remote device's target, or
    /// this machine's.
    Target target();

    /// Runs kernels (one session, opened on the first run).
    runtime::Runner& runner() { return *runner_; }
    /// A new model runner: in process, or a session of its own on the server.
    std::unique_ptr<runtime::ModelRunner> modelRunner();

    /// Builds kernels for target() (thread-safe).
    codegen::Builder& builder();
    /// Where reference outputs are built and run: this machine in process
    /// for a remote device, else builder() and runner().
    codegen::Builder& referenceBuilder();
    runtime::Runner& referenceRunner();
    /// Points `options` at the runner, and for a remote device its builder
    /// (when the device answers; otherwise the run reports why it cannot be
    /// reached) and this machine's references.
    void apply(RunOptions& options);

private:
    DeviceSpec spec_;
    std::shared_ptr<rpc::Endpoint> endpoint_; ///< null in process
    std::unique_ptr<runtime::Runner> runner_;
    std::optional<runtime::DeviceInfo> info_;
    std::unique_ptr<codegen::LocalBuilder> builder_, hostBuilder_;
    runtime::InProcessRunner hostRunner_;
};

/// Measures `f` on `device` as the schedule editor and the lesson do:
/// runAndCheck with the device's runners applied to `options` (a remote
/// device's builder, and this machine's reference), the runners living as
/// long as the measurement. Throws std::runtime_error when the token file
/// cannot be read; the kernel's own failures are the report's.
RunReport runAndCheckOn(const DeviceSpec& device, const LoweredFunction& f, RunOptions options);

} // namespace tessel::driver
