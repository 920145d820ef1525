/// \file
/// Running a compiled model: on given or seeded random inputs, timed, and
/// checked against expected outputs with ONNX's tolerances, through a
/// runtime::ModelRunner (in this process, or on a device: DeviceRunners).
/// Shared by `tesselc run`, the conformance suite, the model tests and the
/// IDE.
#pragma once

#include "driver/ModelCompiler.h"
#include "runtime/ModelRunner.h"
#include "runtime/NDArray.h"

#include <string>
#include <vector>

namespace tessel::driver {

struct ModelRunOptions {
    /// Threads of the runtime pool; 0 leaves the pool as it is.
    int threads = 0;
    /// Timed runs after one warm-up run; 0: run once, untimed.
    int repeat = 0;
    /// Seed of the random inputs made for inputs not given.
    uint64_t seed = 1;
    /// An output element is close when |got - want| <= atol + rtol * |want|
    /// (ONNX's backend-test defaults).
    double rtol = 1e-3, atol = 1e-7;
    /// Also time every kernel on its own (ModelRunReport::profile), where
    /// the model runs.
    bool profile = false;
    /// Where to run: null runs in this process. Otherwise the runner's
    /// (DeviceRunners::modelRunner(): this machine's local tessel-rpc server,
    /// which is what a user gets by default, or a board), which gets the
    /// model as its export for the target it was compiled for.
    runtime::ModelRunner* runner = nullptr;
    /// The longest one run may take on a device.
    double timeoutSeconds = 600;
};

/// One kernel's share of a run.
struct KernelProfile {
    std::string function;
    double ms = 0;
    double gflops = 0;
    /// Its share of its roofline on the machine it ran on (runtime/Roofline.h:
    /// GFLOP/s over min(peak, intensity x measured bandwidth)); 0 where the
    /// machine's roofline is not known (a remote device).
    double roofline = 0;
    /// Bound by memory bandwidth rather than compute (by its arithmetic intensity).
    bool memoryBound = false;
};

struct OutputReport {
    std::string name;
    std::string type;             ///< "float32[1, 1000]"
    bool checked = false;         ///< an expected value was given
    bool ok = true;
    double maxAbsErr = 0, maxRelErr = 0;
    double maxAbsExpected = 0;    ///< max |want|: is the reference degenerate?
    int64_t mismatches = 0;
};

struct ModelRunReport {
    bool ok = false;
    double latencyMs = 0;             ///< median of the timed runs
    std::vector<double> runsMs;
    int threads = 0;
    std::vector<OutputReport> outputs;
    std::vector<runtime::NDArray> values; ///< copies of the outputs
    std::vector<KernelProfile> profile;   ///< with ModelRunOptions::profile, in step order
    std::string error;                ///< why ok is false
};

/// Runs `model` once (and `repeat` timed times) and compares each output i
/// with expected[i] when given (an undefined NDArray skips output i).
/// Inputs not given (an undefined NDArray, or beyond inputs.size()) are
/// seeded random values in [0, 1). A wrong input type or shape is a
/// CompileError naming the input.
ModelRunReport runModel(const CompiledModel& model, const std::vector<runtime::NDArray>& inputs,
                        const std::vector<runtime::NDArray>& expected, const ModelRunOptions& options = {});

/// What a model runner takes of `model` (which must outlive it): the plan,
/// the weights, the module, and the export for model.target.
runtime::ModelPackage packageOf(const CompiledModel& model);

/// A runtime tensor holding a copy of a graph constant (a TensorProto read from a file).
runtime::NDArray toNDArray(const graph::Constant& c);

} // namespace tessel::driver
