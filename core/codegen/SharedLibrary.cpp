#include "codegen/SharedLibrary.h"

#include "codegen/LLVMTarget.h"
#include "ir/Diagnostic.h"

#include <lld/Common/CommonLinkerContext.h>
#include <lld/Common/Driver.h>
#include <llvm/Support/raw_ostream.h>

#include <filesystem>
#include <fstream>
#include <mutex>

namespace tessel::codegen {

void linkSharedLibrary(const std::vector<char>& object, const std::string& outPath) {
    // LLD keeps global state per link (and resets LLVM's options after one):
    // one link at a time, and never while a PassBuilder reads those options.
    std::lock_guard<std::mutex> lock(detail::llvmOptionsMutex());
    const std::string objPath = outPath + ".o";
    {
        std::ofstream out(objPath, std::ios::binary);
        out.write(object.data(), static_cast<std::streamsize>(object.size()));
        if (!out) throw CompileError("cannot write '" + objPath + "'");
    }
    std::string log;
    llvm::raw_string_ostream os(log);
    std::vector<const char*> args = {"ld.lld", "-shared", "--hash-style=gnu", "-o", outPath.c_str(), objPath.c_str()};
    bool ok = lld::elf::link(args, os, os, /*exitEarly=*/false, /*disableOutput=*/false);
    lld::CommonLinkerContext::destroy();
    std::error_code ec;
    std::filesystem::remove(objPath, ec);
    if (!ok) throw CompileError("linking '" + outPath + "' failed: " + os.str());
}

} // namespace tessel::codegen
