/// \file
/// Diagnostics: what core says to a user about their input, as plain values.
///
/// Core never prints and never aborts on user error; it returns or throws a
/// Diagnostic that the CLI prints and the IDE shows inline.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace tessel {

/// A 1-based line and column in some source text; 0 means unknown.
struct SourceLoc {
    int line = 0;
    int column = 0;
    bool known() const { return line > 0; }
};

struct Diagnostic {
    enum class Severity { Error, Warning, Note };
    Severity severity = Severity::Error;
    std::string message;
    SourceLoc loc;

    /// "3:14: error: message" (or without the location when unknown).
    std::string str() const;
};

/// Thrown by core for errors a user can cause (bad scripts, illegal schedules).
class CompileError : public std::runtime_error {
public:
    explicit CompileError(std::string message, SourceLoc loc = {})
        : std::runtime_error(message), diag_{Diagnostic::Severity::Error, std::move(message), loc} {}
    explicit CompileError(Diagnostic d) : std::runtime_error(d.message), diag_(std::move(d)) {}
    const Diagnostic& diagnostic() const { return diag_; }

private:
    Diagnostic diag_;
};

} // namespace tessel
