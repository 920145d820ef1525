// libFuzzer target: the TE script language (te/script/Script.h), from the
// text to lowered TIR, as driver::lowerScript runs a script for `tesselc
// lower` and the schedule editor, without LLVM.
//
// The input is a script. It runs with topi's script module installed (what
// the driver adds: a CPU with 8 float32 lanes and 16 vector registers), and
// every function it builds is lowered: te::scheduleToPrimFunc, then the
// default TIR pipeline (the GPU pipeline and tir::verifyGpuCode for a build
// whose target= is "cuda ..."), the TIR printed and linked back to the
// script's lines (LoweredFunction::linkScript), and the schedule printed
// back as a script (te/script/ScriptPrinter.h). A CompileError is the
// expected answer to bad input. Anything else (another exception, an
// InternalError included, escaping; a crash; a sanitizer report; an
// allocation over -malloc_limit_mb; a hang) is a bug. With TESSEL_FUZZ_VERBOSE
// set, the error an input gave is printed (to look at one input).
#include "ir/Diagnostic.h"
#include "te/Lower.h"
#include "te/ScriptLines.h"
#include "te/script/Script.h"
#include "te/script/ScriptPrinter.h"
#include "tir/IRPrinter.h"
#include "tir/passes/PassManager.h"
#include "tir/passes/Pipeline.h"
#include "tir/passes/VerifyGPUCode.h"
#include "topi/script/ScriptModule.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>

using namespace tessel;

namespace {

void lower(const te::script::BuildRequest& b) {
    const bool gpu = b.target.rfind("cuda", 0) == 0;
    auto record = std::make_shared<te::LoweringRecord>();
    tir::PrimFunc scheduled = te::scheduleToPrimFunc(b.schedule, b.args, b.name, record.get());
    tir::PassManager pm;
    tir::PrimFunc lowered = pm.run(scheduled, gpu ? tir::gpuTirPipeline() : tir::defaultTirPipeline());
    if (gpu) (void)tir::verifyGpuCode(lowered);
    const AnnotatedText text = tir::printPrimFunc(lowered);
    if (b.schedule.hasSources()) (void)te::ScriptLineTable::build(text, lowered, *record);
    try {
        (void)te::script::printScript(b.schedule, b.args, b.name);
    } catch (const CompileError&) {
        // What the printer cannot say (symbolic shapes ...): the build still lowered.
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view source(reinterpret_cast<const char*>(data), size);
    te::script::ScriptOptions options;
    options.fileName = "fuzz.te";
    topi::ScheduleOptions defaults;
    defaults.vectorLanes = 8;
    defaults.vectorRegisters = 16;
    options.modules.push_back(topi::script::scriptModule(defaults));
    try {
        const te::script::ScriptResult r = te::script::runScript(source, options);
        for (const auto& b : r.builds)
            lower(b);
    } catch (const CompileError& e) {
        if (std::getenv("TESSEL_FUZZ_VERBOSE")) std::fprintf(stderr, "%s\n", e.what());
    }
    return 0;
}
