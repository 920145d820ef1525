/// \file
/// Reference outputs for measurements, computed once and kept: the default
/// schedule of a computation, built with the reference builder and run once,
/// untimed, on the reference runner (this machine for a remote device), then
/// kept in a runtime::ReferenceStore under the computation's key and the
/// inputs' seed. driver::runAndCheck (the editor, the lesson, `tesselc run`)
/// and tune::Measurer (the tuner) both get their references here, and check
/// against them with runtime::checkOutputs.
#pragma once

#include "codegen/Builder.h"
#include "runtime/ReferenceStore.h"
#include "runtime/Runner.h"

#include <functional>
#include <string>
#include <vector>

namespace tessel::tune {

struct ReferenceOutputs {
    /// Found in the store, or computed and stored.
    std::vector<runtime::NDArray> outputs;
    /// Why there are none: the reference did not build (build), or failed
    /// or was cancelled when it ran.
    runtime::MeasureError error = runtime::MeasureError::None;
    std::string message;
    /// Computed now (not found in the store).
    bool computed = false;

    bool ok() const { return error == runtime::MeasureError::None; }
};

/// The outputs of the reference of `key` on inputs seeded with
/// `request.seed`: from `store` (may be null: always computed), or `job()`
/// built with `builder` and run untimed on `runner` with `request`'s
/// threads, time limit and cancel, then stored. `job` may throw (a
/// CompileError): that is a build error.
ReferenceOutputs referenceOutputs(runtime::ReferenceStore* store, const std::string& key,
                                  const runtime::RunRequest& request, const std::function<codegen::BuildJob()>& job,
                                  codegen::Builder& builder, runtime::Runner& runner);

} // namespace tessel::tune
