/// \file
/// The strategy registry: every OpStrategy record (Strategy.h) a compile may
/// choose from, in registration order. driver::Context owns one, filled by
/// registerStrategies() (the built-in records, file by file, with no static
/// self-registration); plugins and tests add records to a context's registry
/// at run time, and a compile made with that context chooses among them like
/// among the built-in ones.
#pragma once

#include "lower/Strategy.h"

#include <deque>
#include <string_view>
#include <vector>

namespace tessel::lower {

class StrategyRegistry {
public:
    using const_iterator = std::deque<OpStrategy>::const_iterator;

    StrategyRegistry() = default;
    StrategyRegistry(const StrategyRegistry&) = delete;
    StrategyRegistry& operator=(const StrategyRegistry&) = delete;
    StrategyRegistry(StrategyRegistry&&) = default;
    StrategyRegistry& operator=(StrategyRegistry&&) = default;

    /// Adds `record` after those already there (records never move: pointers
    /// stay valid). Throws CompileError for a record without an operator or a
    /// compute function, or whose operator already has a record of that name.
    const OpStrategy& add(OpStrategy record);
    /// The records of `op` that serve `target`, highest priority first
    /// (registration order among equal priorities).
    std::vector<const OpStrategy*> forOp(std::string_view op, TargetKind target = TargetKind::LLVM) const;
    /// The record of `op` called `name` (OpStrategy::id()), or null.
    const OpStrategy* find(std::string_view op, std::string_view name) const;
    /// Whether any record computes `op` (for any target).
    bool hasOp(std::string_view op) const;

    const_iterator begin() const { return records_.begin(); }
    const_iterator end() const { return records_.end(); }
    size_t size() const { return records_.size(); }

private:
    std::deque<OpStrategy> records_;
};

/// Adds every built-in record to `registry`.
void registerStrategies(StrategyRegistry& registry);

/// The built-in records, registered once: what a compile without a
/// driver::Context (a test, a TE script) uses.
const StrategyRegistry& defaultStrategies();

/// The first record of `op` for the CPU by priority in the default registry,
/// or null when the operator library has no compute for it (then the
/// operator can only be folded away).
const OpStrategy* findStrategy(std::string_view op);

} // namespace tessel::lower
