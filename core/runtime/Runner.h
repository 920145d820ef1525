/// \file
/// Running a built kernel and timing it, behind one interface.
///
/// A Runner takes a BuildArtifact (runtime/Artifact.h), allocates the
/// kernel's arguments, fills the inputs with seeded random values, calls the
/// kernel under the time evaluator, and hands back the timings and, when
/// asked, copies of the outputs. It never checks them: comparing with a
/// reference is the caller's (driver::runAndCheck, the tuner), so a runner
/// on a board needs nothing but the runtime.
///
/// InProcessRunner (runtime/InProcessRunner.h) loads the shared object into
/// this process. The runners of the remote-devices work — one that measures
/// in a child process, so a crashing or hanging kernel is a failed run and
/// not a crashed caller, and one that measures on a board over RPC —
/// implement the same interface.
#pragma once

#include "runtime/Artifact.h"
#include "runtime/DeviceInfo.h"
#include "runtime/NDArray.h"
#include "runtime/TimeEvaluator.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tessel::runtime {

/// Why a measurement failed; the tuner records it with each trial.
enum class MeasureError {
    None,
    Build,       ///< the kernel did not compile or link
    Load,        ///< the shared object did not load, or lacks the kernel
    Runtime,     ///< the kernel returned an error code, or allocation failed
    Crash,       ///< the kernel crashed (a runner in another process)
    Timeout,     ///< the kernel ran past the runner's time limit
    WrongResult, ///< the outputs differ from the reference's
    Cancelled,   ///< the caller cancelled
    Device,      ///< the device could not be reached, or the connection to it broke
};

/// "none", "build", "load", "runtime", "crash", "timeout", "wrong-result", "cancelled", "device".
const char* measureErrorName(MeasureError error);

struct RunRequest {
    /// How to time; a kernel whose first call takes over slowCallSeconds gets
    /// no warm-up, one call per repeat and at most 3 repeats.
    TimeEvaluator evaluator{1, 5, 100, 1};
    double slowCallSeconds = 0.5;
    /// Threads of the runtime's pool; 0 leaves the pool as it is.
    int threads = 0;
    /// Input i (in argument order, inputs only) is filled from seed + i with
    /// values in [0, 1).
    uint64_t seed = 1;
    /// Copy the outputs back (RunResult::outputs).
    bool fetchOutputs = true;
    /// Only the first call, untimed (to get outputs).
    bool untimed = false;
    /// The longest one call may take before the runner gives up on it (a
    /// runner in another process kills it; the in-process runner cannot).
    double timeoutSeconds = 60;
    /// Polled before every call; when it says so the run stops (MeasureError::Cancelled).
    std::function<bool()> cancelled;
};

struct RunResult {
    bool ok = false;
    MeasureError error = MeasureError::None;
    /// Why it failed, for a user.
    std::string message;
    /// Every repeat's mean time per call, and their median.
    std::vector<double> repeatsMs;
    double latencyMs = 0;
    /// Threads the kernel could use.
    int threads = 0;
    /// With RunRequest::fetchOutputs: the outputs, in argument order.
    std::vector<NDArray> outputs;
};

class Runner {
public:
    virtual ~Runner() = default;
    /// A short name for messages: "in-process", "local server", "rpc 10.0.0.2:9090".
    virtual std::string name() const = 0;
    /// The device it runs kernels on.
    virtual DeviceInfo device() const = 0;
    /// Runs `artifact` as `request` says. Never throws for a kernel's own
    /// failure: that is a RunResult with its error kind and message.
    virtual RunResult run(const BuildArtifact& artifact, const RunRequest& request) = 0;
};

} // namespace tessel::runtime
