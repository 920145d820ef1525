/// \file
/// A Runner that loads the kernel's shared object into this process (dlopen)
/// and calls it here, on the runtime's thread pool.
///
/// The fastest way to measure, and the least safe: a kernel that crashes
/// takes this process with it, one that hangs hangs it. Callers that must
/// survive any schedule (the IDE, the tuner) will measure through a runner in
/// another process; this one is for the command line, tests and benchmarks,
/// and for code whose schedules Tessel's own checks already accepted.
#pragma once

#include "runtime/Runner.h"

namespace tessel::runtime {

class InProcessRunner : public Runner {
public:
    std::string name() const override { return "in-process"; }
    DeviceInfo device() const override { return DeviceInfo::local(); }
    RunResult run(const BuildArtifact& artifact, const RunRequest& request) override;
};

} // namespace tessel::runtime
