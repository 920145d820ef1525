#include "ir/Diagnostic.h"

namespace tessel {

std::string Diagnostic::str() const {
    const char* sev = severity == Severity::Error ? "error" : severity == Severity::Warning ? "warning" : "note";
    std::string s;
    if (loc.known()) s = std::to_string(loc.line) + ":" + std::to_string(loc.column) + ": ";
    return s + sev + ": " + message;
}

} // namespace tessel

#include "ir/Check.h"

namespace tessel {

void failCheck(const char* cond, const char* file, int line, const std::string& msg) {
    throw InternalError(std::string("internal error: ") + msg + " (" + cond + " at " + file + ":" +
                        std::to_string(line) + ")");
}

} // namespace tessel
