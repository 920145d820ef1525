/// \file
/// Options of passes, shared by every IR's pass registry (TIR, graph): the
/// option records, option values as text, MLIR-style pipeline entries
/// (`unroll-loop{max-steps=16}`) and typed readers that give CompileError for
/// bad text.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tessel {

/// Option values for one run of a pass, by option name, as text (what a
/// command-line flag or the IDE gives). Options not named take their default.
using PassOptionValues = std::map<std::string, std::string>;

/// One option of a pass: kebab-case name, default value as text, help line.
struct PassOption {
    std::string name;
    std::string defaultValue;
    std::string help;
};

/// The option called `name` in `options`, or null.
const PassOption* findPassOption(const std::vector<PassOption>& options, const std::string& name);

/// A pipeline entry: a pass name with optional options, written as in MLIR:
/// `unroll-loop{max-steps=16,auto-max-step=4}`.
struct PassSpec {
    std::string name;
    PassOptionValues options;
};
/// Parses a pipeline entry; CompileError on malformed text.
PassSpec parsePassSpec(const std::string& text);

/// Throws CompileError when `values` names an option the pass does not have.
/// `what` names the pass in the message ("pass unroll-loop", "graph pass fuse-ops").
void checkPassOptions(const std::string& what, const std::vector<PassOption>& options,
                      const PassOptionValues& values);

/// The value of option `name` in `values`, or `fallback` when absent;
/// CompileError when the text is not an integer (or a bool: true/false/1/0/on/off).
int64_t passOptionInt(const PassOptionValues& values, const std::string& name, int64_t fallback);
bool passOptionBool(const PassOptionValues& values, const std::string& name, bool fallback);

} // namespace tessel
