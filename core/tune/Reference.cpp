#include "tune/Reference.h"

namespace tessel::tune {

ReferenceOutputs referenceOutputs(runtime::ReferenceStore* store, const std::string& key,
                                  const runtime::RunRequest& request, const std::function<codegen::BuildJob()>& job,
                                  codegen::Builder& builder, runtime::Runner& runner) {
    ReferenceOutputs r;
    if (store)
        if (auto found = store->find(key, request.seed)) {
            r.outputs = std::move(*found);
            return r;
        }
    r.computed = true;
    runtime::BuildArtifact artifact;
    try {
        artifact = builder.build(job());
    } catch (const std::exception& e) {
        r.error = runtime::MeasureError::Build;
        r.message = std::string("the reference schedule failed to build: ") + e.what();
        return r;
    }
    runtime::RunRequest once = request;
    once.untimed = true;
    once.fetchOutputs = true;
    runtime::RunResult run = runner.run(artifact, once);
    if (!run.ok) {
        r.error = run.error;
        r.message = run.error == runtime::MeasureError::Cancelled ? run.message
                                                                  : "the reference schedule failed: " + run.message;
        return r;
    }
    r.outputs = std::move(run.outputs);
    if (store) store->store(key, request.seed, r.outputs);
    return r;
}

} // namespace tessel::tune
