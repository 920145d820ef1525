// build() and emitObject(): generate the module (CodeGenLLVM.cpp), run the
// new pass manager's O3 pipeline, print IR and assembly with their line maps,
// and JIT for the host with ORC LLJIT.
#include "codegen/CodeGenLLVM.h"
#include "codegen/IdenticalFunctions.h"

#include "codegen/LLVMTarget.h"
#include "ir/Diagnostic.h"
#include "runtime/ParallelABI.h"
#include "tir/IRPrinter.h"

#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/GlobalAlias.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassInstrumentation.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <map>
#include <mutex>
#include <set>
#include <sstream>

namespace llvm {
/// LLVM's -print-pipeline-passes (lib/Passes/PassBuilder.cpp), declared as
/// clang and flang declare it; see optimize() below.
extern cl::opt<bool> PrintPipelinePasses;
} // namespace llvm

namespace tessel::codegen {

namespace {

using detail::TirSource;

std::string errorText(llvm::Error err) {
    return llvm::toString(std::move(err));
}

/// The printed TIR of every function, joined into one "file".
struct TirFile {
    std::vector<AnnotatedText> texts;
    std::string joined;
    std::vector<int> firstLine;
    TirSource source;
};

TirFile printTir(const std::vector<tir::PrimFunc>& funcs) {
    if (funcs.empty()) throw CompileError("codegen: no functions to build");
    TirFile f;
    std::set<std::string> names;
    f.texts.reserve(funcs.size());
    int line = 1;
    for (size_t i = 0; i < funcs.size(); ++i) {
        if (!funcs[i].defined())
            throw CompileError("codegen: function " + std::to_string(i) + " is undefined");
        if (!names.insert(funcs[i]->name).second)
            throw CompileError("codegen: two functions are called '" + funcs[i]->name + "'");
        f.texts.push_back(tir::printPrimFunc(funcs[i]));
        if (i) {
            f.joined += "\n";
            ++line;
        }
        f.firstLine.push_back(line);
        f.joined += f.texts.back().text;
        line += static_cast<int>(f.texts.back().lineNode.size());
    }
    f.source.fileName = funcs[0]->name + ".tir";
    for (size_t i = 0; i < funcs.size(); ++i) {
        f.source.texts.push_back(&f.texts[i]);
        f.source.lineOffset.push_back(f.firstLine[i] - 1);
    }
    return f;
}

std::string printModule(const llvm::Module& m) {
    std::string s;
    llvm::raw_string_ostream os(s);
    m.print(os, nullptr);
    return os.str();
}

/// The O3 pipeline with O2's unroll thresholds. LLVM 16 takes the threshold
/// from the unroll passes' optimisation level (or a process-wide option), not
/// from PipelineTuningOptions, so the O3 pipeline is printed, its
/// `loop-unroll<O3>` made `loop-unroll<O2>`, and the text parsed back; the
/// printed `loop-unroll-full` carries no level and parses as O2's.
llvm::ModulePassManager interactivePipeline(llvm::PassBuilder& pb,
                                            llvm::PassInstrumentationCallbacks& pic) {
    llvm::ModulePassManager o3 = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
    std::string text;
    llvm::raw_string_ostream os(text);
    o3.printPipeline(os, [&](llvm::StringRef className) {
        llvm::StringRef name = pic.getPassNameForClassName(className);
        return name.empty() ? className : name;
    });
    os.flush();
    int rewritten = 0;
    for (const std::string pass : {"loop-unroll<", "loop-unroll-full<"}) {
        for (size_t at = text.find(pass); at != std::string::npos; at = text.find(pass, at + 1)) {
            size_t close = text.find('>', at);
            size_t level = text.find("O3", at);
            if (close == std::string::npos || level == std::string::npos || level > close) continue;
            text[level + 1] = '2';
            ++rewritten;
        }
    }
    llvm::ModulePassManager mpm;
    if (rewritten == 0)
        throw CompileError("internal error: no loop-unroll<O3> in LLVM's O3 pipeline: " + text);
    if (llvm::Error err = pb.parsePassPipeline(mpm, text))
        throw CompileError("internal error: LLVM cannot parse its own O3 pipeline: " +
                           errorText(std::move(err)));
    return mpm;
}

void optimize(llvm::Module& m, llvm::TargetMachine& tm, int level, CompileMode mode) {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PipelineTuningOptions pto;
    pto.LoopVectorization = level >= 2;
    pto.SLPVectorization = level >= 2;
    pto.LoopUnrolling = level >= 1;
    // NVPTX's O3 pipeline holds passes its target machine adds (NVVMReflect)
    // that the pipeline parser does not know: GPU kernels get LLVM's own O3.
    bool interactive = level >= 3 && mode == CompileMode::Interactive && !tm.getTargetTriple().isNVPTX();
    // Pass names for printing the pipeline (only then: Batch stays LLVM's own).
    // A PassBuilder fills the callbacks' class name -> pass name table, which
    // printPipeline() needs to print a pipeline that parses back, only under
    // -print-pipeline-passes (LLVM 16 reads the flag only in its tools; it
    // changes no code). LLD resets every LLVM option after a link, so the flag
    // is set under the lock links take, right before the PassBuilder is made.
    llvm::PassInstrumentationCallbacks pic;
    std::unique_lock lock(detail::llvmOptionsMutex(), std::defer_lock);
    if (interactive) {
        lock.lock();
        llvm::PrintPipelinePasses = true;
    }
    llvm::PassBuilder pb(&tm, pto, std::nullopt, interactive ? &pic : nullptr);
    if (lock.owns_lock()) lock.unlock();
    // The target's cost model (vector widths, FMA ...) and its C library.
    fam.registerPass([&] { return tm.getTargetIRAnalysis(); });
    llvm::TargetLibraryInfoImpl tlii(llvm::Triple(m.getTargetTriple()));
    fam.registerPass([&] { return llvm::TargetLibraryAnalysis(tlii); });
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm;
    if (level <= 0)
        mpm = pb.buildO0DefaultPipeline(llvm::OptimizationLevel::O0);
    else if (interactive)
        mpm = interactivePipeline(pb, pic);
    else
        mpm = pb.buildPerModuleDefaultPipeline(level == 1   ? llvm::OptimizationLevel::O1
                                               : level == 2 ? llvm::OptimizationLevel::O2
                                                            : llvm::OptimizationLevel::O3);
    mpm.run(m, mam);
}

/// Runs the code generator on a copy of `m` (codegen passes change the IR).
/// Always a copy, even of a module nothing needs after: instruction selection
/// and register allocation follow the order of use lists, which the copy makes
/// the same for a module built here, kept (assemblyOf) or parsed from its
/// printed IR (assemblyOfIR); without it the parsed one's registers differ.
std::string emitMachineCode(const llvm::Module& m, llvm::TargetMachine& tm,
                            llvm::CodeGenFileType type) {
    std::unique_ptr<llvm::Module> copy = llvm::CloneModule(m);
    llvm::SmallVector<char, 0> buffer;
    llvm::raw_svector_ostream os(buffer);
    llvm::legacy::PassManager pm;
    if (tm.addPassesToEmitFile(pm, os, nullptr, type))
        throw CompileError("LLVM cannot emit " +
                           std::string(type == llvm::CGFT_ObjectFile ? "objects" : "assembly") +
                           " for " + tm.getTargetTriple().str());
    pm.run(*copy);
    return std::string(buffer.begin(), buffer.end());
}

/// Drops the `.debug_*` sections (DWARF tables) from an assembly text.
std::string stripDebugSections(const std::string& text) {
    std::istringstream in(text);
    std::string out, line;
    bool inDebug = false;
    while (std::getline(in, line)) {
        size_t b = line.find_first_not_of(" \t");
        std::string_view t =
            b == std::string::npos ? std::string_view() : std::string_view(line).substr(b);
        if (t.starts_with(".section"))
            inDebug = t.find(".debug_") != std::string_view::npos;
        else if (t.starts_with(".text") || t.starts_with(".data") || t.starts_with(".bss") ||
                 t.starts_with(".previous") || t.starts_with(".popsection"))
            inDebug = false;
        // PTX: without its DWARF sections the module must not claim them
        // (ptxas: "Debug information not found"); the .loc lines stay, as
        // nvcc -lineinfo writes them.
        if (t.starts_with(".target") && line.ends_with(", debug")) line.resize(line.size() - 7);
        if (!inDebug) {
            out += line;
            out += '\n';
        }
    }
    return out;
}

/// A module of JIT-compiled kernels; keeps the LLJIT (and so the code) alive.
class JitModule : public runtime::CpuModule {
public:
    JitModule(std::unique_ptr<llvm::orc::LLJIT> jit,
              std::map<std::string, runtime::KernelFunction> fns)
        : jit_(std::move(jit)), functions_(std::move(fns)) {}

    runtime::KernelFunction function(const std::string& name) const override {
        auto it = functions_.find(name);
        return it == functions_.end() ? nullptr : it->second;
    }

    std::vector<std::string> functionNames() const override {
        std::vector<std::string> names;
        for (auto& [n, f] : functions_)
            names.push_back(n);
        return names;
    }

private:
    std::unique_ptr<llvm::orc::LLJIT> jit_;
    std::map<std::string, runtime::KernelFunction> functions_;
};

std::vector<std::string> splitFeatures(const std::string& features) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : features) {
        if (c == ',') {
            if (!cur.empty()) out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

runtime::CpuModulePtr makeJit(std::unique_ptr<llvm::Module> module,
                           std::unique_ptr<llvm::LLVMContext> ctx,
                           const std::vector<tir::PrimFunc>& funcs, const Target& target,
                           int optLevel) {
    llvm::orc::JITTargetMachineBuilder jtmb{llvm::Triple(target.triple)};
    jtmb.setCPU(target.cpu);
    jtmb.addFeatures(splitFeatures(target.features));
    jtmb.setCodeGenOptLevel(optLevel <= 0   ? llvm::CodeGenOpt::None
                            : optLevel == 1 ? llvm::CodeGenOpt::Less
                            : optLevel == 2 ? llvm::CodeGenOpt::Default
                                            : llvm::CodeGenOpt::Aggressive);
    auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(jtmb)).create();
    if (!jit) throw CompileError("cannot start the JIT: " + errorText(jit.takeError()));
    llvm::orc::LLJIT& j = **jit;
    llvm::orc::JITDylib& jd = j.getMainJITDylib();
    // Core never prints: failures come back from lookup() and become CompileErrors.
    j.getExecutionSession().setErrorReporter(
        [](llvm::Error err) { llvm::consumeError(std::move(err)); });

    // The runtime's thread pool, by address (no reliance on -rdynamic) ...
    llvm::orc::SymbolMap runtimeSymbols;
    auto flags = llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable;
    runtimeSymbols[j.mangleAndIntern("TesselParallelLaunch")] =
        llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(&TesselParallelLaunch), flags);
    runtimeSymbols[j.mangleAndIntern("TesselParallelNumThreads")] =
        llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(&TesselParallelNumThreads), flags);
    runtimeSymbols[j.mangleAndIntern("TesselWorkspaceAlloc")] =
        llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(&TesselWorkspaceAlloc), flags);
    runtimeSymbols[j.mangleAndIntern("TesselWorkspaceFree")] =
        llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(&TesselWorkspaceFree), flags);
    if (auto err = jd.define(llvm::orc::absoluteSymbols(std::move(runtimeSymbols))))
        throw CompileError("cannot define runtime symbols in the JIT: " +
                           errorText(std::move(err)));
    // ... and libm/libc (expf, tanhf, aligned_alloc ...) from this process.
    auto gen = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
        j.getDataLayout().getGlobalPrefix());
    if (!gen)
        throw CompileError("cannot search this process's symbols: " + errorText(gen.takeError()));
    jd.addGenerator(std::move(*gen));

    if (auto err = j.addIRModule(llvm::orc::ThreadSafeModule(std::move(module), std::move(ctx))))
        throw CompileError("the JIT rejected the module: " + errorText(std::move(err)));
    std::map<std::string, runtime::KernelFunction> fns;
    for (auto& f : funcs) {
        auto addr = j.lookup(f->name);
        if (!addr)
            throw CompileError("JIT compilation of '" + f->name +
                               "' failed: " + errorText(addr.takeError()));
        fns[f->name] = addr->toPtr<runtime::KernelFunction>();
    }
    return std::make_shared<JitModule>(std::move(*jit), std::move(fns));
}

/// The assembly text and its line map of `m`.
AssemblyText assemblyFrom(const llvm::Module& m, llvm::TargetMachine& tm, const BuildOptions& options) {
    AssemblyText r;
    r.assembly = emitMachineCode(m, tm, llvm::CGFT_AssemblyFile);
    if (options.stripDebugSections) r.assembly = stripDebugSections(r.assembly);
    if (options.debugInfo) r.lines = LineMap::fromAssembly(r.assembly);
    return r;
}

} // namespace

namespace {

/// The LLVM module of `funcs`: each distinct function once when the build
/// has no debug lines to keep per function (IdenticalFunctions.h), the
/// others as aliases of its entry point; every function otherwise.
std::unique_ptr<llvm::Module> emitModule(llvm::LLVMContext& ctx, const std::vector<tir::PrimFunc>& funcs,
                                         const Target& target, llvm::TargetMachine& tm, const BuildOptions& options,
                                         const TirFile& tir) {
    if (options.debugInfo || target.isGPU() || funcs.size() < 2)
        return detail::emitLLVMModule(ctx, funcs, target, tm, options.debugInfo, tir.source);
    std::vector<std::string> printed;
    for (auto& t : tir.texts) printed.push_back(t.text);
    const std::vector<size_t> first = identicalFunctions(funcs, printed);
    std::vector<tir::PrimFunc> distinct;
    detail::TirSource source;
    source.fileName = tir.source.fileName;
    for (size_t i = 0; i < funcs.size(); ++i) {
        if (first[i] != i) continue;
        distinct.push_back(funcs[i]);
        source.texts.push_back(tir.source.texts[i]);
        source.lineOffset.push_back(tir.source.lineOffset[i]);
    }
    std::unique_ptr<llvm::Module> module = detail::emitLLVMModule(ctx, distinct, target, tm, false, source);
    for (size_t i = 0; i < funcs.size(); ++i) {
        if (first[i] == i) continue;
        llvm::Function* entry = module->getFunction(funcs[first[i]]->name);
        if (!entry) throw CompileError("codegen: no entry point '" + funcs[first[i]]->name + "' to alias");
        llvm::GlobalAlias::create(entry->getValueType(), entry->getAddressSpace(), llvm::GlobalValue::ExternalLinkage,
                                  funcs[i]->name, entry, module.get());
    }
    return module;
}

} // namespace

struct OptimizedModule {
    std::mutex mutex;
    // Declared in this order so that the module goes before its context.
    std::unique_ptr<llvm::LLVMContext> context;
    std::unique_ptr<llvm::TargetMachine> tm;
    std::unique_ptr<llvm::Module> module; ///< null once assemblyOf() took it
};

BuildResult build(const std::vector<tir::PrimFunc>& funcs, const Target& target,
                  const BuildOptions& options) {
    detail::initializeLLVM();
    TirFile tir = printTir(funcs);
    std::unique_ptr<llvm::TargetMachine> tm = detail::createTargetMachine(target, options.optLevel);
    auto ctx = std::make_unique<llvm::LLVMContext>();
    std::unique_ptr<llvm::Module> module = emitModule(*ctx, funcs, target, *tm, options, tir);

    BuildResult r;
    r.tir = tir.joined;
    r.tirFirstLine = tir.firstLine;
    r.llvmIR = printModule(*module);
    optimize(*module, *tm, options.optLevel, options.mode);
    r.llvmIROptimized = printModule(*module);
    const bool jit = options.jit && isHostTarget(target);
    if (options.emitAssembly) {
        r.assembly = emitMachineCode(*module, *tm, llvm::CGFT_AssemblyFile);
        if (options.stripDebugSections) r.assembly = stripDebugSections(r.assembly);
    }
    if (options.debugInfo) {
        r.llvmIRLines = LineMap::fromLLVMIR(r.llvmIR);
        r.llvmIROptimizedLines = LineMap::fromLLVMIR(r.llvmIROptimized);
        if (options.emitAssembly) r.assemblyLines = LineMap::fromAssembly(r.assembly);
    }
    if (jit) {
        r.module = makeJit(std::move(module), std::move(ctx), funcs, target, options.optLevel);
    } else if (options.keepOptimized && !options.emitAssembly) {
        r.optimized = std::make_shared<OptimizedModule>();
        r.optimized->context = std::move(ctx);
        r.optimized->tm = std::move(tm);
        r.optimized->module = std::move(module);
    }
    return r;
}

AssemblyText assemblyOfIR(const std::string& optimizedIR, const Target& target, const BuildOptions& options) {
    detail::initializeLLVM();
    std::unique_ptr<llvm::TargetMachine> tm = detail::createTargetMachine(target, options.optLevel);
    llvm::LLVMContext ctx;
    llvm::SMDiagnostic error;
    std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(optimizedIR, error, ctx);
    if (!module) throw CompileError("LLVM cannot read the optimised IR: " + error.getMessage().str());
    return assemblyFrom(*module, *tm, options);
}

AssemblyText assemblyOf(const BuildResult& r, const Target& target, const BuildOptions& options) {
    if (r.optimized) {
        // Taken whole and freed here, whatever happens: used once, and its
        // context is as large as the module.
        OptimizedModule kept;
        {
            std::lock_guard lock(r.optimized->mutex);
            kept.context = std::move(r.optimized->context);
            kept.tm = std::move(r.optimized->tm);
            kept.module = std::move(r.optimized->module);
        }
        if (kept.module) return assemblyFrom(*kept.module, *kept.tm, options);
    }
    return assemblyOfIR(r.llvmIROptimized, target, options);
}

std::vector<char> emitObject(const std::vector<tir::PrimFunc>& funcs, const Target& target,
                             const BuildOptions& options) {
    detail::initializeLLVM();
    TirFile tir = printTir(funcs);
    std::unique_ptr<llvm::TargetMachine> tm = detail::createTargetMachine(target, options.optLevel);
    llvm::LLVMContext ctx;
    std::unique_ptr<llvm::Module> module = emitModule(ctx, funcs, target, *tm, options, tir);
    optimize(*module, *tm, options.optLevel, options.mode);
    std::string obj = emitMachineCode(*module, *tm, llvm::CGFT_ObjectFile);
    return std::vector<char>(obj.begin(), obj.end());
}

} // namespace tessel::codegen
